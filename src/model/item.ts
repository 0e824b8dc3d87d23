/**
 * Item: a product or service the business buys or sells. Not shown in the
 * spec; purchase and sale details are split like the platforms do.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  SubsidiaryRefSchema,
  UpdatedAtProperty,
} from './shared.ts';

export const ITEM_TYPES = ['inventory', 'non_inventory', 'service', 'unknown'] as const;
export const ITEM_STATUSES = ['active', 'archived', 'unknown'] as const;

function itemSide(side: 'purchase' | 'sale') {
  const doc = side === 'purchase' ? 'bills' : 'invoices';
  return Type.Object(
    {
      unit_price: Nullable(Type.Number({ description: `Default unit price on ${doc}.` }), `Default unit price on ${doc}; null when not set.`),
      account_id: Nullable(Str(`Service id of the default account on ${doc}.`), `Service id of the account the item posts to on ${doc}.`),
      tax_rate_id: Nullable(Str(`Service id of the default tax rate on ${doc}.`), `Service id of the default tax rate on ${doc}.`),
      description: Nullable(Str(`Default line description on ${doc}.`), `Default line description on ${doc}.`),
    },
    { additionalProperties: false, description: `How the item appears on ${doc}.` },
  );
}

export const ItemBillDetailsSchema = itemSide('purchase');
export const ItemInvoiceDetailsSchema = itemSide('sale');

export const ItemSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Nullable(Str('Name of the item.'), 'Name of the item.'),
    code: Nullable(Str('Code or SKU of the item.'), 'Code or SKU of the item.'),
    type: StringEnum(ITEM_TYPES, 'Kind of item.'),
    status: StringEnum(ITEM_STATUSES, 'Status of the item.'),
    quantity_on_hand: Nullable(Type.Number({ description: 'Quantity in stock.' }), 'Quantity in stock; null for items not tracked as inventory.'),
    asset_account_id: Nullable(
      Str('Service id of the inventory asset account.'),
      'Service id of the inventory asset account; null for items not tracked as inventory.',
    ),
    bill_item: Nullable(ItemBillDetailsSchema, 'Purchase details; null when the item is not bought.'),
    invoice_item: Nullable(ItemInvoiceDetailsSchema, 'Sale details; null when the item is not sold.'),
    subsidiaries: Type.Array(SubsidiaryRefSchema, { description: 'Subsidiaries the item is available in.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A product or service the business buys or sells.' },
);

export type Item = Static<typeof ItemSchema>;

/**
 * Purchase order: goods or services the business ordered from a vendor. Not
 * shown in the spec; designed after the bill, which it precedes.
 */
import { Type, type Static } from 'typebox';
import {
  AdditionalFieldsProperty,
  AddressSchema,
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  IdRefSchema,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  StandardLineItemSchema,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** The reference's enum (2024-08-31): pending_bill is received in full and waiting for its bill. */
export const PURCHASE_ORDER_STATUSES = ['open', 'draft', 'closed', 'pending_bill', 'unknown'] as const;

export const PurchaseOrderSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor the order was placed with.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the order belongs to.'),
    issue_date: Timestamp('When the order was issued (ISO 8601).'),
    delivery_date: Nullable(Timestamp('Expected delivery date.'), 'Expected delivery date (ISO 8601).'),
    document_number: Nullable(Str('Vendor-facing number of the order.'), 'Vendor-facing number of the order.'),
    status: StringEnum(PURCHASE_ORDER_STATUSES, 'Status of the purchase order.'),
    currency_code: CurrencyCodeEnum('Currency of the order.'),
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the order currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    memo: Nullable(Str('Memo of the order.'), 'Memo of the order.'),
    sub_total: Nullable(Type.Number({ description: 'Amount before tax.' }), 'Amount of the order before tax.'),
    tax_amount: Nullable(Type.Number({ description: 'Tax amount.' }), 'Tax amount of the order.'),
    total_discount: Nullable(Type.Number({ description: 'Total discount.' }), 'Total discount of the order.'),
    total_amount: Type.Number({ description: 'Total amount of the order.' }),
    total_quantity: Nullable(
      Type.Number({ description: 'Total quantity ordered.' }),
      'Sum of the quantities of the item lines; null when no line orders an item.',
    ),
    shipping_address: Nullable(AddressSchema, 'Address the goods are delivered to; null when not given.'),
    linked_bills: Type.Array(IdRefSchema, { description: 'Bills raised against the order.' }),
    line_items: Type.Array(StandardLineItemSchema, { description: 'Lines of the order.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An order for goods or services placed by the business with a vendor.' },
);

export type PurchaseOrder = Static<typeof PurchaseOrderSchema>;

/** total_quantity: the sum of the item lines' quantities, null when no line has an item. */
export function totalQuantity(lines: readonly { item: { quantity: number } | null }[]): number | null {
  const quantities = lines.flatMap((line) => (line.item === null ? [] : [line.item.quantity]));
  // Quantities may be fractional (hours, kilograms): sum in integer millionths so 0.1 + 0.2 is 0.3.
  return quantities.length === 0 ? null : quantities.reduce((sum, q) => sum + Math.round(q * 1e6), 0) / 1e6;
}

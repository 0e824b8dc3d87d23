/**
 * Invoice credit memo: credit issued to a customer, applicable against
 * invoices. Not shown in the spec; designed as the mirror of the bill credit memo.
 */
import { Type, type Static } from 'typebox';
import { INVOICE_STATUSES } from './invoice.ts';
import {
  AllocationEntrySchema,
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
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

/**
 * The standard line with the reference's flat fields of a credit memo line (2024-08-31 keeps them there, where its
 * invoice line nests the item): the item's id, quantity and unit amount repeated, amount the line's total_amount.
 */
export const InvoiceCreditMemoLineItemSchema = Type.Object(
  {
    ...StandardLineItemSchema.properties,
    id: Nullable(
      Str('Service id of the line.'),
      'Service id of the line: null on every platform we serve, lines have no service id of their own (platform_id is their id on the platform).',
    ),
    item_id: Nullable(Str('Service id of the item.'), 'Service id of the item on the line (item.id); null for lines that post to an account only.'),
    quantity: Nullable(Type.Number({ description: 'Quantity of the item.' }), 'Quantity of the item (item.quantity); null without an item.'),
    unit_amount: Nullable(
      Type.Number({ description: 'Price of one unit.' }),
      'Price of one unit of the item (item.unit_amount); null without an item.',
    ),
    amount: Type.Number({ description: 'Amount of the line: its total_amount.' }),
  },
  { additionalProperties: false, description: 'Line of the credit memo.' },
);

export type InvoiceCreditMemoLineItem = Static<typeof InvoiceCreditMemoLineItemSchema>;
type StandardLineItem = Static<typeof StandardLineItemSchema>;
type FlatFields = Pick<InvoiceCreditMemoLineItem, 'id' | 'item_id' | 'quantity' | 'unit_amount' | 'amount'>;

/** The flat fields of a credit memo line, read from its item and total (also for lines stored before they existed). */
export function flatLineFields(line: Pick<StandardLineItem, 'item' | 'total_amount'>): FlatFields {
  return {
    id: null,
    item_id: line.item?.id ?? null,
    quantity: line.item?.quantity ?? null,
    unit_amount: line.item?.unit_amount ?? null,
    amount: line.total_amount,
  };
}

/** A standard line as a credit memo line, so every platform fills the flat fields alike. */
export function creditMemoLine(line: StandardLineItem): InvoiceCreditMemoLineItem {
  return { ...line, ...flatLineFields(line) };
}

export const InvoiceCreditMemoSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the account the credit posts to.'),
      'Service id of the account the credit posts to, normally the accounts receivable account.',
    ),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer the credit was issued to.'),
    allocated_at: Nullable(
      Timestamp('When the credit was last applied to an invoice (ISO 8601).'),
      "The reference's allocation date of the credit memo: the latest allocated_date of linked_invoices; null while it is applied to no invoice, or when the platform names its invoices elsewhere.",
    ),
    issue_date: Timestamp('When the credit memo was issued (ISO 8601).'),
    document_number: Str('Document number of the credit memo.'),
    remaining_amount: Type.Number({ description: 'Amount of the credit memo not yet applied to invoices.' }),
    status: StringEnum(INVOICE_STATUSES, 'Status of the credit memo (same values as invoice status).'),
    total_amount: Type.Number({ description: 'Total amount of the credit memo.' }),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the credit memo.'), 'Currency of the credit memo; null when the platform does not say.'),
    memo: Nullable(Str('Memo of the credit memo.'), 'Memo of the credit memo.'),
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the credit memo currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    linked_invoices: Type.Array(AllocationEntrySchema, { description: 'Invoices the credit was applied to.' }),
    line_items: Type.Array(InvoiceCreditMemoLineItemSchema, { description: 'Lines of the credit memo.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'Credit issued to a customer applicable against invoices; linked to one customer and zero or more invoices.',
  },
);

export type InvoiceCreditMemo = Static<typeof InvoiceCreditMemoSchema>;

/** allocated_at: the latest date the credit was applied to an invoice, null when it was applied to none. */
export function allocatedAt(linkedInvoices: readonly { allocated_date: string }[]): string | null {
  return linkedInvoices.reduce<string | null>(
    (latest, entry) => (latest === null || entry.allocated_date > latest ? entry.allocated_date : latest),
    null,
  );
}

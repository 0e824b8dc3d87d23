/** Bill: a vendor invoice the business must pay. */
import { Type, type Static } from 'typebox';
import {
  AdditionalFieldsProperty,
  AllocationEntrySchema,
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

/** Status values of bills and bill credit memos. */
export const BILL_STATUSES = ['open', 'partially_paid', 'paid', 'void', 'draft', 'unknown', 'pending_approval', 'rejected', 'submitted'] as const;

export const BillSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the accounts payable account credited.'),
      'Service id of the accounts payable account credited. On create, the default payable account is used when the platform needs one and none is given.',
    ),
    payment_terms_id: Nullable(Str('Service id of the payment terms.'), 'Service id of the payment terms of the bill.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the bill belongs to (two ERP platforms).'),
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor that issued the bill.'),
    due_date: Nullable(Timestamp('When the bill is due.'), 'When the bill is due (ISO 8601).'),
    issue_date: Timestamp('When the bill was issued (ISO 8601).'),
    amount_due: Type.Number({ description: 'Remainder of total_amount after bill payments and credit memos are applied.' }),
    currency_code: CurrencyCodeEnum('Currency of the bill.'),
    status: StringEnum(BILL_STATUSES, 'Status of the bill.'),
    total_amount: Type.Number({ description: 'Total amount of the bill.' }),
    document_number: Nullable(Str('Buyer-facing number of the bill.'), 'Buyer-facing number of the bill.'),
    memo: Nullable(Str('Memo of the bill.'), 'Memo of the bill.'),
    sub_total: Nullable(Type.Number({ description: 'Amount before tax.' }), 'Amount of the bill before tax.'),
    tax_amount: Nullable(Type.Number({ description: 'Tax amount.' }), 'Tax amount of the bill.'),
    total_discount: Nullable(Type.Number({ description: 'Total discount.' }), 'Total discount of the bill.'),
    // The spec marks it optional; the service always sends it (null when the platform has no rate).
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the bill currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    linked_purchase_orders: Type.Array(IdRefSchema, { description: 'Purchase orders the bill was raised against.' }),
    linked_credit_memos: Type.Array(AllocationEntrySchema, { description: 'Bill credit memos applied to the bill.' }),
    linked_payments: Type.Array(AllocationEntrySchema, { description: 'Bill payments applied to the bill.' }),
    line_items: Type.Array(StandardLineItemSchema, { description: 'Lines of the bill.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A vendor invoice the business must pay. Files attach through attachments.' },
);

export type Bill = Static<typeof BillSchema>;

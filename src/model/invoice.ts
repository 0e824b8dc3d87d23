/**
 * Invoice: a document the business issued that a customer must pay. Not shown
 * in the spec; designed as the mirror of the bill.
 */
import { Type, type Static } from 'typebox';
import { BILL_STATUSES } from './bill.ts';
import {
  AdditionalFieldsProperty,
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

/** Invoices and invoice credit memos use the bill status values. */
export const INVOICE_STATUSES = BILL_STATUSES;

/** The reference's line types: a line is shipping or an ordinary line (null). */
export const INVOICE_LINE_TYPES = ['shipping'] as const;

/**
 * The reference's kinds of an invoice's linked payment. Ours are always INVOICE_PAYMENT: credit memos applied to the
 * invoice are listed in linked_credit_memos.
 */
export const INVOICE_LINKED_PAYMENT_TYPES = ['INVOICE_PAYMENT', 'INVOICE_CREDIT_MEMO', 'JOURNAL_ENTRY', 'UNKNOWN'] as const;

/** The standard line with the reference's line type; read-only (the platform decides it, a write cannot set it). */
export const InvoiceLineItemSchema = Type.Object(
  {
    ...StandardLineItemSchema.properties,
    type: Nullable(StringEnum(INVOICE_LINE_TYPES, 'Kind of the line.'), {
      description: 'shipping for a line that charges shipping; null for any other line.',
      readOnly: true,
    }),
  },
  { additionalProperties: false, description: 'Line of the invoice.' },
);

export const InvoiceLinkedPaymentSchema = Type.Object(
  {
    ...AllocationEntrySchema.properties,
    type: StringEnum(INVOICE_LINKED_PAYMENT_TYPES, 'Kind of the linked payment: INVOICE_PAYMENT (an invoice payment) on every platform we serve.'),
  },
  { additionalProperties: false, description: 'Allocation of an invoice payment to the invoice.' },
);

export const InvoiceSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the accounts receivable account debited.'),
      'Service id of the accounts receivable account debited. On create, the default receivable account is used when the platform needs one and none is given.',
    ),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer the invoice was issued to.'),
    payment_terms_id: Nullable(Str('Service id of the payment terms.'), 'Service id of the payment terms of the invoice.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the invoice belongs to.'),
    due_date: Nullable(Timestamp('When the invoice is due.'), 'When the invoice is due (ISO 8601).'),
    issue_date: Timestamp('When the invoice was issued (ISO 8601).'),
    amount_due: Type.Number({ description: 'Remainder of total_amount after invoice payments and credit memos are applied.' }),
    currency_code: CurrencyCodeEnum('Currency of the invoice.'),
    status: StringEnum(INVOICE_STATUSES, 'Status of the invoice.'),
    total_amount: Type.Number({ description: 'Total amount of the invoice.' }),
    document_number: Nullable(Str('Customer-facing number of the invoice.'), 'Customer-facing number of the invoice.'),
    memo: Nullable(Str('Memo of the invoice.'), 'Memo of the invoice.'),
    sub_total: Nullable(Type.Number({ description: 'Amount before tax.' }), 'Amount of the invoice before tax.'),
    tax_amount: Nullable(Type.Number({ description: 'Tax amount.' }), 'Tax amount of the invoice.'),
    total_discount: Nullable(Type.Number({ description: 'Total discount.' }), 'Total discount of the invoice.'),
    discount_amount: Nullable(
      Type.Number({ description: 'Total discount.' }),
      "Total discount of the invoice under the reference's name: always the value of total_discount.",
    ),
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the invoice currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    linked_payments: Type.Array(InvoiceLinkedPaymentSchema, { description: 'Invoice payments applied to the invoice.' }),
    linked_credit_memos: Type.Array(AllocationEntrySchema, { description: 'Invoice credit memos applied to the invoice.' }),
    line_items: Type.Array(InvoiceLineItemSchema, { description: 'Lines of the invoice.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An invoice issued by the business that a customer must pay. Files attach through attachments.' },
);

export type Invoice = Static<typeof InvoiceSchema>;

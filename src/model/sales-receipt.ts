/**
 * Sales receipt: a sale paid at once, so no receivable is left. Not shown in the spec (named among the further
 * accounting endpoints); follows the reference's "Sales Receipts" (2024-08-31), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  AddressSchema,
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
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** Object types a sales receipt's linked_transactions can name (their `type`). */
export const SALES_RECEIPT_LINKED_TYPES = ['bank_deposit'] as const;

export const SalesReceiptLinkedTransactionSchema = Type.Object(
  {
    id: Str('Service id of the linked transaction.'),
    type: Str('Object type of the linked transaction (bank_deposit: the deposit that took the receipt out of undeposited funds).'),
  },
  { additionalProperties: false, description: 'Transaction linked to the sales receipt.' },
);

export const SalesReceiptAdditionalFieldsSchema = Type.Object(
  {
    billing_email: Nullable(Str('Email address the receipt was sent to.'), 'Email address of the billed customer; null when none.'),
    internal_memo: Nullable(Str('Memo for internal use.'), 'Memo intended for internal use; null when none.'),
    shipping_amount: Nullable(
      Type.Number({ description: 'Shipping charged.' }),
      'Total shipping charged on the receipt; null when the platform does not say.',
    ),
    tax_amount: Nullable(Type.Number({ description: 'Tax charged.' }), 'Total tax charged on the receipt; null when the platform does not say.'),
    addresses: Type.Array(AddressSchema, { description: 'Billing and shipping addresses of the receipt; [] when none.' }),
  },
  { additionalProperties: false, description: "The reference's additional fields of a sales receipt; always present here." },
);

export const SalesReceiptSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer who paid; null for a sale to no named customer.'),
    account_id: Nullable(
      Str('Service id of the account deposited to.'),
      'Service id of the asset account the payment was deposited to (a bank account or undeposited funds): the account debited.',
    ),
    issue_date: Nullable(Timestamp('When the receipt was issued.'), 'When the sale was made and paid (ISO 8601).'),
    amount_due: Nullable(
      Type.Number({ description: 'Amount still due.' }),
      'Amount still due on the receipt: 0, as a receipt is paid at once; null when the platform does not say.',
    ),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the receipt.'), 'Currency of the receipt; null when the platform does not say.'),
    discount_amount: Nullable(Type.Number({ description: 'Total discount.' }), 'Total discount of the receipt; null when the platform does not say.'),
    document_number: Nullable(Str('Number of the receipt.'), 'Seller-facing number of the receipt.'),
    memo: Nullable(Str('Memo shown to the customer.'), 'Customer-facing memo of the receipt.'),
    reference: Nullable(Str('Reference of the payment.'), 'Reference of the receipt, such as the check or card payment number.'),
    total_amount: Nullable(Type.Number({ description: 'Total amount of the receipt.' }), 'Total amount received, tax included.'),
    linked_transactions: Type.Array(SalesReceiptLinkedTransactionSchema, { description: 'Transactions linked to the receipt.' }),
    line_items: Type.Array(StandardLineItemSchema, { description: 'Lines of the receipt.' }),
    // Optional as in the reference (and as on every object); always present here.
    additional_fields: Type.Optional(SalesReceiptAdditionalFieldsSchema),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'A sale paid at the time it was made: records the sale and the payment at once, leaving nothing to collect.',
  },
);

export type SalesReceipt = Static<typeof SalesReceiptSchema>;

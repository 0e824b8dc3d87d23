/**
 * Invoice payment: a payment received from a customer against invoices. Not
 * shown in the spec; designed as the mirror of the bill payment, with the
 * reference's fields beside ours (docs/reference.md).
 */
import { Type, type Static } from 'typebox';
import { PAYMENT_STATUSES } from './bill-payment.ts';
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
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** An invoice the payment was applied to, under our names and, with the same values, the reference's. */
export const InvoicePaymentAllocationSchema = Type.Object(
  {
    ...AllocationEntrySchema.properties,
    allocated_at: Timestamp("The reference's name for allocated_date: the same value (ISO 8601)."),
    amount: Type.Number({ description: "The reference's name for allocated_amount: the same value, a number as every amount of ours." }),
  },
  { additionalProperties: false, description: 'Allocation of part of the payment to an invoice.' },
);

export type InvoicePaymentAllocation = Static<typeof InvoicePaymentAllocationSchema>;

export const InvoicePaymentSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the account debited.'),
      'Service id of the account debited, normally a bank or undeposited funds account.',
    ),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer who paid.'),
    payment_method_id: Nullable(
      Str('Service id of the payment method.'),
      'Service id of the payment method (GET /accounting/payment_methods); null when the platform names none.',
    ),
    transaction_date: Timestamp('When the payment was received (ISO 8601).'),
    txn_date: Timestamp("The reference's name for transaction_date: the same value (ISO 8601)."),
    currency_code: CurrencyCodeEnum('Currency of the payment.'),
    currency_rate: Nullable(
      Type.Number({ description: 'Exchange rate.' }),
      'Rate from the payment currency to the business default currency, a number as in the reference (decimal text before version 2024-08-31); null when the platform does not give one.',
    ),
    deposited: Nullable(
      Type.Boolean({ description: 'Whether the payment has been deposited.' }),
      'For a payment received into the undeposited funds account: whether a bank deposit has taken it out; null for a payment received straight into a bank account, or when the platform does not say.',
    ),
    document_number: Nullable(Str('Document number of the payment.'), 'Document number of the payment.'),
    memo: Nullable(Str('Memo of the payment.'), 'Memo of the payment.'),
    reference: Nullable(Str('Reference of the payment.'), 'Reference of the payment, such as a check or transfer number.'),
    status: Nullable(StringEnum(PAYMENT_STATUSES, 'Status of the payment.'), 'Status of the payment; null when the platform does not say.'),
    total_amount: Nullable(Type.Number({ description: 'Total amount received.' }), 'Total amount received; null when the platform does not say.'),
    linked_invoices: Type.Array(InvoicePaymentAllocationSchema, { description: 'Invoices the payment was applied to.' }),
    linked_credit_memos: Type.Array(AllocationEntrySchema, { description: 'Invoice credit memos applied together with the payment.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Payment received from a customer against one or more invoices; linked to one customer.' },
);

export type InvoicePayment = Static<typeof InvoicePaymentSchema>;

type Allocation = Static<typeof AllocationEntrySchema>;

/** The reference's names beside ours (txn_date, linked_invoices[].allocated_at and amount), filled from ours by every connector the same way. */
export function paymentWithReferenceNames<T extends { transaction_date: string; linked_invoices: readonly Allocation[] }>(
  payment: T,
): Omit<T, 'linked_invoices'> & { txn_date: string; linked_invoices: InvoicePaymentAllocation[] } {
  return {
    ...payment,
    txn_date: payment.transaction_date,
    linked_invoices: payment.linked_invoices.map((entry) => ({ ...entry, allocated_at: entry.allocated_date, amount: entry.allocated_amount })),
  };
}

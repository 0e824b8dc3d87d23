/**
 * Invoice payment: a payment received from a customer against invoices. Not
 * shown in the spec; designed as the mirror of the bill payment.
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

export const InvoicePaymentSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the account debited.'),
      'Service id of the account debited, normally a bank or undeposited funds account.',
    ),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer who paid.'),
    transaction_date: Timestamp('When the payment was received (ISO 8601).'),
    currency_code: CurrencyCodeEnum('Currency of the payment.'),
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the payment currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    document_number: Nullable(Str('Document number of the payment.'), 'Document number of the payment.'),
    memo: Nullable(Str('Memo of the payment.'), 'Memo of the payment.'),
    reference: Nullable(Str('Reference of the payment.'), 'Reference of the payment, such as a check or transfer number.'),
    status: Nullable(StringEnum(PAYMENT_STATUSES, 'Status of the payment.'), 'Status of the payment; null when the platform does not say.'),
    total_amount: Nullable(Type.Number({ description: 'Total amount received.' }), 'Total amount received; null when the platform does not say.'),
    linked_invoices: Type.Array(AllocationEntrySchema, { description: 'Invoices the payment was applied to.' }),
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

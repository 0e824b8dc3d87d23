/** Bill payment: a payment by the business against one or more bills. */
import { Type, type Static } from 'typebox';
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

export const PAYMENT_STATUSES = ['active', 'void'] as const;

export const BillPaymentSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(Str('Service id of the account credited.'), 'Service id of the account credited, normally a bank account.'),
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor paid.'),
    transaction_date: Timestamp('When the payment was made (ISO 8601).'),
    currency_code: CurrencyCodeEnum('Currency of the payment.'),
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the payment currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    document_number: Nullable(Str('Document number of the payment.'), 'Document number of the payment.'),
    memo: Nullable(Str('Memo of the payment.'), 'Memo of the payment.'),
    reference: Nullable(Str('Reference of the payment.'), 'Reference of the payment, such as a check number.'),
    status: Nullable(StringEnum(PAYMENT_STATUSES, 'Status of the payment.'), 'Status of the payment; null when the platform does not say.'),
    total_amount: Nullable(Type.Number({ description: 'Total amount paid.' }), 'Total amount paid; null when the platform does not say.'),
    linked_bills: Type.Array(AllocationEntrySchema, { description: 'Bills the payment was applied to.' }),
    linked_credit_memos: Type.Array(AllocationEntrySchema, { description: 'Bill credit memos applied together with the payment.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Payment by the business against one or more bills; linked to one vendor.' },
);

export type BillPayment = Static<typeof BillPaymentSchema>;

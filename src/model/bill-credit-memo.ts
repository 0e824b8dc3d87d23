/** Bill credit memo: credit from a vendor, applicable against bills. */
import { Type, type Static } from 'typebox';
import { BILL_STATUSES } from './bill.ts';
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

export const BillCreditMemoSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(Str('Service id of the account credited.'), 'Service id of the account credited, normally the accounts payable account.'),
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor that issued the credit.'),
    issue_date: Timestamp('When the credit memo was issued (ISO 8601).'),
    document_number: Str('Document number of the credit memo.'),
    remaining_amount: Type.Number({ description: 'Amount of the credit memo not yet applied to bills.' }),
    status: StringEnum(BILL_STATUSES, 'Status of the credit memo (same values as bill status).'),
    total_amount: Type.Number({ description: 'Total amount of the credit memo.' }),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the credit memo.'), 'Currency of the credit memo; null when the platform does not say.'),
    memo: Nullable(Str('Memo of the credit memo.'), 'Memo of the credit memo.'),
    // The spec marks it optional; the service always sends it (null when the platform has no rate).
    currency_rate: Nullable(
      Str('Exchange rate as decimal text.'),
      'Rate from the credit memo currency to the business default currency, as decimal text; null when the platform does not give one.',
    ),
    linked_bills: Type.Array(AllocationEntrySchema, { description: 'Bills the credit was applied to.' }),
    line_items: Type.Array(StandardLineItemSchema, { description: 'Lines of the credit memo.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Credit from a vendor applicable against bills; linked to one vendor and zero or more bills.' },
);

export type BillCreditMemo = Static<typeof BillCreditMemoSchema>;

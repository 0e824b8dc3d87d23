/** Bank deposit: groups payments into one deposit so bank transactions can be reconciled. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const BankDepositLinkedPaymentSchema = Type.Object(
  {
    id: Str('Service id of the deposited payment.'),
    payment_amount: Type.Number({ description: 'Amount of the payment included in the deposit.' }),
    type: Str('Kind of the deposited payment (for example invoice_payment or journal_entry).'),
  },
  { additionalProperties: false, description: 'Payment included in the deposit.' },
);

export const BankDepositLineItemSchema = Type.Object(
  {
    platform_id: Nullable(Str('Id of the line on the platform.'), 'Id of the line on the platform; null when lines have no id there.'),
    account_id: Nullable(Str('Service id of the account.'), 'Service id of the account the line posts to.'),
    class_id: Nullable(Str('Service id of the class.'), 'Service id of the class the line is tracked under.'),
    customer_id: Nullable(Str('Service id of the customer.'), 'Service id of the customer the amount was received from.'),
    department_id: Nullable(Str('Service id of the department.'), 'Service id of the department the line is tracked under.'),
    location_id: Nullable(Str('Service id of the location.'), 'Service id of the location the line is tracked under.'),
    project_id: Nullable(Str('Service id of the project.'), 'Service id of the project the line is tracked under.'),
    tax_rate_id: Nullable(Str('Service id of the tax rate.'), 'Service id of the tax rate applied to the line.'),
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor the amount was received from.'),
    total_amount: Type.Number({ description: 'Amount of the line.' }),
    description: Nullable(Str('Description of the line.'), 'Description of the line.'),
  },
  { additionalProperties: false, description: 'Deposit line for an amount not covered by a linked payment.' },
);

export const BankDepositSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(Str('Service id of the asset account debited.'), 'Service id of the asset account debited (the bank account deposited to).'),
    department_id: Nullable(Str('Service id of the department.'), 'Service id of the department of the deposit.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the deposit belongs to (two ERP platforms).'),
    transaction_date: Timestamp('When the deposit was made (ISO 8601).'),
    currency_code: CurrencyCodeEnum('Currency of the deposit; only same-currency accounts are supported.'),
    total_amount: Type.Number({ description: 'Total amount deposited.' }),
    memo: Nullable(Str('Memo of the deposit.'), 'Memo of the deposit.'),
    linked_payments: Type.Array(BankDepositLinkedPaymentSchema, { description: 'Payments grouped into the deposit.' }),
    line_items: Type.Array(BankDepositLineItemSchema, { description: 'Other lines of the deposit.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Groups payments into one deposit record so that bank transactions can be reconciled.' },
);

export type BankDeposit = Static<typeof BankDepositSchema>;

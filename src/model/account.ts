/** Account: an entry in the chart of accounts. */
import { Type, type Static } from 'typebox';
import {
  AdditionalFieldsProperty,
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
  SubsidiaryStatusRefSchema,
  Timestamp,
} from './shared.ts';

export const ACCOUNT_TYPES = [
  'accounts_payable',
  'accounts_receivable',
  'bank',
  'fixed_asset',
  'other_asset',
  'other_current_asset',
  'liability',
  'equity',
  'expense',
  'other_expense',
  'income',
  'other_income',
  'credit_card',
  'cost_of_goods_sold',
  'other_current_liability',
  'long_term_liability',
  'non_posting',
  'unknown',
] as const;
export const ACCOUNT_CATEGORIES = ['asset', 'expense', 'equity', 'liability', 'income', 'nonposting', 'unknown'] as const;
export const ACCOUNT_STATUSES = ['active', 'inactive', 'pending'] as const;

export const AccountSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    // The spec marks it optional; the service always sends it (null when there is no parent).
    parent_id: Nullable(Str('Service id of the parent account.'), 'Service id of the parent account (two platforms); null for top-level accounts.'),
    account_type: StringEnum(ACCOUNT_TYPES, 'Detailed type of the account. unknown on one ERP platform except on certain implementations.'),
    category: StringEnum(ACCOUNT_CATEGORIES, 'Category the account belongs to.'),
    status: StringEnum(ACCOUNT_STATUSES, 'Status of the account.'),
    balance: Nullable(
      Type.Number({ description: 'Running sum of credits and debits.' }),
      'Running sum of credits and debits; null when the platform does not give it.',
    ),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the account.'), 'Currency of the account; null when the platform does not say.'),
    name: Nullable(Str('Name of the account.'), 'Name of the account.'),
    nominal_code: Nullable(Str('Nominal code (account number).'), 'Nominal code (account number) of the account.'),
    subsidiaries: Type.Array(SubsidiaryStatusRefSchema, { description: 'Subsidiaries the account belongs to.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: Timestamp('When the account was last updated (ISO 8601). Never null.'),
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An entry in the chart of accounts; belongs to one category and has a finer account_type.' },
);

export type Account = Static<typeof AccountSchema>;

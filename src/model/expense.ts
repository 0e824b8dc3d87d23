/**
 * Expense: money spent directly from a bank or card account, without a bill.
 * Not shown in the spec; designed after the bill payment and the bill lines.
 */
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
  StandardLineItemSchema,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** Purchase, or money back on the same account (card credit, vendor refund). */
export const EXPENSE_TYPES = ['expense', 'refund'] as const;
export const EXPENSE_PAYMENT_TYPES = ['cash', 'check', 'credit_card', 'unknown'] as const;

export const ExpenseSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    account_id: Nullable(
      Str('Service id of the account paid from.'),
      'Service id of the bank or credit card account the expense was paid from (credited).',
    ),
    vendor_id: Nullable(Str('Service id of the vendor.'), 'Service id of the vendor paid.'),
    subsidiary_id: Nullable(Str('Service id of the subsidiary.'), 'Service id of the subsidiary the expense belongs to.'),
    transaction_date: Timestamp('When the expense was made (ISO 8601).'),
    currency_code: CurrencyCodeEnum('Currency of the expense.'),
    currency_rate: Nullable(
      Type.Number({ description: 'Exchange rate.' }),
      'Rate from the expense currency to the business default currency, a number as in the reference (decimal text before version 2024-08-31); null when the platform does not give one.',
    ),
    expense_type: StringEnum(
      EXPENSE_TYPES,
      'Whether money was spent (expense) or came back on the same account (refund). Amounts are positive either way.',
    ),
    payment_type: StringEnum(EXPENSE_PAYMENT_TYPES, 'How the expense was paid.'),
    document_number: Nullable(Str('Document or reference number.'), 'Document or reference number of the expense, such as a check number.'),
    memo: Nullable(Str('Memo of the expense.'), 'Memo of the expense.'),
    sub_total: Nullable(Type.Number({ description: 'Amount before tax.' }), 'Amount of the expense before tax.'),
    tax_amount: Nullable(Type.Number({ description: 'Tax amount.' }), 'Tax amount of the expense.'),
    total_amount: Type.Number({ description: 'Total amount of the expense.' }),
    line_items: Type.Array(StandardLineItemSchema, { description: 'Lines of the expense, each posting to an expense account or item.' }),
    additional_fields: AdditionalFieldsProperty,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'Money spent directly from a bank or credit card account, such as a card purchase or a check, without a bill.',
  },
);

export type Expense = Static<typeof ExpenseSchema>;

/** Bank feed account: an institution account linked as a feed to an account on the platform. */
import { Type, type Static } from 'typebox';
import { CurrencyCodeEnum, IdProperty, LastSyncedAtProperty, Nullable, PlatformDataProperty, Str, StringEnum, Timestamp } from './shared.ts';

export const BANK_ACCOUNT_TYPES = ['bank', 'checking', 'credit_card', 'savings'] as const;
export const FEED_STATUSES = ['active', 'inactive'] as const;

function NullableAmount(description: string) {
  return Nullable(Type.Number({ description }), description);
}

function NullableText(description: string) {
  return Nullable(Str(description), description);
}

export const BankFeedAccountSchema = Type.Object(
  {
    id: IdProperty,
    account_id: NullableText('Service id of the platform account the feed is linked to.'),
    contact_id: NullableText('Id of the bank feed contact.'),
    internal_bank_account_id: NullableText("The institution's own id of the bank account."),
    parent_bank_feed_account_id: NullableText('Service id of the parent bank feed account.'),
    last_statement_date: Nullable(Timestamp('Date of the last statement.'), 'Date of the last statement (ISO 8601).'),
    next_payment_date: Nullable(Timestamp('Date the next payment is due.'), 'Date the next payment is due (ISO 8601).'),
    transaction_start_date: Nullable(Timestamp('Earliest transaction date of the feed.'), 'Date from which transactions are fed (ISO 8601).'),
    bank_account_type: StringEnum(BANK_ACCOUNT_TYPES, 'Kind of bank account.'),
    feed_status: StringEnum(FEED_STATUSES, 'Whether the feed is active.'),
    transaction_ready: Type.Boolean({ description: 'True when the account accepts transactions.' }),
    available_balance: NullableAmount('Balance available to spend.'),
    available_credit: NullableAmount('Credit still available.'),
    credit_limit: NullableAmount('Credit limit of the account.'),
    current_balance: NullableAmount('Current balance of the account.'),
    finance_charges: NullableAmount('Finance charges of the current period.'),
    last_statement_balance: NullableAmount('Balance on the last statement.'),
    minimum_payment_amount: NullableAmount('Minimum amount of the next payment.'),
    next_payment_amount: NullableAmount('Amount of the next payment.'),
    past_due_amount: NullableAmount('Amount past due.'),
    purchases_apr: NullableAmount('Annual percentage rate on purchases.'),
    bank_account_number: NullableText('Number of the bank account.'),
    line_of_business: NullableText('Line of business of the account.'),
    name: NullableText('Name of the bank feed account.'),
    routing_number: NullableText('Routing number of the bank.'),
    currency_code: Nullable(CurrencyCodeEnum('Currency of the account.'), 'Currency of the account; null when not known.'),
    payment_network_ids: Nullable(
      Type.Array(Str('Payment network id.'), { description: 'Payment network ids of the account.' }),
      'Payment network ids of the account; null when not known.',
    ),
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description:
      'An account at a financial institution that can be linked as a feed to an account in an accounting platform, so that bank data can be imported.',
  },
);

export type BankFeedAccount = Static<typeof BankFeedAccountSchema>;

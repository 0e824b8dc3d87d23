/**
 * Payout: money a commerce or payments platform moved from the merchant's balance there to the merchant's own bank
 * account, with the transactions (charges, refunds) it paid out. Not shown in the spec (named among the further
 * endpoints); follows the reference's "Payouts" (2024-08-31), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

export const PAYOUT_STATUSES = ['paid', 'pending', 'in_transit', 'cancelled', 'failed', 'refunded', 'unknown'] as const;

export const PayoutTransactionSchema = Type.Object(
  {
    id: Str('Id of the transaction on the platform.'),
    order_id: Nullable(
      Str('Service id of the order.'),
      'Service id of the order the money was taken or returned for; null when it belongs to no order.',
    ),
    payment_method_type: StringEnum(['cash', 'card', 'other'] as const, 'How the buyer paid.'),
    status: StringEnum(['success', 'failure', 'pending', 'cancelled', 'refunded', 'other'] as const, 'Outcome of the transaction.'),
    type: StringEnum(
      ['sale', 'refund', 'void', 'payout', 'fee', 'other'] as const,
      'sale: money taken from a buyer; refund: money given back (a negative amount).',
    ),
    amount: Nullable(
      Type.Number({ description: 'Amount moved.' }),
      "Amount of the transaction with the platform's sign (a refund is negative); null when the platform does not say.",
    ),
    fee: Type.Number({ description: 'What the platform kept of this transaction; 0 when nothing.' }),
    gateway: Nullable(Str('Payment gateway.'), 'Gateway that processed the transaction.'),
    iso_currency_code: Nullable(
      CurrencyCodeEnum('Currency of the transaction.'),
      'Currency of the transaction; null when the platform does not say.',
    ),
    description: Nullable(Str('Description of the transaction.'), 'What the transaction was for.'),
    created_at: Timestamp('When the transaction was made (ISO 8601).'),
    updated_at: Timestamp('When the transaction last changed (ISO 8601).'),
  },
  { additionalProperties: false, description: "A transaction paid out by the payout (the reference's order transaction)." },
);

export const PayoutDestinationSchema = Type.Object(
  {
    destination_id: Nullable(Str('Id of the destination.'), 'Platform id of the bank account paid to.'),
    account_number_last_digits: Nullable(Str('Last digits of the account number.'), 'Last digits of the account number paid to.'),
    bank_name: Nullable(Str('Name of the bank.'), 'Bank holding the account.'),
    brand: Nullable(Str('Card brand.'), 'Brand of the card paid to; null for a bank account.'),
    last_four: Nullable(Str('Last four digits.'), 'Last four digits of the account or card number.'),
    routing_number: Nullable(Str('Routing number.'), 'Routing number of the bank account.'),
  },
  { additionalProperties: false, description: 'The bank account (or card) the payout went to.' },
);

export const PayoutSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    gateway_account_id: Str('Platform id of the gateway account the payout came from.'),
    arrival_at: Timestamp('When the money arrives (or arrived) in the destination account (ISO 8601).'),
    amount: Type.Number({ description: "Amount paid out: the transactions' amounts less their fees." }),
    gateway: Str('Gateway the payout came from.'),
    iso_currency_code: CurrencyCodeEnum('Currency of the payout.'),
    schedule: StringEnum(
      ['unknown', 'manual', 'automatic'] as const,
      "automatic: made by the platform's payout schedule; manual: asked for by the merchant.",
    ),
    status: StringEnum(PAYOUT_STATUSES, 'paid: arrived; in_transit: sent, not arrived; pending: not sent yet.'),
    type: StringEnum(['bank_account', 'card', 'fpx', 'unknown'] as const, 'Kind of destination.'),
    method: Nullable(Str('Payout method.'), 'Speed of the payout as the platform names it (standard, instant); null when it does not say.'),
    destination: Nullable(PayoutDestinationSchema, 'Where the money went; null when the platform does not say.'),
    transactions: Type.Array(PayoutTransactionSchema, { description: 'Transactions the payout paid out.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: "Money moved from the platform to the merchant's bank account, with the transactions it paid out." },
);

export type Payout = Static<typeof PayoutSchema>;

/**
 * Money moved on a commerce or payments platform: a sale (charge), a refund, a fee, a payout. Not shown in the spec;
 * follows the reference's commerce "Transactions" (its order transaction, 2024-08-31), decisions in docs/reference.md.
 * A payout's `transactions[]` holds the same shape for the transactions it paid out.
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
  UpdatedAtProperty,
} from './shared.ts';

export const TRANSACTION_TYPES = ['sale', 'refund', 'void', 'payout', 'fee', 'other'] as const;
export const TRANSACTION_STATUSES = ['success', 'failure', 'pending', 'cancelled', 'refunded', 'other'] as const;

export const TransactionSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    order_id: Nullable(Str('Service id of the order.'), 'Service id of the order the money was taken or returned for; null when none.'),
    customer_id: Nullable(Str('Service id of the commerce customer.'), 'Service id of the commerce customer who paid; null when not known.'),
    payout_id: Nullable(Str('Service id of the payout.'), 'Service id of the payout that paid the transaction out; null until paid out.'),
    payment_method_type: StringEnum(['cash', 'card', 'other'] as const, 'How the buyer paid.'),
    status: StringEnum(TRANSACTION_STATUSES, 'Outcome of the transaction.'),
    type: StringEnum(TRANSACTION_TYPES, 'sale: money taken from a buyer; refund: money given back; fee: kept by the platform.'),
    amount: Nullable(
      Type.Number({ description: 'Amount moved.' }),
      "Amount with the platform's sign (a refund is negative); null when the platform does not say.",
    ),
    fee: Type.Number({ description: 'What the platform kept of this transaction; 0 when nothing.' }),
    gateway: Nullable(Str('Payment gateway.'), 'Gateway that processed the transaction; null when not known.'),
    iso_currency_code: Nullable(CurrencyCodeEnum('Currency of the transaction.'), 'Currency; null when the platform does not say.'),
    description: Nullable(Str('Description of the transaction.'), 'What the transaction was for; null when the platform does not say.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Money taken, returned or kept on a commerce or payments platform.' },
);

export type Transaction = Static<typeof TransactionSchema>;

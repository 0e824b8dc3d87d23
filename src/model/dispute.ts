/**
 * A dispute (chargeback): a card holder asked their bank to reverse a payment. Neither the spec nor the reference has
 * the object; ours, designed in docs/reference.md ("Dispute"), after the payment platforms' common fields. Lenders
 * watch dispute rates and lost amounts.
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

export const DISPUTE_STATUSES = [
  'needs_response',
  'under_review',
  'won',
  'lost',
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
] as const;

export const DisputeSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    transaction_id: Nullable(Str('Service id of the disputed transaction.'), 'Service id of the disputed sale; null when not stored.'),
    order_id: Nullable(Str('Service id of the order.'), 'Service id of the order paid by the disputed sale; null when none.'),
    amount: Type.Number({ description: 'Amount disputed (positive).' }),
    iso_currency_code: CurrencyCodeEnum('Currency of the amount.'),
    reason: Str("The card network's reason as the platform names it (fraudulent, product_not_received, …)."),
    status: StringEnum(
      DISPUTE_STATUSES,
      'needs_response / under_review: open; won / lost: decided; warning_*: an inquiry that may become a dispute.',
    ),
    evidence_due_by: Nullable(Timestamp('When evidence is due (ISO 8601).'), 'When evidence is due; null when none is asked for.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A chargeback or inquiry raised against a payment.' },
);

export type Dispute = Static<typeof DisputeSchema>;

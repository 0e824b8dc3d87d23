/**
 * Subscription: a customer's recurring charge on a payments platform (plans billed every interval). Not shown in the
 * spec; follows the reference's "Subscriptions" (2024-08-31, `ListCommerceSubscriptions`), decisions in
 * docs/reference.md. Lenders read recurring revenue from it.
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

export const SUBSCRIPTION_STATUSES = ['active', 'in_trial', 'canceled', 'paused', 'unknown'] as const;

export const SubscriptionItemSchema = Type.Object(
  {
    platform_id: Nullable(Str('Id of the item on the platform.'), 'Id of the item on the platform; null when it has none.'),
    interval: Str('How often the item is billed, as the platform names it (day, week, month, year).'),
    interval_count: Type.Number({ description: 'Intervals between two bills (3 with month: quarterly).' }),
    quantity: Type.Number({ description: 'Units billed each interval.' }),
    amount: Nullable(
      Type.Number({ description: 'unit_amount × quantity.' }),
      'What one bill of the item comes to; null when its price is not fixed.',
    ),
    unit_amount: Nullable(
      Type.Number({ description: 'Price of one unit.' }),
      'Price of one unit per interval; null when not fixed (metered or tiered).',
    ),
  },
  { additionalProperties: false },
);

export const SubscriptionSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    customer_id: Nullable(Str('Service id of the commerce customer.'), 'Service id of the commerce customer billed; null when not stored.'),
    platform_customer_id: Nullable(Str("The customer's id on the platform."), "The customer's id on the platform (the reference's field)."),
    iso_currency_code: CurrencyCodeEnum('Currency of the amounts.'),
    status: StringEnum(
      SUBSCRIPTION_STATUSES,
      'active: billing; in_trial: not billed yet; paused: billing stopped for a while; canceled: ended; unknown: any other state.',
    ),
    items: Type.Array(SubscriptionItemSchema, { description: 'What is billed, one entry per price.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: "A customer's recurring charge." },
);

export type Subscription = Static<typeof SubscriptionSchema>;

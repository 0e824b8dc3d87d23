/** Payment method: a way a business is paid or pays (cash, check, card). The reference's object (2024-08-31), read-only. */
import { Type, type Static } from 'typebox';
import { CreatedAtProperty, IdProperty, LastSyncedAtProperty, PlatformDataProperty, PlatformIdProperty, Str, UpdatedAtProperty } from './shared.ts';

export const PaymentMethodSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Str('Name of the payment method, such as "Check" or "Credit Card".'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A way the business is paid or pays: cash, check, card, bank transfer.' },
);

export type PaymentMethod = Static<typeof PaymentMethodSchema>;

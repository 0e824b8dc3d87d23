/**
 * Store: the commerce account a connection reads, one per connection. Not shown in the spec (named among the
 * further endpoints); follows the reference's "Store" (`GET /store`), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

export const StoreSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    store_name: Str('Unique identifier or brand name of the store.'),
    url: Str('Consumer-facing address of the store.'),
    default_currency: Nullable(CurrencyCodeEnum('Currency of the store.'), 'Currency the store sells in; null when the platform does not say.'),
    email: Nullable(Str("Email of the store's primary contact."), "Email of the store's primary contact; null when the platform does not say."),
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'The commerce store the connection reads.' },
);

export type Store = Static<typeof StoreSchema>;

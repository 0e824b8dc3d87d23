/**
 * Customer group: a named group of a store's customers (a Shopify customer segment). The reference's commerce
 * "Customer Groups" object (2024-08-31), read-only; the members are the platform's (platform_data), not a field of the
 * reference's object.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

export const CustomerGroupSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Nullable(Str('Name of the customer group.'), 'Name of the customer group; null when the platform has none.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: "A named group of a store's customers." },
);

export type CustomerGroup = Static<typeof CustomerGroupSchema>;

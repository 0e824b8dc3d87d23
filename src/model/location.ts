/** Location: a tracking dimension for places of business. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  SubsidiaryRefSchema,
  UpdatedAtProperty,
} from './shared.ts';

/** Status values of locations, departments and classes. */
export const TRACKING_STATUSES = ['active', 'archived'] as const;

export const LocationSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    parent_id: Nullable(Str('Service id of the parent location.'), 'Service id of the parent location; null for top-level locations.'),
    has_children: Nullable(
      Type.Boolean({ description: 'Whether the location has child locations.' }),
      'Whether the location has child locations; null when the platform does not say.',
    ),
    name: Nullable(Str('Name of the location.'), 'Name of the location.'),
    // Optional and not nullable in the spec: left out when the platform has no status.
    status: Type.Optional(StringEnum(TRACKING_STATUSES, 'Status of the location. Absent when the platform has no status.')),
    subsidiaries: Type.Array(SubsidiaryRefSchema, { description: 'Subsidiaries the location belongs to.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A location of the business, used to track transactions.' },
);

export type Location = Static<typeof LocationSchema>;

/** Shared shape of the tracking dimensions designed after the location: departments and classes. */
import { Type } from 'typebox';
import { TRACKING_STATUSES } from './location.ts';
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

export function trackingCategorySchema(noun: 'department' | 'class', description: string) {
  return Type.Object(
    {
      id: IdProperty,
      platform_id: PlatformIdProperty,
      parent_id: Nullable(Str(`Service id of the parent ${noun}.`), `Service id of the parent ${noun}; null at the top level.`),
      has_children: Nullable(
        Type.Boolean({ description: `Whether the ${noun} has children.` }),
        `Whether the ${noun} has children; null when the platform does not say.`,
      ),
      name: Nullable(Str(`Name of the ${noun}.`), `Name of the ${noun}.`),
      // Unlike the location's optional status, present and null when the platform has none.
      status: Nullable(StringEnum(TRACKING_STATUSES, `Status of the ${noun}.`), `Status of the ${noun}; null when the platform has no status.`),
      subsidiaries: Type.Array(SubsidiaryRefSchema, { description: `Subsidiaries the ${noun} belongs to.` }),
      created_at: CreatedAtProperty,
      updated_at: UpdatedAtProperty,
      last_synced_at: LastSyncedAtProperty,
      platform_data: PlatformDataProperty,
    },
    { additionalProperties: false, description },
  );
}

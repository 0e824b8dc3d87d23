/** Project: work tracked for a customer or internally (two platforms). */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

export const ProjectSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Str('Name of the project.'),
    status: Str('Status of the project as the platform names it.'),
    project_category: Nullable(Str('Category of the project.'), 'Category of the project.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A project; supported on two platforms.' },
);

export type Project = Static<typeof ProjectSchema>;

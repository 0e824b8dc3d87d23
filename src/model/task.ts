/** Task: a unit of project work. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  PlatformDataProperty,
  PlatformIdProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  UpdatedAtProperty,
} from './shared.ts';

export const TASK_STATUSES = ['not_started', 'planned', 'in_progress', 'completed', 'on_hold', 'unknown'] as const;

export const TaskSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Str('Name of the task.'),
    status: StringEnum(TASK_STATUSES, 'Status of the task.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A task of a project.' },
);

export type Task = Static<typeof TaskSchema>;

/** Attachment: a file attached to an entity (journal entries are the documented case). */
import { Type, type Static } from 'typebox';
import { CreatedAtProperty, IdProperty, Nullable, PlatformDataProperty, PlatformIdProperty, Str } from './shared.ts';
import type { UnifiedObjectType } from './object-types.ts';

/**
 * Documents whose attachments have endpoints of their own (`/accounting/{plural}/{id}/attachments`, the spec's
 * "Journal entry attachments" and "Other entity attachments"); an attachment's attached_to_type names which.
 */
export const ATTACHMENT_PARENTS = [
  'journal_entry',
  'bill',
  'invoice',
  'expense',
  'bank_deposit',
  'bank_transfer',
] as const satisfies readonly UnifiedObjectType[];
export type AttachmentParent = (typeof ATTACHMENT_PARENTS)[number];

export const AttachmentSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    attached_to_id: Nullable(Str('Service id of the entity.'), 'Service id of the entity the file is attached to.'),
    file_name: Str('Name of the file.'),
    file_url: Str('Service-generated address for downloading the file.'),
    attached_to_type: Nullable(Str('Kind of entity.'), 'Kind of entity the file is attached to (for example journal_entry).'),
    created_at: CreatedAtProperty,
    // Not in the attachment's field list, but expand=platform_data is accepted on the list, as on every resource.
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A file attached to an entity. Each attachment belongs to exactly one entity.' },
);

export type Attachment = Static<typeof AttachmentSchema>;

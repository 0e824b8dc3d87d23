/**
 * The attachment endpoints of every document type files attach to (ATTACHMENT_PARENTS), one implementation
 * parametrised by the document type (docs/reference.md, "Attachments"):
 *
 * - GET  /accounting/{plural}/attachments and /attachments/:id: the attachments of that type of document
 *   (`attached_to_type`), list (with attached_to_id) and fetch. Journal entries keep the generic attachment
 *   list and fetch of src/api/data (every attachment of the connection, as before the other documents had paths).
 * - GET  /accounting/{plural}/:id/attachments: one document's attachments.
 * - POST /accounting/{plural}/:id/attachments: upload.
 * - GET  /accounting/{plural}/:id/attachments/:attachmentId/file: the file.
 */
import type { Endpoint } from '../../../http/contract.ts';
import { ATTACHMENT_PARENTS, type AttachmentParent } from '../../../model/attachment.ts';
import { OBJECT_TYPES } from '../../../model/object-types.ts';
import { fetchEndpoint, listEndpoint, type ReadView } from '../../data/read.ts';
import { documentAttachmentsEndpoint } from './document-list.ts';
import { attachmentFileEndpoint } from './file.ts';
import { assertAttachedTo, documentsPath, nameOf } from './support.ts';
import { uploadAttachmentEndpoint } from './upload.ts';

function viewOf(entity: AttachmentParent): ReadView {
  return {
    path: `${documentsPath(entity)}/attachments`,
    singular: `${nameOf(entity)} attachment`,
    plural: `${nameOf(entity)} attachments`,
    scope: { attached_to_type: entity },
    check: (connection) => {
      assertAttachedTo(connection, entity, 'read');
    },
  };
}

/** Journal entries' list and fetch are the generic ones (their path is the attachment object's own). */
const hasGenericReads = (entity: AttachmentParent): boolean => `${documentsPath(entity)}/attachments` === OBJECT_TYPES.attachment.path;

export const attachmentEndpoints: Endpoint[] = ATTACHMENT_PARENTS.flatMap((entity) => [
  ...(hasGenericReads(entity) ? [] : [listEndpoint('attachment', viewOf(entity)), fetchEndpoint('attachment', viewOf(entity))]),
  documentAttachmentsEndpoint(entity),
  uploadAttachmentEndpoint(entity),
  attachmentFileEndpoint(entity),
]);

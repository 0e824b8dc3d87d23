/**
 * The attachment endpoints of every document type files attach to (ATTACHMENT_PARENTS), one implementation
 * parametrised by the document type (docs/reference.md, "Attachments"):
 *
 * - GET  /accounting/{plural}/attachments and /attachments/:id: the attachments of that type of document
 *   (`attached_to_type`), list (with attached_to_id) and fetch. Journal entries' too: their path is the attachment
 *   object's own, which src/api/data therefore leaves to this file (its generic list had every document's files).
 * - GET  /accounting/{plural}/:id/attachments: one document's attachments.
 * - POST /accounting/{plural}/:id/attachments: upload.
 * - GET  /accounting/{plural}/:id/attachments/:attachmentId/file: the file.
 */
import type { Endpoint } from '../../../http/contract.ts';
import { ATTACHMENT_PARENTS, type AttachmentParent } from '../../../model/attachment.ts';
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

export const attachmentEndpoints: Endpoint[] = ATTACHMENT_PARENTS.flatMap((entity) => [
  listEndpoint('attachment', viewOf(entity)),
  fetchEndpoint('attachment', viewOf(entity)),
  documentAttachmentsEndpoint(entity),
  uploadAttachmentEndpoint(entity),
  attachmentFileEndpoint(entity),
]);

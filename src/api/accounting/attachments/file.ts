/**
 * GET /accounting/{plural}/:id/attachments/:attachmentId/file: the file of one attachment of a document
 * (reference: "Download … Attachment File"), for the client's own credentials. The same bytes and headers as
 * the attachment's signed file_url (GET /files/:id): one way to serve a file (src/api/files/attachment-file.ts).
 */
import { Type } from 'typebox';
import { ServiceError } from '../../../errors/catalogue.ts';
import { sendAttachmentFile } from '../../files/attachment-file.ts';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { isUuid } from '../../../http/uuid.ts';
import type { AttachmentParent } from '../../../model/attachment.ts';
import { findAttachmentFile } from '../../../sql/attachment-files.ts';
import { ForceFetchSchema, readableConnection } from '../../data/read.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { AccessTokenQuery } from '../../writes/submit.ts';
import { DOCUMENT_READ_ERRORS } from './document-list.ts';
import { assertAttachedTo, documentOf, documentsPath, nameOf } from './support.ts';

export function attachmentFileEndpoint(entity: AttachmentParent): Endpoint {
  const contract = defineContract({
    method: 'GET',
    url: `${documentsPath(entity)}/:id/attachments/:attachmentId/file`,
    auth: 'client',
    tags: ['attachments'],
    summary: `Download the file of an attachment of a ${nameOf(entity)}`,
    description: "The content as the platform has it, with its type and a download Content-Disposition: what the attachment's file_url serves.",
    params: Type.Object({
      id: Type.String({ minLength: 1, maxLength: 300, description: `Service id of the ${nameOf(entity)}.` }),
      attachmentId: Type.String({ minLength: 1, maxLength: 300, description: 'Service id of the attachment.' }),
    }),
    querystring: Type.Object({ ...AccessTokenQuery.properties, force_fetch: ForceFetchSchema }),
    // Served with the file's own type (the platform's, or what the upload said), whatever its media type.
    success: {
      status: 200,
      contentType: '*/*',
      schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: "The file content, with the file's own Content-Type." }),
    },
    errors: [...DOCUMENT_READ_ERRORS, 'PLATFORM_UNAUTHORIZED', 'PLATFORM_BAD_REQUEST', 'PLATFORM_RATE_LIMITED', 'PLATFORM_ERROR'],
  });
  return defineEndpoint(contract, async (request, reply) => {
    const { query, params } = request;
    refusePathWordAsServiceId(request, params.id);
    refusePathWordAsServiceId(request, params.attachmentId);
    const forceFetch = query.force_fetch === 'true';
    const connection = await readableConnection(request, 'attachment', query.access_token, forceFetch);
    assertAttachedTo(connection, entity, 'read');
    const { services } = request.server;
    const document = await documentOf(services.pool, services.config.readLimits.statementTimeoutMs, connection, entity, params.id, forceFetch);
    const row = isUuid(params.attachmentId) ? await findAttachmentFile(services.pool, params.attachmentId) : null;
    if (row?.connection_id !== connection.id || row.attached_to_id !== document.id) {
      throw new ServiceError('RESOURCE_NOT_FOUND', `No attachment with id ${params.attachmentId} on ${nameOf(entity)} ${document.id}.`, {
        source: 'service',
        field: 'attachmentId',
        location: 'params',
      });
    }
    return sendAttachmentFile(services, reply, row);
  });
}

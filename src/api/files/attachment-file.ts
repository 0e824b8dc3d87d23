/**
 * The content of a stored attachment, however it is kept: with the record (a data: URL, SANDBOX and uploads) or
 * behind the platform's own sign-in (fetched now, src/api/files/platform-file.ts). One way to serve it, used by the
 * signed file_url (GET /files/:id) and by the authenticated download path of each document's attachments.
 */
import type { FastifyReply } from 'fastify';
import { ServiceError } from '../../errors/catalogue.ts';
import type { Services } from '../../services.ts';
import type { AttachmentFileRow } from '../../sql/attachment-files.ts';
import { platformFile } from './platform-file.ts';
import { decodeDataUrl } from '../../files/signed-url.ts';

/** Sends the attachment's file as the reply's body (its type, a download disposition with a safe name); 410 when it has none. */
export async function sendAttachmentFile(services: Services, reply: FastifyReply, row: AttachmentFileRow | null): Promise<Buffer> {
  const stored = row?.file_url === null || row?.file_url === undefined ? null : decodeDataUrl(row.file_url);
  // Files the platform keeps behind its own sign-in are fetched from it now, with the connection's tokens.
  const fetched =
    stored !== null || row === null
      ? null
      : await platformFile(services, { connectionId: row.connection_id, platformId: row.platform_id, raw: row.raw });
  const file = stored ?? (fetched === null ? null : { contentType: fetched.contentType, body: fetched.content });
  if (file === null)
    throw new ServiceError('RESOURCE_NOT_FOUND', 'No file for this attachment (it was deleted, or the platform keeps no content for it).', {
      source: 'service',
    });
  const name = (row?.file_name ?? 'attachment').replace(/[^\w.\- ]/g, '_');
  void reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, max-age=300');
  return file.body;
}

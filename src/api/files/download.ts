import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { platformFile } from '../../files/platform-file.ts';
import { decodeDataUrl, verifyFileSignature } from '../../files/signed-url.ts';

export const contract = defineContract({
  method: 'GET', url: '/files/:id', auth: 'none', tags: ['Attachments'],
  summary: 'Download an attachment file through the signed file_url of the attachment (valid for one hour).',
  params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
  querystring: Type.Object({ expires: Type.Integer({ minimum: 0 }), signature: Type.String({ minLength: 1, maxLength: 100 }) }),
  // Buffers are sent as they are (Fastify serializes only objects and strings).
  success: { status: 200, schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The file content.' }) },
  errors: ['VALIDATION_ERROR', 'INVALID_CREDENTIALS', 'RESOURCE_NOT_FOUND', 'PLATFORM_UNAUTHORIZED', 'PLATFORM_BAD_REQUEST', 'PLATFORM_RATE_LIMITED', 'PLATFORM_ERROR'],
});

export default defineEndpoint(contract, async (request, reply) => {
  const { id } = request.params;
  const verdict = verifyFileSignature(request.server.services.urlSigningKey, id, request.query.expires, request.query.signature);
  if (verdict !== 'ok') {
    throw new ServiceError('INVALID_CREDENTIALS', verdict === 'expired'
      ? 'This file_url has expired; fetch the attachment again for a fresh one.'
      : 'This file_url is not valid; use the file_url of the attachment unchanged.', { source: 'service' });
  }
  const result = await request.server.services.pool.query<{ file_url: string | null; file_name: string | null; connection_id: string; platform_id: string; raw: Record<string, unknown> | null }>(
    `SELECT data->>'file_url' AS file_url, data->>'file_name' AS file_name, connection_id, platform_id, raw
       FROM records WHERE id = $1 AND object_type = 'attachment' AND deleted_at IS NULL`, [id]);
  const row = result.rows[0];
  const stored = row?.file_url === null || row?.file_url === undefined ? null : decodeDataUrl(row.file_url);
  // Files the platform keeps behind its own sign-in are fetched from it now, with the connection's tokens.
  const fetched = stored !== null || row === undefined ? null
    : await platformFile(request.server.services, { connectionId: row.connection_id, platformId: row.platform_id, raw: row.raw });
  const file = stored ?? (fetched === null ? null : { contentType: fetched.contentType, body: fetched.content });
  if (file === null) throw new ServiceError('RESOURCE_NOT_FOUND', 'No file for this attachment (it was deleted, or the platform keeps no content for it).', { source: 'service' });
  const name = (row?.file_name ?? 'attachment').replace(/[^\w.\- ]/g, '_');
  void reply.header('content-type', file.contentType).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'private, max-age=300');
  return file.body;
});

import { Type } from 'typebox';
import { PLATFORM_FILE_ERRORS } from './platform-file.ts';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { sendAttachmentFile } from './attachment-file.ts';
import { verifyFileSignature } from '../../files/signed-url.ts';
import { findAttachmentFile } from '../../sql/attachment-files.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/files/:id',
  auth: 'none',
  tags: ['Attachments'],
  summary: 'Download an attachment file through the signed file_url of the attachment (valid for one hour).',
  params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
  querystring: Type.Object({ expires: Type.Integer({ minimum: 0 }), signature: Type.String({ minLength: 1, maxLength: 100 }) }),
  // Buffers are sent as they are (Fastify serializes only objects and strings).
  // Served with the file's own type (the platform's, or what the upload said), whatever its media type.
  success: {
    status: 200,
    contentType: '*/*',
    schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: "The file content, with the file's own Content-Type." }),
  },
  errors: [...PLATFORM_FILE_ERRORS],
});

export default defineEndpoint(contract, async (request, reply) => {
  const { id } = request.params;
  const { urlSigningKey, previousUrlSigningKeys } = request.server.services;
  const verdict = verifyFileSignature([urlSigningKey, ...previousUrlSigningKeys], id, request.query.expires, request.query.signature);
  if (verdict !== 'ok') {
    throw new ServiceError(
      'INVALID_CREDENTIALS',
      verdict === 'expired'
        ? 'This file_url has expired; fetch the attachment again for a fresh one.'
        : 'This file_url is not valid; use the file_url of the attachment unchanged.',
      { source: 'service' },
    );
  }
  return sendAttachmentFile(request.server.services, reply, await findAttachmentFile(request.server.services.pool, id));
});

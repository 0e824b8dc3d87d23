/**
 * POST /accounting/{plural}/:id/attachments (journal entries, bills, invoices, expenses): multipart/form-data with
 * `file` (the content) and `file_name`. The file is kept with its write job
 * (table write_job_files) until the platform has it; the answer is the
 * attachment, served like synced ones (file_url is a signed address of this
 * service). Files above MAX_UPLOAD_BYTES answer 413.
 */
import { createHash } from 'node:crypto';
import type { Multipart } from '@fastify/multipart';
import { Type, type TSchema } from 'typebox';
import { defineContract, defineEndpoint, type Endpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { toServiceError } from '../../../http/error-handler.ts';
import { hasControlOrUndecodable } from '../../../http/storable-input.ts';
import type { AttachmentParent } from '../../../model/attachment.ts';
import { MODEL } from '../../../model/index.ts';
import { invalidField, liveRecord } from '../../../writes/check-input.ts';
import { RESPONSE_MODES, ResponseModeSchema, type ResponseMode } from '../../../writes/input-schemas.ts';
import { AsyncResponseSchema } from '../../../writes/job-view.ts';
import { refusePathWordAsServiceId } from '../../shared/record-id.ts';
import { AccessTokenQuery, IdParams, submitWrite, WRITE_ERRORS, writableConnection } from '../../writes/submit.ts';
import { assertAttachedTo, documentsPath, nameOf } from './support.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** 1 to 255 characters, no path separators, no control characters. */
function isFileName(name: string): boolean {
  if (name.length < 1 || name.length > 255 || name.includes('/') || name.includes('\\')) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 32 || code === 127) return false;
  }
  return true;
}

const Result: TSchema = Type.Object({ attachment: MODEL.attachment.schema });

interface Upload {
  fileName: string | null;
  uploadedName: string;
  contentType: string;
  content: Buffer | null;
  mode: ResponseMode | undefined;
}

const tooLarge = (): ServiceError =>
  new ServiceError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`, {
    source: 'service',
    field: 'file',
    location: 'body',
  });

/**
 * What reading the parts raised, as the client's error: ours and Fastify's
 * (limits) as they are; anything else comes from the multipart parser (no
 * boundary, a body cut short, a broken part header): a 400 saying so.
 */
function multipartFailure(error: unknown): ServiceError {
  if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  const known = toServiceError(error);
  if (known !== null) return known;
  const reason = error instanceof Error ? error.message : String(error);
  return new ServiceError(
    'VALIDATION_ERROR',
    `The multipart/form-data body is malformed (${reason}); send the fields file and file_name in a well-formed multipart body.`,
    { source: 'service', location: 'body' },
  );
}

async function readParts(parts: AsyncIterableIterator<Multipart>): Promise<Upload> {
  const upload: Upload = { fileName: null, uploadedName: '', contentType: 'application/octet-stream', content: null, mode: undefined };
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw invalidField(part.fieldname, 'is not a known field; send the content as the field file');
      if (upload.content !== null) throw invalidField('file', 'is sent twice; send one file per request');
      upload.content = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
      upload.uploadedName = part.filename;
      if (hasControlOrUndecodable(part.mimetype)) throw invalidField('file', 'has a Content-Type with control characters');
      upload.contentType = part.mimetype === '' ? 'application/octet-stream' : part.mimetype;
    } else if (part.fieldname === 'file_name') {
      upload.fileName = String(part.value);
    } else if (part.fieldname === 'response_mode') {
      const mode = RESPONSE_MODES.find((m) => m === part.value);
      if (mode === undefined) throw invalidField('response_mode', `must be one of: ${RESPONSE_MODES.join(', ')}`);
      upload.mode = mode;
    } else {
      throw invalidField(part.fieldname, 'is not a known field; the fields are file, file_name and response_mode');
    }
  }
  return upload;
}

const contractOf = (entity: AttachmentParent) =>
  defineContract({
    method: 'POST',
    url: `${documentsPath(entity)}/:id/attachments`,
    auth: 'client',
    tags: ['attachments'],
    summary: `Attach a file to a ${nameOf(entity)}`,
    description: `multipart/form-data with the fields file (the content, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB) and file_name (1 to 255 characters, no slashes; default: the uploaded file's name), optionally response_mode. For an Idempotency-Key, the method and path make the fingerprint (not the file).`,
    params: IdParams,
    querystring: AccessTokenQuery,
    consumes: ['multipart/form-data'],
    // Documents the form fields; the parts themselves are read and checked by the handler (the JSON body is empty).
    body: Type.Object({
      file: Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'binary', description: 'The file content.' })),
      file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Name of the file; default the uploaded file's name." })),
      response_mode: ResponseModeSchema,
    }),
    success: { status: 200, schema: Result },
    alsoSucceeds: [{ status: 202, schema: AsyncResponseSchema }],
    errors: [...WRITE_ERRORS, 'RESOURCE_NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  });

export function uploadAttachmentEndpoint(entity: AttachmentParent): Endpoint {
  return defineEndpoint(contractOf(entity), async (request, reply) => {
    refusePathWordAsServiceId(request, request.params.id);
    if (!request.isMultipart()) {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data with the fields file and file_name.', {
        source: 'service',
        location: 'headers',
        field: 'content-type',
      });
    }
    const connection = await writableConnection(request, request.query.access_token, entity, { action: 'uploadAttachment' });
    assertAttachedTo(connection, entity, 'upload');
    const document = await liveRecord(request.server.services.pool, connection.id, entity, request.params.id);
    let upload: Upload;
    try {
      upload = await readParts(request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 8 } }));
    } catch (error) {
      throw multipartFailure(error);
    }
    if (upload.content === null || upload.content.length === 0) throw invalidField('file', 'is required and must not be empty');
    const fileName = upload.fileName ?? upload.uploadedName;
    if (!isFileName(fileName)) throw invalidField('file_name', 'must be 1 to 255 characters without slashes or control characters');
    return submitWrite(request, reply, {
      connection,
      objectType: entity,
      operation: 'upload_attachment',
      target: document,
      mode: upload.mode,
      requestBody: {
        file_name: fileName,
        content_type: upload.contentType,
        size: upload.content.length,
        sha256: createHash('sha256').update(upload.content).digest('hex'),
      },
      file: { fileName, contentType: upload.contentType, content: upload.content },
    });
  });
}

/**
 * The HTTP edge: every failure, framework-level ones included, answers with
 * the spec's error body. Status and type come from the error catalogue.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, type ErrorCode } from '../errors/catalogue.ts';
import { isPoolExhausted } from '../db/api-pool.ts';
import { locationOf, validationMessage, ValidationFailure } from './validation.ts';

/** Fastify's own error codes → ours, with a message that says what to fix. */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message: (error: FastifyError) => string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: () => 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'MALFORMED_JSON',
    message: () => 'The request says Content-Type: application/json but the body is empty; send a JSON object or no Content-Type.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: () => 'The request body is larger than the limit of 1 MiB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: (e) => `${e.message}. Send JSON with Content-Type: application/json.` },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: () => 'The Content-Length header does not match the body.' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: () => 'The Content-Type header is invalid.' },
  // Raised by the router, before any route: see answerFrameworkError.
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'VALIDATION_ERROR',
    message: () => 'A path parameter is longer than 100 characters; no id of this service is that long.',
  },
  FST_ERR_BAD_URL: { code: 'VALIDATION_ERROR', message: () => 'The path is not valid percent-encoding.' },
  // @fastify/multipart (attachment uploads)
  FST_REQ_FILE_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: () => 'The uploaded file is larger than the limit.' },
  FST_PARTS_LIMIT: { code: 'VALIDATION_ERROR', message: () => 'The multipart body has too many parts; send file, file_name and response_mode only.' },
  FST_FILES_LIMIT: { code: 'VALIDATION_ERROR', message: () => 'Send one file per request, in the field file.' },
  FST_FIELDS_LIMIT: {
    code: 'VALIDATION_ERROR',
    message: () => 'The multipart body has too many fields; send file, file_name and response_mode only.',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: () => 'Send multipart/form-data.' },
  FST_MULTIPART_INVALID_CONTENT_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: () => 'Send multipart/form-data.' },
};

export function toServiceError(error: unknown): ServiceError | null {
  if (error instanceof ServiceError) return error;
  if (typeof error !== 'object' || error === null) return null;
  const fastifyError = error as FastifyError & { validationContext?: string };
  // Our validator's failures, or Fastify's own (for schemas it compiled itself).
  if (error instanceof ValidationFailure || fastifyError.validation !== undefined) {
    const location = locationOf(fastifyError.validationContext);
    const errors = error instanceof ValidationFailure ? error.errors : (fastifyError.validation ?? []);
    const { message, field } = validationMessage(errors as ValidationFailure['errors'], location);
    return new ServiceError('VALIDATION_ERROR', message, { source: 'service', field, location });
  }
  // Every connection of the pool stayed busy for DATABASE_ACQUIRE_TIMEOUT_MS: the server is overloaded, not broken.
  if (isPoolExhausted(error)) {
    return new ServiceError(
      'SERVICE_UNAVAILABLE',
      'The server has no free database connection right now; retry after 1 s.',
      { source: 'service', reason: 'database_busy' },
      { 'Retry-After': '1' },
    );
  }
  const known = FRAMEWORK_ERRORS[fastifyError.code];
  if (known !== undefined) return new ServiceError(known.code, known.message(fastifyError), { source: 'service' });
  return clientFault(fastifyError);
}

/**
 * Any other error Fastify or one of its plugins raises with a 4xx status (a
 * multipart field named __proto__, a body cut short, …) is the client's: a
 * 400 with its message, never a 500 because the table above lacks its code.
 */
function clientFault(error: FastifyError): ServiceError | null {
  const { code, statusCode } = error;
  if (typeof code !== 'string' || !code.startsWith('FST_') || statusCode === undefined || statusCode < 400 || statusCode >= 500) return null;
  const ours = statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : statusCode === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR';
  return new ServiceError(ours, `The request is not valid: ${error.message} (${code}).`, { source: 'service' });
}

/** Writes the spec's error body; every error answer carries the request id, those raised before any hook ran too. */
export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  reply.request.errorCode = error.code;
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  return reply.code(error.status).header('X-Request-Id', reply.request.id).type('application/json; charset=utf-8').send(error.toBody());
}

/** Fastify's `frameworkErrors`: router failures answer with the spec's error body too. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const known = toServiceError(error) ?? new ServiceError('VALIDATION_ERROR', 'The request URL is not valid.', { source: 'service' });
  void sendError(reply, known);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = toServiceError(error);
    if (known !== null) {
      if (known.status >= 500) request.log.error({ err: error }, known.message);
      return sendError(reply, known);
    }
    // The client went away mid-request (closed, or cut by the request timeout or the connection caps,
    // src/http/connection-limits.ts): nothing failed here, and a flood of them must not flood the error log.
    if (request.raw.socket.destroyed) request.log.debug({ err: error }, 'client closed the connection mid-request');
    else request.log.error({ err: error }, 'unhandled error');
    return sendError(
      reply,
      new ServiceError('INTERNAL_ERROR', `An unexpected error occurred. Quote request id ${request.id} when reporting it.`, { source: 'service' }),
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new ServiceError('ROUTE_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0] ?? ''}. See /docs for the list of endpoints.`, {
        source: 'service',
      }),
    ),
  );
}

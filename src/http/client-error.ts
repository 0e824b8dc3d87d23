/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a control
 * byte in a header, a malformed request line, headers over the size limit, a
 * request not received in time) are answered here, on the raw socket, with
 * the spec's error body and an X-Request-Id like every other answer. Fastify's
 * default wrote its own `{error, message, statusCode}` body without one.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../errors/catalogue.ts';

const PARSER_MESSAGES: Record<string, string> = {
  HPE_INVALID_HEADER_TOKEN: 'A header name or value has a character HTTP does not allow (such as a NUL or another control byte).',
  HPE_INVALID_METHOD: 'The request method is not valid HTTP.',
  HPE_INVALID_URL: 'The request URL is not valid HTTP.',
  HPE_INVALID_VERSION: 'The HTTP version is not valid.',
  HPE_INVALID_CONTENT_LENGTH: 'The Content-Length header is not valid.',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'The request has both Content-Length and Transfer-Encoding.',
  HPE_INVALID_CHUNK_SIZE: 'The chunked request body is malformed.',
  HPE_INVALID_TRANSFER_ENCODING: 'The Transfer-Encoding header is not valid.',
};

/** The answer to a request the HTTP parser refused, by the parser's error code. */
export function clientErrorAnswer(code: string | undefined): ServiceError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError(
      'HEADERS_TOO_LARGE',
      'The request line and headers are larger than the server accepts; send a shorter URL or fewer or smaller headers.',
      { source: 'service', location: 'headers' },
    );
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ServiceError('REQUEST_TIMEOUT', 'The request was not received in time; send the whole request without pausing.', {
      source: 'service',
    });
  }
  const message = (code === undefined ? undefined : PARSER_MESSAGES[code]) ?? 'The request is not valid HTTP.';
  return new ServiceError('VALIDATION_ERROR', `${message}${code === undefined ? '' : ` (${code})`}`, { source: 'service' });
}

/** The raw HTTP/1.1 response: status line, headers, the error body; the connection closes after it. */
export function rawErrorResponse(error: ServiceError, requestId: string, extraHeaders: Record<string, string> = {}): string {
  const body = JSON.stringify(error.toBody());
  const headers = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** Fastify's `clientErrorHandler` (the raw server's 'clientError' event). */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node's own handler: not while a response on this keep-alive socket is under way (our bytes would land inside it).
  if (socket.writable && !responseUnderway(socket)) socket.write(rawErrorResponse(clientErrorAnswer(error.code), randomUUID()));
  socket.destroy(error);
}

/** Whether the socket's current response has sent its headers (Node's internal `_httpMessage._headerSent`). */
function responseUnderway(socket: Duplex): boolean {
  const message: unknown = Reflect.get(socket, '_httpMessage');
  return typeof message === 'object' && message !== null && Reflect.get(message, '_headerSent') === true;
}

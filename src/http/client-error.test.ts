import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerClientError, clientErrorAnswer, rawErrorResponse } from './client-error.ts';

describe('answers to requests the HTTP parser refused', () => {
  it('maps the parser code to a catalogued error', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toMatchObject({ code: 'HEADERS_TOO_LARGE', status: 431 });
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 408 });
    expect(clientErrorAnswer('HPE_INVALID_HEADER_TOKEN')).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(clientErrorAnswer('HPE_INVALID_HEADER_TOKEN').message).toMatch(/header/);
    expect(clientErrorAnswer(undefined)).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
  });

  it('writes a complete HTTP/1.1 response with the spec body, a request id and Connection: close', () => {
    const raw = rawErrorResponse(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT'), 'req-1');
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 408 Request Timeout',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Request-Id: req-1',
      'Connection: close',
    ]);
    expect(JSON.parse(body)).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'REQUEST_TIMEOUT' });
  });

  it('answers on the socket and closes it; a reset connection gets nothing', () => {
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    // destroy(error) emits it, as Node's own handling does on a real socket.
    socket.on('error', () => undefined);
    answerClientError(Object.assign(new Error('bad'), { code: 'HPE_INVALID_METHOD' }), socket);
    expect(Buffer.concat(written).toString()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(socket.destroyed).toBe(true);
    const reset = new PassThrough();
    reset.on('error', () => undefined);
    answerClientError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), reset);
    expect(reset.read()).toBeNull();
  });

  it('writes nothing into a response already under way on the socket (a malformed pipelined request), only closes it', () => {
    const socket = Object.assign(new PassThrough(), { _httpMessage: { _headerSent: true } });
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    socket.on('error', () => undefined);
    answerClientError(Object.assign(new Error('bad'), { code: 'HPE_INVALID_METHOD' }), socket);
    expect(written).toEqual([]);
    expect(socket.destroyed).toBe(true);
  });
});

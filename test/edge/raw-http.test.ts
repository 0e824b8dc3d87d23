/**
 * Answers the framework gives before any route runs, over a real socket:
 * requests Node's HTTP parser refuses (a control byte in a header, headers
 * over the size limit, a broken request line), router failures, and
 * requests arriving while the server closes. Each uses the spec's error body
 * and carries X-Request-Id; Fastify's own `{error, message, statusCode}`
 * body (without one) answered them before.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors/catalogue.ts';
import { defineContract, defineEndpoint } from '../../src/http/contract.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/** An endpoint that answers when the test says so: a request in flight while the server closes. */
let release: () => void = () => undefined;
let arrived: () => void = () => undefined;
const held = defineEndpoint(
  defineContract({
    method: 'GET',
    url: '/_probe/held',
    auth: 'none',
    tags: ['Probe'],
    summary: 'probe',
    success: { status: 200, schema: Type.Object({ ok: Type.Boolean() }) },
    errors: [],
  }),
  () =>
    new Promise((resolve) => {
      release = () => {
        resolve({ ok: true });
      };
      arrived();
    }),
);

let t: TestApp;
let port = 0;
let closed = false;
beforeAll(async () => {
  t = await startTestApp({ extraVersionedEndpoints: [held] });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  if (!closed) await t.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(raw: string): RawAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** Writes `request` as given (no client library to clean it up) and reads until the server closes the connection. */
function rawRequest(request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(parse(Buffer.concat(chunks).toString('utf8')));
    });
    socket.end(request);
  });
}

function expectOurError(answer: RawAnswer, status: number, code: keyof typeof ERROR_CATALOGUE): Record<string, unknown> {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ error_type: ERROR_CATALOGUE[code].type, error_code: code });
  expect(typeof body.error_message).toBe('string');
  expect(body).not.toHaveProperty('statusCode');
  expect(ERROR_CATALOGUE[code].status).toBe(status);
  return body;
}

describe('answers produced before routing', () => {
  it('a control byte in a header value: 400 with our body and a request id', async () => {
    for (const byte of ['\u0001', '\u0000', '\u007f']) {
      const answer = await rawRequest(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Trace: a${byte}b\r\n\r\n`);
      const body = expectOurError(answer, 400, 'VALIDATION_ERROR');
      expect(body.error_message).toMatch(/header/);
    }
  });

  it('a malformed request line: 400 with our body', async () => {
    expectOurError(await rawRequest('GET /healthz HTTP/9\r\nHost: x\r\n\r\n'), 400, 'VALIDATION_ERROR');
    expectOurError(await rawRequest('G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'VALIDATION_ERROR');
  });

  it('headers over the size limit (a very long URL too): 431 with our body', async () => {
    expectOurError(await rawRequest(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
    expectOurError(await rawRequest(`GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
  });

  it('router failures carry the request id too', async () => {
    const answer = await rawRequest('GET /versioned/accounting/bills/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectOurError(answer, 400, 'VALIDATION_ERROR');
  });

  it('bad JSON and a bad content type over the wire: our body', async () => {
    const json = await rawRequest(
      'POST /admin/organizations HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ' +
        t.adminToken +
        '\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"a":',
    );
    expectOurError(json, 400, 'MALFORMED_JSON');
    const type = await rawRequest(
      'POST /admin/organizations HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ' +
        t.adminToken +
        '\r\nContent-Type: text/csv\r\nContent-Length: 3\r\n\r\na,b',
    );
    expectOurError(type, 400, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a request arriving while the server closes: 503 with our body (last: it closes the server)', async () => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve) =>
      socket.on('close', () => {
        resolve();
      }),
    );
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    socket.write('GET /versioned/_probe/held HTTP/1.1\r\nHost: x\r\nX-Service-Version: 2024-08-31\r\n\r\n');
    await inFlight;
    // Closing waits for the held request; the server stops listening once the close hooks have run.
    const closing = t.close();
    closed = true;
    while (t.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    socket.end('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    release();
    await ended;
    await closing;
    const raw = Buffer.concat(chunks).toString('utf8');
    const second = raw.slice(raw.indexOf('HTTP/1.1', 1));
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
    expectOurError(parse(second), 503, 'SERVICE_UNAVAILABLE');
  });
});

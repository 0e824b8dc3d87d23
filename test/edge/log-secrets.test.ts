/**
 * No secret in the logs: the service's own logger configuration, at trace
 * level (the most it ever writes), receives requests carrying every kind of
 * credential (Basic credentials, cookies, access and refresh tokens in query
 * strings, in any case, a link token in the path, a client secret in a body
 * that fails to parse, a malformed request whose raw bytes Node's parser hands
 * to the error) and none of them may appear in what was logged.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { CENSORED, requestLogOptions } from '../../src/log/redaction.ts';
import { basicAuth, clientHeaders, json, startTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  app = await buildApp(t.services, {
    logger: {
      ...requestLogOptions('trace'),
      stream: {
        write: (line: string) => {
          lines.push(line);
        },
      },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await t.close();
});

/** The forms a secret takes in a JSON log line: as is, base64, percent-encoded, and as a Buffer's byte list. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, encodeURIComponent(secret), bytes.toString('base64').replace(/=+$/, ''), [...bytes].join(',')];
}

function leaks(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets).flatMap(([label, secret]) =>
    forms(secret)
      .filter((form) => text.includes(form))
      .map((form) => `${label} as ${form.slice(0, 16)}…`),
  );
}

/** Sends raw bytes and waits for the server to answer or hang up. */
async function raw(request: string): Promise<string> {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return new Promise((resolve, reject) => {
    const socket = net.connect(address.port, '127.0.0.1', () => {
      socket.end(request);
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => {
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

describe('the request log', () => {
  it('holds no credential, token or cookie of any request, however malformed', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(t.org), payload: {} });
    const connection = json(created).connection as { access_token: string; link_url: string };
    const linkToken = new URL(connection.link_url).pathname.split('/').pop() ?? '';
    const secrets: Record<string, string> = {
      'client secret': t.org.credentials.sandbox.client_secret,
      'Basic credentials': basicAuth(t.org).slice('Basic '.length),
      'access token': connection.access_token,
      'refresh token': 'rt_qTz81mVbE2xLk0Pw',
      cookie: 'sess_4nV9qLr7XcT2bYw8',
      'link token': linkToken,
      'admin token': t.adminToken,
    };
    const headers = { ...clientHeaders(t.org), cookie: `session=${secrets.cookie}` };
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/versioned/connections/status?access_token=${connection.access_token}&refresh_token=${secrets['refresh token']}`,
          headers,
        })
      ).statusCode,
    ).toBe(200);
    await app.inject({ method: 'GET', url: `/versioned/connections/status?ACCESS_TOKEN=${connection.access_token}`, headers });
    await app.inject({ method: 'GET', url: `/versioned/connections/status?x=1?access_token=${connection.access_token}`, headers });
    await app.inject({ method: 'GET', url: `/link/${linkToken}` });
    await app.inject({ method: 'GET', url: '/admin/organizations', headers: { authorization: `Bearer ${t.adminToken}` } });
    await app.inject({
      method: 'POST',
      url: '/versioned/item/public_token/exchange',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `{"client_id": "x", "secret": "${secrets['client secret']}", `,
    });
    // A header the HTTP parser refuses: the error it raises carries the request's raw bytes, Authorization included.
    await raw(
      `GET /versioned/connections HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${secrets['Basic credentials']}\r\nCookie: session=${secrets.cookie}\r\nX-Bad: a\u0001b\r\n\r\n`,
    );

    const log = lines.join('');
    expect(log).toContain('/versioned/connections/status');
    expect(leaks(log, secrets)).toEqual([]);
  });

  it('censors the raw bytes of a malformed request wherever an error is logged with them', () => {
    const from = lines.length;
    const logger = app.log;
    const error = Object.assign(new Error('Parse Error: Invalid header value char'), {
      code: 'HPE_INVALID_HEADER_TOKEN',
      rawPacket: Buffer.from('GET / HTTP/1.1\r\nAuthorization: Basic c2VjcmV0LWNyZWRz\r\n'),
    });
    logger.trace({ err: error }, 'client error');
    logger.info(
      { req: { method: 'GET', url: '/x?access_token=lpat_zzzzzzzz', headers: { authorization: 'Basic c2VjcmV0LWNyZWRz' } } },
      'incoming request',
    );
    const text = lines.slice(from).join('');
    expect(text).toContain(`"rawPacket":"${CENSORED}"`);
    expect(text).not.toContain('c2VjcmV0LWNyZWRz');
    expect(text).not.toContain([...Buffer.from('c2VjcmV0LWNyZWRz')].join(','));
    expect(text).not.toContain('lpat_zzzzzzzz');
  });
});

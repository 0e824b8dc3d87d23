import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { HttpLimits } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { throttledRequests } from '../../src/metrics/registry.ts';

// Issue 19, item 5: slow or greedy clients cannot hold the server. Outcomes only (a socket closed, a 408, a 200).
// Several loopback source addresses stand for several clients: Linux routes all of 127.0.0.0/8 to lo.

interface Trickler {
  socket: net.Socket;
  received(): string;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A client that sends its headers, then the body one byte every 200 ms, for as long as the server lets it. */
function trickle(port: number, localAddress: string): Promise<Trickler> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    let closed = false;
    const done = new Promise<void>((resolveClosed) => {
      socket.once('close', () => {
        closed = true;
        resolveClosed();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write('POST /versioned/connections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
      const timer = setInterval(() => {
        if (socket.writable) socket.write(' ');
      }, 200);
      void done.then(() => {
        clearInterval(timer);
      });
      resolve({ socket, received: () => received, closed: done, isClosed: () => closed });
    });
    socket.once('error', reject);
  });
}

/** GET /healthz on a new connection from `localAddress`. */
function healthz(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false }, (response) => {
      response.resume();
      response.once('end', () => {
        resolve(response.statusCode ?? 0);
      });
    });
    request.once('error', reject);
  });
}

/** Resolves when every trickler is closed; fails the test if the server still holds one after `ceilingMs`. */
async function allClosed(tricklers: Trickler[], ceilingMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${tricklers.filter((t) => !t.isClosed()).length} of ${tricklers.length} sockets still open`));
    }, ceilingMs);
  });
  try {
    await Promise.race([Promise.all(tricklers.map((t) => t.closed)), ceiling]);
  } finally {
    clearTimeout(timer);
  }
}

let t: TestApp;
const apps: FastifyInstance[] = [];
const tricklers: Trickler[] = [];
const agents: http.Agent[] = [];

async function connectionCapRefusals(): Promise<number> {
  return (await throttledRequests.get()).values.find((v) => v.labels.reason === 'connection_cap')?.value ?? 0;
}

/** Log lines of the listening apps at error level or above (pino's level 50+). */
const errorLines: string[] = [];
const logStream = {
  write: (line: string) => {
    if ((JSON.parse(line) as { level: number }).level >= 50) errorLines.push(line);
  },
};

async function listening(limits: Partial<HttpLimits>): Promise<number> {
  const config = { ...t.services.config, http: { ...t.services.config.http, ...limits } };
  const app = await buildApp({ ...t.services, config }, { logger: { level: 'debug', stream: logStream } });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** GET `path` on a new connection that the client keeps alive afterwards (a fresh keep-alive agent per request). */
function getOnNewConnection(port: number, localAddress: string, path = '/healthz'): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  agents.push(agent);
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, localAddress, agent }, (response) => {
      response.resume();
      response.once('end', () => {
        resolve(response.statusCode ?? 0);
      });
    });
    request.once('error', reject);
  });
}

async function open(port: number, localAddress: string, count: number): Promise<Trickler[]> {
  const opened: Trickler[] = [];
  // One after another: the server accepts in this order, so each is counted before the next arrives.
  for (let i = 0; i < count; i++) opened.push(await trickle(port, localAddress));
  tricklers.push(...opened);
  return opened;
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  for (const trickler of tricklers) trickler.socket.destroy();
  for (const agent of agents) agent.destroy();
  for (const app of apps) await app.close();
  await t.close();
});

describe('slow clients', () => {
  it('a request body trickled at a few bytes a second is cut with 408 once the request bound passes', async () => {
    const port = await listening({ requestTimeoutMs: 1000, headersTimeoutMs: 1000 });
    const slow = await open(port, '127.0.0.2', 3);
    await allClosed(slow, 15_000);
    for (const trickler of slow) expect(trickler.received()).toMatch(/^HTTP\/1\.1 408 /);
    // A client cut off is not a server error: a flood of them must not flood the error log.
    expect(errorLines).toEqual([]);
    // The server is free again.
    expect(await healthz(port, '127.0.0.2')).toBe(200);
  });

  it('one address holds at most its cap of sockets; the extra ones are answered 429 and closed at once, others still get /healthz', async () => {
    const port = await listening({ maxConnectionsPerClient: 3, maxConnections: 100 });
    const refusedBefore = await connectionCapRefusals();
    const held = await open(port, '127.0.0.3', 3);
    const [extra] = await open(port, '127.0.0.3', 1);
    if (extra === undefined) throw new Error('no socket');
    await allClosed([extra], 10_000);
    // A clear answer, not a reset: the status, the spec's body saying what to do, and when to retry.
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(extra.received()).toMatch(/\r\nRetry-After: 1\r\n/);
    expect(extra.received()).toContain('"error_code":"RATE_LIMIT_EXCEEDED"');
    expect(await healthz(port, '127.0.0.3')).toBe(429);
    expect(await healthz(port, '127.0.0.4')).toBe(200);
    expect(held.every((s) => !s.isClosed())).toBe(true);
    // Both refusals counted as 429s of the connection cap (docs/operations.md, "Metrics reference").
    expect((await connectionCapRefusals()) - refusedBefore).toBe(2);

    // Closed sockets give their places back.
    for (const socket of held) socket.socket.destroy();
    await allClosed(held, 10_000);
    await waitUntil(async () => (await healthz(port, '127.0.0.3').catch(() => 0)) === 200);
  });

  it('idle keep-alive sockets are not counted: a client opening a new connection per request is never refused', async () => {
    // Issue 32: each request on its own connection, kept open by the client; the old count refused the fourth.
    const port = await listening({ maxConnectionsPerClient: 3, maxConnections: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push(await getOnNewConnection(port, '127.0.0.8'));
    expect(statuses).toEqual(Array.from({ length: 12 }, () => 200));
  });

  it('by default, 200 requests in flight at once from one address (a NAT in front of 200 workers) are all admitted', async () => {
    const port = await listening({});
    // 200 requests whose bodies are still arriving: each holds its socket until the test ends.
    const held = await open(port, '127.0.0.9', 200);
    expect(held.every((s) => !s.isClosed())).toBe(true);
    // And another request from the same address, on a new connection, still gets in.
    expect(await healthz(port, '127.0.0.9')).toBe(200);
    for (const socket of held) socket.socket.destroy();
  });

  it('at the total cap a new client still gets /healthz: the oldest socket still sending its request makes room', async () => {
    const port = await listening({ maxConnectionsPerClient: 3, maxConnections: 6 });
    const first = await open(port, '127.0.0.5', 3);
    const second = await open(port, '127.0.0.6', 3);
    expect(await healthz(port, '127.0.0.7')).toBe(200);
    await allClosed(first.slice(0, 1), 10_000);
    expect([...first.slice(1), ...second].every((s) => !s.isClosed())).toBe(true);
  });
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached');
}

/**
 * Webhook delivery against a real receiver on 127.0.0.1, with the schedule
 * scaled by 0.01 (the 15-minute window is 9 s; 15 s becomes 150 ms): the
 * receiver checks every signature with its own HMAC code, also with two secrets
 * during a rotation; a receiver that is down for most of the window receives
 * every event when it comes back; one that never answers sees the documented
 * schedule and nothing after the window, and every attempt is in the log.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../test/support/loopback-server.ts';
import { emitEvent } from '../events/emit.ts';
import { rotateSecret } from '../tenants/organizations.ts';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from './dispatcher.ts';
import { RETRY_DELAYS_MS, JITTER_MS } from './schedule.ts';
import { createSender } from './sender.ts';

const SCALE = 0.01;
// The spec's 5 s answer timeout, scaled like the schedule (with room for a loaded test machine).
const TIMEOUT_MS = 100;

interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

/** A receiver whose answer the test sets: 200, 500, or no answer at all. */
class Receiver {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  received: Received[] = [];
  connections = 0;
  readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers, at: Date.now() });
      if (this.mode === 'hang') return;
      response.writeHead(this.mode === 'ok' ? 200 : 500).end(this.mode === 'ok' ? 'thanks' : 'down for maintenance');
    });
  });

  constructor() {
    this.server.on('connection', () => {
      this.connections += 1;
    });
  }

  listen(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/** The receiver's own verification, written from the spec, not with the service's code. */
function verifies(body: string, header: string | undefined, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
  return (header ?? '').split(', ').includes(expected);
}

let t: TestApp;
let receiver: Receiver;
let url: string;
let dispatcher: WebhookDispatcher | null = null;
const tenant = () => ({ organizationId: t.org.organization.id, environment: 'sandbox' as const });

beforeAll(async () => {
  t = await startTestApp({ config: { webhookScheduleScale: SCALE, webhookTimeoutMs: TIMEOUT_MS, webhookAllowPrivate: true } });
  receiver = new Receiver();
  url = await receiver.listen();
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    url,
  ]);
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = null;
  receiver.mode = 'ok';
  receiver.received = [];
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function emit(code: string, extra: Record<string, unknown> = {}): Promise<string> {
  return emitEvent(t.db.pool, t.services.cipher, {
    tenant: tenant(),
    connectionId: null,
    type: 'CONNECTION',
    code,
    payload: { type: 'CONNECTION', code, connection_id: randomUUID(), ...extra },
  });
}

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

describe('webhook delivery', () => {
  it('signs every delivery as the spec says, with an event id to de-duplicate on', async () => {
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
    const ids = [await emit('INITIAL_UPDATE'), await emit('CONNECTION_UPDATED', { store_unique_id: 'x' })];
    await until(() => receiver.received.length >= 2, 5_000);
    const secret = t.org.credentials.sandbox.client_secret;
    for (const hit of receiver.received) {
      expect(verifies(hit.body, hit.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(verifies(hit.body, hit.headers['x-service-signatures'] as string, secret)).toBe(true);
      expect(hit.headers['content-type']).toBe('application/json');
    }
    expect(receiver.received.map((r) => r.headers['x-service-event-id']).sort()).toEqual([...ids].sort());
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { code: string });
    expect(bodies.map((b) => b.code).sort()).toEqual(['CONNECTION_UPDATED', 'INITIAL_UPDATE']);
    // The receiver has answered; the settle that records it follows a moment later.
    const settled = async () =>
      (
        await t.db.pool.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])',
          [ids],
        )
      ).rows;
    await until(async () => (await settled()).every((row) => row.status !== 'delivering'), 5_000);
    expect(await settled()).toEqual([
      { status: 'delivered', attempts: 1 },
      { status: 'delivered', attempts: 1 },
    ]);
  });

  it('lists both signatures during a secret rotation, the new secret first', async () => {
    const org = t.org;
    const rotated = await rotateSecret(t.db.pool, t.services.cipher, org.organization.id, 'sandbox', 3600);
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
    await sleep(100);
    await emit('CONNECTION_UPDATED', { store_unique_id: 'rotation' });
    await until(() => receiver.received.length >= 1, 15_000);
    const [hit] = receiver.received;
    if (hit === undefined) throw new Error('nothing received');
    const listed = String(hit.headers['x-service-signatures']).split(', ');
    expect(listed).toHaveLength(2);
    expect(verifies(hit.body, listed[0], rotated.client_secret)).toBe(true);
    expect(verifies(hit.body, listed[1], org.credentials.sandbox.client_secret)).toBe(true);
    expect(verifies(hit.body, hit.headers['x-service-signature'] as string, rotated.client_secret)).toBe(true);
    // The receiver accepts with either of its secrets (the spec's rule).
    expect(verifies(hit.body, hit.headers['x-service-signatures'] as string, org.credentials.sandbox.client_secret)).toBe(true);
    t.org.credentials.sandbox.client_secret = rotated.client_secret;
  });

  it('delivers every event to a receiver that was down for most of the window, once it is back', async () => {
    receiver.mode = 'fail';
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) ids.push(await emit('INCREMENTAL_SYNC_COMPLETED', { n }));
    // "Ten minutes" down, scaled: 6 s of the 9 s window.
    await sleep(6_000);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id'])).size).toBe(20);
    receiver.mode = 'ok';
    await until(async () => {
      const done = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1::uuid[]) AND status = 'delivered'`,
        [ids],
      );
      return done.rows[0]?.n === 20;
    }, 8_000);
    const okIds = new Set(receiver.received.map((r) => r.headers['x-service-event-id']));
    for (const id of ids) expect(okIds.has(id)).toBe(true);
    const attempts = await t.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = ANY($1::uuid[])',
      [ids],
    );
    expect(attempts.rows[0]?.n).toBe(receiver.received.length);
  }, 30_000);

  it('follows the schedule for a receiver that never answers in time, then gives up at the end of the window', async () => {
    receiver.mode = 'hang';
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 25 });
    const id = await emit('CONNECTION_NEEDS_UPDATE', { update_url: 'https://example.com' });
    const created =
      (await t.db.pool.query<{ created_at: Date }>('SELECT created_at FROM events WHERE id = $1', [id])).rows[0]?.created_at.getTime() ?? 0;
    await until(
      async () => (await t.db.pool.query(`SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND status = 'failed'`, [id])).rowCount === 1,
      15_000,
    );
    const countAtFailure = receiver.received.length;
    const log = await t.db.pool.query<{ attempt: number; started_at: Date; error: string | null; status_code: number | null }>(
      'SELECT a.attempt, a.started_at, a.error, a.status_code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 ORDER BY a.attempt',
      [id],
    );
    // The initial attempt and six retries; the seventh would start after the window.
    expect(log.rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(log.rows.every((r) => r.status_code === null && r.error === `no answer within ${TIMEOUT_MS} ms`)).toBe(true);
    const starts = log.rows.map((r) => r.started_at.getTime());
    expect((starts[0] ?? 0) - created).toBeLessThan(1_000);
    for (let n = 1; n < starts.length; n++) {
      const gap = (starts[n] ?? 0) - (starts[n - 1] ?? 0);
      const delay = (RETRY_DELAYS_MS[n - 1] ?? 0) * SCALE;
      // Each retry waits its delay (plus jitter) after the previous attempt timed out.
      expect(gap, `retry ${n}`).toBeGreaterThanOrEqual(delay + TIMEOUT_MS - 20);
      expect(gap, `retry ${n}`).toBeLessThanOrEqual(delay + JITTER_MS * SCALE + TIMEOUT_MS + 400);
    }
    expect((starts.at(-1) ?? 0) - created).toBeLessThan(9_000);
    await sleep(1_500);
    expect(receiver.received.length).toBe(countAtFailure);
    expect(receiver.received.filter((r) => r.headers['x-service-event-id'] === id)).toHaveLength(7);
  }, 30_000);

  it('never sends one attempt twice with several dispatchers working the same outbox', async () => {
    const dispatchers = [
      startWebhookDispatcher(t.services, { pollMs: 20 }),
      startWebhookDispatcher(t.services, { pollMs: 20 }),
      startWebhookDispatcher(t.services, { pollMs: 20 }),
    ];
    try {
      const ids = new Set<string>();
      for (let n = 0; n < 300; n++) ids.add(await emit('INCREMENTAL_SYNC_COMPLETED', { n }));
      await until(() => receiver.received.length >= 300, 20_000);
      const attempts = async () =>
        (
          await t.db.pool.query<{ event_id: string; attempts: number; delivered: boolean }>(
            `SELECT d.event_id, count(a.id)::int AS attempts, bool_or(d.status = 'delivered') AS delivered
           FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
          WHERE d.event_id = ANY($1::uuid[]) GROUP BY d.event_id`,
            [[...ids]],
          )
        ).rows;
      await until(async () => (await attempts()).every((row) => row.delivered), 20_000);
      await sleep(300);
      const seen = receiver.received.map((r) => String(r.headers['x-service-event-id']));
      expect(new Set(seen)).toEqual(ids);
      // Every request the receiver saw is one logged attempt: none sent twice. (On a loaded machine an answer can
      // miss the 100 ms timeout; its delivery is then legitimately attempted again, as a new, logged attempt.)
      const logged = await attempts();
      expect(logged).toHaveLength(300);
      expect(seen.length).toBe(logged.reduce((sum, row) => sum + row.attempts, 0));
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()));
    }
  }, 30_000);

  it('hands back, when stopped, what it claimed ahead but never attempted: due at once for another worker, its attempt undone', async () => {
    let releaseSend: () => void = () => undefined;
    const sent: string[] = [];
    const send = async (_url: string, _body: string, headers: Record<string, string>) => {
      sent.push(headers['X-Service-Event-Id'] ?? '');
      await new Promise<void>((resolve) => {
        releaseSend = resolve;
      });
      return { kind: 'success' as const, statusCode: 200, error: null, excerpt: null, durationMs: 1 };
    };
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push(await emit('INCREMENTAL_SYNC_COMPLETED', { n }));
    const states = async () =>
      (
        await t.db.pool.query<{ event_id: string; status: string; attempts: number; due: boolean }>(
          `SELECT event_id, status, attempts, next_attempt_at <= clock_timestamp() AS due FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`,
          [ids],
        )
      ).rows;
    // One attempt at a time: one in flight, one more claimed ahead, two left in the outbox.
    const local = startWebhookDispatcher(t.services, { pollMs: 20, concurrency: 1, send });
    await until(() => sent.length === 1, 5_000);
    await until(async () => (await states()).filter((d) => d.status === 'delivering').length === 2, 5_000);
    const stopped = local.stop();
    await until(async () => (await states()).filter((d) => d.status === 'delivering').length === 1, 5_000);
    const handedBack = (await states()).filter((d) => d.event_id !== sent[0]);
    expect(handedBack).toHaveLength(3);
    expect(handedBack.every((d) => d.status === 'pending' && d.attempts === 0 && d.due)).toBe(true);
    releaseSend();
    await stopped;
    expect((await states()).find((d) => d.event_id === sent[0])).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(sent).toHaveLength(1);
  });
});

describe('sender', () => {
  it('keeps a receiver answer with a NUL byte storable: the attempt is logged, not lost to PostgreSQL refusing U+0000', async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(500).end('bad\u0000answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { send, close } = createSender({ allowPrivate: true, timeoutMs: 1_000 });
    try {
      const result = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '{}', {});
      expect(result).toMatchObject({ kind: 'http_error', statusCode: 500, excerpt: 'badanswer' });
      await expect(t.db.pool.query('SELECT $1::text AS excerpt', [result.excerpt])).resolves.toMatchObject({ rows: [{ excerpt: 'badanswer' }] });
    } finally {
      close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    }
  });
});

describe('SSRF protection (WEBHOOK_ALLOW_PRIVATE=false)', () => {
  it('refuses loopback, private, link-local and metadata addresses, and names resolving to them, before connecting', async () => {
    const { send, close } = createSender({ allowPrivate: false, timeoutMs: 1_000 });
    const port = (receiver.server.address() as AddressInfo).port;
    const before = receiver.connections;
    try {
      for (const target of [
        `http://127.0.0.1:${port}/`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        `http://[::1]:${port}/`,
        `http://localhost:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        'http://192.168.1.10/',
        'http://172.16.0.5/',
        'http://0.0.0.0/',
      ]) {
        const result = await send(target, '{}', {});
        expect(result.kind, target).toBe('refused');
        expect(result.error, target).toMatch(/refused/);
      }
    } finally {
      close();
    }
    expect(receiver.connections).toBe(before);
  });

  it('marks a delivery to a refused address failed with the reason in its log, never reaching the address', async () => {
    const strict = await startTestApp({ config: { webhookScheduleScale: SCALE, webhookTimeoutMs: TIMEOUT_MS, webhookAllowPrivate: false } });
    const port = (receiver.server.address() as AddressInfo).port;
    const before = receiver.connections;
    const local = startWebhookDispatcher(strict.services, { pollMs: 25 });
    try {
      await strict.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
        strict.org.organization.id,
        'sandbox',
        `http://localhost:${port}/hooks`,
      ]);
      const id = await emitEvent(strict.db.pool, strict.services.cipher, {
        tenant: { organizationId: strict.org.organization.id, environment: 'sandbox' },
        connectionId: null,
        type: 'CONNECTION',
        code: 'INITIAL_UPDATE',
        payload: { code: 'INITIAL_UPDATE' },
      });
      await until(
        async () =>
          (
            await strict.db.pool.query('SELECT 1 FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1', [
              id,
            ])
          ).rowCount !== 0,
        5_000,
      );
      const log = await strict.db.pool.query<{ error: string }>(
        'SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1',
        [id],
      );
      expect(log.rows[0]?.error).toMatch(/refused: localhost resolves to/);
    } finally {
      await local.stop();
      await strict.close();
    }
    expect(receiver.connections).toBe(before);
  });
});

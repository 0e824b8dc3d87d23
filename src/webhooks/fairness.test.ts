/**
 * Delivery slots are shared per endpoint (organisation and environment): an
 * organisation whose receiver never answers, with many deliveries queued,
 * holds at most WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight per worker (and
 * as many again claimed and waiting), and another organisation's delivery is
 * attempted while the first one's queue is still full. Asserted as order and counts, never as timings (the timing is
 * bench/webhook-fairness.ts's figure).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../test/support/loopback-server.ts';
import { emitEvents } from '../events/emit.ts';
import type { CreatedOrganization } from '../tenants/organizations.ts';
import type { Tenant } from '../tenants/types.ts';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from './dispatcher.ts';

const CONCURRENCY = 16;
const ENDPOINT_CONCURRENCY = 4;
// Long enough that the dead receiver's whole queue could never be worked through during the test.
const TIMEOUT_MS = 4_000;
const QUEUED = 200;
const WORKERS = 2;

/** A receiver that answers 200 at once, or never ("dead"), counting the requests it holds open. */
class Receiver {
  readonly arrivals: { eventId: string; at: number }[] = [];
  open = 0;
  maxOpen = 0;
  readonly server: http.Server;

  constructor(dead: boolean) {
    this.server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.arrivals.push({ eventId: String(request.headers['x-service-event-id']), at: Date.now() });
        if (!dead) {
          response.writeHead(200).end();
          return;
        }
        this.open += 1;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        request.socket.once('close', () => {
          this.open -= 1;
        });
      });
    });
  }

  listen(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

let t: TestApp;
let orgA: CreatedOrganization;
let orgB: CreatedOrganization;
const dead = new Receiver(true);
const alive = new Receiver(false);
const dispatchers: WebhookDispatcher[] = [];
const tenantOf = (org: CreatedOrganization): Tenant => ({ organizationId: org.organization.id, environment: 'sandbox' });

beforeAll(async () => {
  t = await startTestApp({
    config: {
      webhookTimeoutMs: TIMEOUT_MS,
      webhookAllowPrivate: true,
      webhookConcurrency: CONCURRENCY,
      webhookEndpointConcurrency: ENDPOINT_CONCURRENCY,
    },
  });
  orgA = await t.newOrg('Dead receiver');
  orgB = await t.newOrg('Live receiver');
  for (const [org, receiver] of [
    [orgA, dead],
    [orgB, alive],
  ] as const) {
    await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
      org.organization.id,
      'sandbox',
      await receiver.listen(),
    ]);
  }
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await dead.close();
  await alive.close();
  await t.close();
});

const event = (n: number): { connectionId: null; type: string; code: string; payload: Record<string, unknown> } => ({
  connectionId: null,
  type: 'CONNECTION',
  code: 'CONNECTION_UPDATED',
  payload: { type: 'CONNECTION', code: 'CONNECTION_UPDATED', n },
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Deliveries of an organisation by state: never attempted, and leased right now. */
async function counts(org: CreatedOrganization): Promise<{ unattempted: number; leased: number }> {
  const result = await t.db.pool.query<{ unattempted: number; leased: number }>(
    `SELECT count(*) FILTER (WHERE attempts = 0)::int AS unattempted,
            count(*) FILTER (WHERE status = 'delivering' AND locked_until > clock_timestamp())::int AS leased
       FROM webhook_deliveries WHERE organization_id = $1`,
    [org.organization.id],
  );
  return result.rows[0] ?? { unattempted: 0, leased: 0 };
}

describe('webhook fairness between organisations', () => {
  it("delivers another organisation's events while a dead receiver's queue is still full, the dead one holding at most its share", async () => {
    await emitEvents(
      t.db.pool,
      t.services.cipher,
      tenantOf(orgA),
      Array.from({ length: QUEUED }, (_, n) => event(n)),
    );
    // Two workers share the outbox, as in a deployment with two worker processes.
    for (let n = 0; n < WORKERS; n++) dispatchers.push(startWebhookDispatcher(t.services, { pollMs: 50 }));
    await until(() => dead.open >= WORKERS * ENDPOINT_CONCURRENCY, 10_000, 'the dead receiver holds its share');

    let maxLeasedA = 0;
    const sampling = (async () => {
      while (alive.arrivals.length < 5 && dispatchers.length > 0) {
        maxLeasedA = Math.max(maxLeasedA, (await counts(orgA)).leased);
        await sleep(20);
      }
    })();
    await emitEvents(
      t.db.pool,
      t.services.cipher,
      tenantOf(orgB),
      Array.from({ length: 5 }, (_, n) => event(n)),
    );
    // Old code: B's five wait behind A's 200 (16 slots, each held for the 4 s timeout: about 50 s).
    await until(() => alive.arrivals.length >= 5, 20_000, 'organisation B delivered');
    await sampling;

    const a = await counts(orgA);
    // B went through while A's queue had barely started: most of A's deliveries were never attempted yet.
    expect(a.unattempted).toBeGreaterThan(QUEUED / 2);
    expect(new Set(alive.arrivals.map((r) => r.eventId)).size).toBe(5);
    // Answered, then settled a moment later.
    const statusesOfB = async () =>
      (
        await t.db.pool.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 GROUP BY status',
          [orgB.organization.id],
        )
      ).rows;
    await until(async () => (await statusesOfB()).every((row) => row.status !== 'delivering'), 5_000, 'B settled');
    expect(await statusesOfB()).toEqual([{ status: 'delivered', n: 5 }]);
    // The dead receiver never held more than its share of each worker's slots (the receiver counts open requests),
    // nor claimed more than twice that (in flight and waiting; the database counts leases).
    expect(dead.maxOpen).toBeLessThanOrEqual(WORKERS * ENDPOINT_CONCURRENCY);
    expect(maxLeasedA).toBeLessThanOrEqual(WORKERS * 2 * ENDPOINT_CONCURRENCY);
    expect(a.leased).toBeLessThanOrEqual(WORKERS * 2 * ENDPOINT_CONCURRENCY);
  });
});

/**
 * Webhook delivery chaos, the issue's "Done when": 5,000 events, a receiver
 * failing 30% of requests, the worker process (`--role=worker`, a real child
 * process) killed with kill -9 every 2-5 s and restarted at once. The 2-5 s
 * count from when the worker has started (its start line), so each worker
 * delivers for 2-5 s whatever the machine's start-up time.
 *
 * The schedule runs scaled by 0.2 (WEBHOOK_SCHEDULE_SCALE): the 15-minute
 * window is 180 s and the retries come after about 3 s, 5 s, 9 s, 18 s, 36 s
 * and 66 s. It runs alone, after the other fault files
 * (vitest.faults-alone.config.ts): beside one of them, at 0.1 (a 90 s window),
 * a run's slowest event was accepted 89.6 s after it was created, and at 0.2
 * another run's workers took a median 5.7 s to start and events waited p50
 * 43 s for a first attempt (2026-11-30). The lease of a killed worker's claims is 10 s
 * (max(10 s, 5 × WEBHOOK_TIMEOUT_MS=1000)), so a delivery cut off by a kill
 * comes due again with most of its window left.
 *
 * The receiver (127.0.0.1, its own HMAC check against the organisation's
 * sandbox client secret) answers 500 to a seeded random 30% of requests, but
 * never more than MAX_FAILURES_PER_EVENT times to one event: the spec allows
 * seven attempts in the window, and an unbounded independent 30% draw would
 * leave 0.3^7 × 5,000 ≈ 1.1 events expected to fail all seven, i.e. failed
 * for good by design in about two runs of three. With the bound, an event
 * not delivered is the service's fault (lost, stuck, or out of time through
 * kills), never the dice's. The bound changes the share of 500s by under
 * one point (it is asserted to stay within 27-33%).
 *
 * Proves that: every event is accepted (2xx) by the receiver at least once,
 * with its own payload; acceptances beyond the first per event (duplicates)
 * are under 1% of the events; no 2xx acceptance and no logged attempt started
 * after its delivery's deadline (LEAST(deadline_at, created_at + window));
 * every delivery row ends `delivered`; every signature verifies; at least 10
 * kills happened; the worker then stops cleanly on SIGTERM. The log gives
 * kills, claims cut off, deliveries, attempts, 500s served, duplicates,
 * creation-to-first-2xx p50/p99 and the run time.
 *
 * A duplicate is a request a kill caught between reaching the receiver and
 * its delivery being settled: the log shows, per kill, the claims it cut off
 * and the duplicates it made, and how long before the kill their first 2xx
 * came; with it, the time from event to first attempt and from a delivering
 * answer to the settled row (the window in which a kill makes a duplicate).
 * Set CHAOS_SEED to replay the receiver's and the kills' draws.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, type Cipher } from '../../src/crypto/secrets.ts';
import { emitEvents } from '../../src/events/emit.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
// The receiver's own verification, written from the spec (sha256= + base64 HMAC of the raw body), not with the service's code.
import { expectedWebhookSignature, header } from '../support/webhook-receiver.ts';

const KEY = randomBytes(32).toString('hex');
const SEED = process.env.CHAOS_SEED !== undefined && process.env.CHAOS_SEED !== '' ? Number(process.env.CHAOS_SEED) : randomBytes(4).readUInt32BE(0);
const EVENTS = 5_000;
const BATCH = 250;
/**
 * A batch of 250 every 1.5 s: each lands as a burst (the worker runs at full concurrency), and the 5,000 events arrive
 * over about 29 s, so that with the retries' tail the run lasts well over 10 kills even when delivery is fast.
 */
const BATCH_INTERVAL_MS = 1_500;
const SCALE = 0.2;
/** The spec's 15-minute window (900 s), scaled: computed here, not taken from the service's code. */
const WINDOW_MS = 900_000 * SCALE;
const TIMEOUT_MS = 1_000;
const FAILURE_RATE = 0.3;
const MAX_FAILURES_PER_EVENT = 4;
const KILL_EVERY_MS: readonly [number, number] = [2_000, 5_000];
const MIN_KILLS = 10;
/** After the last event: its whole window, plus this, before the run is declared stuck. */
const MARGIN_MS = 20_000;
const DUPLICATE_LIMIT = EVENTS * 0.01;
const STARTED_LINE = 'ledgerport worker started';

/** mulberry32: a small seeded PRNG, so a run's draws can be replayed with CHAOS_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Acceptance {
  at: number;
  n: number | null;
  attempt: string | undefined;
}

/** Answers 500 to a seeded 30% of requests (at most MAX_FAILURES_PER_EVENT per event), 200 to the rest once the signature verifies. */
class ChaosReceiver {
  readonly accepted = new Map<string, Acceptance[]>();
  readonly failuresByEvent = new Map<string, number>();
  requests = 0;
  served500 = 0;
  /** Draws that said "fail" but the event had had its MAX_FAILURES_PER_EVENT already: answered 200. */
  spared = 0;
  badSignatures = 0;
  badRequests: string[] = [];
  private readonly random: () => number;
  private secret = '';
  readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.handle(request, Buffer.concat(chunks), response);
    });
  });

  constructor(seed: number) {
    this.random = prng(seed);
  }

  private handle(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse): void {
    this.requests += 1;
    const eventId = header(request, 'x-service-event-id');
    const expected = expectedWebhookSignature(body, this.secret);
    const single = header(request, 'x-service-signature');
    const listed = (header(request, 'x-service-signatures') ?? '').split(', ');
    if (single !== expected || !listed.includes(expected)) {
      this.badSignatures += 1;
      response.writeHead(401).end('bad signature');
      return;
    }
    if (eventId === undefined || request.method !== 'POST') {
      this.badRequests.push(`${request.method ?? '?'} without X-Service-Event-Id`);
      response.writeHead(400).end('no event id');
      return;
    }
    const fail = this.random() < FAILURE_RATE;
    const failures = this.failuresByEvent.get(eventId) ?? 0;
    if (fail && failures < MAX_FAILURES_PER_EVENT) {
      this.failuresByEvent.set(eventId, failures + 1);
      this.served500 += 1;
      response.writeHead(500).end('chaos');
      return;
    }
    if (fail) this.spared += 1;
    let n: number | null = null;
    try {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'chaos_n' in parsed && typeof parsed.chaos_n === 'number') n = parsed.chaos_n;
    } catch {
      // n stays null: reported as a wrong payload.
    }
    const list = this.accepted.get(eventId) ?? [];
    list.push({ at: Date.now(), n, attempt: header(request, 'x-service-delivery-attempt') });
    this.accepted.set(eventId, list);
    response.writeHead(200).end('ok');
  }

  async listen(secret: string): Promise<string> {
    this.secret = secret;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }
}

let db: TestDatabase;
let tenant: Tenant;
let cipher: Cipher;
let receiver: ChaosReceiver;
let worker: ServiceProcess | null = null;
let workerSince = new Date();
/** When the running worker printed its start line; null while it is starting. */
let workerUpAt: number | null = null;
let workerStarts = 0;
const startupMs: number[] = [];
/** Each kill: when, and how many deliveries the victim had claimed and not settled (cut off, due again after the lease). */
const killLog: { at: number; cutOff: number }[] = [];

const workerEnv = (): Record<string, string> => ({
  DATABASE_URL: db.url,
  ENCRYPTION_KEY: KEY,
  ADMIN_TOKEN: 'webhook-chaos-admin-token',
  LOG_LEVEL: 'warn',
  SANDBOX_TICK_INTERVAL_SECONDS: '0',
  WEBHOOK_SCHEDULE_SCALE: String(SCALE),
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOK_ALLOW_PRIVATE: 'true',
});

function startWorker(): ServiceProcess {
  const started = startService(['--role=worker'], workerEnv());
  worker = started;
  workerUpAt = null;
  workerSince = new Date();
  workerStarts += 1;
  const since = workerSince.getTime();
  const watch = (): void => {
    if (started.output().includes(STARTED_LINE)) {
      startupMs.push(Date.now() - since);
      if (worker === started) workerUpAt = Date.now();
    } else if (started.child.exitCode === null && started.child.signalCode === null) setTimeout(watch, 10);
  };
  watch();
  return started;
}

/** The worker must not exit on its own: that is reported with its output. */
function checkWorker(): void {
  if (worker === null) return;
  const { child } = worker;
  if (child.exitCode !== null || (child.signalCode !== null && child.signalCode !== 'SIGKILL')) {
    throw new Error(`worker exited on its own (${String(child.exitCode ?? child.signalCode)}):\n${worker.output().slice(-4000)}`);
  }
}

async function killWorker(): Promise<void> {
  if (worker === null) return;
  const victim = worker;
  worker = null;
  const at = Date.now();
  victim.child.kill('SIGKILL');
  await victim.exited;
  // Claimed by the victim (since it started) and not settled: nobody else has touched them yet.
  const cut = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivering' AND updated_at >= $1`,
    [workerSince],
  );
  killLog.push({ at, cutOff: cut.rows[0]?.n ?? 0 });
}

beforeAll(async () => {
  db = await createTestDatabase('embedded', { poolSize: 8 });
  cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Webhook chaos test');
  tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  receiver = new ChaosReceiver(SEED);
  const url = await receiver.listen(org.credentials.sandbox.client_secret);
  await db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    tenant.organizationId,
    tenant.environment,
    url,
  ]);
}, 300_000);

afterAll(async () => {
  if (worker !== null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
    worker = null;
  }
  await receiver.close();
  await db.close();
});

async function openDeliveries(): Promise<number> {
  const result = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'delivering')`);
  return result.rows[0]?.n ?? 0;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

describe('webhook delivery under chaos', () => {
  it('delivers 5,000 events to a 30%-failing receiver while the worker is killed with kill -9 every few seconds', async () => {
    const begun = Date.now();
    const killRandom = prng(SEED ^ 0x5bd1e995);
    const nextKillIn = (): number => KILL_EVERY_MS[0] + Math.floor(killRandom() * (KILL_EVERY_MS[1] - KILL_EVERY_MS[0] + 1));

    // The events arrive in batches while the worker runs (and is killed).
    const emission: { emitted: number; done: boolean; at: number; error: unknown } = { emitted: 0, done: false, at: 0, error: null };
    const emitAll = async (): Promise<void> => {
      for (let start = 0; start < EVENTS; start += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, EVENTS - start) }, (_, k) => {
          const n = start + k;
          return {
            connectionId: null,
            type: 'CONNECTION',
            code: 'CONNECTION_UPDATED',
            payload: { type: 'CONNECTION', code: 'CONNECTION_UPDATED', chaos_n: n },
          };
        });
        await emitEvents(db.pool, cipher, tenant, batch);
        emission.emitted += batch.length;
        if (emission.emitted < EVENTS) await sleep(BATCH_INTERVAL_MS);
      }
    };

    startWorker();
    const emitting = emitAll().then(
      () => {
        emission.at = Date.now();
        emission.done = true;
      },
      (error: unknown) => {
        emission.error = error;
        emission.done = true;
      },
    );
    // The kill clock starts once the worker says it has started: a worker killed while still starting does no work, so
    // on a loaded machine (CI runs two fault files at once) a clock started at spawn measured the machine's start-up
    // time, not delivery: with start-ups near the 2-5 s interval, a run saw retries 40 s apart and missed windows.
    let nextKill: number | null = null;
    let stuck = false;
    for (;;) {
      checkWorker();
      if (emission.error !== null) throw new Error('emitting the events failed', { cause: emission.error });
      if (emission.done && (await openDeliveries()) === 0) break;
      const deadline = emission.done ? emission.at + WINDOW_MS + MARGIN_MS : begun + 120_000;
      if (Date.now() > deadline) {
        stuck = true;
        break;
      }
      if (nextKill === null && workerUpAt !== null) nextKill = workerUpAt + nextKillIn();
      if (nextKill !== null && Date.now() >= nextKill) {
        await killWorker();
        startWorker();
        nextKill = null;
      }
      await sleep(50);
    }
    await emitting;
    // A clean stop: SIGTERM, the dispatcher drains what it holds, exit 0 (asserted after the summary).
    const last = worker;
    worker = null;
    let stopCode: number | null = 0;
    if (last !== null) {
      last.child.kill('SIGTERM');
      stopCode = await last.exited;
    }
    const elapsed = Date.now() - begun;

    // What the database says.
    const windowSeconds = WINDOW_MS / 1000;
    const events = await db.pool.query<{ id: string; n: number; created_at: Date }>(
      `SELECT id, (payload->>'chaos_n')::int AS n, created_at FROM events WHERE organization_id = $1 AND environment = $2`,
      [tenant.organizationId, tenant.environment],
    );
    const deliveries = await db.pool.query<{
      id: string;
      event_id: string;
      status: string;
      attempts: number;
      deadline: Date;
      last_error: string | null;
      next_attempt_at: Date;
      finished_at: Date | null;
    }>(
      `SELECT id, event_id, status, attempts, LEAST(deadline_at, created_at + make_interval(secs => $2)) AS deadline, last_error, next_attempt_at, finished_at
         FROM webhook_deliveries WHERE organization_id = $1`,
      [tenant.organizationId, windowSeconds],
    );
    const attempts = await db.pool.query<{
      delivery_id: string;
      attempt: number;
      started_at: Date;
      duration_ms: number;
      status_code: number | null;
      error: string | null;
    }>(
      `SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.organization_id = $1`,
      [tenant.organizationId],
    );

    const problems: string[] = [];
    const iso = (at: Date | number): string => new Date(at).toISOString().slice(11, 23);
    if (events.rows.length !== EVENTS) problems.push(`${events.rows.length} events stored, not ${EVENTS}`);
    if (deliveries.rows.length !== EVENTS) problems.push(`${deliveries.rows.length} deliveries, not one per event (${EVENTS})`);
    const deliveryByEvent = new Map(deliveries.rows.map((d) => [d.event_id, d]));
    const deliveryById = new Map(deliveries.rows.map((d) => [d.id, d]));
    const attemptsByDelivery = new Map<string, typeof attempts.rows>();
    for (const a of attempts.rows) attemptsByDelivery.set(a.delivery_id, [...(attemptsByDelivery.get(a.delivery_id) ?? []), a]);
    const describeDelivery = (eventId: string): string => {
      const d = deliveryByEvent.get(eventId);
      if (d === undefined) return 'no delivery row';
      const log = (attemptsByDelivery.get(d.id) ?? [])
        .sort((x, y) => x.attempt - y.attempt)
        .map((a) => `#${a.attempt} ${iso(a.started_at)} ${String(a.status_code ?? a.error)}`)
        .join(', ');
      const seen = (receiver.accepted.get(eventId) ?? []).map((r) => `${iso(r.at)} (attempt ${r.attempt ?? '?'})`).join(', ');
      return (
        `delivery ${d.id} ${d.status}, attempts ${d.attempts}, next ${iso(d.next_attempt_at)}, deadline ${iso(d.deadline)}, ` +
        `last error ${String(d.last_error)}; logged: [${log}]; 500s served ${receiver.failuresByEvent.get(eventId) ?? 0}; 2xx at [${seen}]`
      );
    };

    // 1. Every event accepted at least once, with its own payload, and never after its deadline.
    const firstLatencies: number[] = [];
    let duplicates = 0;
    for (const event of events.rows) {
      const seen = receiver.accepted.get(event.id) ?? [];
      if (seen.length === 0) {
        problems.push(`event ${event.id} (n ${event.n}, created ${iso(event.created_at)}) never accepted: ${describeDelivery(event.id)}`);
        continue;
      }
      duplicates += seen.length - 1;
      firstLatencies.push(Math.min(...seen.map((s) => s.at)) - event.created_at.getTime());
      if (seen.some((s) => s.n !== event.n))
        problems.push(`event ${event.id} (n ${event.n}) delivered with payload n ${seen.map((s) => String(s.n)).join(', ')}`);
      const deadline = deliveryByEvent.get(event.id)?.deadline;
      const late = deadline === undefined ? [] : seen.filter((s) => s.at > deadline.getTime());
      if (late.length > 0) problems.push(`event ${event.id}: 2xx acceptance after the deadline: ${describeDelivery(event.id)}`);
    }
    const known = new Set(events.rows.map((e) => e.id));
    for (const id of receiver.accepted.keys()) if (!known.has(id)) problems.push(`the receiver accepted an unknown event id ${id}`);

    // 2. No logged attempt started after its delivery's deadline.
    for (const a of attempts.rows) {
      const d = deliveryById.get(a.delivery_id);
      if (d !== undefined && a.started_at > d.deadline) {
        problems.push(
          `attempt #${a.attempt} of delivery ${d.id} started ${iso(a.started_at)}, after its deadline ${iso(d.deadline)}: ${describeDelivery(d.event_id)}`,
        );
      }
    }

    // 3. Every delivery row ends delivered.
    for (const d of deliveries.rows)
      if (d.status !== 'delivered') problems.push(`delivery of event ${d.event_id} ends ${d.status}: ${describeDelivery(d.event_id)}`);

    // The summary.
    const sorted = [...firstLatencies].sort((a, b) => a - b);
    const kills = killLog.length;
    // Each duplicate: how long before the next kill its first 2xx was answered (the kill caught it between the answer and
    // the settlement), and which kill it was.
    const beforeKill: number[] = [];
    const duplicatesPerKill = killLog.map(() => 0);
    for (const seen of receiver.accepted.values()) {
      const first = seen[0];
      if (seen.length < 2 || first === undefined) continue;
      const k = killLog.findIndex((kill) => kill.at >= first.at);
      if (k < 0) continue;
      beforeKill.push((killLog[k]?.at ?? 0) - first.at);
      duplicatesPerKill[k] = (duplicatesPerKill[k] ?? 0) + 1;
    }
    const cutOff = killLog.reduce((sum, k) => sum + k.cutOff, 0);
    const statusCount = (f: (a: (typeof attempts.rows)[number]) => boolean): number => attempts.rows.filter(f).length;
    const failureShare = receiver.requests === 0 ? 0 : receiver.served500 / receiver.requests;
    const maxAttempts = Math.max(0, ...deliveries.rows.map((d) => d.attempts));
    const median = (values: number[]): number =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    const spread = (values: number[]): string => {
      const ordered = [...values].sort((a, b) => a - b);
      return `p50 ${percentile(ordered, 50)} ms, p99 ${percentile(ordered, 99)} ms, max ${ordered.at(-1) ?? 0} ms`;
    };
    // Where the time goes: event creation to the first attempt (backlog, lost claims), and the answer of the delivering
    // attempt to the delivery being settled (while that gap is open, a kill turns the 2xx into a duplicate).
    const eventCreated = new Map(events.rows.map((e) => [e.id, e.created_at.getTime()]));
    const firstAttemptDelays: number[] = [];
    const settleGaps: number[] = [];
    for (const d of deliveries.rows) {
      const log = attemptsByDelivery.get(d.id) ?? [];
      const first = log.find((a) => a.attempt === 1) ?? log[0];
      const created = eventCreated.get(d.event_id);
      if (first !== undefined && created !== undefined) firstAttemptDelays.push(first.started_at.getTime() - created);
      const settling = log.find((a) => a.attempt === d.attempts);
      if (d.status === 'delivered' && settling !== undefined && d.finished_at !== null) {
        settleGaps.push(d.finished_at.getTime() - (settling.started_at.getTime() + settling.duration_ms));
      }
    }
    console.log(
      [
        `webhook chaos test (seed ${SEED}): ${kills} kill -9s, ${workerStarts} worker starts (start-up median ${median(startupMs)} ms), ` +
          `${Math.round(elapsed / 1000)} s in all (events emitted over ${Math.round((emission.at - begun) / 1000)} s)${stuck ? ', STOPPED AT THE DEADLINE' : ''}`,
        `  kills cut off ${cutOff} claimed deliveries (per kill, cut off/duplicates: ${killLog.map((k, i) => `${k.cutOff}/${duplicatesPerKill[i] ?? 0}`).join(' ')})`,
        `  deliveries: ${deliveries.rows.length} (${deliveries.rows.filter((d) => d.status === 'delivered').length} delivered, ` +
          `${deliveries.rows.filter((d) => d.status === 'failed').length} failed, ${deliveries.rows.filter((d) => d.status === 'pending' || d.status === 'delivering').length} open), max attempts ${maxAttempts}`,
        `  attempts logged: ${attempts.rows.length} (${statusCount((a) => a.status_code !== null && a.status_code >= 200 && a.status_code < 300)} 2xx, ` +
          `${statusCount((a) => a.status_code === 500)} 500, ${statusCount((a) => a.status_code === null)} without an answer)`,
        `  receiver: ${receiver.requests} requests, ${receiver.served500} answered 500 (${(failureShare * 100).toFixed(1)}%), ` +
          `${receiver.spared} spared by the ${MAX_FAILURES_PER_EVENT}-failures bound, ${receiver.badSignatures} bad signatures`,
        `  duplicates (2xx beyond the first per event): ${duplicates} (${((duplicates / EVENTS) * 100).toFixed(2)}%, limit ${DUPLICATE_LIMIT}); ` +
          `their first 2xx came before the next kill by ${spread(beforeKill)}`,
        `  event creation to first 2xx: p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1) ?? 0} ms`,
        `  event creation to first attempt: ${spread(firstAttemptDelays)}; delivering answer to delivery settled: ${spread(settleGaps)}`,
        ...problems.slice(0, 30).map((p) => `  PROBLEM ${p}`),
        problems.length > 30 ? `  ... and ${problems.length - 30} more problems` : '',
      ]
        .filter((line) => line !== '')
        .join('\n'),
    );

    expect(stuck, "deliveries still open after the last event's window and the margin").toBe(false);
    expect(stopCode, `worker exit on SIGTERM:\n${last?.output().slice(-4000) ?? ''}`).toBe(0);
    expect(problems).toEqual([]);
    expect(receiver.badSignatures).toBe(0);
    expect(receiver.badRequests).toEqual([]);
    expect(receiver.accepted.size).toBe(EVENTS);
    expect(duplicates).toBeLessThan(DUPLICATE_LIMIT);
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(failureShare).toBeGreaterThan(0.27);
    expect(failureShare).toBeLessThan(0.33);
  }, 600_000);
});

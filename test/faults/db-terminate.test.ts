/**
 * PostgreSQL connections terminated under a running worker. One worker process
 * (`--role=worker`, a real child process, never restarted) runs at the same
 * time: an initial sync of a 20,000-record sandbox and incrementals after each
 * `advance` (connection A), bill creates and updates with their follow-up
 * syncs (connection B), and the webhook deliveries of every event all this
 * fires, to a receiver on 127.0.0.1. Meanwhile, every 100-1000 ms (at random),
 * the test runs pg_terminate_backend on one of the worker's backends
 * (application_name ledgerport-api, -worker, -webhooks: its pools; ledgerport-jobs: its pg-boss) that
 * is `active` or `idle in transaction` at that moment, so the cut lands in
 * the middle of statements and transactions; it picks a kind of work first
 * (sync progress, stored copy and events, write jobs, webhooks, pg-boss, ...)
 * so the rarer ones are hit too. The test's own connections are named
 * differently and never targeted.
 *
 * Proves that: the worker survives every termination (the same process
 * throughout; exit 0 on SIGTERM at the end); after each sync of A, A's stored
 * copy equals the sandbox's books and the sync fired exactly the entity
 * events the change implies, none missing, none twice; every bill write is
 * settled, completed and applied exactly once (see test/support/bill-writes.ts:
 * no write lost, none applied twice; a failed job fails the test, whatever
 * its reason: a lost connection is our own failure, never a reason to give a
 * write up); B's stored copy equals its books after a last sync; every event
 * is accepted (2xx, signature verified) by the receiver at least once and
 * every delivery row ends delivered. The log gives the terminations by state
 * (active, in an open transaction, idle in transaction) and by what the
 * backend was doing; at least one must have cut a transaction open.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher } from '../../src/crypto/secrets.ts';
import { createBoss, type PgBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { FaultWorkload, type WorkloadOptions } from '../support/fault-workload.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startTestSandbox } from '../support/sandbox.ts';

const RECORDS = Number(process.env.FAULT_SANDBOX_SIZE ?? 20_000);
const USERS = { sync: `user_terminate_size_${RECORDS}`, write: 'user_terminate_writes_size_800' };
const KEY = randomBytes(32).toString('hex');
/** The test's own connections: never terminated. */
const TEST_APPLICATION = 'ledgerport-fault-test';
/** The worker's: its pool and its pg-boss. */
const SERVICE_APPLICATIONS = ['ledgerport-api', 'ledgerport-worker', 'ledgerport-webhooks', 'ledgerport-jobs'];
const DEADLINE_MS = 300_000;

let db: TestDatabase;
let boss: PgBoss;
let tenant: Tenant;
let workload: FaultWorkload;
let receiver: WebhookReceiver;
let worker: ServiceProcess | null = null;

const workerEnv = (): Record<string, string> => ({
  DATABASE_URL: db.url,
  ENCRYPTION_KEY: KEY,
  ADMIN_TOKEN: 'db-terminate-admin-token',
  LOG_LEVEL: 'warn',
  SANDBOX_TICK_INTERVAL_SECONDS: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
});

/** The worker must not exit on its own (it is never restarted here): that is reported with its output. */
function checkWorker(): void {
  if (worker === null) throw new Error('no worker');
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(`worker exited on its own (${String(child.exitCode ?? child.signalCode)}):\n${worker.output().slice(-4000)}`);
  }
}

interface Termination {
  state: string;
  inTransaction: boolean;
  wrote: boolean;
  doing: string;
  query: string;
}

/** What a backend is doing, from its statement (the last one, when idle in transaction). */
function doing(application: string, query: string): string {
  if (application === 'ledgerport-jobs') return 'pg-boss';
  if (query.includes('sandbox_platform.')) return 'sandbox platform';
  if (query.includes('webhook_')) return 'webhooks';
  if (query.includes('write_jobs')) return 'write jobs';
  if (/sync_objects|sync_runs/.test(query)) return 'sync progress';
  if (/\brecords\b|INSERT INTO events|pg_notify/.test(query)) return 'stored copy and events';
  return 'other';
}

/**
 * Every 100-1000 ms terminates one of the worker's backends that is active or idle in transaction: first a kind of
 * work at random among those under way (so the rarer ones, a write job's, are hit too), then one of its backends.
 */
class Terminator {
  readonly log: Termination[] = [];
  private readonly stopping = new AbortController();
  private readonly done: Promise<void>;

  constructor() {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    const { signal } = this.stopping;
    for (;;) {
      const woke = await sleep(randomInt(100, 1001), true, { signal }).catch(() => false);
      if (!woke) return;
      const busy = await db.pool.query<{ pid: number; application_name: string; query: string }>(
        `SELECT pid, application_name, query FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ANY($1::text[]) AND state IN ('active', 'idle in transaction')`,
        [SERVICE_APPLICATIONS],
      );
      const byKind = new Map<string, number[]>();
      for (const row of busy.rows) {
        const kind = doing(row.application_name, row.query);
        byKind.set(kind, [...(byKind.get(kind) ?? []), row.pid]);
      }
      const pids = [...byKind.values()][randomInt(0, Math.max(1, byKind.size))] ?? [];
      const pid = pids[randomInt(0, Math.max(1, pids.length))];
      if (pid === undefined) continue;
      // Terminated only if still busy; the state returned is the one it was in at that moment.
      const result = await db.pool.query<{
        state: string;
        in_transaction: boolean;
        wrote: boolean;
        application_name: string;
        query: string;
        terminated: boolean;
      }>(
        `SELECT state, application_name, query, backend_xid IS NOT NULL AS wrote,
                state = 'idle in transaction' OR (state = 'active' AND xact_start < query_start) AS in_transaction,
                pg_terminate_backend(pid) AS terminated
           FROM pg_stat_activity WHERE pid = $1 AND state IN ('active', 'idle in transaction')`,
        [pid],
      );
      const victim = result.rows[0];
      if (victim?.terminated !== true) continue;
      this.log.push({
        state: victim.state,
        inTransaction: victim.in_transaction,
        wrote: victim.wrote,
        doing: doing(victim.application_name, victim.query),
        query: victim.query.replace(/\s+/g, ' ').slice(0, 60),
      });
    }
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.done;
  }

  summary(): string {
    const count = (f: (t: Termination) => boolean): number => this.log.filter(f).length;
    const kinds = new Map<string, number>();
    for (const t of this.log) kinds.set(t.doing, (kinds.get(t.doing) ?? 0) + 1);
    const others = [...new Set(this.log.filter((t) => t.doing === 'other').map((t) => t.query))].slice(0, 5);
    return (
      `${this.log.length} backends terminated: ${count((t) => t.state === 'active' && !t.inTransaction)} active in a single statement, ` +
      `${count((t) => t.state === 'active' && t.inTransaction)} active inside an open transaction, ${count((t) => t.state === 'idle in transaction')} idle in transaction ` +
      `(${count((t) => t.wrote)} had written in their transaction); by what they were doing: ${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')}` +
      (others.length > 0 ? ` (other: ${others.join(' | ')})` : '')
    );
  }
}

beforeAll(async () => {
  db = await createTestDatabase('embedded', { poolSize: 8, applicationName: TEST_APPLICATION });
  const sandbox = startTestSandbox(db.pool);
  const cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Terminate test');
  tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  receiver = new WebhookReceiver();
  const url = await receiver.listen(org.credentials.sandbox.client_secret);
  await db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    tenant.organizationId,
    tenant.environment,
    url,
  ]);
  boss = createBoss(db.url, { schedule: false, applicationName: TEST_APPLICATION });
  await boss.start();
  workload = await FaultWorkload.create(db.pool, cipher, bossSender(boss), sandbox, tenant, USERS);
}, 600_000);

afterAll(async () => {
  if (worker !== null && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await boss.stop({ graceful: false, close: true });
  await receiver.close();
  await db.close();
});

describe('the worker under pg_terminate_backend of its connections', () => {
  it('keeps syncs exact, applies every write once and delivers every event, without restarting', async () => {
    const begun = Date.now();
    const options: WorkloadOptions = { syncs: 6, creates: 60, updates: 10, waves: 3, deadline: begun + DEADLINE_MS, alive: checkWorker };
    worker = startService(['--role=worker'], workerEnv());
    const terminator = new Terminator();
    const report = (): string =>
      [
        `db terminate test: ${terminator.summary()}`,
        `  syncs of A: ${workload.syncLog.join('; ')}`,
        `  ${workload.writeOutcome?.summary ?? 'writes not checked'}`,
      ].join('\n');
    let objects: number;
    try {
      objects = await workload.run(options);
    } catch (error) {
      console.log(`${report()}\n  FAILED after ${Math.round((Date.now() - begun) / 1000)} s`);
      throw error;
    } finally {
      await terminator.stop();
    }
    const chaosSeconds = Math.round((Date.now() - begun) / 1000);
    await workload.finish(options);
    const problems = [...workload.problems];

    // Every event delivered: the deliveries drain (claims cut off come due again when their lease ends).
    for (;;) {
      const open = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'delivering')`);
      if (open.rows[0]?.n === 0 || Date.now() > options.deadline) break;
      checkWorker();
      await sleep(250);
    }
    const events = await db.pool.query<{ id: string; code: string }>('SELECT id, code FROM events WHERE organization_id = $1', [
      tenant.organizationId,
    ]);
    const deliveries = await db.pool.query<{ event_id: string; status: string; attempts: number; last_error: string | null }>(
      'SELECT event_id, status, attempts, last_error FROM webhook_deliveries WHERE organization_id = $1',
      [tenant.organizationId],
    );
    const notAccepted = events.rows.filter((e) => (receiver.accepted.get(e.id) ?? 0) === 0);
    if (notAccepted.length > 0)
      problems.push(
        `${notAccepted.length} of ${events.rows.length} events never accepted by the receiver, e.g. ${notAccepted
          .slice(0, 5)
          .map((e) => `${e.code} ${e.id}`)
          .join(', ')}`,
      );
    const undelivered = deliveries.rows.filter((d) => d.status !== 'delivered');
    if (undelivered.length > 0) problems.push(`${undelivered.length} deliveries not delivered, e.g. ${JSON.stringify(undelivered.slice(0, 3))}`);
    if (deliveries.rows.length !== events.rows.length) problems.push(`${deliveries.rows.length} deliveries for ${events.rows.length} events`);
    const duplicates = [...receiver.accepted.values()].reduce((sum, n) => sum + n - 1, 0);

    // The same process all along; it stops cleanly.
    checkWorker();
    const last = worker;
    last.child.kill('SIGTERM');
    const stopCode = await last.exited;

    console.log(
      [
        report(),
        `  ${chaosSeconds} s under terminations, ${Math.round((Date.now() - begun) / 1000)} s in all`,
        `  webhooks: ${events.rows.length} events, ${receiver.requests} requests, ${duplicates} duplicate acceptances, ` +
          `max attempts ${Math.max(0, ...deliveries.rows.map((d) => d.attempts))}, ${receiver.badSignatures} bad signatures`,
        ...problems.slice(0, 40).map((p) => `  PROBLEM ${p}`),
      ].join('\n'),
    );

    expect(problems).toEqual([]);
    expect(objects).toBeGreaterThan(RECORDS * 0.9);
    expect(stopCode, `worker exit on SIGTERM:\n${last.output().slice(-4000)}`).toBe(0);
    expect(receiver.badSignatures).toBe(0);
    expect(receiver.badRequests).toBe(0);
    expect(terminator.log.length).toBeGreaterThan(0);
    expect(terminator.log.filter((t) => t.inTransaction).length).toBeGreaterThan(0);
  }, 900_000);
});

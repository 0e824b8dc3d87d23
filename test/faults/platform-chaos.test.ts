/**
 * The platform misbehaving on the wire. The SANDBOX platform runs as its own
 * HTTP server (packages/sandbox/src/server.ts, in this process), and the
 * worker (`--role=worker`, a real child process, never restarted) reaches it
 * through a chaos proxy (test/support/chaos-proxy.ts; SANDBOX_URL points at
 * the proxy), which with seeded randomness drops 6% of the requests (before
 * forwarding, after the platform answered, or halfway through the answer)
 * and holds 8% of the answers back 1-6 s. On top of that, every 6th write
 * request is cut after the platform applied it, two answers (one read, one
 * write) are held back 35 s, past the platform HTTP client's 30 s timeout
 * (src/platforms/http.ts HTTP_DEFAULTS): the client must give up and retry,
 * never hang; and one create has every send the client makes cut after the
 * platform applied it, so its job is tried again as indeterminate.
 *
 * Through it run an initial sync of a 5,000-record sandbox and incrementals
 * (connection A) and bill creates and updates (connection B). Proves that:
 * after each sync of A, the stored copy equals the books and the sync fired
 * exactly the entity events the change implies; every bill write is settled,
 * completed and applied exactly once, a write whose answer was lost being
 * sent again under its Idempotency-Key and answered with the first result,
 * never applied twice (test/support/bill-writes.ts), and the create whose
 * every send was cut found by its key (GET /v1/Requests/<key>, findCreated)
 * on the job's next attempt, not created again; B's stored copy equals
 * its books after a last sync; the worker never exits and stops cleanly.
 * The log gives what the proxy did; drops, delays, hangs the client gave up
 * on, and writes sent again under their key must all have happened.
 * Set CHAOS_SEED to replay the proxy's draws.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher } from '../../src/crypto/secrets.ts';
import { createBoss, type PgBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { HTTP_DEFAULTS } from '../../src/platforms/http.ts';
import { startSandboxServer, type SandboxServer } from '../../packages/sandbox/src/server.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import { ChaosProxy, seededChaos, type ChaosPolicy } from '../support/chaos-proxy.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { FaultWorkload, type WorkloadOptions } from '../support/fault-workload.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
import { startTestSandbox } from '../support/sandbox.ts';

const RECORDS = Number(process.env.FAULT_SANDBOX_SIZE ?? 5_000);
const USERS = { sync: `user_chaos_size_${RECORDS}`, write: 'user_chaos_writes_size_800' };
const KEY = randomBytes(32).toString('hex');
const SEED = process.env.CHAOS_SEED !== undefined && process.env.CHAOS_SEED !== '' ? Number(process.env.CHAOS_SEED) : randomBytes(4).readUInt32BE(0);
/** Past the client's per-attempt timeout. */
const HANG_MS = HTTP_DEFAULTS.timeoutMs + 5_000;
/** The request (counted from the first) whose answer hangs if it is a read, and the write request that hangs. */
const HANG_READ_AT = 20;
const HANG_WRITE_AT = 3;
const CUT_WRITE_EVERY = 6;
const LOSE_WRITE_AT = 10;
const DEADLINE_MS = 300_000;

let db: TestDatabase;
let boss: PgBoss;
let server: SandboxServer;
let proxy: ChaosProxy;
let workload: FaultWorkload;
let worker: ServiceProcess | null = null;
let proxyUrl = '';

/** The create whose every send the client makes is cut after the platform applied it (see chaosPolicy). */
let lostKey: string | null = null;

/**
 * Seeded drops and delays; every CUT_WRITE_EVERY-th write cut after the platform answered; one read and one write
 * hang. And one create, the first at or after write LOSE_WRITE_AT, has all its sends (as many as the client makes
 * before it gives up) cut after the platform applied it: its job is tried again as indeterminate, and must find the
 * bill by its Idempotency-Key (GET /v1/Requests/<key>) instead of creating it again.
 */
function chaosPolicy(): ChaosPolicy {
  const random = seededChaos(SEED, { drop: 0.06, delay: 0.08, delayMs: [1_000, 6_000] });
  let writes = 0;
  let readHung = false;
  let lostCuts = 0;
  return (request) => {
    const drawn = random(request);
    if (request.method !== 'GET') {
      writes += 1;
      if (lostKey === null && writes >= LOSE_WRITE_AT && request.method === 'POST') lostKey = request.idempotencyKey;
      if (lostKey !== null && request.idempotencyKey === lostKey && lostCuts < HTTP_DEFAULTS.maxAttempts) {
        lostCuts += 1;
        return { kind: 'drop-answered' };
      }
      if (writes === HANG_WRITE_AT) return { kind: 'delay', ms: HANG_MS };
      if (writes % CUT_WRITE_EVERY === 0) return { kind: writes % (2 * CUT_WRITE_EVERY) === 0 ? 'drop-midway' : 'drop-answered' };
    } else if (request.n >= HANG_READ_AT && !readHung) {
      readHung = true;
      return { kind: 'delay', ms: HANG_MS };
    }
    return drawn;
  };
}

/** The worker must not exit on its own (it is never restarted here): that is reported with its output. */
function checkWorker(): void {
  if (worker === null) throw new Error('no worker');
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(`worker exited on its own (${String(child.exitCode ?? child.signalCode)}):\n${worker.output().slice(-4000)}`);
  }
}

beforeAll(async () => {
  db = await createTestDatabase('embedded', { poolSize: 12 });
  const sandbox = startTestSandbox(db.pool);
  server = await startSandboxServer(sandbox.platform);
  proxy = new ChaosProxy(server.url, chaosPolicy());
  proxyUrl = await proxy.listen();
  const cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Platform chaos test');
  boss = createBoss(db.url, { schedule: false });
  await boss.start();
  workload = await FaultWorkload.create(
    db.pool,
    cipher,
    bossSender(boss),
    sandbox,
    { organizationId: org.organization.id, environment: 'sandbox' },
    USERS,
  );
}, 600_000);

afterAll(async () => {
  if (worker !== null && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await proxy.close();
  await server.close();
  await boss.stop({ graceful: false, close: true });
  await db.close();
});

describe('syncs and writes through a platform that drops connections and answers slowly', () => {
  it('keeps syncs exact and applies every write exactly once', async () => {
    const begun = Date.now();
    const options: WorkloadOptions = { syncs: 5, creates: 60, updates: 10, waves: 3, deadline: begun + DEADLINE_MS, alive: checkWorker };
    worker = startService(['--role=worker'], {
      DATABASE_URL: db.url,
      ENCRYPTION_KEY: KEY,
      ADMIN_TOKEN: 'platform-chaos-admin-token',
      LOG_LEVEL: 'warn',
      SANDBOX_TICK_INTERVAL_SECONDS: '0',
      SANDBOX_URL: proxyUrl,
    });
    const { stats } = proxy;
    const writesCut = (): number => proxy.log.filter((r) => r.method !== 'GET' && ['drop-answered', 'drop-midway'].includes(r.action)).length;
    const report = (): string =>
      [
        `platform chaos test (seed ${SEED}): ${stats.requests} platform requests through the proxy: ${stats.passed} passed, ` +
          `dropped ${stats.droppedUnsent} before forwarding, ${stats.droppedAnswered} after the platform answered, ${stats.droppedMidway} halfway through the answer; ` +
          `${stats.delayed} answers delayed, ${stats.abandoned} of them abandoned by the client (past its ${HTTP_DEFAULTS.timeoutMs / 1000} s timeout); ` +
          `${writesCut()} write answers cut off, ${stats.repeatedKeys} requests repeated an earlier Idempotency-Key; ` +
          `the create lost on every send: ${String(lostKey)}, looked up by its key ${proxy.log.filter((r) => r.path === `/v1/Requests/${String(lostKey)}`).length} times`,
        `  syncs of A: ${workload.syncLog.join('; ')}`,
        `  ${workload.writeOutcome?.summary ?? 'writes not checked'}`,
      ].join('\n');
    let objects: number;
    try {
      objects = await workload.run(options);
      await workload.finish(options);
    } catch (error) {
      console.log(`${report()}\n  FAILED after ${Math.round((Date.now() - begun) / 1000)} s`);
      throw error;
    }
    checkWorker();
    const last = worker;
    last.child.kill('SIGTERM');
    const stopCode = await last.exited;
    console.log(
      [report(), `  ${Math.round((Date.now() - begun) / 1000)} s in all`, ...workload.problems.slice(0, 40).map((p) => `  PROBLEM ${p}`)].join('\n'),
    );

    expect(workload.problems).toEqual([]);
    expect(objects).toBeGreaterThan(RECORDS * 0.9);
    expect(stopCode, `worker exit on SIGTERM:\n${last.output().slice(-4000)}`).toBe(0);
    expect(stats.droppedUnsent + stats.droppedAnswered + stats.droppedMidway).toBeGreaterThan(0);
    expect(stats.delayed).toBeGreaterThan(0);
    expect(stats.abandoned).toBeGreaterThan(0);
    expect(writesCut()).toBeGreaterThan(0);
    expect(stats.repeatedKeys).toBeGreaterThan(0);
    // The lost create: tried again as indeterminate, found by its key, on the platform once (the writes' check above).
    const lost = workload.writeOutcome?.jobs.find((j) => j.id === lostKey);
    expect(lost, `the create whose sends were all cut (${String(lostKey)})`).toMatchObject({
      operation: 'create',
      status: 'completed',
      indeterminate: true,
    });
    expect(proxy.log.some((r) => r.method === 'GET' && r.path === `/v1/Requests/${String(lostKey)}`)).toBe(true);
  }, 900_000);
});

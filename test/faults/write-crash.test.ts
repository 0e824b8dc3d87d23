/**
 * kill -9 of the worker process (`--role=worker`, a real child process) while
 * it runs 150 bill creates and 20 bill updates, accepted in three waves; each
 * wave is hit by six kills, some blind (150-700 ms after the worker came up),
 * some aimed at a write just claimed, some at a write already applied on the
 * platform but not yet completed here. The killed worker's writes are handed
 * on (missed heartbeats) and re-run as `indeterminate`; a create is then
 * looked up by its Idempotency-Key (findCreated) instead of being sent again.
 *
 * Proves that afterwards: no job is left pending or in_progress; every
 * completed create is on the platform exactly once (a failed one at most
 * once) and no memo of the run is there twice; the stored copy holds each
 * created bill once, under the job's result_id; each completed create fired
 * exactly one BILL_CREATED carrying its job id and exactly one JOB_COMPLETED
 * (every finished job exactly one JOB_COMPLETED); every completed update's
 * memo is on the platform and it fired exactly one BILL_UPDATED with its job
 * id; and a sync run afterwards announces none of the run's bills again.
 * The log says how many kills cut off a write, and how many writes had reached
 * the platform when their worker died.
 */
import { ConnectionCache } from '../../src/connections/access-token-cache.ts';
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createConnection } from '../../src/connections/connections.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import { createCipher, sha256, type KeyRing } from '../../src/crypto/secrets.ts';
import { registerVersionChanges } from '../../src/http/version-changes.ts';
import { VersionRegistry } from '../../src/http/versioning.ts';
import { createBoss, type PgBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import type { SandboxPlugin } from '../../packages/sandbox/src/plugin.ts';
import { postgresRateLimiter } from '../../src/ratelimit/limiter.ts';
import type { Services } from '../../src/services.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { runSync } from '../../src/sync/runner.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import type { Tenant } from '../../src/tenants/types.ts';
import { acceptWrite } from '../../src/writes/accept.ts';
import { JobWaiter } from '../../src/writes/waiter.ts';
import { platformBills } from '../support/books.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
import { startTestSandbox } from '../support/sandbox.ts';

const USER = 'user_write_crash_size_800';
const CREDENTIALS = { basic_username: USER, basic_password: 'pass_good' };
const KEY = randomBytes(32).toString('hex');
const RUN = randomBytes(4).toString('hex');
const CREATES = 150;
const UPDATES = 20;
const WAVES = 3;
/** Kills per wave while the wave has unfinished jobs; at least MIN_KILLS in all. */
const KILLS_PER_WAVE = 6;
const MIN_KILLS = 8;
const DEADLINE_MS = 240_000;
const STARTED_LINE = 'ledgerport worker started';

let db: TestDatabase;
let cipher: KeyRing;
let boss: PgBoss;
let services: Services;
let tenant: Tenant;
let connection: ConnectionRecord;
let sandbox: SandboxPlugin;
let worker: ServiceProcess | null = null;
let workerStarts = 0;
let workerSince = new Date();
/**
 * How a kill is timed: `blind` 150-700 ms after the worker came up (whatever it is doing then: fetching, idle, busy);
 * `claimed` 0-100 ms after it claimed a write (before, during or after the platform call); `applied` the moment one
 * of its writes is on the platform (the platform's keyed write row exists) but the job is not completed yet.
 */
type KillKind = 'blind' | 'claimed' | 'applied';
const KILL_KINDS: readonly KillKind[] = ['blind', 'claimed', 'applied'];
/** Each kill: when (database clock), how it was timed, the claims it cut off and the jobs finished by then. */
const killLog: { at: Date; kind: KillKind; cutOff: number; finished: number }[] = [];
const startupMs: number[] = [];

const workerEnv = (): Record<string, string> => ({
  DATABASE_URL: db.url,
  ENCRYPTION_KEY: KEY,
  ADMIN_TOKEN: 'write-crash-admin-token',
  LOG_LEVEL: 'warn',
  SANDBOX_TICK_INTERVAL_SECONDS: '0',
});

function startWorker(): ServiceProcess {
  const started = startService(['--role=worker'], workerEnv());
  worker = started;
  workerSince = new Date();
  workerStarts += 1;
  return started;
}

/** The running worker, restarted if it exited on its own (it must not: that is reported). */
function runningWorker(): ServiceProcess {
  if (worker !== null && worker.child.exitCode === null && worker.child.signalCode === null) return worker;
  if (worker !== null) throw new Error(`worker exited on its own (${String(worker.child.exitCode)}):\n${worker.output().slice(-4000)}`);
  return startWorker();
}

async function untilStarted(service: ServiceProcess, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!service.output().includes(STARTED_LINE)) {
    if (service.child.exitCode !== null)
      throw new Error(`worker exited during start-up (${service.child.exitCode}):\n${service.output().slice(-4000)}`);
    if (Date.now() - started > timeoutMs) throw new Error(`worker did not start within ${timeoutMs} ms:\n${service.output().slice(-4000)}`);
    await sleep(5);
  }
  startupMs.push(Date.now() - workerSince.getTime());
}

/** Until the current worker has a write in flight (claimed, not finished), or the timeout passes. */
async function untilClaimed(timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await claimedSince(workerSince)).claimed > 0) return;
    await sleep(2);
  }
}

/** Until a write the current worker claimed is applied on the platform but not completed here, or the timeout passes. */
async function untilApplied(timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const applied = await db.pool.query(
      `SELECT 1 FROM write_jobs j JOIN sandbox_platform.writes w ON w.idempotency_key = j.id::text
        WHERE j.connection_id = $1 AND j.status = 'in_progress' AND j.updated_at > $2 LIMIT 1`,
      [connection.id, workerSince],
    );
    if (applied.rowCount !== 0) return;
  }
}

async function timeKill(kind: KillKind): Promise<void> {
  if (kind === 'blind') {
    await sleep(randomInt(150, 701));
  } else if (kind === 'claimed') {
    await untilClaimed(10_000);
    await sleep(randomInt(0, 101));
  } else {
    await untilApplied(10_000);
  }
}

async function killWorker(kind: KillKind): Promise<void> {
  if (worker === null) return;
  const victim = worker;
  worker = null;
  victim.child.kill('SIGKILL');
  await victim.exited;
  const at = await databaseNow();
  // Claimed by the dead worker and never finished: nobody else has touched them yet.
  const after = await claimedSince(workerSince);
  killLog.push({ at, kind, cutOff: after.claimed, finished: after.finished });
}

beforeAll(async () => {
  db = await createTestDatabase('embedded', { poolSize: 8 });
  sandbox = startTestSandbox(db.pool);
  cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Write crash test');
  tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  const ctx = connectorContext({
    connector: sandbox.connector,
    connectionId: 'probe',
    credentials: CREDENTIALS,
    tokens: null,
    environment: 'sandbox',
    db: db.pool,
  });
  const identity = await sandbox.connector.identify(ctx);
  ({ connection } = await createConnection(db.pool, cipher, tenant, {
    platform: 'SANDBOX',
    name: null,
    credentials: CREDENTIALS,
    identity,
    syncConfig: { historical_months: 0 },
    scope: null,
    marketplace: null,
    redirectUrl: null,
  }));
  await sandbox.platform.materialize(USER);
  boss = createBoss(db.url, { schedule: false });
  await boss.start();
  const versions = new VersionRegistry();
  registerVersionChanges(versions);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/ledgerport-test-data' });
  services = {
    config,
    pool: db.pool,
    cipher,
    rateLimiter: postgresRateLimiter(db.pool, 100_000, 10),
    versions,
    adminTokenSha256: sha256('write-crash-admin-token'),
    idempotencyWaitMs: 10_000,
    jobs: bossSender(boss),
    urlSigningKey: randomBytes(32),
    previousUrlSigningKeys: [],
    jobWaiter: new JobWaiter(db.pool),
    writeSyncWaitMs: 10_000,
    connectionCache: new ConnectionCache(db.pool, 0),
    log: silentLogger(),
  };
  // The initial sync runs here, in process, before any worker exists.
  const run = await requestSync(db.pool, services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  expect(await runSync(services, run.id, new AbortController().signal)).toBe('completed');
}, 600_000);

afterAll(async () => {
  if (worker !== null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await boss.stop({ graceful: false, close: true });
  await services.jobWaiter.close();
  await services.connectionCache.close();
  await services.rateLimiter.close();
  await db.close();
});

type Json = Record<string, unknown>;

async function storedIds(sql: string): Promise<string[]> {
  const result = await db.pool.query<{ id: string }>(sql, [connection.id]);
  return result.rows.map((r) => r.id);
}

interface Planned {
  kind: 'create';
  memo: string;
}
interface PlannedUpdate {
  kind: 'update';
  memo: string;
  billId: string;
  platformId: string;
}

interface JobRow {
  id: string;
  operation: string;
  status: string;
  indeterminate: boolean;
  attempts: number;
  result_id: string | null;
  response_status: number | null;
  response: unknown;
  started_at: Date | null;
  finished_at: Date | null;
}

async function jobRows(): Promise<JobRow[]> {
  const result = await db.pool.query<JobRow>(
    `SELECT id, operation, status, indeterminate, attempts, result_id, response_status, response, started_at, finished_at FROM write_jobs WHERE connection_id = $1 ORDER BY created_at`,
    [connection.id],
  );
  return result.rows;
}

async function openJobs(): Promise<number> {
  const result = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1 AND status NOT IN ('completed', 'failed')`,
    [connection.id],
  );
  return result.rows[0]?.n ?? 0;
}

/** Jobs the current worker has claimed and not finished (not those a killed worker left in_progress). */
async function claimedSince(since: Date): Promise<{ claimed: number; finished: number }> {
  const result = await db.pool.query<{ claimed: number; finished: number }>(
    `SELECT count(*) FILTER (WHERE status = 'in_progress' AND updated_at > $2)::int AS claimed,
            count(*) FILTER (WHERE status IN ('completed', 'failed'))::int AS finished
       FROM write_jobs WHERE connection_id = $1`,
    [connection.id, since],
  );
  return { claimed: result.rows[0]?.claimed ?? 0, finished: result.rows[0]?.finished ?? 0 };
}

async function databaseNow(): Promise<Date> {
  const result = await db.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  return result.rows[0]?.now ?? new Date();
}

describe('bill writes under kill -9 of the worker', () => {
  it('runs every write exactly once: platform, stored copy and events agree with the jobs', async () => {
    const begun = Date.now();
    const vendors = await storedIds(
      `SELECT id FROM records WHERE connection_id = $1 AND object_type = 'vendor' AND deleted_at IS NULL AND data->>'status' = 'active' ORDER BY platform_id LIMIT 5`,
    );
    const accounts = await storedIds(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'account' AND deleted_at IS NULL
      AND data->>'account_type' = 'expense' AND data->>'status' = 'active' ORDER BY platform_id LIMIT 5`);
    const targets = (
      await db.pool.query<{ id: string; platform_id: string }>(
        `SELECT id, platform_id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL
        ORDER BY data->>'status' = 'open' DESC, platform_id LIMIT $2`,
        [connection.id, UPDATES],
      )
    ).rows;
    expect(vendors.length).toBeGreaterThan(0);
    expect(accounts.length).toBeGreaterThan(0);
    expect(targets).toHaveLength(UPDATES);
    const today = new Date().toISOString().slice(0, 10);

    // Each wave: its share of the creates, with its share of the updates spread among them.
    const waves: (Planned | PlannedUpdate)[][] = Array.from({ length: WAVES }, () => []);
    for (let n = 0; n < CREATES; n++) waves[n % WAVES]?.push({ kind: 'create', memo: `crash-${n}-${RUN}` });
    targets.forEach((target, n) => {
      const wave = waves[n % WAVES];
      wave?.splice(randomInt(0, wave.length + 1), 0, {
        kind: 'update',
        memo: `updated-${n}-${RUN}`,
        billId: target.id,
        platformId: target.platform_id,
      });
    });

    const planned = new Map<string, Planned | PlannedUpdate>();
    const accept = async (write: Planned | PlannedUpdate, n: number): Promise<void> => {
      const vendor = vendors[n % vendors.length] ?? '';
      const account = accounts[n % accounts.length] ?? '';
      const { job } =
        write.kind === 'create'
          ? await acceptWrite(db.pool, services.jobs, {
              tenant,
              connectionId: connection.id,
              objectType: 'bill',
              operation: 'create',
              targetId: null,
              idempotencyKey: null,
              request: {
                method: 'POST',
                path: '/versioned/accounting/bills',
                body: {
                  bill: {
                    vendor_id: vendor,
                    issue_date: today,
                    memo: write.memo,
                    line_items: [{ account_id: account, total_amount: 10 + n, description: `Crash line ${n}` }],
                  },
                },
              },
            })
          : await acceptWrite(db.pool, services.jobs, {
              tenant,
              connectionId: connection.id,
              objectType: 'bill',
              operation: 'update',
              targetId: write.billId,
              idempotencyKey: null,
              request: { method: 'PATCH', path: `/versioned/accounting/bills/${write.billId}`, body: { bill: { memo: write.memo } } },
            });
      planned.set(job.id, write);
    };

    const deadline = begun + DEADLINE_MS;
    const stuck = async (): Promise<Error> => {
      const open = (await jobRows()).filter((j) => j.status !== 'completed' && j.status !== 'failed');
      return new Error(
        `${open.length} jobs unfinished after ${DEADLINE_MS / 1000} s (${killLog.length} kills): ${JSON.stringify(open.slice(0, 20))}`,
      );
    };

    let n = 0;
    startWorker();
    for (const [w, wave] of waves.entries()) {
      for (const write of wave) await accept(write, n++);
      // The last wave takes the kills still missing for the minimum.
      const quota = w === WAVES - 1 ? Math.max(KILLS_PER_WAVE, MIN_KILLS - killLog.length) : KILLS_PER_WAVE;
      for (let k = 0; k < quota; k++) {
        if ((await openJobs()) === 0) break;
        if (Date.now() > deadline) throw await stuck();
        await untilStarted(runningWorker(), 60_000);
        // Blind, claimed and applied kills in turn (see KillKind): the aimed ones make sure kills land mid-write.
        const kind = KILL_KINDS[k % KILL_KINDS.length] ?? 'blind';
        await timeKill(kind);
        await killWorker(kind);
        startWorker();
      }
    }
    // No more kills: the jobs the dead workers held come back (missed heartbeats) and finish.
    while ((await openJobs()) > 0) {
      if (Date.now() > deadline) throw await stuck();
      runningWorker();
      await sleep(250);
    }
    const elapsed = Date.now() - begun;

    const jobs = await jobRows();
    expect(jobs).toHaveLength(CREATES + UPDATES);
    const problems: string[] = [];

    // 1. Nothing left open.
    for (const job of jobs) if (job.status !== 'completed' && job.status !== 'failed') problems.push(`job ${job.id} is ${job.status}`);

    // 2. The platform: each completed create once, a failed one at most once, no memo of this run twice.
    const ctx = connectorContext({
      connector: sandbox.connector,
      connectionId: connection.id,
      credentials: CREDENTIALS,
      tokens: null,
      environment: 'sandbox',
      db: db.pool,
    });
    const bills = await platformBills(sandbox.connector, ctx);
    const byMemo = new Map<string, string[]>();
    for (const bill of bills) {
      if (bill.memo?.endsWith(`-${RUN}`) !== true) continue;
      byMemo.set(bill.memo, [...(byMemo.get(bill.memo) ?? []), bill.platformId]);
    }
    for (const [memo, ids] of byMemo) if (ids.length > 1) problems.push(`memo ${memo} is on ${ids.length} platform bills: ${ids.join(', ')}`);
    const billsById = new Map(bills.map((b) => [b.platformId, b]));

    // 3 and 4 read the stored copy and the events.
    const stored = await db.pool.query<{ id: string; platform_id: string; memo: string | null }>(
      `SELECT id, platform_id, data->>'memo' AS memo FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL`,
      [connection.id],
    );
    const storedByMemo = new Map<string, { id: string; platform_id: string }[]>();
    for (const row of stored.rows) {
      if (row.memo === null) continue;
      storedByMemo.set(row.memo, [...(storedByMemo.get(row.memo) ?? []), row]);
    }
    // When the platform applied each write (its keyed write row), for the log and for timelines of problems.
    const keyed = await db.pool.query<{ idempotency_key: string; created_at: Date }>(
      'SELECT idempotency_key, created_at FROM sandbox_platform.writes WHERE idempotency_key = ANY($1::text[])',
      [jobs.map((j) => j.id)],
    );
    const appliedAt = new Map(keyed.rows.map((r) => [r.idempotency_key, r.created_at]));
    const runs = await db.pool.query<{ trigger: string; status: string; created_at: Date; started_at: Date | null; finished_at: Date | null }>(
      'SELECT trigger, status, created_at, started_at, finished_at FROM sync_runs WHERE connection_id = $1 ORDER BY created_at',
      [connection.id],
    );
    const events = await db.pool.query<{ code: string; payload: Json; created_at: Date }>(
      `SELECT code, payload, created_at FROM events WHERE connection_id = $1 AND code IN ('BILL_CREATED', 'BILL_UPDATED', 'JOB_COMPLETED')`,
      [connection.id],
    );
    const created = new Map<string, number>();
    const updated = new Map<string, number>();
    const completedEvents = new Map<string, number>();
    /** Memos of this run whose BILL_CREATED came from a sync (no job_id): the job's own announcement is then missing. */
    const createdBySync = new Map<string, Date>();
    for (const event of events.rows) {
      const jobId = event.payload.job_id;
      if (event.code === 'BILL_CREATED' && typeof jobId === 'string') created.set(jobId, (created.get(jobId) ?? 0) + 1);
      if (event.code === 'BILL_UPDATED' && typeof jobId === 'string') updated.set(jobId, (updated.get(jobId) ?? 0) + 1);
      const bill = event.payload.bill;
      if (
        event.code === 'BILL_CREATED' &&
        jobId === undefined &&
        typeof bill === 'object' &&
        bill !== null &&
        'memo' in bill &&
        typeof bill.memo === 'string' &&
        bill.memo.endsWith(`-${RUN}`)
      )
        createdBySync.set(bill.memo, event.created_at);
      const job = event.payload.job;
      if (event.code === 'JOB_COMPLETED' && typeof job === 'object' && job !== null && 'id' in job && typeof job.id === 'string') {
        completedEvents.set(job.id, (completedEvents.get(job.id) ?? 0) + 1);
      }
    }

    for (const job of jobs) {
      const write = planned.get(job.id);
      if (write === undefined) {
        problems.push(`job ${job.id} was not accepted by this test`);
        continue;
      }
      const where = `${job.operation} job ${job.id} (${write.memo}, ${job.status}, indeterminate ${String(job.indeterminate)}, attempts ${job.attempts})`;
      if ((completedEvents.get(job.id) ?? 0) !== (job.status === 'completed' || job.status === 'failed' ? 1 : 0)) {
        problems.push(`${where}: ${completedEvents.get(job.id) ?? 0} JOB_COMPLETED events`);
      }
      if (write.kind === 'update') {
        // 5. A completed update is on the platform, and announced once with its job id (its memo is new: it changes the bill).
        const memo = billsById.get(write.platformId)?.memo;
        if (job.status === 'completed' && memo !== write.memo) problems.push(`${where}: platform bill ${write.platformId} has memo ${String(memo)}`);
        if (job.status === 'completed' && (updated.get(job.id) ?? 0) !== 1)
          problems.push(`${where}: ${updated.get(job.id) ?? 0} BILL_UPDATED events with its job_id`);
        continue;
      }
      const onPlatform = byMemo.get(write.memo) ?? [];
      if (job.status === 'failed') {
        if (onPlatform.length > 1) problems.push(`${where}: on the platform ${onPlatform.length} times`);
        continue;
      }
      // 2. Exactly once on the platform.
      if (onPlatform.length !== 1) problems.push(`${where}: on the platform ${onPlatform.length} times`);
      // 3. Exactly once in the stored copy, under the job's result_id.
      const copies = storedByMemo.get(write.memo) ?? [];
      if (copies.length !== 1) problems.push(`${where}: ${copies.length} stored copies`);
      else if (copies[0]?.id !== job.result_id) problems.push(`${where}: stored id ${copies[0]?.id ?? ''} but result_id ${String(job.result_id)}`);
      // 4. Exactly one BILL_CREATED carrying the job id.
      if ((created.get(job.id) ?? 0) !== 1) {
        const bySync = createdBySync.get(write.memo);
        const iso = (d: Date | null | undefined): string => d?.toISOString().slice(11, 23) ?? '-';
        const kill = killLog.find((k) => k.at > (appliedAt.get(job.id) ?? new Date()))?.at;
        problems.push(
          `${where}: ${created.get(job.id) ?? 0} BILL_CREATED events with its job_id${
            bySync === undefined
              ? ''
              : `; a sync announced it without job_id instead (applied on the platform ${iso(appliedAt.get(job.id))}, next kill ${iso(kill)}, ` +
                `by the ${runs.rows.find((r) => r.started_at !== null && r.started_at <= bySync && (r.finished_at === null || bySync <= r.finished_at))?.trigger ?? '?'}-triggered sync ` +
                `at ${iso(bySync)}, job completed ${iso(job.finished_at)})`
          }`,
        );
      }
    }

    // 6. Once the writes are done (and the worker stopped), the syncs still open (follow-ups of writes, perhaps one a
    // kill interrupted) and a last one, run here, find every bill of the run stored as the platform has it: they
    // announce none of them again (and none the write-through missed).
    const last = worker;
    worker = null;
    if (last !== null) {
      last.child.kill('SIGTERM');
      await last.exited;
    }
    const marker = await databaseNow();
    await requestSync(db.pool, services.jobs, connection.id, { kind: 'incremental', trigger: 'api', details: {} });
    const pendingSyncs = await db.pool.query<{ id: string }>(
      `SELECT id FROM sync_runs WHERE connection_id = $1 AND status IN ('running', 'queued') ORDER BY status = 'running' DESC, created_at`,
      [connection.id],
    );
    for (const { id } of pendingSyncs.rows) expect(await runSync(services, id, new AbortController().signal), `sync run ${id}`).toBe('completed');
    const late = await db.pool.query<{ code: string; memo: string | null }>(
      `SELECT code, payload->'bill'->>'memo' AS memo FROM events WHERE connection_id = $1 AND type = 'BILL' AND created_at > $2`,
      [connection.id, marker],
    );
    for (const event of late.rows) {
      if (event.memo?.endsWith(`-${RUN}`) === true) problems.push(`the final sync announced ${event.code} for the bill with memo ${event.memo}`);
    }

    // 7. What the faults did. A job "applied before a kill" had its platform call go through before a kill and
    // finished after it: the re-run found it by its key (findCreated) instead of sending it again.
    const appliedBeforeKill = jobs.filter((j) => {
      const applied = appliedAt.get(j.id);
      const finished = j.finished_at;
      return applied !== undefined && finished !== null && killLog.some((k) => applied < k.at && k.at < finished);
    });
    const count = (f: (j: JobRow) => boolean): number => jobs.filter(f).length;
    const indeterminate = count((j) => j.indeterminate);
    const failed = jobs.filter((j) => j.status === 'failed');
    const kills = killLog.length;
    const runTimes = jobs
      .filter((j) => !j.indeterminate && j.started_at !== null && j.finished_at !== null)
      .map((j) => (j.finished_at?.getTime() ?? 0) - (j.started_at?.getTime() ?? 0))
      .sort((a, b) => a - b);
    const median = (values: number[]): number => values[Math.floor(values.length / 2)] ?? 0;
    const hits = (kind: KillKind): string => {
      const these = killLog.filter((k) => k.kind === kind);
      return `${kind} ${these.filter((k) => k.cutOff > 0).length}/${these.length}`;
    };
    console.log(
      [
        `write crash test: ${kills} kill -9s (${KILL_KINDS.map(hits).join(', ')} cut off a claimed write; ` +
          `${killLog.reduce((sum, k) => sum + k.cutOff, 0)} claims cut off in all), ${workerStarts} worker starts ` +
          `(start-up median ${median([...startupMs].sort((a, b) => a - b))} ms), ${Math.round(elapsed / 1000)} s in all`,
        `  kills (kind cut-off/finished so far): ${killLog.map((k) => `${k.kind.slice(0, 1)}${k.cutOff}/${k.finished}`).join(' ')}`,
        `  an uninterrupted job ran ${median(runTimes)} ms (median) from claim to completion`,
        `  jobs: ${count((j) => j.status === 'completed')} completed, ${failed.length} failed, ${indeterminate} marked indeterminate ` +
          `(${count((j) => j.indeterminate && j.operation === 'create')} creates, ${count((j) => j.indeterminate && j.operation === 'update')} updates), ` +
          `${appliedBeforeKill.length} applied on the platform before a kill and finished after it ` +
          `(${appliedBeforeKill.filter((j) => j.operation === 'create').length} creates), max attempts ${Math.max(...jobs.map((j) => j.attempts))}`,
        `  events: ${createdBySync.size} bills of this run announced BILL_CREATED by a sync (no job_id); ` +
          `${count((j) => j.operation === 'update' && j.status === 'completed' && (updated.get(j.id) ?? 0) > 0)} of ` +
          `${count((j) => j.operation === 'update' && j.status === 'completed')} completed updates announced BILL_UPDATED with their job_id; ` +
          `sync runs (trigger/status): ${runs.rows.map((r) => `${r.trigger}/${r.status}`).join(', ')}`,
        indeterminate === 0 ? '  NOTE: no job ended indeterminate: no kill landed between a claim and its completion this run' : '',
        ...failed.slice(0, 10).map((j) => `  failed ${j.operation} ${j.id}: ${JSON.stringify(j.response)}`),
        ...problems.slice(0, 50).map((p) => `  PROBLEM ${p}`),
      ]
        .filter((line) => line !== '')
        .join('\n'),
    );

    expect(problems).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
  }, 600_000);
});

/**
 * kill -9 of the worker process at random points during 10 syncs of a
 * 50,000-record sandbox. Afterwards the stored copy equals the sandbox's books
 * exactly, and each sync fired exactly the entity events the books' change
 * implies: none missing, none twice.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/connections/connections.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import { createCipher } from '../../src/crypto/secrets.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../src/model/object-types.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import type { SandboxPlugin } from '../../packages/sandbox/src/plugin.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import { createBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
import { diffSnapshots, expectedEvents, platformSnapshot, storedSnapshot, type Snapshot } from '../support/books.ts';
import { startTestSandbox } from '../support/sandbox.ts';

const RECORDS = Number(process.env.FAULT_SANDBOX_SIZE ?? 50_000);
const SYNCS = 10;
const USER = `user_crash_size_${RECORDS}`;
const KEY = randomBytes(32).toString('hex');

let db: TestDatabase;
let sandbox: SandboxPlugin;
let connection: ConnectionRecord;
let worker: ServiceProcess | null = null;
let kills = 0;
const workerEnv = () => ({
  DATABASE_URL: db.url,
  ENCRYPTION_KEY: KEY,
  ADMIN_TOKEN: 'fault-test-admin-token',
  LOG_LEVEL: 'warn',
  SANDBOX_TICK_INTERVAL_SECONDS: '0',
});

function startWorker(): void {
  worker = startService(['--role=worker'], workerEnv());
}

async function killWorker(): Promise<void> {
  if (worker === null) return;
  worker.child.kill('SIGKILL');
  await worker.exited;
  kills += 1;
  worker = null;
}

beforeAll(async () => {
  db = await createTestDatabase('embedded', { poolSize: 8 });
  sandbox = startTestSandbox(db.pool);
  const cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Crash test');
  const credentials = { basic_username: USER, basic_password: 'pass_good' };
  const ctx = connectorContext({
    connector: sandbox.connector,
    connectionId: 'probe',
    credentials,
    tokens: null,
    environment: 'sandbox',
    db: db.pool,
  });
  const identity = await sandbox.connector.identify(ctx);
  ({ connection } = await createConnection(
    db.pool,
    cipher,
    { organizationId: org.organization.id, environment: 'sandbox' },
    {
      platform: 'SANDBOX',
      name: null,
      credentials,
      identity,
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  ));
  await sandbox.platform.materialize(USER);
}, 600_000);

afterAll(async () => {
  if (worker !== null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await db.close();
});

async function eventsSince(marker: Date): Promise<string[]> {
  const result = await db.pool.query<{ code: string; type: string; payload: Record<string, unknown> }>(
    `SELECT code, type, payload FROM events WHERE connection_id = $1 AND created_at > $2 AND type <> 'CONNECTION'`,
    [connection.id, marker],
  );
  return result.rows
    .map((row) => {
      const objectType = row.type.toLowerCase() as UnifiedObjectType;
      const object = row.payload[OBJECT_TYPES[objectType].singular] as { platform_id: string };
      return `${row.code} ${objectType}:${object.platform_id}`;
    })
    .sort();
}

async function waitForRun(runId: string, killAt: number[]): Promise<void> {
  const started = Date.now();
  for (;;) {
    const run = await db.pool.query<{ status: string; error: string | null }>('SELECT status, error FROM sync_runs WHERE id = $1', [runId]);
    const status = run.rows[0]?.status;
    if (status === 'completed') return;
    if (status === 'failed') throw new Error(`sync failed: ${run.rows[0]?.error ?? ''}`);
    const elapsed = Date.now() - started;
    if (killAt.length > 0 && elapsed >= (killAt[0] ?? 0)) {
      killAt.shift();
      await killWorker();
      startWorker();
    }
    if (elapsed > 300_000) throw new Error(`sync ${runId} did not finish in 5 minutes`);
    await sleep(100);
  }
}

describe(`sync of a ${RECORDS}-record sandbox under kill -9`, () => {
  it('keeps the stored copy equal to the books and fires each change exactly once', async () => {
    const ctx = connectorContext({
      connector: sandbox.connector,
      connectionId: connection.id,
      credentials: { basic_username: USER, basic_password: 'pass_good' },
      tokens: null,
      environment: 'sandbox',
      db: db.pool,
    });
    const boss = createBoss(db.url, { schedule: false });
    await boss.start();
    const jobs = bossSender(boss);
    startWorker();
    let before: Snapshot = new Map();
    try {
      for (let n = 0; n < SYNCS; n++) {
        if (n > 0) await sandbox.platform.advance(USER, 1);
        const after = await platformSnapshot(sandbox.connector, ctx);
        const marker = (await db.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now ?? new Date();
        const run = await requestSync(db.pool, jobs, connection.id, { kind: n === 0 ? 'initial' : 'incremental', trigger: 'api', details: {} });
        // Up to two kills at random moments of this sync; the long initial sync is always hit at least once.
        const killAt = Array.from({ length: n === 0 ? randomInt(1, 3) : randomInt(0, 3) }, () => randomInt(50, n === 0 ? 3_000 : 1_500)).sort(
          (a, b) => a - b,
        );
        await waitForRun(run.id, killAt);
        expect(diffSnapshots(after, await storedSnapshot(db.pool, connection.id)).slice(0, 10), `sync ${n}`).toEqual([]);
        const fired = await eventsSince(marker);
        const wanted = expectedEvents(n === 0 ? null : before, after);
        expect(new Set(fired).size, `sync ${n}: duplicate events`).toBe(fired.length);
        expect(fired, `sync ${n}: events`).toEqual(wanted);
        before = after;
      }
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
    expect(before.size).toBeGreaterThan(RECORDS * 0.9);
    expect(kills).toBeGreaterThan(0);
    process.stdout.write(`sync crash test: ${SYNCS} syncs, ${kills} kill -9s, ${before.size} objects\n`);
  }, 1_800_000);
});

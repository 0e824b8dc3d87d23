/** Two worker processes on one PostgreSQL never sync the same connection at once. */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/connections/connections.ts';
import type { ConnectionRecord } from '../../src/connections/types.ts';
import { createCipher } from '../../src/crypto/secrets.ts';
import { createBoss } from '../../src/queue/boss.ts';
import { bossSender } from '../../src/queue/sender.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { createOrganization } from '../../src/tenants/organizations.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startService, type ServiceProcess } from '../support/process.ts';
import { startTestSandbox } from '../support/sandbox.ts';

const KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
const connections: ConnectionRecord[] = [];
const workers: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase('embedded');
  const { connector } = startTestSandbox(db.pool);
  const cipher = createCipher(Buffer.from(KEY, 'hex'));
  const org = await createOrganization(db.pool, cipher, 'Two workers');
  for (const user of ['user_two_a_size_1500', 'user_two_b_size_1500']) {
    const credentials = { basic_username: user, basic_password: 'pass_good' };
    const identity = await connector.identify(
      connectorContext({ connector, connectionId: 'probe', credentials, tokens: null, environment: 'sandbox', db: db.pool }),
    );
    const { connection } = await createConnection(
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
    );
    connections.push(connection);
  }
  for (let i = 0; i < 2; i++) {
    workers.push(
      startService(['--role=worker'], {
        DATABASE_URL: db.url,
        ENCRYPTION_KEY: KEY,
        ADMIN_TOKEN: 'two-workers-admin-token',
        LOG_LEVEL: 'warn',
        SANDBOX_TICK_INTERVAL_SECONDS: '0',
      }),
    );
  }
}, 300_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  await db.close();
});

describe('two worker processes', () => {
  it('share the work but never run two syncs of one connection at the same time', async () => {
    const boss = createBoss(db.url, { schedule: false });
    await boss.start();
    const jobs = bossSender(boss);
    try {
      for (const c of connections) {
        await requestSync(db.pool, jobs, c.id, { kind: 'initial', trigger: 'api', details: {} });
        for (let i = 0; i < 4; i++) await requestSync(db.pool, jobs, c.id, { kind: 'incremental', trigger: 'api', details: {} });
      }
      const deadline = Date.now() + 240_000;
      for (;;) {
        const left = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM sync_runs WHERE status NOT IN ('completed', 'failed')`);
        if (left.rows[0]?.n === 0) break;
        if (Date.now() > deadline) throw new Error('syncs did not finish');
        await sleep(200);
      }
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
    const runs = await db.pool.query<{ connection_id: string; status: string; started_at: Date; finished_at: Date }>(
      'SELECT connection_id, status, started_at, finished_at FROM sync_runs ORDER BY connection_id, started_at',
    );
    expect(runs.rows.every((r) => r.status === 'completed')).toBe(true);
    expect(runs.rows).toHaveLength(10);
    for (const c of connections) {
      const mine = runs.rows.filter((r) => r.connection_id === c.id);
      for (let i = 1; i < mine.length; i++) {
        const previous = mine[i - 1];
        const current = mine[i];
        if (previous === undefined || current === undefined) continue;
        expect(current.started_at.getTime()).toBeGreaterThanOrEqual(previous.finished_at.getTime());
      }
    }
    // Both connections were synced at the same time by the two workers at least once.
    const a = runs.rows.filter((r) => r.connection_id === connections[0]?.id);
    const b = runs.rows.filter((r) => r.connection_id === connections[1]?.id);
    const overlapping = a.some((x) => b.some((y) => x.started_at < y.finished_at && y.started_at < x.finished_at));
    expect(overlapping).toBe(true);
  }, 300_000);
});

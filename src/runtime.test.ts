/**
 * The workers' database connections are not the API's: with every API connection taken (a read flood at its
 * height), a sync still runs to completion on the worker pool.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/support/database.ts';
import { linkSandboxConnection } from '../test/support/sandbox-connection.ts';
import { loadConfig } from './config.ts';
import type { PoolClient } from './db/pool.ts';
import { startWorkers } from './jobs/queues.ts';
import { startRuntime, type Runtime } from './runtime.ts';
import { requestSync } from './sync/requests.ts';
import { createOrganization } from './tenants/organizations.ts';

let db: TestDatabase;
let runtime: Runtime;
let dataDir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-runtime-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    DATABASE_POOL_API: '3',
    DATABASE_POOL_WORKER: '4',
    DATABASE_POOL_WEBHOOKS: '1',
    DATABASE_ACQUIRE_TIMEOUT_MS: '500',
  });
  runtime = await startRuntime({ log: () => undefined, config });
}, 60_000);
afterAll(async () => {
  await runtime.close();
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('separate pools for the API, the workers and the webhook dispatcher', () => {
  it('are three pools of the configured sizes', () => {
    const pools = [runtime.services.pool, runtime.workerServices.pool, runtime.webhookServices.pool];
    expect(new Set(pools).size).toBe(3);
    expect(pools.map((p) => p.options.max)).toEqual([3, 4, 1]);
  });

  it('a sync completes while every API connection is held', async () => {
    const api = runtime.services.pool;
    const held: PoolClient[] = await Promise.all(Array.from({ length: 3 }, () => api.connect()));
    try {
      // The API pool has nothing left: an API request would wait and get 503.
      await expect(api.connect()).rejects.toThrow(/timeout exceeded/);
      await startWorkers(runtime.boss, runtime.workerServices);
      const { organization } = await createOrganization(db.pool, runtime.services.cipher, 'Busy reader');
      const connection = await linkSandboxConnection(
        db.pool,
        runtime.services.cipher,
        { organizationId: organization.id, environment: 'sandbox' },
        'user_pools',
      );
      const run = await requestSync(db.pool, runtime.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
      let status = 'queued';
      for (let i = 0; i < 240 && (status === 'queued' || status === 'running'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const row = await db.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE id = $1', [run.id]);
        status = row.rows[0]?.status ?? 'missing';
      }
      expect(status).toBe('completed');
      const stored = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records WHERE connection_id = $1', [connection.id]);
      expect(stored.rows[0]?.n).toBeGreaterThan(0);
    } finally {
      for (const client of held) client.release();
    }
  }, 150_000);
});

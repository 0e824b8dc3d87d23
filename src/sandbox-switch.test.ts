/**
 * SANDBOX_ENABLED: the operator's switch for the SANDBOX plugin. Off, a fresh database gets no sandbox_platform
 * schema, SANDBOX is an unknown platform and its pages are not mounted; on (the default), its own migrations make the
 * schema, and on a database that has the tables already (an installation from before they were the sandbox's own:
 * the product's old 0002 and 0009) they adopt them as they are. Off runs first: SANDBOX, once registered, stays in
 * this process's registry.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders } from '../test/support/app.ts';
import { createTestDatabase } from '../test/support/database.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { loadMigrations } from './db/migrate.ts';
import type { Pool } from './db/pool.ts';
import { getConnector } from './platforms/index.ts';
import { LINK_PAGE_PATH } from '../packages/sandbox/src/feed-link.ts';
import { loadSandboxMigrations, SANDBOX_MIGRATIONS_DIR } from '../packages/sandbox/src/migrate.ts';
import { startRuntime, type Runtime } from './runtime.ts';
import { createOrganization } from './tenants/organizations.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-sandbox-switch-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function start(url: string, sandboxEnabled: string): Promise<Runtime> {
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    DATABASE_POOL_API: '2',
    DATABASE_POOL_WORKER: '2',
    DATABASE_POOL_WEBHOOKS: '1',
    SANDBOX_ENABLED: sandboxEnabled,
  });
  return startRuntime({ log: () => undefined, config });
}

async function schemas(pool: Pool): Promise<string[]> {
  const rows = await pool.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname = 'sandbox_platform'`);
  return rows.rows.map((r) => r.nspname);
}

async function productTables(pool: Pool): Promise<string[]> {
  const rows = await pool.query<{ schema: string }>(
    `SELECT DISTINCT table_schema AS schema FROM information_schema.tables WHERE table_name IN ('accounts_state', 'feed_lines')`,
  );
  return rows.rows.map((r) => r.schema);
}

describe('SANDBOX_ENABLED', () => {
  it('false: a fresh database gets every product migration and no sandbox schema; SANDBOX is not offered, its pages not served', async () => {
    const db = await createTestDatabase('embedded', { empty: true });
    const runtime = await start(db.url, 'false');
    try {
      const recorded = await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(recorded.rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
      expect(await schemas(db.pool)).toEqual([]);
      expect(await productTables(db.pool)).toEqual([]);
      expect(getConnector('SANDBOX')).toBeUndefined();
      expect(runtime.mounts).toEqual([]);

      const app = await buildApp(runtime.services, { logger: false, mounts: runtime.mounts });
      try {
        const { organization, credentials } = await createOrganization(db.pool, runtime.services.cipher, 'No sandbox');
        const org = { organization, credentials };
        const created = await app.inject({
          method: 'POST',
          url: '/versioned/connections/create',
          headers: clientHeaders(org),
          payload: { platform: 'SANDBOX', basic_username: 'user_good', basic_password: 'pass_good' },
        });
        expect(created.statusCode).toBe(400);
        expect(created.json<{ error_message: string }>().error_message).toMatch(/"SANDBOX" is not offered by this service/);
        expect((await app.inject({ method: 'GET', url: `${LINK_PAGE_PATH}/anything` })).statusCode).toBe(404);
      } finally {
        await app.close();
      }
    } finally {
      await runtime.close();
      await db.close();
    }
  });

  it('true (the default): the sandbox applies its own migrations, recorded apart, and adopts the tables of an older installation', async () => {
    const db = await createTestDatabase('embedded', { empty: true });
    // An installation from before: the sandbox tables were made by the product's migrations 0002 and 0009, and hold books.
    for (const migration of await loadSandboxMigrations()) await db.pool.query(migration.sql);
    await db.pool.query(`INSERT INTO sandbox_platform.accounts_state (account_key, seed, size, scenario) VALUES ('user_kept', 1, 10, 'default')`);
    const runtime = await start(db.url, 'true');
    try {
      expect(await schemas(db.pool)).toEqual(['sandbox_platform']);
      const sandboxRecorded = await db.pool.query<{ version: number }>('SELECT version FROM sandbox_platform.schema_migrations ORDER BY version');
      expect(sandboxRecorded.rows.map((r) => r.version)).toEqual((await loadSandboxMigrations()).map((m) => m.version));
      const kept = await db.pool.query<{ account_key: string }>('SELECT account_key FROM sandbox_platform.accounts_state');
      expect(kept.rows).toEqual([{ account_key: 'user_kept' }]);
      expect(getConnector('SANDBOX')?.name).toBe('Sandbox');
      expect(runtime.mounts).toHaveLength(1);
      // The product's own migrations make no sandbox table: its 0002 and 0009 are kept, empty.
      for (const file of ['0002_sandbox_platform.sql', '0009_sandbox_feed_lines.sql']) {
        const sql = await readFile(path.join(import.meta.dirname, 'db/migrations', file), 'utf8');
        expect(
          sql
            .split('\n')
            .filter((line) => !line.startsWith('--'))
            .join('\n')
            .trim(),
          file,
        ).toBe('SELECT 1;');
      }
      expect(SANDBOX_MIGRATIONS_DIR).toBe(path.join(import.meta.dirname, '..', 'packages', 'sandbox', 'migrations'));
    } finally {
      await runtime.close();
      await db.close();
    }
  });
});

/**
 * A fresh, migrated database per test file: the first caller builds a template
 * database with every migration applied (under an advisory lock, so parallel
 * test files agree), and each test database is a cheap copy of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { loadSandboxMigrations, migrateSandbox } from '../../packages/sandbox/src/migrate.ts';
import { createPool, type Pool } from '../../src/db/pool.ts';
import { createBoss } from '../../src/queue/boss.ts';
import { createQueues } from '../../src/jobs/queues.ts';
import { QUEUES } from '../../src/queue/names.ts';

export interface TestDatabase {
  url: string;
  pool: Pool;
  close(): Promise<void>;
}

export type TestServer = 'embedded' | 'external';

/** Servers available in this run: always embedded, external when present. */
export function testServers(): TestServer[] {
  return inject('externalDatabaseUrl') === null ? ['embedded'] : ['embedded', 'external'];
}

function serverUrl(server: TestServer): string {
  const url = server === 'embedded' ? inject('embeddedDatabaseUrl') : inject('externalDatabaseUrl');
  if (url === null) throw new Error('no external PostgreSQL in this run');
  return url;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function ensureTemplate(adminUrl: string): Promise<string> {
  const migrations = await loadMigrations();
  // SANDBOX is on in tests (as by default): its own migrations are part of the template, and so is the queue list.
  const sandboxMigrations = await loadSandboxMigrations();
  const digest = createHash('sha256')
    .update(migrations.map((m) => `${m.version}:${m.sql}`).join('\n'))
    .update(`sandbox\n${sandboxMigrations.map((m) => `${m.version}:${m.sql}`).join('\n')}`)
    .update(JSON.stringify(Object.values(QUEUES)))
    .digest('hex')
    .slice(0, 12);
  const template = `ledgerport_tpl_${digest}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(4711000002)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) {
      // Built under a temporary name and renamed when complete, so an interrupted run never leaves a half-migrated template.
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const pool = createPool(withDatabase(adminUrl, building), { max: 1 });
      try {
        await migrate(pool, migrations);
        await migrateSandbox(pool, sandboxMigrations);
      } finally {
        await pool.end();
      }
      // pg-boss creates its schema on first start; doing it here makes every test database start fast.
      const boss = createBoss(withDatabase(adminUrl, building), { schedule: false });
      await boss.start();
      await createQueues(boss);
      await boss.stop({ graceful: false, close: true });
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(4711000002)').catch(() => undefined);
    await admin.end();
  }
  return template;
}

/**
 * `applicationName` names the test's own pool in pg_stat_activity (default 'ledgerport', like the service's), so a
 * test that terminates the service's backends can tell its own connections apart.
 */
export async function createTestDatabase(
  server: TestServer = 'embedded',
  /** `empty`: a database with nothing in it (no migration, no queue), as a fresh installation finds. */
  options: { poolSize?: number; applicationName?: string; empty?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = serverUrl(server);
  const template = options.empty === true ? 'template0' : await ensureTemplate(adminUrl);
  const name = `ledgerport_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, {
    max: options.poolSize ?? 10,
    ...(options.applicationName !== undefined ? { applicationName: options.applicationName } : {}),
  });
  return {
    url,
    pool,
    async close() {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

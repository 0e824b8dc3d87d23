/**
 * SANDBOX's own migrations (./migrations, NNNN_name.sql), apart from the product's: applied by the
 * sandbox when it is enabled (plugin.ts, the standalone server.ts, the tests' template database),
 * under a lock of their own and recorded in sandbox_platform.schema_migrations. With SANDBOX_ENABLED=false
 * nothing runs them, so the database has no sandbox_platform schema.
 */
import path from 'node:path';
import { loadMigrations, migrate, type Migration, type MigrationSet } from '../../../src/db/migrate.ts';
import type { Pool } from '../../../src/db/pool.ts';

export const SANDBOX_MIGRATIONS_DIR = path.join(import.meta.dirname, '..', 'migrations');

/** Arbitrary, apart from the product's migration lock (4_711_000_001) and its other locks. */
export const SANDBOX_MIGRATION_SET: MigrationSet = {
  lockKey: 4_711_000_101,
  schema: 'sandbox_platform',
  table: 'sandbox_platform.schema_migrations',
};

export function loadSandboxMigrations(): Promise<Migration[]> {
  return loadMigrations(SANDBOX_MIGRATIONS_DIR);
}

/** Applies the sandbox's pending migrations; returns the versions it applied. */
export async function migrateSandbox(pool: Pool, migrations?: Migration[]): Promise<number[]> {
  return migrate(pool, migrations ?? (await loadSandboxMigrations()), SANDBOX_MIGRATION_SET);
}

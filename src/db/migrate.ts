/**
 * Numbered plain-SQL migrations in src/db/migrations (NNNN_name.sql), applied in
 * order, each in its own transaction, recorded in schema_migrations. An advisory
 * lock makes concurrent starts safe: one process migrates, the others wait and
 * then find nothing left to do.
 *
 * A plugin with tables of its own (SANDBOX, packages/sandbox/migrations) runs
 * this with its own folder, lock and record table (a MigrationSet), so its
 * migrations are numbered, applied and skipped apart from the product's.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FixableError } from '../errors/start-failure.ts';
import type { Pool } from './pool.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
// Arbitrary constant shared by every Ledgerport process: "ledgerport migrations".
const MIGRATION_LOCK_KEY = 4_711_000_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Where a set of migrations records itself and which lock serialises it. */
export interface MigrationSet {
  /** pg_advisory_lock key, one per set. */
  lockKey: number;
  /** The applied migrations' record, e.g. schema_migrations or sandbox_platform.schema_migrations. */
  table: string;
  /** Created first when set: the schema of `table`. */
  schema?: string;
}

/** The product's own: src/db/migrations, recorded in public.schema_migrations. */
export const PRODUCT_MIGRATIONS: MigrationSet = { lockKey: MIGRATION_LOCK_KEY, table: 'schema_migrations' };

const IDENTIFIER = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (match?.[1] === undefined || match[2] === undefined) {
      throw new Error(`Migration file ${file} must be named NNNN_snake_name.sql`);
    }
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) throw new Error(`Two migrations share number ${match[1]}`);
    migrations.push({ version, name: match[2], sql: await readFile(path.join(dir, file), 'utf8') });
  }
  return migrations;
}

/** Applies pending migrations (by default the product's); returns the versions it applied. */
export async function migrate(pool: Pool, migrations?: Migration[], set: MigrationSet = PRODUCT_MIGRATIONS): Promise<number[]> {
  const { lockKey, table, schema } = set;
  if (!IDENTIFIER.test(table) || (schema !== undefined && !IDENTIFIER.test(schema)))
    throw new Error(`Migration table ${table} is not a plain [schema.]name`);
  const all = migrations ?? (await loadMigrations());
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${table}`)).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new FixableError(
          `Migration ${String(migration.version).padStart(4, '0')}_${migration.name} failed: ${(error as Error).message}`,
          'nothing of it was applied (each migration is one transaction). If the database also holds tables of other software, give Ledgerport a database of its own; else fix what PostgreSQL reports and start again (docs/upgrading.md says what each migration does).',
          { cause: error },
        );
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    client.release();
  }
}

/**
 * SANDBOX's own migrations: applied once however many processes start together, recorded in
 * sandbox_platform.schema_migrations apart from the product's, and re-run safely over tables that are already there.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.ts';
import { createPool } from '../../../src/db/pool.ts';
import { createTestDatabase } from '../../../test/support/database.ts';
import { loadSandboxMigrations, migrateSandbox } from './migrate.ts';

describe('SANDBOX migrations', () => {
  it("are applied once when several processes start together, apart from the product's", async () => {
    const db = await createTestDatabase('embedded', { empty: true });
    try {
      const pools = Array.from({ length: 4 }, () => createPool(db.url, { max: 1 }));
      const results = await Promise.all(pools.map((pool) => migrateSandbox(pool)));
      await Promise.all(pools.map((pool) => pool.end()));
      const all = (await loadSandboxMigrations()).map((m) => m.version);
      expect(all).toEqual(all.map((_, i) => i + 1));
      expect(results.flat().sort((a, b) => a - b)).toEqual(all);
      const recorded = await db.pool.query<{ version: number }>('SELECT version FROM sandbox_platform.schema_migrations ORDER BY version');
      expect(recorded.rows.map((r) => r.version)).toEqual(all);
      // The product's record is its own: nothing of the sandbox's is in it, nor the other way round.
      expect((await db.pool.query(`SELECT to_regclass('public.schema_migrations') AS t`)).rows[0]).toEqual({ t: null });
      expect(await migrateSandbox(db.pool)).toEqual([]);
      const product = await migrate(db.pool);
      expect(product.length).toBeGreaterThan(0);
      expect(await migrateSandbox(db.pool)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('adopt the tables an older installation has (every statement IF NOT EXISTS)', async () => {
    const db = await createTestDatabase('embedded', { empty: true });
    try {
      const migrations = await loadSandboxMigrations();
      for (const migration of migrations) await db.pool.query(migration.sql);
      await db.pool.query(`INSERT INTO sandbox_platform.accounts_state (account_key, seed, size, scenario) VALUES ('user_old', 7, 10, 'default')`);
      expect(await migrateSandbox(db.pool)).toEqual(migrations.map((m) => m.version));
      const kept = await db.pool.query<{ account_key: string }>('SELECT account_key FROM sandbox_platform.accounts_state');
      expect(kept.rows).toEqual([{ account_key: 'user_old' }]);
      for (const migration of migrations) {
        expect(
          migration.sql.split('\n').filter((line) => /^\s*CREATE /i.test(line) && !/IF NOT EXISTS/i.test(line)),
          migration.name,
        ).toEqual([]);
      }
    } finally {
      await db.close();
    }
  });
});

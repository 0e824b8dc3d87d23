import { describe, expect, it } from 'vitest';
import { createPool } from './pool.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { createTestDatabase, testServers } from '../../test/support/database.ts';

describe.each(testServers())('migrations on the %s server', (server) => {
  it('are applied once when several processes start at the same time', async () => {
    const db = await createTestDatabase(server);
    try {
      await db.pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      const pools = Array.from({ length: 5 }, () => createPool(db.url, { max: 1 }));
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      await Promise.all(pools.map((pool) => pool.end()));
      const all = await loadMigrations();
      expect(results.flat().sort((a, b) => a - b)).toEqual(all.map((m) => m.version));
      const recorded = await db.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(recorded.rows.map((r) => r.version)).toEqual(all.map((m) => m.version));
      expect(await migrate(db.pool)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('roll back a failing migration whole and say which one failed', async () => {
    const db = await createTestDatabase(server);
    try {
      const broken = [{ version: 9999, name: 'broken', sql: 'CREATE TABLE half_done (id int); SELECT nonsense_function();' }];
      await expect(migrate(db.pool, broken)).rejects.toThrow(/9999_broken failed/);
      const table = await db.pool.query(`SELECT to_regclass('half_done') AS t`);
      expect(table.rows[0]).toEqual({ t: null });
    } finally {
      await db.close();
    }
  });
});

describe('migration files', () => {
  it('are numbered without gaps or duplicates', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });
});

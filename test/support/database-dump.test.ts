/**
 * The COPY dump (test/support/database-dump.ts) is what the secrets-at-rest test searches: a row missing from it
 * would make that test fail for nothing, or pass for nothing. node-postgres hands each CopyData message over as a
 * view into its read buffer, which it reuses for the bytes that come next; kept as views, earlier rows were
 * overwritten by later ones (a record "missing" from a CI run's dump).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { copyDump } from './database-dump.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('embedded', { empty: true });
});
afterAll(async () => {
  await db.close();
});

describe('copyDump', () => {
  it('holds every row of every table exactly once, however the rows arrive in reads', async () => {
    // Rows of uneven sizes, so messages straddle the socket's reads at many offsets.
    await db.pool.query(
      `CREATE TABLE spread AS SELECT n, repeat(md5(n::text), 1 + n % 37) || ' row-' || n || '-end' AS body FROM generate_series(1, 20000) AS n`,
    );
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const dump = await copyDump(client);
      const lines = dump.split('\n').filter((line) => /^\d+\t/.test(line));
      expect(lines).toHaveLength(20000);
      const expected = await db.pool.query<{ line: string }>(`SELECT n || E'\\t' || body AS line FROM spread ORDER BY n`);
      expect(new Set(lines)).toEqual(new Set(expected.rows.map((row) => row.line)));
    } finally {
      await client.end();
    }
  });
});

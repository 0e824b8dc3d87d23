import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { buildListQuery, listRecords } from './list-records.ts';

// 200 connections × 500 bills: the default page of one connection is an index range scan, no sort, at any depth.
let db: TestDatabase;
const target = '00000000-0000-4000-8000-000000000007';

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO organizations (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'Plans')`);
  await db.pool.query(`
    INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, '00000000-0000-4000-8000-00000000000a', 'sandbox', 'active',
           sha256(c::text::bytea), '\\x00', sha256(convert_to('lk_plan_' || c, 'UTF8')), '\\x00'
      FROM generate_series(1, 200) c`);
  await db.pool.query(`
    INSERT INTO records (connection_id, object_type, id, platform_id, data, content_hash, updated_at, last_synced_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, 'bill', gen_random_uuid(), c || '-' || n,
           jsonb_build_object('status', 'open'), '\\x00', now() - make_interval(mins => n), now()
      FROM generate_series(1, 200) c, generate_series(1, 500) n`);
  await db.pool.query('ANALYZE records');
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('default list query plan', () => {
  it('reads one connection through the sort index without sorting, at page 1 and deep', async () => {
    const base = {
      connectionId: target,
      objectType: 'bill',
      sortSql: 'updated_at',
      sortType: 'timestamptz' as const,
      direction: 'DESC' as const,
      where: null,
      limit: 50,
      withRaw: false,
    };
    const explain = async (query: { text: string; values: unknown[] }) =>
      (await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.text}`, query.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const first = await listRecords(db.pool, { ...base, from: null });
    const deep = first[40];
    if (deep === undefined) throw new Error('no rows');
    for (const from of [null, { value: deep.sort_key ?? '', id: deep.id }]) {
      const plan = await explain(buildListQuery({ ...base, from }));
      expect(plan).toContain('records_list_default_idx');
      expect(plan).not.toMatch(/Seq Scan|Sort\b/);
    }
  });
});

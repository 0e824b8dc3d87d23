/**
 * Query plans of the read API on a 1,000,000-record store over 200 connections:
 * every list query with any single F-field filter, and with a sort on any F
 * field, reads only the requested connection's rows through an index (never a
 * sequential scan over other connections' data), and a deep keyset page uses
 * the same plan as the first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTERABLE, type FilterKind } from '../../src/model/fields.ts';
import { UNIFIED_OBJECT_TYPES } from '../../src/model/object-types.ts';
import { compileFilterFor, enumValuesOf, jsonbFieldSql, parseSortFor } from '../../src/query/model-query.ts';
import { MODEL } from '../../src/model/index.ts';
import { BASE_PARAMS, buildListQuery, type SortType } from '../../src/sql/list-records.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const CONNECTIONS = 200;
const PER_TYPE = Math.floor(1_000_000 / CONNECTIONS / UNIFIED_OBJECT_TYPES.length);
const target = (c: number) => `00000000-0000-4000-8000-${c.toString(16).padStart(12, '0')}`;
let db: TestDatabase;

const VALUE: Record<FilterKind, string> = {
  string: '"Acme"',
  enum: '"open"',
  date: '2024-06-30',
  id: '"5f0c1a52-3b0e-4d8e-9a43-1f1c2d3e4f50"',
  number: '100',
  boolean: 'true',
  array: '"5f0c1a52-3b0e-4d8e-9a43-1f1c2d3e4f50"',
};

beforeAll(async () => {
  db = await createTestDatabase('embedded');
  await db.pool.query(`INSERT INTO organizations (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'Plans')`);
  await db.pool.query(
    `
    INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, '00000000-0000-4000-8000-00000000000a', 'sandbox', 'active',
           sha256(c::text::bytea), '\\x00', sha256(convert_to('lk_plan_' || c, 'UTF8')), '\\x00'
      FROM generate_series(1, $1::int) c`,
    [CONNECTIONS],
  );
  await db.pool.query(
    `
    INSERT INTO records (connection_id, object_type, id, platform_id, data, content_hash, updated_at, created_at, last_synced_at)
    SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, t, gen_random_uuid(), c || '-' || n,
           jsonb_build_object('status', 'open', 'name', 'Acme ' || n, 'document_number', 'D' || n, 'due_date', now() - make_interval(days => n % 400),
                              'total_amount', n, 'balance', n),
           '\\x00', now() - make_interval(mins => n), now() - make_interval(days => n), now()
      FROM generate_series(1, $1::int) c, unnest($2::text[]) t, generate_series(1, $3::int) n`,
    [CONNECTIONS, UNIFIED_OBJECT_TYPES, PER_TYPE],
  );
  // One large connection for the depth check: 100,000 bills.
  await db.pool.query(
    `
    INSERT INTO connections (id, organization_id, environment, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
    VALUES ($1, '00000000-0000-4000-8000-00000000000a', 'sandbox', 'active', sha256('big'::bytea), '\\x00', sha256('lk_plan_big'::bytea), '\\x00')`,
    [target(1000)],
  );
  await db.pool.query(
    `
    INSERT INTO records (connection_id, object_type, id, platform_id, data, content_hash, updated_at, last_synced_at)
    SELECT $1::uuid, 'bill', gen_random_uuid(), 'big-' || n, jsonb_build_object('status', 'open'), '\\x00', now() - make_interval(secs => n), now()
      FROM generate_series(1, 100000) n`,
    [target(1000)],
  );
  await db.pool.query('ANALYZE records');
}, 600_000);
afterAll(async () => {
  await db.close();
});

const COLUMNS = new Set(['updated_at', 'created_at', 'last_synced_at']);
const jsonField = jsonbFieldSql('data');
const fieldSql = (field: string, kind: FilterKind) => (COLUMNS.has(field) ? field : jsonField(field, kind));
const sortType = (kind: FilterKind): SortType => (kind === 'date' ? 'timestamptz' : kind === 'number' ? 'numeric' : 'text');

async function plan(text: string, values: unknown[]): Promise<string> {
  const rows = (await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows;
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

function assertConnectionScoped(explained: string, label: string): void {
  expect(explained, label).not.toMatch(/Seq Scan/);
  expect(explained, label).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
  expect(explained, label).toMatch(/connection_id = '0{8}-0{4}-4000-8000-0{11}7'::uuid/);
}

describe(`read plans on ${(PER_TYPE * CONNECTIONS * UNIFIED_OBJECT_TYPES.length).toLocaleString('en')} records`, () => {
  it('filter on any single F field reads one connection through an index', async () => {
    let checked = 0;
    for (const type of UNIFIED_OBJECT_TYPES) {
      for (const [field, kind] of Object.entries(FILTERABLE[type]) as [string, FilterKind][]) {
        const op = kind === 'string' ? '~' : '=';
        const value = kind === 'enum' ? `"${enumValuesOf(MODEL[type].schema, field)?.[0] ?? ''}"` : VALUE[kind];
        const filter = compileFilterFor(type, `${field} ${op} ${value}`, { fieldSql, paramOffset: BASE_PARAMS });
        if (filter === undefined) throw new Error('no filter');
        const query = buildListQuery({
          connectionId: target(7),
          objectType: type,
          sortSql: 'updated_at',
          sortType: 'timestamptz',
          direction: 'DESC',
          from: null,
          where: filter,
          limit: 50,
          withRaw: false,
        });
        assertConnectionScoped(await plan(query.text, query.values), `${type}.${field}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('sort on any F field reads one connection through an index, at page 1 and deep', async () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      for (const [field, kind] of Object.entries(FILTERABLE[type]) as [string, FilterKind][]) {
        if (kind === 'array') continue;
        const spec = parseSortFor(type, `${field} ASC`);
        const base = {
          connectionId: target(7),
          objectType: type,
          sortSql: fieldSql(spec.field, spec.kind),
          sortType: sortType(spec.kind),
          direction: spec.direction,
          where: null,
          limit: 50,
          withRaw: false,
        };
        const first = buildListQuery({ ...base, from: null });
        assertConnectionScoped(await plan(first.text, first.values), `${type} sort ${field}`);
        const deepValue = spec.kind === 'date' ? '2025-01-01T00:00:00Z' : spec.kind === 'number' ? '100' : 'M';
        const deep = buildListQuery({ ...base, from: { value: deepValue, id: '00000000-0000-4000-8000-000000000000' } });
        assertConnectionScoped(await plan(deep.text, deep.values), `${type} sort ${field} deep`);
      }
    }
  });

  it('the default page costs the same on page 1 and page 1,999 of a 100,000-record connection', async () => {
    const base = {
      connectionId: target(1000),
      objectType: 'bill',
      sortSql: 'updated_at',
      sortType: 'timestamptz' as const,
      direction: 'DESC' as const,
      where: null,
      limit: 50,
      withRaw: false,
    };
    const last = (
      await db.pool.query<{ k: string; id: string }>(
        `SELECT COALESCE(updated_at, '-infinity')::text AS k, id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND deleted_at IS NULL ORDER BY COALESCE(updated_at, '-infinity') DESC, id DESC OFFSET 99900 LIMIT 1`,
        [target(1000)],
      )
    ).rows[0];
    if (last === undefined) throw new Error('no rows');
    const cost = async (from: { value: string; id: string } | null) => {
      const q = buildListQuery({ ...base, from });
      const rows = (
        await db.pool.query<{ 'QUERY PLAN': [{ 'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plan: { 'Actual Rows': number } }] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`,
          q.values,
        )
      ).rows;
      const top = rows[0]?.['QUERY PLAN'][0];
      return (top?.['Shared Hit Blocks'] ?? 0) + (top?.['Shared Read Blocks'] ?? 0);
    };
    const page1 = await cost(null);
    const deep = await cost({ value: last.k, id: last.id });
    expect(deep).toBeLessThanOrEqual(page1 * 1.5 + 5);
  });
});

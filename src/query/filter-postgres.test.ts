/**
 * Compiled filters run on a real PostgreSQL: `~` word-start semantics, day
 * ranges, lists, nulls, and injection attempts that must be a 400 or no match,
 * never a database error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testServers, type TestDatabase } from '../../test/support/database.ts';
import { ServiceError } from '../errors/catalogue.ts';
import type { FilterableFields, UnifiedObjectType } from '../model/index.ts';
import { compileFilter } from './filter-compiler.ts';
import { parseFilter } from './filter-parser.ts';
import { compileFilterFor, jsonbFieldSql } from './model-query.ts';

const ROWS: readonly (readonly [number, Record<string, unknown>])[] = [
  [
    1,
    {
      customer_name: 'Acme Corp',
      status: 'active',
      subsidiaries: [{ id: 's1', status: null }],
      balance: 100.5,
      due_date: '2024-01-31T23:30:00Z',
      document_number: 'INV-1',
      flag: true,
    },
  ],
  [
    2,
    {
      customer_name: 'The acme',
      status: 'archived',
      subsidiaries: null,
      balance: -3,
      due_date: '2024-01-31T00:00:00Z',
      document_number: 'INV-2',
      flag: false,
    },
  ],
  [
    3,
    {
      customer_name: 'Bacme',
      status: 'active',
      subsidiaries: [{ id: 's2', status: 'active' }],
      balance: 0,
      due_date: '2024-02-01T00:00:00Z',
      document_number: 'inv-3',
    },
  ],
  [
    4,
    {
      customer_name: 'ACME-West (US)',
      status: 'active',
      subsidiaries: [
        { id: 's1', status: null },
        { id: 's2', status: null },
      ],
      balance: 7,
      due_date: null,
    },
  ],
  [5, { customer_name: null, status: 'unknown', subsidiaries: [] }],
  [6, { customer_name: "x' OR 1=1 --", status: 'active' }],
  [7, { customer_name: 'Price: $5 (a.b*) \\ "q"', status: 'active' }],
  [8, { customer_name: 'axb', status: 'active' }],
];

describe.each(testServers())('compiled filters on the %s server', (server) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(server, { poolSize: 2 });
    await db.pool.query('CREATE TABLE filter_probe (id int PRIMARY KEY, data jsonb NOT NULL)');
    for (const [id, data] of ROWS) await db.pool.query('INSERT INTO filter_probe VALUES ($1, $2)', [id, JSON.stringify(data)]);
  });

  afterAll(async () => {
    await db.close();
  });

  async function run(sql: string, params: unknown[]): Promise<number[]> {
    const result = await db.pool.query<{ id: number }>(`SELECT id FROM filter_probe WHERE ${sql} ORDER BY id`, params);
    return result.rows.map((r) => r.id);
  }

  /** Ids matching a filter of `type`, or the 400's message. */
  async function matches(type: UnifiedObjectType, filter: string): Promise<number[] | string> {
    let compiled;
    try {
      compiled = compileFilterFor(type, filter, { fieldSql: jsonbFieldSql('data'), paramOffset: 0 });
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'INVALID_FILTER') return `400: ${error.message}`;
      throw error;
    }
    if (compiled === undefined) throw new Error('no filter');
    return run(compiled.sql, compiled.params);
  }

  it('~ matches words starting with the value, case-insensitively', async () => {
    expect(await matches('customer', 'customer_name ~ "acme"')).toEqual([1, 2, 4]);
    expect(await matches('customer', 'customer_name ~ "ACME"')).toEqual([1, 2, 4]);
    expect(await matches('customer', 'customer_name ~ "corp"')).toEqual([1]);
    expect(await matches('customer', 'customer_name ~ "acme corp"')).toEqual([1]);
    expect(await matches('customer', 'customer_name ~ "cme"')).toEqual([]);
    expect(await matches('customer', 'customer_name ~ "west"')).toEqual([4]);
    expect(await matches('customer', 'customer_name ~ "us"')).toEqual([4]);
  });

  it('~ takes regex metacharacters literally', async () => {
    expect(await matches('customer', 'customer_name ~ "a.b"')).toEqual([7]);
    expect(await matches('customer', 'customer_name ~ "$5 (a.b*)"')).toEqual([7]);
    expect(await matches('customer', String.raw`customer_name ~ "\\ \"q\""`)).toEqual([7]);
    const punctuation = String.raw`!"#$%&'()*+,-./:;<=>?@[\]^_{|}~` + '`';
    const quoted = punctuation.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
    expect(await matches('customer', `customer_name ~ "${quoted}"`)).toEqual([]);
    expect(await matches('customer', `customer_name ~ "é${quoted}ü"`)).toEqual([]);
  });

  it('compares text, enums, numbers and lists as their kind', async () => {
    expect(await matches('customer', 'status = "active" AND customer_name != "Bacme"')).toEqual([1, 4, 6, 7, 8]);
    expect(await matches('customer', 'customer_name != "Bacme" AND status != "active"')).toEqual([2, 5]);
    expect(await matches('customer', 'customer_name = null')).toEqual([5]);
    expect(await matches('account', 'balance > 0')).toEqual([1, 4]);
    expect(await matches('account', 'balance = 100.50 OR balance <= -3')).toEqual([1, 2]);
    expect(await matches('account', 'balance < 123456789012345678901234567890.5 AND balance >= 0')).toEqual([1, 3, 4]);
    expect(await matches('bill', 'document_number >= "INV-2"')).toEqual([2, 3]);
    expect(await matches('customer', 'subsidiaries = "s1"')).toEqual([1, 4]);
    expect(await matches('customer', 'subsidiaries = "s2" AND subsidiaries != "s1"')).toEqual([3]);
    expect(await matches('customer', 'subsidiaries != "s1"')).toEqual([2, 3, 5, 6, 7, 8]);
    expect(await matches('customer', 'subsidiaries = null')).toEqual([2, 6, 7, 8]);
    expect(await matches('customer', 'subsidiaries != null')).toEqual([1, 3, 4, 5]);
    const flag = compileFilter(parseFilter('flag = true OR flag != true'), { flag: 'boolean' } satisfies FilterableFields, {
      fieldSql: jsonbFieldSql('data'),
      paramOffset: 0,
    });
    expect(await run(flag.sql, flag.params)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('reads a bare day as the whole UTC day and date-times as instants', async () => {
    expect(await matches('bill', 'due_date = 2024-01-31')).toEqual([1, 2]);
    expect(await matches('bill', 'due_date != 2024-01-31')).toEqual([3, 4, 5, 6, 7, 8]);
    expect(await matches('bill', 'due_date > 2024-01-31')).toEqual([3]);
    expect(await matches('bill', 'due_date >= 2024-01-31')).toEqual([1, 2, 3]);
    expect(await matches('bill', 'due_date < 2024-01-31')).toEqual([]);
    expect(await matches('bill', 'due_date <= 2024-01-31')).toEqual([1, 2]);
    expect(await matches('bill', 'due_date >= 2024-02-01T01:00:00+02:00')).toEqual([1, 3]);
    expect(await matches('bill', 'due_date = "2024-01-31T00:00:00.000Z"')).toEqual([2]);
    expect(await matches('bill', 'due_date > 0001-01-01T00:00:00+14:00 AND due_date < 9999-12-31T23:59:59.999999999-14:00')).toEqual([1, 2, 3]);
    expect(await matches('bill', 'due_date <= 9999-12-31 AND due_date > 2024-02-29')).toEqual([]);
  });

  it('keeps AND tighter than OR', async () => {
    expect(await matches('customer', 'customer_name ~ "acme" OR status = "unknown" AND customer_name = null')).toEqual([1, 2, 4, 5]);
    expect(await matches('customer', '(customer_name ~ "acme" OR status = "unknown") AND status = "active"')).toEqual([1, 4]);
  });

  it('turns injection attempts into a 400 or a plain (non-)match, never a database error', async () => {
    expect(await matches('customer', `customer_name = "x' OR 1=1 --"`)).toEqual([6]);
    expect(await matches('customer', `customer_name ~ "x' OR 1=1"`)).toEqual([6]);
    expect(await matches('customer', `customer_name = "'; DROP TABLE filter_probe; --"`)).toEqual([]);
    expect(await matches('customer', `email = "\\"); DELETE FROM records; --"`)).toEqual([]);
    expect(await matches('customer', `subsidiaries = "s1\\"}]' OR '1'='1"`)).toEqual([]);
    expect(await matches('customer', `customer_name = "$1" OR customer_name = "?"`)).toEqual([]);
    expect(await matches('account', 'name; DROP TABLE records = "x"')).toBe('400: Unexpected character ";" at position 5');
    expect(await matches('customer', String.raw`customer_name = "\"" OR 1=1`)).toBe(
      '400: Expected a field name after "OR" at position 25; found "1"',
    );
    expect(await matches('customer', String.raw`customer_name = "\\" OR 1=1`)).toBe(
      '400: Expected a field name after "OR" at position 25; found "1"',
    );
    expect(await matches('customer', `customer_name') = 'x' OR ('1 = "x"`)).toBe(
      `400: Unexpected character "'" at position 14: put text values in double quotes`,
    );
    expect(await matches('customer', `"customer_name" = "x"`)).toBe('400: Expected a field name at position 1; found the string "customer_name"');
    expect(await matches('customer', 'customer_name = "x" -- comment')).toBe('400: Expected AND or OR at position 21; found "--"');
    expect(await matches('customer', 'pg_sleep = 1')).toMatch(/^400: Unknown field "pg_sleep" for customers/);
    const tables = await db.pool.query(`SELECT to_regclass('filter_probe') AS probe, to_regclass('records') AS records`);
    expect(tables.rows[0]).toEqual({ probe: 'filter_probe', records: 'records' });
  });
});

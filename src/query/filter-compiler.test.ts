/** The compiler: SQL and parameters per field kind and operator, on the F fields of bills, accounts and customers. */
import { describe, expect, it } from 'vitest';
import { FILTERABLE, MODEL, type FilterKind, type FilterableFields } from '../model/index.ts';
import { compileFilter, type CompileFilterOptions, type CompiledFilter } from './filter-compiler.ts';
import { parseFilter } from './filter-parser.ts';
import { enumValuesOf } from './model-query.ts';

const fieldSql = (field: string, kind: FilterKind) => (kind === 'array' ? `data->'${field}'` : `data->>'${field}'`);

/** SQL and parameters only; the count of `~` comparisons has its own test below. */
function compile(fields: FilterableFields, filter: string, options: Partial<CompileFilterOptions> = {}): Pick<CompiledFilter, 'sql' | 'params'> {
  const { sql, params } = compileFilter(parseFilter(filter), fields, { fieldSql, paramOffset: 0, ...options });
  return { sql, params };
}

const bill = (filter: string) => compile(FILTERABLE.bill, filter, { enumValues: (f) => enumValuesOf(MODEL.bill.schema, f) });
const account = (filter: string) => compile(FILTERABLE.account, filter, { enumValues: (f) => enumValuesOf(MODEL.account.schema, f) });
const customer = (filter: string) => compile(FILTERABLE.customer, filter, { enumValues: (f) => enumValuesOf(MODEL.customer.schema, f) });

describe('text fields (string, id, enum)', () => {
  it('compares strings as text, with != keeping nulls and ordering by code point', () => {
    const doc = "(data->>'document_number')";
    expect(bill('document_number = "A-1"')).toEqual({ sql: `${doc} = $1::text`, params: ['A-1'] });
    expect(bill('document_number != "A-1"')).toEqual({ sql: `${doc} IS DISTINCT FROM $1::text`, params: ['A-1'] });
    expect(bill('document_number > "A-1"')).toEqual({ sql: `${doc} COLLATE "C" > $1::text`, params: ['A-1'] });
    expect(bill('document_number >= "A-1"').sql).toBe(`${doc} COLLATE "C" >= $1::text`);
    expect(bill('document_number < "A-1"').sql).toBe(`${doc} COLLATE "C" < $1::text`);
    expect(bill('document_number <= "A-1"').sql).toBe(`${doc} COLLATE "C" <= $1::text`);
    expect(account('nominal_code >= "4000"')).toEqual({ sql: `(data->>'nominal_code') COLLATE "C" >= $1::text`, params: ['4000'] });
  });

  it('compiles ~ to a case-insensitive match at the start of a word, the value escaped', () => {
    expect(customer('customer_name ~ "acme"')).toEqual({ sql: `(data->>'customer_name') ~* $1::text`, params: ['(^|[^[:alnum:]])acme'] });
    expect(account('name ~ "a.b*(c)|[d]{2}^$\\\\ e+?"').params).toEqual([String.raw`(^|[^[:alnum:]])a\.b\*\(c\)\|\[d\]\{2\}\^\$\\ e\+\?`]);
    expect(customer('email ~ "Müller"').params).toEqual(['(^|[^[:alnum:]])Müller']);
  });

  it('compares ids and enums for equality only, enum values checked', () => {
    expect(bill('vendor_id = "v-1"')).toEqual({ sql: `(data->>'vendor_id') = $1::text`, params: ['v-1'] });
    expect(bill('vendor_id != "v-1"').sql).toBe(`(data->>'vendor_id') IS DISTINCT FROM $1::text`);
    expect(bill('status = "paid"')).toEqual({ sql: `(data->>'status') = $1::text`, params: ['paid'] });
    expect(account('account_type != "bank"')).toEqual({ sql: `(data->>'account_type') IS DISTINCT FROM $1::text`, params: ['bank'] });
    expect(customer('status = "archived"').params).toEqual(['archived']);
    expect(() => customer('status = "inactive"')).toThrow('allowed values: active, archived, unknown');
  });

  it('does not check enum values when none are given', () => {
    expect(compile(FILTERABLE.bill, 'status = "anything"').params).toEqual(['anything']);
  });
});

describe('numbers, dates and booleans', () => {
  it('compares numbers as numeric, sending the literal as written', () => {
    const balance = "(data->>'balance')::numeric";
    expect(account('balance = 100')).toEqual({ sql: `${balance} = $1::numeric`, params: ['100'] });
    expect(account('balance != -12.50')).toEqual({ sql: `${balance} IS DISTINCT FROM $1::numeric`, params: ['-12.50'] });
    for (const op of ['>', '>=', '<', '<='] as const) {
      expect(account(`balance ${op} 0.1`)).toEqual({ sql: `${balance} ${op} $1::numeric`, params: ['0.1'] });
    }
  });

  it('compares date-times as timestamptz instants', () => {
    const due = "(data->>'due_date')::timestamptz";
    for (const op of ['=', '>', '>=', '<', '<='] as const) {
      expect(bill(`due_date ${op} 2024-01-31T09:30:00+02:00`)).toEqual({
        sql: `${due} ${op} $1::timestamptz`,
        params: ['2024-01-31T09:30:00+02:00'],
      });
    }
    expect(bill('due_date != 2024-01-31T09:30:00Z').sql).toBe(`${due} IS DISTINCT FROM $1::timestamptz`);
    // Quoted dates are accepted too.
    expect(bill('updated_at > "2024-01-31T09:30:00Z"').params).toEqual(['2024-01-31T09:30:00Z']);
  });

  it('treats a bare day as the whole UTC day', () => {
    const due = "(data->>'due_date')::timestamptz";
    const start = '$1::timestamptz';
    const end = "$1::timestamptz + interval '24 hours'";
    const cases: Record<string, string> = {
      '=': `(${due} >= ${start} AND ${due} < ${end})`,
      '!=': `NOT COALESCE(${due} >= ${start} AND ${due} < ${end}, false)`,
      '>': `${due} >= ${end}`,
      '>=': `${due} >= ${start}`,
      '<': `${due} < ${start}`,
      '<=': `${due} < ${end}`,
    };
    for (const [op, sql] of Object.entries(cases)) {
      expect(bill(`due_date ${op} 2024-01-31`)).toEqual({ sql, params: ['2024-01-31T00:00:00Z'] });
    }
  });

  it('compares booleans for equality', () => {
    const fields: FilterableFields = { is_active: 'boolean' };
    expect(compile(fields, 'is_active = true')).toEqual({ sql: `(data->>'is_active')::boolean = $1::boolean`, params: [true] });
    expect(compile(fields, 'is_active != false')).toEqual({ sql: `(data->>'is_active')::boolean IS DISTINCT FROM $1::boolean`, params: [false] });
    expect(() => compile(fields, 'is_active = "yes"')).toThrow('Expected true or false for is_active at position 13; found the string "yes"');
  });
});

describe('null and lists', () => {
  it('compiles = null and != null to IS NULL tests, with no parameter', () => {
    expect(bill('due_date = null')).toEqual({ sql: `(data->>'due_date') IS NULL`, params: [] });
    expect(bill('vendor_id != null')).toEqual({ sql: `(data->>'vendor_id') IS NOT NULL`, params: [] });
    expect(account('balance = NULL').sql).toBe(`(data->>'balance') IS NULL`);
    expect(customer('status != null').sql).toBe(`(data->>'status') IS NOT NULL`);
  });

  it('matches lists of subsidiaries by entry id with jsonb containment', () => {
    const subs = "(data->'subsidiaries')";
    expect(customer('subsidiaries = "sub-1"')).toEqual({ sql: `${subs} @> $1::jsonb`, params: ['[{"id":"sub-1"}]'] });
    expect(account('subsidiaries != "x\\"y"')).toEqual({ sql: `NOT COALESCE(${subs} @> $1::jsonb, false)`, params: ['[{"id":"x\\"y"}]'] });
    // JSON null is not SQL NULL.
    expect(customer('subsidiaries = null').sql).toBe(`COALESCE(jsonb_typeof(${subs}), 'null') = 'null'`);
    expect(customer('subsidiaries != null').sql).toBe(`COALESCE(jsonb_typeof(${subs}), 'null') <> 'null'`);
  });
});

describe('combinations', () => {
  it('keeps the tree in parentheses and numbers parameters after paramOffset', () => {
    const result = compile(FILTERABLE.bill, 'status = "open" AND (due_date < 2024-01-01T00:00:00Z OR document_number ~ "x") OR vendor_id = null', {
      paramOffset: 3,
    });
    expect(result).toEqual({
      sql: `(((data->>'status') = $4::text AND ((data->>'due_date')::timestamptz < $5::timestamptz OR (data->>'document_number') ~* $6::text)) OR (data->>'vendor_id') IS NULL)`,
      params: ['open', '2024-01-01T00:00:00Z', '(^|[^[:alnum:]])x'],
    });
  });

  it('counts the "~" comparisons anywhere in the tree (each one scans the text of every record)', () => {
    const count = (filter: string): number => compileFilter(parseFilter(filter), FILTERABLE.bill, { fieldSql, paramOffset: 0 }).substringComparisons;
    expect(count('status = "open"')).toBe(0);
    expect(count('document_number ~ "x"')).toBe(1);
    expect(count('status = "open" AND (document_number ~ "x" OR (vendor_id = "v" AND document_number ~ "z") OR document_number ~ "y")')).toBe(3);
  });

  it('asks fieldSql only for allowed field names, with their kind', () => {
    const asked: string[] = [];
    compileFilter(parseFilter('customer_name ~ "a" AND (subsidiaries = "s" OR status = "active")'), FILTERABLE.customer, {
      paramOffset: 0,
      fieldSql: (field, kind) => {
        asked.push(`${field}:${kind}`);
        return 'x';
      },
    });
    expect(asked).toEqual(['customer_name:string', 'subsidiaries:array', 'status:enum']);
  });

  it('never lets value text reach the SQL', () => {
    const evil = String.raw`x' OR 1=1 --; DROP TABLE records; $1 \\`;
    const escaped = evil.replaceAll('\\', '\\\\');
    for (const filter of [`document_number = "${escaped}"`, `document_number ~ "${escaped}"`, `vendor_id != "${escaped}"`]) {
      const { sql, params } = bill(filter);
      expect(sql).not.toContain('DROP');
      expect(sql).not.toContain("'x");
      expect(params).toHaveLength(1);
    }
  });

  it('names the resource in unknown-field messages only when given', () => {
    expect(() => compile({ name: 'string' }, 'nme = "x"')).toThrow('Unknown field "nme" at position 1; filterable fields: name');
    expect(() => compile({}, 'nme = "x"')).toThrow('Unknown field "nme" at position 1; this resource cannot be filtered');
  });
});

/** Filter and sort wired to the model registry: enum values from the schemas, field SQL for JSON columns. */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES, BILL_STATUSES, CURRENCY_CODES, MODEL, UNIFIED_OBJECT_TYPES } from '../model/index.ts';
import { compileFilterFor, enumValuesOf, jsonbFieldSql } from './model-query.ts';

describe('enumValuesOf', () => {
  it('reads plain and nullable enums from a schema', () => {
    expect(enumValuesOf(MODEL.bill.schema, 'status')).toEqual(BILL_STATUSES);
    expect(enumValuesOf(MODEL.account.schema, 'account_type')).toEqual(ACCOUNT_TYPES);
    expect(enumValuesOf(MODEL.account.schema, 'currency_code')).toEqual(CURRENCY_CODES);
    expect(enumValuesOf(MODEL.account.schema, 'name')).toBeUndefined();
    expect(enumValuesOf(MODEL.account.schema, 'missing')).toBeUndefined();
    expect(enumValuesOf(null, 'status')).toBeUndefined();
  });

  it('finds values for every enum F field of every type', () => {
    for (const type of UNIFIED_OBJECT_TYPES) {
      const { schema, filterable } = MODEL[type];
      for (const [field, kind] of Object.entries(filterable)) {
        if (kind === 'enum') expect(enumValuesOf(schema, field), `${type}.${field}`).not.toHaveLength(0);
      }
    }
  });
});

describe('jsonbFieldSql', () => {
  it('reads text for scalars and jsonb for lists', () => {
    const sql = jsonbFieldSql('data');
    expect(sql('status', 'enum')).toBe("data->>'status'");
    expect(sql('subsidiaries', 'array')).toBe("data->'subsidiaries'");
  });

  it('refuses names that are not plain identifiers', () => {
    expect(() => jsonbFieldSql('data; DROP TABLE records')).toThrow('not a plain column name');
    expect(() => jsonbFieldSql('data')("x' OR '1", 'string')).toThrow('not a plain field name');
  });
});

describe('compileFilterFor', () => {
  it("compiles with the type's F fields, enum values and plural name", () => {
    const options = { fieldSql: jsonbFieldSql('r.data'), paramOffset: 2 };
    expect(compileFilterFor('bill', 'status = "paid" AND due_date < 2024-02-01T00:00:00Z', options)).toEqual({
      sql: "((r.data->>'status') = $3::text AND (r.data->>'due_date')::timestamptz < $4::timestamptz)",
      params: ['paid', '2024-02-01T00:00:00Z'],
      substringComparisons: 0,
    });
    expect(() => compileFilterFor('bill', 'status = "Paid"', options)).toThrow('Invalid value "Paid" for status at position 10; allowed values:');
    expect(() => compileFilterFor('vendor', 'customer_name ~ "a"', options)).toThrow('Unknown field "customer_name" for vendors');
  });

  it('treats an absent or blank filter as no condition', () => {
    const options = { fieldSql: jsonbFieldSql('data'), paramOffset: 0 };
    expect(compileFilterFor('bill', undefined, options)).toBeUndefined();
    expect(compileFilterFor('bill', '', options)).toBeUndefined();
    expect(compileFilterFor('bill', ' \n', options)).toBeUndefined();
  });
});

/** The sort parameter: one F field and an optional direction; updated_at DESC by default. */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import { FILTERABLE } from '../model/index.ts';
import { parseSortFor } from './model-query.ts';
import { DEFAULT_SORT, parseSort, sortableFields } from './sort.ts';

function sortError(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('sort was accepted');
}

describe('parseSort', () => {
  it('defaults to updated_at DESC when absent or blank', () => {
    expect(DEFAULT_SORT).toEqual({ field: 'updated_at', direction: 'DESC', kind: 'date' });
    expect(parseSort(undefined, FILTERABLE.bill)).toBe(DEFAULT_SORT);
    expect(parseSort('  ', FILTERABLE.bill)).toBe(DEFAULT_SORT);
    expect(parseSortFor('attachment', undefined)).toBe(DEFAULT_SORT);
  });

  it('takes an F field with ASC as the default direction, directions in any case', () => {
    expect(parseSortFor('bill', 'due_date')).toEqual({ field: 'due_date', direction: 'ASC', kind: 'date' });
    expect(parseSortFor('bill', 'due_date DESC')).toEqual({ field: 'due_date', direction: 'DESC', kind: 'date' });
    expect(parseSortFor('bill', ' due_date   asc ')).toEqual({ field: 'due_date', direction: 'ASC', kind: 'date' });
    expect(parseSortFor('bill', 'updated_at desc')).toEqual({ field: 'updated_at', direction: 'DESC', kind: 'date' });
    expect(parseSortFor('account', 'balance Desc')).toEqual({ field: 'balance', direction: 'DESC', kind: 'number' });
    expect(parseSortFor('customer', 'customer_name')).toEqual({ field: 'customer_name', direction: 'ASC', kind: 'string' });
    expect(parseSortFor('bank_feed_account', 'last_synced_at DESC')).toMatchObject({ field: 'last_synced_at' });
  });

  it('accepts sync timestamps only where they are F fields', () => {
    expect(parseSortFor('bill', 'created_at')).toMatchObject({ field: 'created_at' });
    expect(sortError(() => parseSortFor('customer', 'updated_at')).message).toBe(
      'Cannot sort customers by "updated_at"; sortable fields: customer_name, email, phone, status',
    );
  });

  it('answers VALIDATION_ERROR naming the sortable fields', () => {
    const cases: [() => unknown, string][] = [
      [
        () => parseSortFor('bill', 'amount'),
        'Cannot sort bills by "amount"; sortable fields: created_at, document_number, due_date, last_synced_at, status, updated_at, vendor_id',
      ],
      [
        () => parseSortFor('account', 'subsidiaries'),
        'Cannot sort accounts by "subsidiaries"; sortable fields: account_type, balance, category, name, nominal_code, status',
      ],
      [() => parseSortFor('customer', 'constructor'), 'Cannot sort customers by "constructor"; sortable fields: customer_name, email, phone, status'],
      [
        () => parseSortFor('bill', 'due_date UP'),
        'Invalid sort "due_date UP": write a field optionally followed by ASC or DESC, e.g. "due_date DESC"',
      ],
      [
        () => parseSortFor('bill', 'due_date DESC status'),
        'Invalid sort "due_date DESC status": write a field optionally followed by ASC or DESC, e.g. "due_date DESC"',
      ],
      [() => parseSortFor('bill', 'due_date,status'), 'sort takes one field, optionally followed by ASC or DESC; found "due_date,status"'],
      [
        () => parseSortFor('bill', 'DESC'),
        'Cannot sort bills by "DESC"; sortable fields: created_at, document_number, due_date, last_synced_at, status, updated_at, vendor_id',
      ],
      [
        () => parseSortFor('journal_entry', 'transaction_date'),
        'Cannot sort journal_entries by "transaction_date"; journal_entries can only be listed in the default order; leave sort out (updated_at DESC)',
      ],
      [() => parseSortFor('bill', `due_date ${' '.repeat(200)}`), 'sort is too long: 209 characters; the limit is 200'],
      [
        () => parseSort('x', {}),
        'Cannot sort this resource by "x"; this resource can only be listed in the default order; leave sort out (updated_at DESC)',
      ],
    ];
    for (const [run, message] of cases) {
      const error = sortError(run);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.status).toBe(400);
      expect(error.message).toBe(message);
      expect(error.metadata).toMatchObject({ field: 'sort', location: 'query' });
    }
  });

  it('lists every F field but lists of subsidiaries as sortable', () => {
    expect(sortableFields(FILTERABLE.customer)).toEqual(['customer_name', 'email', 'phone', 'status']);
    expect(sortableFields(FILTERABLE.attachment)).toEqual([]);
  });
});

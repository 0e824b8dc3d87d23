/** Malformed filters: each is a 400 INVALID_FILTER whose message says what is wrong and where. */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/catalogue.ts';
import type { UnifiedObjectType } from '../model/index.ts';
import { parseFilter } from './filter-parser.ts';
import { compileFilterFor, jsonbFieldSql } from './model-query.ts';

function failure(type: UnifiedObjectType, filter: string): ServiceError {
  try {
    compileFilterFor(type, filter, { fieldSql: jsonbFieldSql('data'), paramOffset: 0 });
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`filter was accepted: ${filter}`);
}

const OPS = 'operators: = != > >= < <= ~';
const BILL_FIELDS = 'created_at, document_number, due_date, last_synced_at, status, updated_at, vendor_id';
const CUSTOMER_FIELDS = 'customer_name, email, phone, status, subsidiaries';
const BILL_STATUSES = 'open, partially_paid, paid, void, draft, unknown, pending_approval, rejected, submitted';
const ACCOUNT_CATEGORIES = 'asset, expense, equity, liability, income, nonposting, unknown';
const DATE_HINT = 'use 2024-01-31 or 2024-01-31T09:30:00Z';
const fiftyOne = Array.from({ length: 51 }, (_, i) => `document_number = "${i}"`).join(' AND ');

const CASES: readonly (readonly [UnifiedObjectType, string, string])[] = [
  // Syntax
  ['bill', 'x'.repeat(2001), 'Filter is too long: 2001 characters; the limit is 2000'],
  ['bill', 'due_date >=', 'Expected a value after ">=" at position 12'],
  ['bill', 'status = "open" AND due_date >=', 'Expected a value after ">=" at position 32'],
  ['bill', 'due_date >= )', 'Expected a value after ">=" at position 13; found ")"'],
  ['bill', 'status', `Expected an operator after "status" at position 7; found the end of the filter; ${OPS}`],
  ['bill', 'status "open"', `Expected an operator after "status" at position 8; found the string "open"; ${OPS}`],
  ['bill', 'status == "open"', `Unknown operator "==" at position 8; ${OPS}`],
  ['bill', 'status <> "open"', `Unknown operator "<>" at position 8; ${OPS}`],
  ['bill', 'status = open', 'Expected a value after "=" at position 10; found "open": put text in double quotes, e.g. "open"'],
  ['bill', 'status = AND', 'Expected a value after "=" at position 10; found "AND"'],
  ['bill', 'document_number = "abc', 'Unterminated string starting at position 19: close it with "'],
  ['bill', String.raw`document_number = "abc\"`, 'Unterminated string starting at position 19: close it with "'],
  ['bill', String.raw`document_number = "a\nb"`, String.raw`Invalid escape "\n" at position 21: inside strings only \" and \\ are escapes`],
  ['bill', "document_number = 'abc'", `Unexpected character "'" at position 19: put text values in double quotes`],
  ['bill', 'status = "open" && due_date > 2024-01-01', 'Unexpected character "&" at position 17: combine comparisons with AND'],
  ['bill', 'status = "paid" || status = "void"', 'Unexpected character "|" at position 17: combine comparisons with OR'],
  ['bill', 'status = "€"  ¬', 'Unexpected character "¬" at position 15'],
  ['bill', 'document_number = "a\u0000b"', 'Control character U+0000 at position 21 is not allowed'],
  ['bill', 'status = "open" due_date > 2024-01-01', 'Expected AND or OR at position 17; found "due_date"'],
  ['bill', 'status = "open" (due_date > 2024-01-01)', 'Expected AND or OR at position 17; found "("'],
  ['bill', 'status = "open" AND', 'Expected a field name after "AND" at position 20; found the end of the filter'],
  ['bill', 'AND status = "open"', 'Expected a field name at position 1; found "AND"'],
  ['bill', 'status = "open" OR OR due_date > 2024-01-01', 'Expected a field name after "OR" at position 20; found "OR"'],
  ['bill', '(status = "open"', 'Expected AND, OR or ")" at position 17 to close "(" from position 1; found the end of the filter'],
  [
    'bill',
    'status = "open" AND (due_date > 2024-01-01',
    'Expected AND, OR or ")" at position 43 to close "(" from position 21; found the end of the filter',
  ],
  ['bill', 'status = "open")', 'Unexpected ")" at position 16: there is no "(" to close'],
  ['bill', '()', 'Expected a field name after "(" at position 2; found ")"'],
  ['bill', '(((((((((((status = "open")))))))))))', 'Parentheses nested deeper than 10 levels at position 11'],
  ['bill', fiftyOne, 'Filter has more than 50 comparisons (the one at position 1341 is one too many)'],
  ['bill', 'Status = "open"', 'Invalid field name "Status" at position 1: field names are lowercase letters, digits and _'],
  ['account', 'balance > 1e3', 'Invalid value "1e3" at position 11: numbers look like 42 or -12.50, dates like 2024-01-31'],
  ['bill', 'due_date = -', 'Invalid value "-" at position 12: numbers look like 42 or -12.50, dates like 2024-01-31'],
  // Dates
  ['bill', 'due_date = 2024-13-01', 'Invalid date "2024-13-01" for due_date at position 12: there is no month 13'],
  ['bill', 'due_date = 2023-02-29', 'Invalid date "2023-02-29" for due_date at position 12: there is no day 29 in 2023-02'],
  ['bill', 'due_date >= 0000-01-01', 'Invalid date "0000-01-01" for due_date at position 13: years start at 0001'],
  [
    'bill',
    'due_date > 2024-01-31T10:00:00',
    'Invalid date "2024-01-31T10:00:00" for due_date at position 12: a date-time needs a time zone, Z or +hh:mm (in a URL write + as %2B)',
  ],
  ['bill', 'due_date >= 2024-01-31T25:00:00Z', 'Invalid date "2024-01-31T25:00:00Z" for due_date at position 13: there is no such time of day'],
  ['bill', 'due_date >= 2024-01-31T10:00:00+0200', `Invalid date "2024-01-31T10:00:00+0200" for due_date at position 13: ${DATE_HINT}`],
  [
    'bill',
    'due_date >= 2024-01-31T10:00:00+15:00',
    'Invalid date "2024-01-31T10:00:00+15:00" for due_date at position 13: there is no time zone +15:00',
  ],
  ['bill', 'due_date > "31/01/2024"', `Invalid date "31/01/2024" for due_date at position 12: ${DATE_HINT}`],
  ['bill', 'due_date > 20240131', `Expected a date (${DATE_HINT}) for due_date at position 12; found the number 20240131`],
  // Fields, operators and values of the resource
  ['bill', 'amount > 100', `Unknown field "amount" for bills at position 1; filterable fields: ${BILL_FIELDS}`],
  ['bill', 'id = "x" OR memo ~ "rent"', `Unknown field "id" for bills at position 1; filterable fields: ${BILL_FIELDS}`],
  ['customer', 'constructor = "x"', `Unknown field "constructor" for customers at position 1; filterable fields: ${CUSTOMER_FIELDS}`],
  ['customer', '__proto__ = "x"', `Unknown field "__proto__" for customers at position 1; filterable fields: ${CUSTOMER_FIELDS}`],
  ['attachment', 'id = "x"', 'Unknown field "id" for attachments at position 1; attachments cannot be filtered'],
  ['bill', 'status ~ "op"', 'Operator "~" at position 8 works on text fields only; "status" is an enum'],
  ['bill', 'vendor_id ~ "v"', 'Operator "~" at position 11 works on text fields only; "vendor_id" is a service id'],
  ['bill', 'due_date ~ "2024"', 'Operator "~" at position 10 works on text fields only; "due_date" is a date'],
  ['account', 'balance ~ "1"', 'Operator "~" at position 9 works on text fields only; "balance" is a number'],
  ['customer', 'customer_name = "Acme" AND status ~ "act"', 'Operator "~" at position 35 works on text fields only; "status" is an enum'],
  ['bill', 'status > "open"', 'Operator ">" at position 8 does not apply to "status", which is an enum; use = or !='],
  ['bill', 'vendor_id <= "v"', 'Operator "<=" at position 11 does not apply to "vendor_id", which is a service id; use = or !='],
  ['customer', 'subsidiaries > "s1"', 'Operator ">" at position 14 does not apply to "subsidiaries", which is a list of subsidiaries; use = or !='],
  ['bill', 'status = "opened"', `Invalid value "opened" for status at position 10; allowed values: ${BILL_STATUSES}`],
  [
    'account',
    'category != 5',
    `Expected a text value in double quotes for category at position 13; found the number 5; allowed values: ${ACCOUNT_CATEGORIES}`,
  ],
  ['bill', 'document_number = 1001', 'Expected a text value in double quotes for document_number at position 19; found the number 1001'],
  ['customer', 'email = true', 'Expected a text value in double quotes for email at position 9; found true'],
  ['account', 'balance > "100"', 'Expected a number like 100 or -12.50 for balance at position 11; found the string "100"'],
  ['account', 'balance = 2024-01-31', 'Expected a number like 100 or -12.50 for balance at position 11; found the date 2024-01-31'],
  ['customer', 'subsidiaries = 5', 'Expected a subsidiary id in double quotes for subsidiaries at position 16; found the number 5'],
  ['bill', 'due_date > null', 'Operator ">" at position 10 cannot compare with null; use = null or != null'],
  ['account', 'name ~ null', 'Operator "~" at position 6 cannot compare with null; use = null or != null'],
  ['account', 'name ~ ""', 'Operator "~" at position 6 needs text to match; found an empty string'],
];

describe('malformed filters', () => {
  it('has plenty of cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('%s: %s', (type, filter, message) => {
    const error = failure(type, filter);
    expect(error.code).toBe('INVALID_FILTER');
    expect(error.status).toBe(400);
    expect(error.message).toBe(message);
    expect(error.metadata).toMatchObject({ field: 'filter', location: 'query' });
  });

  it('carries the position in the metadata too', () => {
    expect(failure('bill', 'due_date >=').metadata).toMatchObject({ position: 12 });
  });

  it('rejects an empty filter when parsed directly (compileFilterFor treats blank as absent)', () => {
    expect(() => parseFilter('')).toThrow('Filter is empty: write a comparison such as status = "open"');
    expect(() => parseFilter(' \t ')).toThrow('Filter is empty');
    expect(compileFilterFor('bill', '  ', { fieldSql: jsonbFieldSql('data'), paramOffset: 0 })).toBeUndefined();
  });
});

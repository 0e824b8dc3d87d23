/**
 * The part of Xero's `where` and `order` query syntax the simulator honours: comparisons (== != >= <= > <) of a field
 * path with a string, number, boolean, null, DateTime(y,m,d[,h,m,s]) or GUID("…"), joined with && / AND, || / OR and
 * parentheses (the kit's expression.ts). Anything else is refused as Xero refuses a bad filter.
 */
import { evaluate, FIELD_PATH, parseExpression, parseOrder, TokenCursor, type Expression } from '../expression.ts';
import { holds, isComparison, order, sortedBy, tokenize, valueAt, type Comparison } from '../lists.ts';
import { xeroMillis } from './dates.ts';

type Json = Record<string, unknown>;
type Value =
  | { kind: 'text'; text: string }
  | { kind: 'number'; number: number }
  | { kind: 'boolean'; boolean: boolean }
  | { kind: 'date'; ms: number }
  | { kind: 'null' };
interface Term {
  path: string[];
  cmp: Comparison;
  value: Value;
}

export class WhereError extends Error {}

const TOKEN = /\s*(\(|\)|&&|\|\||==|!=|>=|<=|>|<|,|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*)/y;

function term(cursor: TokenCursor): Term {
  const field = cursor.next();
  if (!FIELD_PATH.test(field)) throw new WhereError(`expected a field, found "${field}"`);
  const cmp = cursor.next();
  if (!isComparison(cmp, ['==', '!=', '>=', '<=', '>', '<'])) throw new WhereError(`expected a comparison after ${field}, found "${cmp}"`);
  return { path: field.split('.'), cmp, value: value(cursor) };
}

function value(cursor: TokenCursor): Value {
  const token = cursor.next();
  if (token.startsWith('"')) return { kind: 'text', text: JSON.parse(token) as string };
  if (/^-?\d/.test(token)) return { kind: 'number', number: Number(token) };
  if (token === 'true' || token === 'false') return { kind: 'boolean', boolean: token === 'true' };
  if (token === 'null') return { kind: 'null' };
  if (token === 'DateTime') {
    cursor.expect('(');
    const parts: number[] = [Number(cursor.next())];
    while (cursor.accept([','])) parts.push(Number(cursor.next()));
    cursor.expect(')');
    const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
    return { kind: 'date', ms: Date.UTC(year, month - 1, day, hour, minute, second) };
  }
  if (token.toLowerCase() === 'guid') {
    cursor.expect('(');
    const id = cursor.next();
    cursor.expect(')');
    return { kind: 'text', text: (JSON.parse(id) as string).toLowerCase() };
  }
  throw new WhereError(`cannot read the value "${token}"`);
}

export function parseWhere(text: string): Expression<Term> {
  const tokens = tokenize(text, TOKEN, (at) => new WhereError(`cannot read the filter at "${text.slice(at, at + 20)}"`));
  return parseExpression(new TokenCursor(tokens, (message) => new WhereError(message)), { and: ['&&', 'AND'], or: ['||', 'OR'] }, term);
}

function compare(actual: unknown, value: Value): number | null {
  switch (value.kind) {
    case 'date': {
      const ms = xeroMillis(actual);
      return ms === null ? null : ms - value.ms;
    }
    case 'number':
      return typeof actual === 'number' ? actual - value.number : null;
    case 'boolean':
      return actual === value.boolean ? 0 : 1;
    case 'null':
      return actual === null || actual === undefined ? 0 : 1;
    case 'text':
      return typeof actual === 'string' ? order(actual.toLowerCase(), value.text.toLowerCase()) : null;
  }
}

export const matches = (expression: Expression<Term>, record: Json): boolean =>
  evaluate(expression, (t) => holds(t.cmp, compare(valueAt(record, t.path), t.value)));

/** Sorts by `order` ("UpdatedDateUTC ASC, Name DESC"); dates compare as times, the rest as text or numbers. */
export function sortBy<T extends Json>(records: T[], text: string): T[] {
  const sortable = (value: unknown): number | string => {
    const ms = typeof value === 'string' && value.startsWith('/Date(') ? xeroMillis(value) : null;
    return ms ?? (typeof value === 'number' ? value : typeof value === 'string' ? value : '');
  };
  const keys = parseOrder(text, (part) => new WhereError(`cannot order by "${part}"`));
  return sortedBy(
    records,
    keys.map((key) => ({ of: (record: T) => sortable(valueAt(record, key.path)), descending: key.descending })),
  );
}

/**
 * The part of Xero's `where` and `order` query syntax the simulator honours: comparisons (== != >= <= > <) of a field
 * path with a string, number, boolean, null, DateTime(y,m,d[,h,m,s]) or GUID("…"), joined with && / AND, || / OR and
 * parentheses (the kit's expression.ts). Anything else is refused as Xero refuses a bad filter.
 */
import { evaluate, FIELD_PATH, parseExpression, parseOrder, TokenCursor, type Expression } from '../expression.ts';
import { holds, isComparison, order, sortedBy, tokenize, valueAt, type Comparison } from '../lists.ts';
import { xeroMillis } from './dates.ts';

type Json = Record<string, unknown>;
/** How a record's value compares with a literal: negative, zero or positive, null when it does not compare. */
type Against = (actual: unknown) => number | null;
interface Term {
  path: string[];
  cmp: Comparison;
  against: Against;
}

export class WhereError extends Error {}

const TOKEN = /\s*(\(|\)|&&|\|\||==|!=|>=|<=|>|<|,|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*)/y;

function term(cursor: TokenCursor): Term {
  const field = cursor.next();
  if (!FIELD_PATH.test(field)) throw new WhereError(`expected a field, found "${field}"`);
  const cmp = cursor.next();
  if (!isComparison(cmp, ['==', '!=', '>=', '<=', '>', '<'])) throw new WhereError(`expected a comparison after ${field}, found "${cmp}"`);
  return { path: field.split('.'), cmp, against: literal(cursor) };
}

/** Text compares case-insensitively, and only with text. */
const textAgainst =
  (text: string): Against =>
  (actual) =>
    typeof actual === 'string' ? order(actual.toLowerCase(), text.toLowerCase()) : null;

function literal(cursor: TokenCursor): Against {
  const token = cursor.next();
  if (token.startsWith('"')) return textAgainst(JSON.parse(token) as string);
  if (/^-?\d/.test(token)) return (actual) => (typeof actual === 'number' ? actual - Number(token) : null);
  if (token === 'true' || token === 'false') return (actual) => (actual === (token === 'true') ? 0 : 1);
  if (token === 'null') return (actual) => (actual === null || actual === undefined ? 0 : 1);
  if (token === 'DateTime') {
    cursor.expect('(');
    const parts: number[] = [Number(cursor.next())];
    while (cursor.accept([','])) parts.push(Number(cursor.next()));
    cursor.expect(')');
    const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    return (actual) => {
      const at = xeroMillis(actual);
      return at === null ? null : at - ms;
    };
  }
  if (token.toLowerCase() === 'guid') {
    cursor.expect('(');
    const id = cursor.next();
    cursor.expect(')');
    return textAgainst(JSON.parse(id) as string);
  }
  throw new WhereError(`cannot read the value "${token}"`);
}

export function parseWhere(text: string): Expression<Term> {
  const tokens = tokenize(text, TOKEN, (at) => new WhereError(`cannot read the filter at "${text.slice(at, at + 20)}"`));
  return parseExpression(new TokenCursor(tokens, (message) => new WhereError(message)), { and: ['&&', 'AND'], or: ['||', 'OR'] }, term);
}

export const matches = (expression: Expression<Term>, record: Json): boolean =>
  evaluate(expression, (t) => holds(t.cmp, t.against(valueAt(record, t.path))));

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

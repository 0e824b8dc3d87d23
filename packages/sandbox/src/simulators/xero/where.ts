/**
 * The part of Xero's `where` and `order` query syntax the stand-in honours:
 * comparisons (== != >= <= > <) of a field path with a string, number,
 * boolean, DateTime(y,m,d[,h,m,s]) or GUID("…"), joined with && / AND, || / OR
 * and parentheses. Anything else is refused as Xero refuses a bad filter.
 */
import { holds, isComparison, order, sortedBy, tokenize, valueAt, type Comparison } from '../lists.ts';
import { xeroMillis } from './dates.ts';

type Json = Record<string, unknown>;
type Value =
  | { kind: 'text'; text: string }
  | { kind: 'number'; number: number }
  | { kind: 'boolean'; boolean: boolean }
  | { kind: 'date'; ms: number }
  | { kind: 'null' };
type Expr = { op: 'and' | 'or'; left: Expr; right: Expr } | { op: 'cmp'; path: string[]; cmp: Comparison; value: Value };

export class WhereError extends Error {}

const TOKEN = /\s*(\(|\)|&&|\|\||==|!=|>=|<=|>|<|,|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*)/y;

const tokens = (text: string): string[] => tokenize(text, TOKEN, (at) => new WhereError(`cannot read the filter at "${text.slice(at, at + 20)}"`));

class Parser {
  private at = 0;
  private readonly tokens: string[];

  constructor(tokens: string[]) {
    this.tokens = tokens;
  }

  parse(): Expr {
    const expr = this.or();
    if (this.at < this.tokens.length) throw new WhereError(`unexpected "${this.tokens[this.at] ?? ''}"`);
    return expr;
  }

  private peek(): string | undefined {
    return this.tokens[this.at];
  }
  private next(): string {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new WhereError('the filter ends too early');
    return token;
  }
  private expect(token: string): void {
    const got = this.next();
    if (got !== token) throw new WhereError(`expected "${token}", found "${got}"`);
  }

  private or(): Expr {
    return this.joined('or', ['||', 'OR'], () => this.and());
  }

  private and(): Expr {
    return this.joined('and', ['&&', 'AND'], () => this.term());
  }

  /** Operands of `next` joined by either spelling of an operator, left to right. */
  private joined(op: 'and' | 'or', words: readonly string[], next: () => Expr): Expr {
    let left = next();
    while (words.includes(this.peek()?.toUpperCase() ?? '')) {
      this.next();
      left = { op, left, right: next() };
    }
    return left;
  }

  private term(): Expr {
    if (this.peek() === '(') {
      this.next();
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    const field = this.next();
    if (!/^[A-Za-z_][\w.]*$/.test(field)) throw new WhereError(`expected a field, found "${field}"`);
    const cmp = this.next();
    if (!isComparison(cmp, ['==', '!=', '>=', '<=', '>', '<'])) throw new WhereError(`expected a comparison after ${field}, found "${cmp}"`);
    return { op: 'cmp', path: field.split('.'), cmp, value: this.value() };
  }

  private value(): Value {
    const token = this.next();
    if (token.startsWith('"')) return { kind: 'text', text: JSON.parse(token) as string };
    if (/^-?\d/.test(token)) return { kind: 'number', number: Number(token) };
    if (token === 'true' || token === 'false') return { kind: 'boolean', boolean: token === 'true' };
    if (token === 'null') return { kind: 'null' };
    if (token === 'DateTime') {
      this.expect('(');
      const parts: number[] = [Number(this.next())];
      while (this.peek() === ',') {
        this.next();
        parts.push(Number(this.next()));
      }
      this.expect(')');
      const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts;
      return { kind: 'date', ms: Date.UTC(year, month - 1, day, hour, minute, second) };
    }
    if (token.toLowerCase() === 'guid') {
      this.expect('(');
      const id = this.next();
      this.expect(')');
      return { kind: 'text', text: (JSON.parse(id) as string).toLowerCase() };
    }
    throw new WhereError(`cannot read the value "${token}"`);
  }
}

export function parseWhere(text: string): Expr {
  return new Parser(tokens(text)).parse();
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

export function matches(expr: Expr, record: Json): boolean {
  if (expr.op !== 'cmp')
    return expr.op === 'and' ? matches(expr.left, record) && matches(expr.right, record) : matches(expr.left, record) || matches(expr.right, record);
  return holds(expr.cmp, compare(valueAt(record, expr.path), expr.value));
}

/** Sorts by `order` ("UpdatedDateUTC ASC, Name DESC"); dates compare as times, the rest as text or numbers. */
export function sortBy<T extends Json>(records: T[], order: string): T[] {
  const keys = order.split(',').map((part) => {
    const [field = '', direction = 'ASC'] = part.trim().split(/\s+/);
    if (!/^[A-Za-z_][\w.]*$/.test(field) || !['ASC', 'DESC'].includes(direction.toUpperCase()))
      throw new WhereError(`cannot order by "${part.trim()}"`);
    return { path: field.split('.'), descending: direction.toUpperCase() === 'DESC' };
  });
  const sortable = (value: unknown): number | string => {
    const ms = typeof value === 'string' && value.startsWith('/Date(') ? xeroMillis(value) : null;
    return ms ?? (typeof value === 'number' ? value : typeof value === 'string' ? value : '');
  };
  return sortedBy(
    records,
    keys.map((key) => ({ of: (record: T) => sortable(valueAt(record, key.path)), descending: key.descending })),
  );
}

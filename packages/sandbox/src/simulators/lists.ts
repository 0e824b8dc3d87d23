/**
 * The list machinery every simulator shares, whatever the platform's syntax around it: the path's segments, the tokens
 * of a query language, a filter's comparisons (= == != < <= > >=) of a record's value at a field path, and stable
 * sorts on several keys. A platform's parser (Xero's `where`, QuickBooks' query, Shopify's search, Stripe's bounds)
 * only reads its own syntax into these.
 */

export type Comparison = '=' | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type Sortable = number | string;

/** A path's segments, each decoded; a malformed escape is kept as sent (it names nothing, so the platform answers 404). */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/**
 * Splits `text` into tokens with a sticky pattern (flag `y`) whose first group is one token after optional white
 * space; `fail(at)` is thrown at the first character no token starts at (trailing white space is fine).
 */
export function tokenize(text: string, pattern: RegExp, fail: (at: number) => Error): string[] {
  const tokens: string[] = [];
  pattern.lastIndex = 0;
  let end = 0;
  while (end < text.length) {
    const match = pattern.exec(text);
    if (match === null) break;
    tokens.push(match[1] ?? '');
    end = pattern.lastIndex;
  }
  if (text.slice(end).trim() !== '') throw fail(end);
  return tokens;
}

/** Whether `token` is one of the comparisons a syntax has. */
/** `token` is one of `allowed` (a platform's own subset of the comparisons), narrowed to that subset. */
export const isComparison = <C extends Comparison>(token: string, allowed: readonly C[]): token is C => allowed.some((op) => op === token);

/** The order of two values (negative, zero, positive), or null when they do not compare (NaN). */
export function order(a: Sortable, b: Sortable): number | null {
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : null;
}

/** Whether `op` holds between two values of this order; values that do not compare (null) are only unequal. */
export function holds(op: Comparison, sign: number | null): boolean {
  if (sign === null) return op === '!=';
  switch (op) {
    case '=':
    case '==':
      return sign === 0;
    case '!=':
      return sign !== 0;
    case '<':
      return sign < 0;
    case '<=':
      return sign <= 0;
    case '>':
      return sign > 0;
    case '>=':
      return sign >= 0;
  }
}

/** The value at a field path of a record (`MetaData.LastUpdatedTime` as ['MetaData', 'LastUpdatedTime']). */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let current: unknown = record;
  for (const step of path) {
    const next: unknown = typeof current === 'object' && current !== null ? Reflect.get(current, step) : undefined;
    current = next;
  }
  return current;
}

export interface SortKey<T> {
  of(item: T): Sortable;
  descending?: boolean;
}

/** A sorted copy, key after key; items equal on every key keep their order (so pages stay stable). */
export function sortedBy<T>(items: readonly T[], keys: readonly SortKey<T>[]): T[] {
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const x = key.of(a);
      const y = key.of(b);
      const sign = key.descending === true ? -1 : 1;
      if (x < y) return -sign;
      if (x > y) return sign;
    }
    return 0;
  });
}

/**
 * The shape every filter syntax of the simulators shares around its own terms: terms joined by AND and OR (in the
 * spellings a platform has), AND binding tighter than OR, parentheses grouping; and the `Field ASC, Other DESC` order
 * clause. A platform reads only its terms (Xero's `Field == "value"`) and says what a term holds for.
 */

/** A parsed filter: terms joined by and / or. */
export type Expression<T> = { op: 'and' | 'or'; left: Expression<T>; right: Expression<T> } | { op: 'term'; term: T };

/** A filter's tokens read one by one; a token out of place is `fail`'s error (the platform's own). */
export class TokenCursor {
  private at = 0;
  private readonly tokens: readonly string[];
  private readonly fail: (message: string) => Error;

  constructor(tokens: readonly string[], fail: (message: string) => Error) {
    this.tokens = tokens;
    this.fail = fail;
  }

  peek(): string | undefined {
    return this.tokens[this.at];
  }

  next(): string {
    const token = this.tokens[this.at++];
    if (token === undefined) throw this.fail('the filter ends too early');
    return token;
  }

  expect(token: string): void {
    const got = this.next();
    if (got !== token) throw this.fail(`expected "${token}", found "${got}"`);
  }

  /** Takes the next token when it is one of `words` (compared in upper case). */
  accept(words: readonly string[]): boolean {
    const taken = words.includes(this.peek()?.toUpperCase() ?? '');
    if (taken) this.at++;
    return taken;
  }

  end(): void {
    if (this.at < this.tokens.length) throw this.fail(`unexpected "${this.tokens[this.at] ?? ''}"`);
  }
}

/** The spellings of a syntax's connectives, upper case (Xero: && or AND, || or OR). */
export interface Connectives {
  and: readonly string[];
  or: readonly string[];
}

/** Every token of `cursor` as one expression of `term`s, joined left to right. */
export function parseExpression<T>(cursor: TokenCursor, connectives: Connectives, term: (cursor: TokenCursor) => T): Expression<T> {
  const joined = (op: 'and' | 'or', words: readonly string[], operand: () => Expression<T>): Expression<T> => {
    let left = operand();
    while (cursor.accept(words)) left = { op, left, right: operand() };
    return left;
  };
  const or = (): Expression<T> => joined('or', connectives.or, and);
  const and = (): Expression<T> => joined('and', connectives.and, primary);
  function primary(): Expression<T> {
    if (cursor.peek() !== '(') return { op: 'term', term: term(cursor) };
    cursor.next();
    const inner = or();
    cursor.expect(')');
    return inner;
  }
  const expression = or();
  cursor.end();
  return expression;
}

/** Whether a record satisfies an expression, given whether it satisfies each term. */
export function evaluate<T>(expression: Expression<T>, satisfies: (term: T) => boolean): boolean {
  switch (expression.op) {
    case 'term':
      return satisfies(expression.term);
    case 'and':
      return evaluate(expression.left, satisfies) && evaluate(expression.right, satisfies);
    case 'or':
      return evaluate(expression.left, satisfies) || evaluate(expression.right, satisfies);
  }
}

/** A field path as filters and orders name it: `Contact.Name`. */
export const FIELD_PATH = /^[A-Za-z_][\w.]*$/;

/** The keys of an order clause (`UpdatedDateUTC ASC, Name DESC`), ascending unless said; `fail(part)` for a key it cannot read. */
export function parseOrder(text: string, fail: (part: string) => Error): { path: string[]; descending: boolean }[] {
  return text.split(',').map((part) => {
    const [field = '', direction = 'ASC'] = part.trim().split(/\s+/);
    if (!FIELD_PATH.test(field) || !['ASC', 'DESC'].includes(direction.toUpperCase())) throw fail(part.trim());
    return { path: field.split('.'), descending: direction.toUpperCase() === 'DESC' };
  });
}

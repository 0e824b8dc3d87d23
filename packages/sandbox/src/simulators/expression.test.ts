import { describe, expect, it } from 'vitest';
import { evaluate, parseExpression, parseOrder, TokenCursor, type Expression } from './expression.ts';
import { tokenize } from './lists.ts';

class FilterError extends Error {}

/** A toy syntax: a term is one letter, true when the record has it. */
function parse(text: string): Expression<string> {
  const tokens = tokenize(text, /\s*(\(|\)|and|or|&&|[a-z])/iy, (at) => new FilterError(`at ${at}`));
  return parseExpression(new TokenCursor(tokens, (message) => new FilterError(message)), { and: ['AND', '&&'], or: ['OR'] }, (cursor) => {
    const letter = cursor.next();
    if (!/^[a-z]$/.test(letter)) throw new FilterError(`not a term: ${letter}`);
    return letter;
  });
}

const holds = (text: string, letters: string): boolean => evaluate(parse(text), (letter) => letters.includes(letter));

describe('filter expressions', () => {
  it('bind AND tighter than OR, left to right, in any spelling the syntax has', () => {
    expect(holds('a or b and c', 'a')).toBe(true);
    expect(holds('a OR b && c', 'b')).toBe(false);
    expect(holds('(a or b) and c', 'a')).toBe(false);
    expect(holds('(a or b) AND c', 'ac')).toBe(true);
    expect(parse('a and b and c')).toEqual({
      op: 'and',
      left: { op: 'and', left: { op: 'term', term: 'a' }, right: { op: 'term', term: 'b' } },
      right: { op: 'term', term: 'c' },
    });
  });

  it("refuse what does not parse with the syntax's own error", () => {
    expect(() => parse('a and')).toThrow(new FilterError('the filter ends too early'));
    expect(() => parse('(a or b')).toThrow(new FilterError('the filter ends too early'));
    expect(() => parse('a b')).toThrow(new FilterError('unexpected "b"'));
    expect(() => parse('(a b)')).toThrow(new FilterError('expected ")", found "b"'));
    expect(() => parse('and a')).toThrow(new FilterError('not a term: and'));
  });

  it('read order clauses, ascending unless said', () => {
    expect(parseOrder('UpdatedDateUTC, Contact.Name desc', (part) => new FilterError(part))).toEqual([
      { path: ['UpdatedDateUTC'], descending: false },
      { path: ['Contact', 'Name'], descending: true },
    ]);
    expect(() => parseOrder('Name SIDEWAYS', (part) => new FilterError(part))).toThrow(new FilterError('Name SIDEWAYS'));
  });
});

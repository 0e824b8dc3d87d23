/** The filter parser: tokens, values, precedence, parentheses and limits (error texts: filter-errors.test.ts). */
import { describe, expect, it } from 'vitest';
import { FILTER_LIMITS, parseFilter, type FilterNode, type FilterValue } from './filter-parser.ts';

/** The tree without positions, for compact expectations. */
function shape(node: FilterNode): unknown {
  if (node.type === 'comparison') return [node.field, node.op, node.value];
  return { [node.type]: node.children.map(shape) };
}

const str = (value: string): FilterValue => ({ type: 'string', value });

describe('comparisons', () => {
  it.each(['=', '!=', '>', '>=', '<', '<=', '~'] as const)('parses the %s operator with and without spaces', (op) => {
    expect(shape(parseFilter(`document_number ${op} "A-1"`))).toEqual(['document_number', op, str('A-1')]);
    expect(shape(parseFilter(`document_number${op}"A-1"`))).toEqual(['document_number', op, str('A-1')]);
  });

  it('records where the field, operator and value start (counting from 1)', () => {
    expect(parseFilter('  due_date >= 2024-01-31')).toMatchObject({ position: 3, opPosition: 12, valuePosition: 15 });
  });

  it('reads numbers, booleans, null and dates', () => {
    const value = (text: string) => (parseFilter(`x = ${text}`) as { value: FilterValue }).value;
    expect(value('42')).toEqual({ type: 'number', value: 42, text: '42' });
    expect(value('-12.50')).toEqual({ type: 'number', value: -12.5, text: '-12.50' });
    expect(value('0')).toEqual({ type: 'number', value: 0, text: '0' });
    expect(value('true')).toEqual({ type: 'boolean', value: true });
    expect(value('FALSE')).toEqual({ type: 'boolean', value: false });
    expect(value('null')).toEqual({ type: 'null', value: null });
    expect(value('Null')).toEqual({ type: 'null', value: null });
    expect(value('2024-01-31')).toEqual({ type: 'date', value: '2024-01-31', dateOnly: true });
    expect(value('2024-02-29')).toEqual({ type: 'date', value: '2024-02-29', dateOnly: true });
    expect(value('2024-01-31T09:30:00Z')).toEqual({ type: 'date', value: '2024-01-31T09:30:00Z', dateOnly: false });
    expect(value('2024-01-31T09:30:00.123456+02:00')).toMatchObject({ type: 'date', dateOnly: false });
    expect(value('2024-01-31T09:30-05:30')).toMatchObject({ type: 'date', value: '2024-01-31T09:30-05:30' });
    // Long numbers keep their exact text for PostgreSQL's numeric.
    expect(value('12345678901234567890.123456789')).toMatchObject({ text: '12345678901234567890.123456789' });
  });

  it('reads escapes in double-quoted strings', () => {
    const value = (text: string) => (parseFilter(`name = ${text}`) as { value: FilterValue }).value;
    expect(value(String.raw`"say \"hi\""`)).toEqual(str('say "hi"'));
    expect(value(String.raw`"back\\slash"`)).toEqual(str('back\\slash'));
    expect(value(String.raw`"\\"`)).toEqual(str('\\'));
    expect(value(String.raw`"\\\""`)).toEqual(str('\\"'));
    expect(value('""')).toEqual(str(''));
    // Everything else is literal: SQL quotes, keywords, parentheses, unicode.
    expect(value(`"x' OR 1=1 -- (AND) ~ Müller & Söhne 💶"`)).toEqual(str("x' OR 1=1 -- (AND) ~ Müller & Söhne 💶"));
    expect(value('"two\nlines\ttab"')).toEqual(str('two\nlines\ttab'));
  });
});

describe('AND, OR and parentheses', () => {
  const a = ['a', '=', str('1')];
  const b = ['b', '=', str('2')];
  const c = ['c', '=', str('3')];
  const d = ['d', '=', str('4')];

  it('binds AND tighter than OR', () => {
    expect(shape(parseFilter('a = "1" OR b = "2" AND c = "3"'))).toEqual({ or: [a, { and: [b, c] }] });
    expect(shape(parseFilter('a = "1" AND b = "2" OR c = "3"'))).toEqual({ or: [{ and: [a, b] }, c] });
    expect(shape(parseFilter('a = "1" AND b = "2" OR c = "3" AND d = "4"'))).toEqual({ or: [{ and: [a, b] }, { and: [c, d] }] });
  });

  it('lets parentheses override precedence', () => {
    expect(shape(parseFilter('(a = "1" OR b = "2") AND c = "3"'))).toEqual({ and: [{ or: [a, b] }, c] });
    expect(shape(parseFilter('a = "1" AND (b = "2" OR (c = "3" AND d = "4"))'))).toEqual({ and: [a, { or: [b, { and: [c, d] }] }] });
    expect(shape(parseFilter('((a = "1"))'))).toEqual(a);
  });

  it('flattens chains of the same keyword', () => {
    expect(shape(parseFilter('a = "1" AND b = "2" AND c = "3"'))).toEqual({ and: [a, b, c] });
    expect(shape(parseFilter('a = "1" OR b = "2" OR c = "3"'))).toEqual({ or: [a, b, c] });
  });

  it('accepts AND and OR in any case, and any whitespace', () => {
    expect(shape(parseFilter('a = "1" and b = "2" Or c = "3"'))).toEqual({ or: [{ and: [a, b] }, c] });
    expect(shape(parseFilter('(a="1")\n\tAND\r\n(b="2")'))).toEqual({ and: [a, b] });
  });

  it('reads AND and OR inside strings as text', () => {
    expect(shape(parseFilter('a = "1 AND b = 2"'))).toEqual(['a', '=', str('1 AND b = 2')]);
  });
});

describe('limits', () => {
  const comparisons = (n: number) => Array.from({ length: n }, (_, i) => `f${i} = ${i}`).join(' AND ');
  const wordMatches = (n: number) => `(${Array.from({ length: n }, (_, i) => `name ~ "w${i}"`).join(' OR ')})`;

  it('allows exactly the maximum comparisons, nesting and length', () => {
    expect(FILTER_LIMITS).toEqual({ maxLength: 2000, maxComparisons: 50, maxWordMatches: 10, maxDepth: 10 });
    expect(parseFilter(comparisons(50))).toMatchObject({ type: 'and' });
    expect(parseFilter(wordMatches(10))).toMatchObject({ type: 'or' });
    expect(shape(parseFilter(`${'('.repeat(10)}a = "1"${')'.repeat(10)}`))).toEqual(['a', '=', str('1')]);
    const long = `name = "${'x'.repeat(2000 - 9)}"`;
    expect(long).toHaveLength(2000);
    expect(parseFilter(long)).toMatchObject({ type: 'comparison' });
  });

  it('rejects one more of each', () => {
    expect(() => parseFilter(comparisons(51))).toThrow(/more than 50 comparisons/);
    // The eleventh "~" is refused at its own position; other operators do not count towards it.
    expect(() => parseFilter(`${wordMatches(11)} AND a = 1`)).toThrow(/more than 10 "~" comparisons \(the one at position 157 is one too many\)/);
    expect(parseFilter(`${wordMatches(10)} AND ${comparisons(40)}`)).toMatchObject({ type: 'and' });
    expect(() => parseFilter(`${'('.repeat(11)}a = "1"${')'.repeat(11)}`)).toThrow(/nested deeper than 10/);
    expect(() => parseFilter(`name = "${'x'.repeat(2000 - 8)}"`)).toThrow(/too long: 2001 characters/);
  });
});

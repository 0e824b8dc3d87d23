import { describe, expect, it } from 'vitest';
import { findUnstorable, hasControlOrUndecodable, MAX_NESTING, textProblem } from './storable-input.ts';

describe('textProblem', () => {
  it('finds NUL and lone surrogates, and lets paired ones and ordinary text through', () => {
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    expect(textProblem('\ud800')).toMatch(/lone UTF-16 surrogate/);
    expect(textProblem('x\udc00y')).toMatch(/lone UTF-16 surrogate/);
    expect(textProblem('\udc00\ud800')).toMatch(/lone UTF-16 surrogate/);
    for (const fine of ['', 'plain', '😀', 'tab\tand newline\n', 'é ü ß', '\ufffd']) expect(textProblem(fine)).toBeNull();
  });
});

describe('findUnstorable', () => {
  it('names the first bad value in document order with its path', () => {
    expect(findUnstorable({ bill: { memo: 'ok', line_items: [{ description: 'ok' }, { description: 'x\u0000' }], other: '\ud800' } })).toEqual({
      field: 'bill.line_items[1].description',
      problem: expect.stringMatching(/NUL/) as unknown,
    });
    expect(findUnstorable(['\ud800'])?.field).toBe('[0]');
    expect(findUnstorable('\u0000')?.field).toBe('');
  });

  it('refuses non-finite numbers (JSON 1e309 parses as Infinity) and accepts finite ones', () => {
    expect(findUnstorable(JSON.parse('{"a":{"b":[1, 2, 1e309]}}'))).toEqual({ field: 'a.b[2]', problem: expect.stringMatching(/finite/) as unknown });
    expect(findUnstorable(JSON.parse('{"a":-1e309}'))?.field).toBe('a');
    expect(findUnstorable({ a: 1e308, b: -0, c: 0.1, d: null, e: true })).toBeNull();
  });

  it('checks field names and escapes them in the path', () => {
    const found = findUnstorable({ outer: { 'a\u0000b': 1 } });
    expect(found).toEqual({ field: 'outer.a\\u0000b', problem: expect.stringMatching(/^has a name that contains a NUL/) as unknown });
    expect(findUnstorable({ ['\ud800']: 'x' })?.field).toBe('\\ud800');
  });

  it('refuses nesting deeper than MAX_NESTING (a 1 MiB body can nest half a million levels) without overflowing the stack', () => {
    const depth = 400_000;
    const found = findUnstorable(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`));
    expect(found?.problem).toBe(`is nested more than ${MAX_NESTING} levels deep`);
    expect(found?.field).toBe('[0]'.repeat(MAX_NESTING));
    const ok = JSON.parse(`${'{"a":'.repeat(MAX_NESTING)}"fine"${'}'.repeat(MAX_NESTING)}`) as unknown;
    expect(findUnstorable(ok)).toBeNull();
  });

  it('skips raw bytes', () => {
    expect(findUnstorable({ file: Buffer.from([0, 0xd8, 0]) })).toBeNull();
  });
});

describe('hasControlOrUndecodable', () => {
  it('finds C0 controls, DEL and the replacement character of undecodable UTF-8', () => {
    for (const bad of ['\u0000', 'a\u0001', '\u001f', '\u007f', Buffer.from([0xed, 0xa0, 0x80]).toString('utf8')])
      expect(hasControlOrUndecodable(bad)).toBe(true);
    for (const fine of ['client_id', 'sk_live_AbC-123_', 'é', '😀']) expect(hasControlOrUndecodable(fine)).toBe(false);
  });
});

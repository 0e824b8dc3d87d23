import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './hash.ts';

describe('content hash', () => {
  it('ignores key order and undefined values, not array order or values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: null }, e: undefined })).toBe('{"a":{"c":null,"d":[1,2]},"b":1}');
    expect(contentHash({ a: 1, b: 2 }).equals(contentHash({ b: 2, a: 1 }))).toBe(true);
    expect(contentHash({ a: [1, 2] }).equals(contentHash({ a: [2, 1] }))).toBe(false);
    expect(contentHash({ a: 1 }).equals(contentHash({ a: '1' }))).toBe(false);
    expect(contentHash({ a: null }).equals(contentHash({}))).toBe(false);
  });
});

/** The first implementation, whose text every stored hash was made from: the current one must match it exactly. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonicalJson(v)}`).join(',')}}`;
}

describe('canonical JSON', () => {
  it('is byte for byte the text of the first implementation, for any JSON-like value', () => {
    const value = fc.anything({
      withNullPrototype: false,
      withBoxedValues: false,
      withMap: false,
      withSet: false,
      withDate: false,
      withTypedArray: false,
      withSparseArray: true,
      withObjectString: false,
    });
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(referenceCanonicalJson(v));
      }),
      { numRuns: 2_000 },
    );
    expect(canonicalJson([1, undefined, 2])).toBe(referenceCanonicalJson([1, undefined, 2]));
    for (const odd of [
      { b: 1, 10: 2, 9: 3, a: 4 },
      JSON.parse('{"b":1,"__proto__":{"z":1,"a":2}}') as unknown,
      { f: () => 1, a: 1 },
      [() => 1, 2],
      { d: new Date(0) },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
    ]) {
      expect(canonicalJson(odd)).toBe(referenceCanonicalJson(odd));
    }
    expect(canonicalJson({ é: 1, e: 2, Z: 3, '😀': 4, '\uffff': 5 })).toBe(referenceCanonicalJson({ é: 1, e: 2, Z: 3, '😀': 4, '\uffff': 5 }));
  });
});

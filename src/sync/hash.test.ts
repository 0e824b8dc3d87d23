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

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeDataUrl, signedFileUrl, verifyFileSignature } from './signed-url.ts';

describe('signed file URLs', () => {
  const key = randomBytes(32);
  it('verify for their id until they expire', () => {
    const url = new URL(signedFileUrl('http://x', key, 'abc', 1_000_000));
    const expires = Number(url.searchParams.get('expires'));
    const sig = url.searchParams.get('signature') ?? '';
    expect(url.pathname).toBe('/files/abc');
    expect(verifyFileSignature(key, 'abc', expires, sig, 1_000_000)).toBe('ok');
    expect(verifyFileSignature(key, 'abd', expires, sig, 1_000_000)).toBe('invalid');
    expect(verifyFileSignature(key, 'abc', expires + 1, sig, 1_000_000)).toBe('invalid');
    expect(verifyFileSignature(randomBytes(32), 'abc', expires, sig, 1_000_000)).toBe('invalid');
    expect(verifyFileSignature(key, 'abc', expires, sig, (expires + 1) * 1000)).toBe('expired');
    // During a key rotation: a URL signed with any configured key's signing key.
    expect(verifyFileSignature([randomBytes(32), key], 'abc', expires, sig, 1_000_000)).toBe('ok');
    expect(verifyFileSignature([randomBytes(32), randomBytes(32)], 'abc', expires, sig, 1_000_000)).toBe('invalid');
  });

  it('decode data: URLs', () => {
    expect(decodeDataUrl('data:text/plain;base64,aGVsbG8=')).toEqual({ contentType: 'text/plain', body: Buffer.from('hello') });
    expect(decodeDataUrl('https://example.com/x')).toBeNull();
  });
});

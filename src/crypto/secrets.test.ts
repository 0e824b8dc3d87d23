import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCipher, randomToken, secretMatches, sha256 } from './secrets.ts';

describe('secret cipher', () => {
  const cipher = createCipher(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = cipher.encrypt('lpsk_super-secret');
    expect(sealed.includes(Buffer.from('super-secret'))).toBe(false);
    expect(cipher.decrypt(sealed)).toBe('lpsk_super-secret');
  });

  it('uses a fresh nonce each time', () => {
    expect(cipher.encrypt('x').equals(cipher.encrypt('x'))).toBe(false);
  });

  it('rejects tampered ciphertext and a wrong key', () => {
    const sealed = cipher.encrypt('value');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
    expect(() => cipher.decrypt(tampered)).toThrow();
    expect(() => createCipher(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => createCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('secret comparison', () => {
  it('matches only the exact secret', () => {
    const stored = sha256('abc');
    expect(secretMatches('abc', stored)).toBe(true);
    expect(secretMatches('abd', stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
  });

  it('makes distinct prefixed tokens', () => {
    const a = randomToken('lp_');
    expect(a.startsWith('lp_')).toBe(true);
    expect(a).not.toBe(randomToken('lp_'));
    expect(a).toMatch(/^lp_[A-Za-z0-9_-]{43}$/);
  });
});

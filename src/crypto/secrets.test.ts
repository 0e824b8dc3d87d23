import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCipher, createKeyRing, keyIdOf, randomToken, sealInLegacyLayout, secretMatches, sha256, UnreadableSecretError } from './secrets.ts';

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

describe('key ring', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);
  const c = randomBytes(32);

  it('seals with the current key, naming it, and opens with it', () => {
    const ring = createKeyRing(b, [a]);
    const sealed = ring.encrypt('secret');
    expect(sealed[0]).toBe(2);
    expect(sealed.subarray(1, 5).toString('hex')).toBe(ring.currentKeyId);
    expect(ring.currentKeyId).toBe(keyIdOf(b).toString('hex'));
    expect(ring.previousKeyIds).toEqual([keyIdOf(a).toString('hex')]);
    expect(ring.sealedWithCurrentKey(sealed)).toBe(true);
    expect(sealed.subarray(0, 5).equals(ring.currentPrefix)).toBe(true);
    expect(ring.decrypt(sealed)).toBe('secret');
    expect(createKeyRing(b).decrypt(sealed)).toBe('secret');
  });

  it('opens what a previous key sealed, in either layout, and says it is not the current key', () => {
    const ring = createKeyRing(b, [c, a]);
    const underA = createKeyRing(a).encrypt('from a');
    const legacyA = sealInLegacyLayout(a, 'legacy a');
    const legacyB = sealInLegacyLayout(b, 'legacy b');
    expect(ring.decrypt(underA)).toBe('from a');
    expect(ring.decrypt(legacyA)).toBe('legacy a');
    expect(ring.decrypt(legacyB)).toBe('legacy b');
    // A layout-1 value names no key: it is re-sealed even when the current key opens it.
    for (const sealed of [underA, legacyA, legacyB]) expect(ring.sealedWithCurrentKey(sealed)).toBe(false);
  });

  it('opens a layout-1 value exactly as the single-key cipher of earlier releases wrote it', () => {
    // Layout 1, byte by byte: version 1 | nonce | tag | ciphertext, no additional data.
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    const gcm = createCipheriv('aes-256-gcm', key, nonce);
    const body = Buffer.concat([gcm.update('written by release 1', 'utf8'), gcm.final()]);
    const sealed = Buffer.concat([Buffer.from([1]), nonce, gcm.getAuthTag(), body]);
    expect(createCipher(key).decrypt(sealed)).toBe('written by release 1');
  });

  it('refuses, saying which key, a value sealed with a key it does not hold', () => {
    const sealedWithC = createKeyRing(c).encrypt('x');
    const ring = createKeyRing(b, [a]);
    const idC = keyIdOf(c).toString('hex');
    expect(() => ring.decrypt(sealedWithC)).toThrow(UnreadableSecretError);
    expect(() => ring.decrypt(sealedWithC)).toThrow(`sealed with key ${idC}, which is none of the configured keys`);
    expect(() => ring.decrypt(sealedWithC)).toThrow(
      `ENCRYPTION_KEY (key ${ring.currentKeyId}), ENCRYPTION_KEY_PREVIOUS key ${keyIdOf(a).toString('hex')}`,
    );
    expect(() => ring.decrypt(sealInLegacyLayout(c, 'x'))).toThrow(/layout 1\) opens with none of the configured keys/);
  });

  it('refuses a value whose key id or body was changed', () => {
    const ring = createKeyRing(b, [a]);
    const sealed = ring.encrypt('value');
    // Relabelled as sealed by the previous key: the key id is authenticated, so neither key opens it.
    const relabelled = Buffer.concat([Buffer.from([2]), keyIdOf(a), sealed.subarray(5)]);
    expect(() => ring.decrypt(relabelled)).toThrow(/does not open with it/);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
    expect(() => ring.decrypt(tampered)).toThrow(/damaged/);
    expect(() => ring.decrypt(Buffer.from([9, 1, 2, 3]))).toThrow(/unknown format/);
  });

  it('holds a key given twice once, and refuses a previous key of the wrong length', () => {
    expect(createKeyRing(b, [b, a, a]).previousKeyIds).toEqual([keyIdOf(a).toString('hex')]);
    expect(() => createKeyRing(b, [randomBytes(16)])).toThrow(/previous encryption key 1 must be 32 bytes/);
  });
});

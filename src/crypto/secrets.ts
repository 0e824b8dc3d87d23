/**
 * Secrets at rest: AES-256-GCM with a random 96-bit nonce per value.
 * Layout: version(1) | nonce(12) | tag(16) | ciphertext.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 1;

export interface Cipher {
  encrypt(plaintext: string): Buffer;
  decrypt(sealed: Buffer): string;
}

export function createCipher(key: Buffer): Cipher {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  return {
    encrypt(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      if (sealed.length < 29 || sealed[0] !== VERSION) throw new Error('sealed value has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
      decipher.setAuthTag(sealed.subarray(13, 29));
      return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of a presented secret with a stored SHA-256. */
export function secretMatches(presented: string, storedSha256: Buffer): boolean {
  const digest = sha256(presented);
  return digest.length === storedSha256.length && timingSafeEqual(digest, storedSha256);
}

/** URL-safe random token with a readable prefix, e.g. `lpsk_…`. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** Whether a presented token equals the expected one, in time that does not depend on where they differ. */
export function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

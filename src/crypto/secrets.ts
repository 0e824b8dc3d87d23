/**
 * Secrets at rest: AES-256-GCM with a random 96-bit nonce per value, under a key ring so the key can be rotated.
 * Layouts (the first byte says which):
 *   2: version(1) | key id(4) | nonce(12) | tag(16) | ciphertext; version and key id are authenticated (GCM AAD).
 *   1: version(1) | nonce(12) | tag(16) | ciphertext, written before key rotation existed; it does not say its key, so
 *      every key of the ring is tried. Still read, never written.
 * The ring seals with its current key (ENCRYPTION_KEY) and opens with it or any previous one (ENCRYPTION_KEY_PREVIOUS);
 * `ledgerport rotate-encryption-key` (src/tenants/rotate-encryption-key.ts) re-seals old values with the current key.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const LEGACY_VERSION = 1;
const VERSION = 2;
const KEY_ID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;

export interface Cipher {
  encrypt(plaintext: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/** A cipher over several keys: seals with the current one, opens with any. */
export interface KeyRing extends Cipher {
  /** The current key's id (hex): what `ledgerport rotate-encryption-key` reports and values sealed now carry. */
  readonly currentKeyId: string;
  /** The ids (hex) of the keys still accepted for reading, in the order configured. */
  readonly previousKeyIds: readonly string[];
  /** The bytes every value sealed now starts with (version and current key id): a value without them needs re-sealing. */
  readonly currentPrefix: Buffer;
  /** Whether `sealed` was sealed in the current layout with the current key (then re-sealing it changes nothing). */
  sealedWithCurrentKey(sealed: Buffer): boolean;
}

/** A sealed value that no configured key opens: sealed with another key, or damaged. Says which key it names. */
export class UnreadableSecretError extends Error {
  override name = 'UnreadableSecretError';
}

/**
 * A key's public id: 4 bytes of an HMAC under the key, so the id names the key without revealing anything about it.
 * Shown as 8 hex characters (`ledgerport rotate-encryption-key` prints the ids of the configured keys).
 */
export function keyIdOf(key: Buffer): Buffer {
  return createHmac('sha256', key).update('ledgerport encryption key id').digest().subarray(0, KEY_ID_BYTES);
}

function checkKey(key: Buffer, what: string): void {
  if (key.length !== 32) throw new Error(`${what} must be 32 bytes`);
}

function open(key: Buffer, nonceAt: number, sealed: Buffer, aad: Buffer | null): string {
  const tagAt = nonceAt + NONCE_BYTES;
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(nonceAt, tagAt));
  if (aad !== null) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(tagAt, tagAt + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(tagAt + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** The ring: `current` seals; `current` and every one of `previous` open. */
export function createKeyRing(current: Buffer, previous: readonly Buffer[] = []): KeyRing {
  checkKey(current, 'encryption key');
  previous.forEach((key, i) => {
    checkKey(key, `previous encryption key ${i + 1}`);
  });
  const currentId = keyIdOf(current);
  // By id; the current key first, a previous key equal to it (or repeated) once.
  const keys = new Map<string, Buffer>([[currentId.toString('hex'), current]]);
  for (const key of previous) {
    const id = keyIdOf(key).toString('hex');
    if (!keys.has(id)) keys.set(id, key);
  }
  const header = Buffer.concat([Buffer.from([VERSION]), currentId]);
  const known = (): string =>
    [...keys.keys()].map((id, i) => (i === 0 ? `ENCRYPTION_KEY (key ${id})` : `ENCRYPTION_KEY_PREVIOUS key ${id}`)).join(', ');

  function openCurrentLayout(sealed: Buffer): string {
    const id = sealed.subarray(1, HEADER_BYTES).toString('hex');
    const key = keys.get(id);
    if (key === undefined) throw new UnreadableSecretError(`the value is sealed with key ${id}, which is none of the configured keys: ${known()}`);
    try {
      return open(key, HEADER_BYTES, sealed, sealed.subarray(0, HEADER_BYTES));
    } catch {
      throw new UnreadableSecretError(`the value names key ${id} but does not open with it: it is damaged`);
    }
  }

  function openLegacyLayout(sealed: Buffer): string {
    for (const key of keys.values()) {
      try {
        return open(key, 1, sealed, null);
      } catch {
        // Not this key: the next one.
      }
    }
    throw new UnreadableSecretError(`the value (sealed before key ids, layout 1) opens with none of the configured keys: ${known()}`);
  }

  return {
    currentKeyId: currentId.toString('hex'),
    previousKeyIds: [...keys.keys()].slice(1),
    currentPrefix: header,
    encrypt(plaintext) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, nonce);
      cipher.setAAD(header);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([header, nonce, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      if (sealed[0] === VERSION && sealed.length >= HEADER_BYTES + NONCE_BYTES + TAG_BYTES) return openCurrentLayout(sealed);
      if (sealed[0] === LEGACY_VERSION && sealed.length >= 1 + NONCE_BYTES + TAG_BYTES) return openLegacyLayout(sealed);
      throw new UnreadableSecretError('sealed value has an unknown format');
    },
    sealedWithCurrentKey(sealed) {
      return sealed.length >= HEADER_BYTES && sealed.subarray(0, HEADER_BYTES).equals(header);
    },
  };
}

/** A ring of one key (tests, and a process without ENCRYPTION_KEY_PREVIOUS). */
export function createCipher(key: Buffer): KeyRing {
  return createKeyRing(key);
}

/** The layout-1 sealing of releases before key rotation, kept so tests can prove such values still open. */
export function sealInLegacyLayout(key: Buffer, plaintext: string): Buffer {
  checkKey(key, 'encryption key');
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([LEGACY_VERSION]), nonce, cipher.getAuthTag(), body]);
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

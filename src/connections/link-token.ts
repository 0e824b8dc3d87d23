/**
 * Link tokens: the random part of a connection's link_url. Whoever holds one can
 * attach platform credentials to that connection, so it is stored like an access
 * token: its SHA-256 to find the connection, and a sealed copy (AES-256-GCM)
 * because link_url and update_url are shown again.
 */
import { randomToken, sha256, type Cipher } from '../crypto/secrets.ts';
import type { ConnectionRecord } from './types.ts';

export interface NewLinkToken {
  token: string;
  sha256: Buffer;
  ciphertext: Buffer;
}

export function newLinkToken(cipher: Cipher): NewLinkToken {
  const token = randomToken('lk_', 18);
  return { token, sha256: sha256(token), ciphertext: cipher.encrypt(token) };
}

export function linkTokenOf(cipher: Cipher, connection: Pick<ConnectionRecord, 'linkTokenCiphertext'>): string {
  return cipher.decrypt(connection.linkTokenCiphertext);
}

export function linkUrlOf(publicUrl: string, linkToken: string): string {
  return `${publicUrl}/link/${linkToken}`;
}

/** The connection's stable link_url (also its update_url). */
export function linkUrl(publicUrl: string, cipher: Cipher, connection: Pick<ConnectionRecord, 'linkTokenCiphertext'>): string {
  return linkUrlOf(publicUrl, linkTokenOf(cipher, connection));
}

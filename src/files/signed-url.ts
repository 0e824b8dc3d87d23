/**
 * Download addresses for attachment files: signed, expiring URLs, so that a
 * file_url can be handed to a browser without exposing the access token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILE_URL_TTL_SECONDS = 60 * 60;

function signature(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`file:${id}:${expires}`).digest('base64url');
}

export function signedFileUrl(publicUrl: string, key: Buffer, id: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + FILE_URL_TTL_SECONDS;
  return `${publicUrl}/files/${id}?expires=${expires}&signature=${signature(key, id, expires)}`;
}

/**
 * `key`, or during an ENCRYPTION_KEY rotation the keys of every configured encryption key (each process signs with its
 * current one; a URL one process signed opens at any other that holds that key too).
 */
export function verifyFileSignature(
  key: Buffer | readonly Buffer[],
  id: string,
  expires: number,
  given: string,
  now = Date.now(),
): 'ok' | 'expired' | 'invalid' {
  const presented = Buffer.from(given);
  const keys = Buffer.isBuffer(key) ? [key] : key;
  const signedByOne = keys.some((k) => {
    const wanted = Buffer.from(signature(k, id, expires));
    return wanted.length === presented.length && timingSafeEqual(wanted, presented);
  });
  if (!signedByOne) return 'invalid';
  return expires * 1000 < now ? 'expired' : 'ok';
}

/** The bytes and type of a file whose source is a data: URL. */
export function decodeDataUrl(source: string): { contentType: string; body: Buffer } | null {
  const match = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(source);
  if (match === null) return null;
  const contentType = match[1] ?? 'application/octet-stream';
  const body = match[2] === undefined ? Buffer.from(decodeURIComponent(match[3] ?? ''), 'utf8') : Buffer.from(match[3] ?? '', 'base64');
  return { contentType, body };
}

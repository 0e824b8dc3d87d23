/**
 * Download addresses for attachment files: signed, expiring URLs, so that a
 * file_url can be handed to a browser without exposing the access token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILE_URL_TTL_SECONDS = 60 * 60;

/**
 * What a signed address opens: an attachment's file, a connection's financial report, an invoice's PDF. The purpose
 * is signed with the id, so a signature for one never opens another.
 */
export type SignedPurpose = 'file' | 'financial-report' | 'invoice-pdf';

const PATHS: Record<SignedPurpose, string> = { file: 'files', 'financial-report': 'files/financial-reports', 'invoice-pdf': 'files/invoice-pdfs' };

function signature(key: Buffer, id: string, expires: number, purpose: SignedPurpose): string {
  return createHmac('sha256', key).update(`${purpose}:${id}:${expires}`).digest('base64url');
}

/** A signed address of `purpose` for `id` (a path segment: URL-safe text), valid for an hour; `expires` in Unix seconds. */
export function signedUrl(publicUrl: string, key: Buffer, purpose: SignedPurpose, id: string, now = Date.now()): { url: string; expires: number } {
  const expires = Math.floor(now / 1000) + FILE_URL_TTL_SECONDS;
  return { url: `${publicUrl}/${PATHS[purpose]}/${id}?expires=${expires}&signature=${signature(key, id, expires, purpose)}`, expires };
}

export function signedFileUrl(publicUrl: string, key: Buffer, id: string, now = Date.now()): string {
  return signedUrl(publicUrl, key, 'file', id, now).url;
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
  purpose: SignedPurpose = 'file',
): 'ok' | 'expired' | 'invalid' {
  const presented = Buffer.from(given);
  const keys = Buffer.isBuffer(key) ? [key] : key;
  const signedByOne = keys.some((k) => {
    const wanted = Buffer.from(signature(k, id, expires, purpose));
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

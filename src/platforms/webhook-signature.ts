/**
 * The signature both Xero and Intuit put on their webhooks: the base64 HMAC-SHA256 of the raw body under the app's
 * key, in one header (Xero's x-xero-signature, Intuit's intuit-signature). Compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Base64(rawBody: Buffer, key: string): string {
  return createHmac('sha256', key).update(rawBody).digest('base64');
}

/** True when `header` (one value) is the body's signature under `key`. */
export function signatureMatches(rawBody: Buffer, key: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || header === '') return false;
  const expected = Buffer.from(hmacSha256Base64(rawBody, key), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

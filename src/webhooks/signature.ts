/**
 * Webhook signatures as the spec defines them: `sha256=` + base64 of
 * HMAC-SHA256 over the raw body, keyed with the environment's client secret.
 * X-Service-Signatures lists one signature per active secret, newest first,
 * joined by comma and space (two during a rotation grace period).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signature(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
}

/** The two headers for a body, from the active secrets (newest first). */
export function signatureHeaders(
  body: string | Buffer,
  secrets: readonly string[],
): { 'X-Service-Signature': string; 'X-Service-Signatures': string } {
  const [newest] = secrets;
  if (newest === undefined) throw new Error('no active client secret to sign webhooks with');
  return { 'X-Service-Signature': signature(body, newest), 'X-Service-Signatures': secrets.map((s) => signature(body, s)).join(', ') };
}

/** The receiver's rule: accept when any of your active secrets yields any listed signature (constant-time compare). */
export function verifySignatures(body: string | Buffer, header: string, secrets: readonly string[]): boolean {
  const listed = header.split(',').map((s) => Buffer.from(s.trim()));
  return secrets.some((secret) => {
    const expected = Buffer.from(signature(body, secret));
    return listed.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
}

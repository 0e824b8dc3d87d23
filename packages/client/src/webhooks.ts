/**
 * Webhook signature verification, as Ledgerport signs (the spec's "Signature headers"; the service's
 * src/webhooks/signature.ts): `sha256=` + base64 of HMAC-SHA256 over the raw body, keyed with the client secret.
 * X-Service-Signature carries the newest secret's signature; X-Service-Signatures lists one per active secret,
 * newest first, joined by ", " (two during a secret rotation's grace period). A receiver accepts when any of its
 * active secrets yields any listed signature, so it keeps working while either side holds the old or the new secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const SIGNATURES_HEADER = 'x-service-signatures';

type HeaderValue = string | readonly string[] | null | undefined;
/** Node's IncomingHttpHeaders, a fetch Headers object, or a plain record. */
export type WebhookHeaders = Headers | Readonly<Record<string, HeaderValue>>;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

function signatureOf(body: string | Uint8Array, secret: string): Buffer {
  return Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('base64')}`);
}

/** The signatures a delivery lists: X-Service-Signatures, or X-Service-Signature alone when a proxy dropped the list. */
function listedSignatures(headers: WebhookHeaders): Buffer[] {
  const all = headerOf(headers, SIGNATURES_HEADER) ?? headerOf(headers, SIGNATURE_HEADER) ?? '';
  return all
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => Buffer.from(entry));
}

/**
 * Whether the raw body (exactly the bytes received, before any JSON parsing) was signed by Ledgerport with one of
 * `secrets`: your active client secrets, newest first (the old one too while a rotation's grace period runs).
 * Every comparison is constant-time; lengths are compared first, as they reveal nothing about the secret.
 */
export function verifyWebhookSignature(body: string | Uint8Array, headers: WebhookHeaders, secrets: readonly string[]): boolean {
  const listed = listedSignatures(headers);
  let matched = false;
  // No early exit: every secret is tried against every entry, so the time taken does not say which matched.
  for (const secret of secrets) {
    if (secret === '') continue;
    const expected = signatureOf(body, secret);
    for (const candidate of listed) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
  }
  return matched;
}

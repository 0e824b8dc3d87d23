/**
 * OAuth 1.0a request signing (RFC 5849), for token-based platforms: NetSuite's Token-Based Authentication signs every
 * request with HMAC-SHA256 under the consumer secret and token secret, with the account id as `realm`. Used as a
 * request's `sign` hook (http.ts), so each attempt, retries included, carries a fresh nonce and timestamp: NetSuite
 * refuses a nonce it has seen.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { OutgoingRequest } from './http.ts';

export interface OAuth1Credentials {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
  /** Sent in the Authorization header only, never signed (RFC 5849 §3.4.1.3.1): NetSuite's account id. */
  realm?: string;
}

export interface OAuth1Options {
  method?: 'HMAC-SHA256' | 'HMAC-SHA1';
  /** Fresh per attempt; tests fix them. */
  nonce?: () => string;
  /** Seconds since the epoch. */
  timestamp?: () => number;
  /** Send oauth_version="1.0" (optional in RFC 5849; NetSuite's examples send it). Default true. */
  version?: boolean;
}

/** RFC 5849 §3.6 percent-encoding: everything but unreserved characters, upper-case hex. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signature base string (§3.4.1): method, base URI and the sorted, encoded parameters (query, form body, oauth_*). */
export function signatureBaseString(method: string, url: URL, parameters: readonly (readonly [string, string])[]): string {
  const base = `${url.protocol}//${url.host.toLowerCase()}${url.pathname}`;
  const normalized = parameters
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(base), percentEncode(normalized)].join('&');
}

function formParameters(request: OutgoingRequest): [string, string][] {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') || typeof request.body !== 'string') return [];
  return [...new URLSearchParams(request.body)];
}

/** The `oauth_*` protocol parameters and signature for one request; `Authorization: OAuth …` from them. */
export function oauth1Authorization(request: OutgoingRequest, credentials: OAuth1Credentials, options: OAuth1Options = {}): string {
  const method = options.method ?? 'HMAC-SHA256';
  const protocol: [string, string][] = [
    ['oauth_consumer_key', credentials.consumerKey],
    ['oauth_token', credentials.token],
    ['oauth_signature_method', method],
    ['oauth_timestamp', String(options.timestamp?.() ?? Math.floor(Date.now() / 1000))],
    ['oauth_nonce', options.nonce?.() ?? randomBytes(16).toString('hex')],
    ...(options.version === false ? [] : [['oauth_version', '1.0'] as [string, string]]),
  ];
  const base = signatureBaseString(request.method, request.url, [...request.url.searchParams, ...formParameters(request), ...protocol]);
  const key = `${percentEncode(credentials.consumerSecret)}&${percentEncode(credentials.tokenSecret)}`;
  const signature = createHmac(method === 'HMAC-SHA256' ? 'sha256' : 'sha1', key)
    .update(base)
    .digest('base64');
  const fields = [
    ...(credentials.realm === undefined ? [] : [['realm', credentials.realm] as const]),
    ...protocol,
    ['oauth_signature', signature] as const,
  ];
  return `OAuth ${fields.map(([name, value]) => `${name}="${percentEncode(value)}"`).join(', ')}`;
}

/** A request's `sign` hook: a new nonce, timestamp and signature for every attempt. */
export function oauth1Signer(credentials: OAuth1Credentials, options: OAuth1Options = {}): (request: OutgoingRequest) => Record<string, string> {
  return (request) => ({ authorization: oauth1Authorization(request, credentials, options) });
}

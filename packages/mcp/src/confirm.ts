/**
 * Write confirmation: prepare_write signs the exact request it previewed (method, path, connection, body) with a key
 * only this server process holds; apply_write runs a request only when the token's signature matches that same
 * request and has not expired. The token's id also derives the Idempotency-Key sent with the write, so an apply
 * retried with the same token is replayed by the API instead of writing twice.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export const CONFIRMATION_TTL_MS = 10 * 60 * 1000;

export interface WriteRequest {
  method: string;
  /** Under /versioned, as the API names it: /versioned/accounting/bills. */
  path: string;
  connectionId: string;
  body: unknown;
}

/** JSON with object keys sorted at every depth: the same request always signs the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export type Verdict = { ok: true; tokenId: string; idempotencyKey: string } | { ok: false; reason: string };

export class Confirmations {
  private readonly key: Buffer;
  private readonly now: () => number;

  constructor(options: { key?: Buffer; now?: () => number } = {}) {
    this.key = options.key ?? randomBytes(32);
    this.now = options.now ?? Date.now;
  }

  private mac(tokenId: string, expiresAt: number, request: WriteRequest): Buffer {
    const signed = canonicalJson({
      tokenId,
      expiresAt,
      method: request.method,
      path: request.path,
      connectionId: request.connectionId,
      body: request.body,
    });
    return createHmac('sha256', this.key).update(signed).digest();
  }

  /** A token for exactly this request: `<token id>.<expiry ms>.<signature>`. */
  issue(request: WriteRequest): { token: string; tokenId: string; expiresAt: Date } {
    const tokenId = randomUUID();
    const expiresAt = this.now() + CONFIRMATION_TTL_MS;
    return {
      token: `${tokenId}.${expiresAt}.${this.mac(tokenId, expiresAt, request).toString('base64url')}`,
      tokenId,
      expiresAt: new Date(expiresAt),
    };
  }

  check(token: string, request: WriteRequest): Verdict {
    const [tokenId, expiry, signature, ...rest] = token.split('.');
    const expiresAt = Number(expiry);
    if (tokenId === undefined || signature === undefined || rest.length > 0 || !Number.isSafeInteger(expiresAt))
      return { ok: false, reason: 'not a confirmation token of this server' };
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(tokenId, expiresAt, request);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'the token does not confirm this request: method, path, connection and body must be exactly those of its preview' };
    if (this.now() > expiresAt) return { ok: false, reason: 'the token has expired: prepare the write again' };
    const idempotencyKey = `mcp-${createHmac('sha256', this.key).update(`idempotency:${tokenId}`).digest('hex').slice(0, 40)}`;
    return { ok: true, tokenId, idempotencyKey };
  }
}

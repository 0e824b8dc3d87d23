/**
 * Stripe's failures, sorted in one place. Every call goes through the shared HTTP layer (./client.ts), which classifies
 * the status (429 rate_limited with Retry-After, 5xx server: both retried there) and lets `classifyStripeError` refine
 * it with Stripe's error body ({"error": {"type", "code", "message"}}):
 *
 * - card_error (402, a declined card, an expired card) is the business's customer's problem, not ours nor a billing
 *   problem of the account: bad_request (never retried, the connection stays healthy);
 * - authentication_error / 401 (a rolled or revoked key, a deauthorized Connect account): unauthorized, which the sync
 *   runner turns into needs_reauth and CONNECTION_NEEDS_UPDATE;
 * - permission_error / 403 (a restricted key without the resource's read permission): forbidden, also needs_reauth;
 * - rate_limit_error / 429: rate_limited, with Retry-After when Stripe sends it (it usually does not: then backoff);
 * - api_error / 5xx: server, retryable; idempotency_error: conflict.
 *
 * The library wraps whatever our fetch threw in a StripeConnectionError (`detail`); `sortStripeError` takes the
 * PlatformError back out, so a caller only ever sees PlatformErrors.
 */
import Stripe from 'stripe';
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { isRecord as isObject, text } from '../readers.ts';

/** Stripe's `error` object of an error answer, when there is one. */
export function stripeErrorBody(body: unknown): { type: string | null; code: string | null; message: string | null } | null {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return null;
    }
  }
  if (!isObject(parsed) || !isObject(parsed.error)) return null;
  const error = parsed.error;
  return { type: text(error.type), code: text(error.code), message: text(error.message) };
}

/** The kind of a Stripe error answer, from its status and error type. */
export function stripeKind(status: number, type: string | null, fallback: PlatformErrorKind): PlatformErrorKind {
  if (type === 'card_error') return 'bad_request';
  if (status === 401 || type === 'authentication_error') return 'unauthorized';
  if (status === 403 || type === 'permission_error') return 'forbidden';
  if (status === 429 || type === 'rate_limit_error') return 'rate_limited';
  if (type === 'idempotency_error') return 'conflict';
  if (status === 402) return 'bad_request';
  if (status >= 500 || type === 'api_error') return 'server';
  return fallback;
}

/** ctx.http's classifyError hook for Stripe answers. */
export function classifyStripeError(error: PlatformError, response: PlatformResponse): PlatformError {
  const body = stripeErrorBody(response.body);
  const kind = stripeKind(response.status, body?.type ?? null, error.kind);
  if (body === null && kind === error.kind) return error;
  return new PlatformError({
    kind,
    httpStatus: error.httpStatus,
    message: body?.message ?? error.platformMessage,
    code: body?.code ?? body?.type ?? error.platformCode,
    retryAfterMs: error.retryAfterMs,
    rawExcerpt: error.rawExcerpt,
    headers: error.headers,
    requestSent: error.requestSent,
  });
}

/** Whatever a library call threw, as a PlatformError. */
export function sortStripeError(error: unknown): unknown {
  if (error instanceof PlatformError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    const detail: unknown = error.detail;
    if (detail instanceof PlatformError) return detail;
    if (error instanceof Stripe.errors.StripeConnectionError) {
      return new PlatformError({ kind: 'network', message: error.message, requestSent: true, cause: error });
    }
    const status = error.statusCode ?? 0;
    const raw: unknown = error.raw;
    const type = error.type === 'StripeCardError' ? 'card_error' : isObject(raw) && typeof raw.type === 'string' ? raw.type : null;
    return new PlatformError({
      kind: stripeKind(status, type, status >= 500 ? 'server' : 'bad_request'),
      httpStatus: status === 0 ? null : status,
      message: error.message,
      code: error.code ?? null,
      requestSent: true,
      cause: error,
    });
  }
  return error;
}

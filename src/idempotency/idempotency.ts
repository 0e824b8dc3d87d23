/**
 * Idempotency-Key on POST, PATCH and DELETE under /versioned. The first
 * request with a key runs; its status, headers and body are stored for 24 hours
 * and replayed to every later request with the same key, method, path and
 * body. A concurrent duplicate waits for the first to finish (so twenty
 * simultaneous retries get one execution and twenty identical answers) and
 * gets IDEMPOTENCY_KEY_IN_USE only if the first is still running after the
 * wait. Keys are scoped to organisation and environment.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queryable } from '../db/pool.ts';
import { outsideRequestScope } from '../db/request-scope.ts';
import { ServiceError } from '../errors/catalogue.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  renewIdempotencyKey,
  type IdempotencyScope,
} from '../sql/idempotency.ts';
import type { Cipher } from '../crypto/secrets.ts';
import { MASKED_VALUE, redactUrl } from '../log/redaction.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const TTL_SECONDS = 24 * 60 * 60;
/**
 * The claim is a lease: its owner renews it every RENEW_EVERY_MS while the request runs, and a claim not renewed for
 * LOCK_SECONDS is presumed dead (its process crashed or was killed) and the next request with the key takes it over.
 * Eight seconds is below the wait a duplicate gets (10 s, idempotencyWaitMs), so a client retrying after our crash
 * waits and then runs (a write joins its original job, src/writes/accept.ts) instead of answering
 * IDEMPOTENCY_KEY_IN_USE for up to two minutes, as the former 120 s lease did; and above the API pool's acquire
 * timeout (DATABASE_ACQUIRE_TIMEOUT_MS, 5 s), so one renewal stuck behind a busy pool does not lose the claim.
 *
 * Trade-off, chosen over tying the claim to the owner's database session (an advisory lock dies with its
 * connection): a session lock needs a connection held for every running idempotent request, out of a pool of 20,
 * and is lost by a live request whenever that one connection drops; a lease costs one UPDATE per running request
 * every second on any pooled connection and also covers a host that vanished without closing its sockets, which
 * PostgreSQL notices only after TCP keepalive (hours by default). Its risk: a live owner that cannot renew for the
 * whole lease (event loop stalled, database unreachable for ~7 s, seven renewals missed) loses the claim and a retry
 * runs beside it. A write still makes one job (the retry joins it by key), and the stale owner can neither store
 * nor free the new claim (the owner column, migration 0007).
 */
export const LOCK_SECONDS = 8;
export const RENEW_EVERY_MS = 1_000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The claim a running request holds: only its owner may renew, store or free it. */
export interface IdempotencyClaim {
  scope: IdempotencyScope;
  owner: string;
}

export type IdempotencyOutcome = { kind: 'execute'; claim: IdempotencyClaim } | { kind: 'replay'; response: StoredResponse };

export function validateKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  if (key.length === 0 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ServiceError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).', {
      source: 'service',
      field: 'Idempotency-Key',
      location: 'headers',
    });
  }
  return key;
}

export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(`${method}\n${path}\n${body === undefined ? '' : JSON.stringify(body)}`)
    .digest();
}

export async function beginIdempotent(
  db: Queryable,
  cipher: Cipher,
  scope: IdempotencyScope,
  request: { method: string; path: string; body: unknown },
  options: { waitMs: number },
): Promise<IdempotencyOutcome> {
  const fingerprint = requestFingerprint(request.method, request.path, request.body);
  // The path is kept only to explain a mismatch; its query may carry an access token.
  const shownPath = redactUrl(request.path);
  const owner = randomUUID();
  const deadline = Date.now() + options.waitMs;
  let delay = 20;
  for (;;) {
    if (await claimIdempotencyKey(db, scope, { method: request.method, path: shownPath, sha256: fingerprint }, owner, LOCK_SECONDS, TTL_SECONDS)) {
      return { kind: 'execute', claim: { scope, owner } };
    }
    const row = await readIdempotencyKey(db, scope);
    if (row === null) continue; // expired between claim and read: claim again
    if (!row.request_sha256.equals(fingerprint)) {
      throw new ServiceError('IDEMPOTENCY_KEY_MISMATCH', mismatchMessage(scope.key, row, { method: request.method, shownPath }), {
        source: 'service',
        field: 'Idempotency-Key',
        location: 'headers',
      });
    }
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      return {
        kind: 'replay',
        response: { status: row.response_status, headers: row.response_headers ?? {}, body: cipher.decrypt(row.response_body) },
      };
    }
    if (Date.now() >= deadline) {
      throw new ServiceError(
        'IDEMPOTENCY_KEY_IN_USE',
        `A request with Idempotency-Key "${scope.key}" is still being processed; retry after it finishes.`,
        { source: 'service', field: 'Idempotency-Key', location: 'headers' },
        { 'Retry-After': '1' },
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 250);
  }
}

/**
 * Says what differs from the key's first request: its method, its path (query included), or else its body. Paths are
 * compared as kept, with secrets masked, so two requests differing only in a masked query value (an access token)
 * are said to differ in "body or masked query value".
 */
export function mismatchMessage(
  key: string,
  first: { request_method: string; request_path: string },
  request: { method: string; shownPath: string },
): string {
  const firstUse = `Idempotency-Key "${key}" was first used for ${first.request_method} ${first.request_path}`;
  const advice = 'use a new key for a different request.';
  if (first.request_method !== request.method) return `${firstUse}, not ${request.method}; ${advice}`;
  if (first.request_path !== request.shownPath) return `${firstUse}, not on ${request.shownPath}; ${advice}`;
  const masked = [MASKED_VALUE, encodeURIComponent(MASKED_VALUE)].some((mark) => request.shownPath.includes(mark));
  const what = masked ? 'a different body or masked query value' : 'a different body';
  return `${firstUse} with ${what}; ${advice}`;
}

/**
 * Answers that a retry may change (state conflicts, rate limits, platform
 * authorisation, server errors) free the key so the client's retry runs again;
 * success and deterministic rejections are stored and replayed.
 */
const TRANSIENT_STATUSES = new Set([409, 429, 451, 452]);

export async function finishIdempotent(db: Queryable, cipher: Cipher, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  if (response.status >= 500 || TRANSIENT_STATUSES.has(response.status)) {
    await releaseIdempotencyKey(db, claim.scope, claim.owner);
    return;
  }
  await completeIdempotencyKey(db, claim.scope, claim.owner, {
    status: response.status,
    headers: response.headers,
    sealedBody: cipher.encrypt(response.body),
  });
}

/**
 * Renews the claim while the request runs; returns the function that stops renewing. The timer runs outside the
 * request's scope: a renewal must never wait in its own organisation's queue for a connection slot
 * (src/db/organization-gate.ts), or a busy organisation would let its own claims lapse and a retry run beside them.
 */
export function keepClaimAlive(db: Queryable, claim: IdempotencyClaim, onError: (error: unknown) => void): () => void {
  return outsideRequestScope(() => renewEverySecond(db, claim, onError));
}

function renewEverySecond(db: Queryable, claim: IdempotencyClaim, onError: (error: unknown) => void): () => void {
  let renewing = false;
  const timer = setInterval(() => {
    // One renewal at a time: a slow one (a busy pool) must not pile up more behind it.
    if (renewing) return;
    renewing = true;
    renewIdempotencyKey(db, claim.scope, claim.owner, LOCK_SECONDS)
      .catch(onError)
      .finally(() => {
        renewing = false;
      });
  }, RENEW_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

/** Response headers worth replaying (the rest are per-response: date, request id, rate limit). */
export const REPLAYED_HEADERS = ['content-type', 'x-service-job-id', 'location'];

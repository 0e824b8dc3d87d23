/**
 * The sandbox's native REST API as one function: request in, response out.
 * Both transports use it: the in-process one calls it directly, the HTTP server
 * (server.ts) wraps it. Authentication, the scenario faults, routing and the
 * platform's error format all live here, so both behave identically.
 *
 *   GET    /v1/Me                                  who the credentials belong to
 *   GET    /v1/<Collection>?since&pageToken&from&to&limit
 *   GET    /v1/<Collection>/<id>
 *   POST   /v1/<Collection>          (Idempotency-Key header honoured)
 *   PATCH  /v1/<Collection>/<id>
 *   DELETE /v1/<Collection>/<id>
 *   GET    /v1/Requests/<idempotency key>        the stored result of an earlier write
 *
 * and the actions beyond one record's create/update/delete (keyed ones honour Idempotency-Key):
 *
 *   POST   /v1/Attachments                       {ParentType, ParentId, FileName, ContentType, Content (base64)} → {Item}   keyed
 *   POST   /v1/BankFeedAccounts/<id>/Transactions {Transactions: [...]} → {Batch: {Id, Accepted, Duplicates}, Item}  keyed
 *   POST   /v1/BankFeedAccounts/<id>/MappingLink  → {Url, ExpiresAt}: the page where the business links the feed
 *   POST   /v1/Products/<id>/Variants             {Sku, Price, …} → {Item: product, VariantId}   keyed
 *   PATCH  /v1/Products/<id>/Variants/<variantId> {fields to change} → {Item: product, VariantId}  keyed
 *   DELETE /v1/Products/<id>/Variants/<variantId> → {Item: product, VariantId}                     keyed
 *
 * (FeedAccounts, the collection's own name, works in place of BankFeedAccounts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { collectionByName } from './collections.ts';
import { NativeError } from './native-error.ts';
import type { SandboxPlatform } from './platform.ts';
import { resolveAccount } from './scenarios.ts';
import { countCall, revoke, type AccountState } from './store/state.ts';
import { isBody } from './writes/index.ts';

export type NativeMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface NativeRequest {
  method: NativeMethod;
  /** Path without query, e.g. /v1/Bills/BILL-000001. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

export interface NativeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): NativeResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

function credentialsOf(headers: Record<string, string>): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(headers.authorization ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export async function handleNative(platform: SandboxPlatform, request: NativeRequest): Promise<NativeResponse> {
  try {
    return await route(platform, request);
  } catch (error) {
    if (error instanceof NativeError) return json(error.status, error.body(), error.headers);
    const message = error instanceof Error ? error.message : String(error);
    return json(500, new NativeError(500, 'InternalError', `sandbox platform failure: ${message}`).body());
  }
}

async function route(platform: SandboxPlatform, request: NativeRequest): Promise<NativeResponse> {
  const segments = request.path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  if (segments[0] !== 'v1') throw new NativeError(404, 'NoSuchRoute', `no route ${request.method} ${request.path}`);
  const credentials = credentialsOf(request.headers);
  const resolved = credentials === null ? null : resolveAccount(credentials.username, credentials.password);
  if (resolved === null) throw new NativeError(401, 'AuthenticationFailed', 'The username or password is incorrect');
  const state = await platform.account(resolved);
  if (state.revokedAt !== null) throw new NativeError(401, 'TokenRevoked', 'Access for this application was revoked by the account owner');
  const isWrite = request.method !== 'GET';
  const failAfterWrite = await injectFault(platform, state, isWrite);

  const [, name, id, extra] = segments;
  if (name === 'Me' && id === undefined && request.method === 'GET') {
    if (state.scenario === 'link_error')
      throw new NativeError(503, 'ServiceUnavailable', 'Company details are temporarily unavailable; try again later');
    const identity = platform.identity(state);
    return json(200, {
      AccountId: identity.storeUniqueId,
      Username: state.accountKey,
      CompanyName: identity.name,
      Country: identity.country,
      BaseCurrency: identity.currency,
    });
  }
  if (name === 'Requests' && id !== undefined && extra === undefined && request.method === 'GET') {
    const found = await platform.writeByKey(state, id);
    if (found === null) throw new NativeError(404, 'NotFound', `no write with Idempotency-Key ${id}`);
    return json(200, { Request: { Key: id, Status: found.status, Collection: found.type, Response: found.body } });
  }
  const action = actionOf(request.method, segments);
  if (action !== null) {
    refuseScenarioWrite(state, platform.options.retryAfterSeconds);
    const body = request.body ?? {};
    if (!isBody(body)) throw new NativeError(400, 'MalformedBody', 'the request body must be a JSON object');
    const ready = await platform.ready(state);
    const key = request.headers['idempotency-key'] ?? null;
    const result =
      action.kind === 'upload'
        ? await platform.upload(ready, body, key, request.path)
        : action.kind === 'transactions'
          ? await platform.feedTransactions(ready, action.feedId, body, key, request.path)
          : { status: 200, body: await platform.mappingLink(ready, action.feedId) };
    if (failAfterWrite) {
      throw new NativeError(500, 'InternalError', 'An unexpected error occurred while sending the response; the change may have been saved');
    }
    return json(result.status, result.body);
  }
  const variant = variantRouteOf(request.method, segments);
  if (variant !== null) {
    refuseScenarioWrite(state, platform.options.retryAfterSeconds);
    const body = request.body ?? {};
    if (variant.op !== 'delete' && !isBody(body)) throw new NativeError(400, 'MalformedBody', 'the request body must be a JSON object');
    const ready = await platform.ready(state);
    const key = request.headers['idempotency-key'] ?? null;
    const result = await platform.writeVariant(ready, { ...variant, body: isBody(body) ? body : {}, idempotencyKey: key }, request.path);
    if (failAfterWrite) {
      throw new NativeError(500, 'InternalError', 'An unexpected error occurred while sending the response; the change may have been saved');
    }
    return json(result.status, result.body);
  }
  const spec = name === undefined ? undefined : collectionByName(name);
  if (spec === undefined || extra !== undefined) throw new NativeError(404, 'NoSuchRoute', `no route ${request.method} ${request.path}`);

  if (isWrite) {
    refuseScenarioWrite(state, platform.options.retryAfterSeconds);
    const op =
      request.method === 'POST' && id === undefined
        ? 'create'
        : (request.method === 'PATCH' || request.method === 'PUT') && id !== undefined
          ? 'update'
          : request.method === 'DELETE' && id !== undefined
            ? 'delete'
            : null;
    if (op === null) throw new NativeError(405, 'MethodNotAllowed', `${request.method} is not allowed on ${request.path}`);
    const body = request.body ?? {};
    if (op !== 'delete' && !isBody(body)) throw new NativeError(400, 'MalformedBody', 'the request body must be a JSON object');
    const ready = await platform.ready(state);
    const result = await platform.write(
      ready,
      { type: spec.type, op, id: id ?? null, body: isBody(body) ? body : {}, idempotencyKey: request.headers['idempotency-key'] ?? null },
      request.path,
    );
    if (failAfterWrite) {
      throw new NativeError(500, 'InternalError', 'An unexpected error occurred while sending the response; the change may have been saved');
    }
    return json(result.status, result.body);
  }

  if (id !== undefined) {
    const ready = await platform.catchUp(await platform.ready(state));
    const record = await platform.get(ready, spec.type, id);
    if (record === null) throw new NativeError(404, 'NotFound', `${spec.collection} ${id} does not exist`);
    return json(200, { Item: record });
  }

  const since = request.query.since ?? null;
  if (since !== null && state.scenario === 'suspended_after_sync') {
    throw new NativeError(402, 'AccountSuspended', "This company's subscription was cancelled; its data cannot be read until billing is resolved");
  }
  if (since !== null && state.scenario === 'revoked_after_sync') {
    // The owner disconnected the app after the first sync.
    await revoke(platform.pool, state.id, new Date(platform.options.now()));
    throw new NativeError(401, 'TokenRevoked', 'Access for this application was revoked by the account owner');
  }
  if (since !== null && state.scenario === 'failing_after_sync') {
    // Down for maintenance: a Retry-After beyond what a client waits out in place, so every sync attempt fails at once.
    throw new NativeError(503, 'ServiceUnavailable', 'The service is down for maintenance; try again later', null, {
      'retry-after': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    });
  }
  // The business deletes a bill just before each incremental listing of bills begins; the listing then reports it.
  const deletes = since !== null && request.query.pageToken === undefined && spec.type === 'bill' && state.scenario === 'deletes_after_sync';
  const current = deletes ? await platform.deleteBillAsTheBusiness(await platform.ready(state)) : state;
  if (since === null && state.scenario === 'slow_initial_sync' && platform.options.slowPageDelayMs > 0) {
    await sleep(platform.options.slowPageDelayMs, undefined, request.signal === undefined ? undefined : { signal: request.signal });
  }
  const ready = await platform.catchUp(await platform.ready(current));
  const limitRaw = request.query.limit;
  const limit = limitRaw === undefined ? platform.options.defaultPageSize : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > platform.options.maxPageSize) {
    throw new NativeError(400, 'InvalidLimit', `limit must be an integer from 1 to ${platform.options.maxPageSize}`, 'limit');
  }
  const page = await platform.list(ready, spec.type, {
    since,
    pageToken: request.query.pageToken ?? null,
    from: request.query.from ?? null,
    to: request.query.to ?? null,
    limit,
  });
  return json(200, { Items: page.items, Deleted: page.deleted, NextPageToken: page.nextPageToken, NextSince: page.nextSince });
}

/** Retry-After of user_failing's 503s: longer than the 60 s a platform client waits out itself (src/platforms/http.ts). */
const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** Retry-After of user_write_daily_limit's 429s: a spent daily limit, far beyond a write's rate-limit budget. */
const DAILY_LIMIT_RETRY_AFTER_SECONDS = 3600;

/** Scenario accounts whose every write fails the same way, before anything is applied (packages/sandbox/src/scenarios.ts). */
function refuseScenarioWrite(state: AccountState, retryAfterSeconds: number): void {
  switch (state.scenario) {
    case 'billing_issue':
      throw new NativeError(402, 'SubscriptionExpired', 'The subscription of this company has expired; update billing details to make changes');
    case 'write_invalid':
      throw new NativeError(
        400,
        'ValidationFault',
        'This company does not accept changes from this application: the vendor is locked for editing',
        'VendorRef',
      );
    case 'write_throttled':
      throw new NativeError(429, 'ThrottleExceeded', 'Too many changes; slow down', null, { 'retry-after': String(retryAfterSeconds) });
    case 'write_daily_limit':
      throw new NativeError(429, 'DailyLimitExceeded', 'The daily limit of changes for this company is spent; try again in an hour', null, {
        'retry-after': String(DAILY_LIMIT_RETRY_AFTER_SECONDS),
      });
    case 'write_unavailable':
      throw new NativeError(503, 'ServiceUnavailable', 'Changes are temporarily unavailable; try again later');
    case 'write_forbidden':
      throw new NativeError(403, 'InsufficientPermissions', 'The user who connected this company may read its books but not make changes');
    default:
  }
}

type Action = { kind: 'upload' } | { kind: 'transactions' | 'mapping_link'; feedId: string };

/** Names the feed actions answer under: the documented BankFeedAccounts and the collection's own FeedAccounts. */
const FEED_COLLECTIONS = new Set(['bankfeedaccounts', 'feedaccounts']);
const FEED_ACTIONS: ReadonlyMap<string, 'transactions' | 'mapping_link'> = new Map([
  ['transactions', 'transactions'],
  ['mappinglink', 'mapping_link'],
]);

/** The action a request is, if it is one (case-insensitive names, like the collections). */
function actionOf(method: NativeMethod, segments: readonly string[]): Action | null {
  if (method !== 'POST') return null;
  const [, name = '', id, extra, ...rest] = segments.map((s, n) => (n === 2 ? s : s.toLowerCase()));
  if (rest.length > 0) return null;
  if (name === 'attachments' && id === undefined) return { kind: 'upload' };
  const kind = extra === undefined ? undefined : FEED_ACTIONS.get(extra);
  return FEED_COLLECTIONS.has(name) && id !== undefined && kind !== undefined ? { kind, feedId: id } : null;
}

/** A write of a product's variants, if the request is one (case-insensitive names, like the collections). */
function variantRouteOf(
  method: NativeMethod,
  segments: readonly string[],
): { op: 'create' | 'update' | 'delete'; productId: string; variantId: string | null } | null {
  const [, name = '', productId, extra = '', variantId, ...rest] = segments;
  if (name.toLowerCase() !== 'products' || productId === undefined || extra.toLowerCase() !== 'variants' || rest.length > 0) return null;
  if (method === 'POST' && variantId === undefined) return { op: 'create', productId, variantId: null };
  if (variantId === undefined) return null;
  if (method === 'PATCH' || method === 'PUT') return { op: 'update', productId, variantId };
  return method === 'DELETE' ? { op: 'delete', productId, variantId } : null;
}

/**
 * Fails this call if it is one of the scenario's failing calls: chosen by call
 * number, so tests can count on it. Answers true when a write must fail only
 * after it was applied (the case idempotency keys and findCreated exist for).
 */
async function injectFault(platform: SandboxPlatform, state: AccountState, isWrite: boolean): Promise<boolean> {
  const { rateLimitEvery, errorEvery, retryAfterSeconds } = platform.options;
  if (state.scenario === 'rate_limited') {
    const call = await countCall(platform.pool, state.id);
    if (call % rateLimitEvery === 0) {
      throw new NativeError(429, 'ThrottleExceeded', 'Too many requests; slow down', null, { 'retry-after': String(retryAfterSeconds) });
    }
  } else if (state.scenario === 'flaky') {
    const call = await countCall(platform.pool, state.id);
    if (call % errorEvery !== 0) return false;
    const odd = (call / errorEvery) % 2 === 1;
    if (isWrite && odd) return true;
    throw odd
      ? new NativeError(500, 'InternalError', 'An unexpected error occurred; try again later')
      : new NativeError(503, 'ServiceUnavailable', 'The service is temporarily unavailable; try again later');
  }
  return false;
}

/**
 * Builds the ConnectorContext a connector gets for one connection: decrypted
 * credentials and tokens, the shared HTTP client with the platform's limits,
 * and id translation between service and platform ids.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { isServiceId, serviceId } from '../store/ids.ts';
import { platformIdOfRecord } from '../sql/record-lookups.ts';
import type { Environment } from '../tenants/types.ts';
import type { Connector, ConnectorContext, Credentials, OAuthSession, OAuthTokens } from './connector.ts';
import type { Logger } from '../log/logger.ts';
import { platformCallDuration, platformCallOutcomes, platformCalls, type PlatformCallOutcome } from '../metrics/registry.ts';
import { recordSpan, SpanKind } from '../metrics/tracing.ts';
import { createPlatformHttp, HTTP_DEFAULTS, realSleep, type AttemptEvent, type FetchLike } from './http.ts';
import { createSharedLimiter, type SharedLimiter } from './shared-limits.ts';
import { connectionFetch } from './simulators.ts';
import { NO_EXCHANGE, type PolledExchange } from './polled.ts';
import { polledExchange } from './polled-queue.ts';
import type { PolledWaiter } from '../sql/queue-polled-request.ts';

/** The simulator's fetch for a simulated connection, as createPlatformHttp's option; nothing (the network) otherwise. */
export function simulatorFetch(platform: string, simulated: boolean): { fetch?: FetchLike } {
  const fetch = connectionFetch(platform, simulated);
  return fetch === undefined ? {} : { fetch };
}

export function sealJson(cipher: Cipher, value: unknown): Buffer {
  return cipher.encrypt(JSON.stringify(value));
}

export function openCredentials(cipher: Cipher, sealed: Buffer | null): Credentials {
  return sealed === null ? {} : (JSON.parse(cipher.decrypt(sealed)) as Credentials);
}

export function openTokens(cipher: Cipher, sealed: Buffer | null): OAuthTokens | null {
  return sealed === null ? null : (JSON.parse(cipher.decrypt(sealed)) as OAuthTokens);
}

export interface ContextInput {
  connector: Connector;
  connectionId: string;
  credentials: Credentials;
  tokens: OAuthTokens | null;
  /** Fresh tokens during a job (src/platforms/tokens.ts tokenSession); default: the given tokens, never refreshed. */
  oauth?: OAuthSession | null;
  environment: Environment;
  /** Linked to the platform's simulator: every call goes to it, in process (src/platforms/simulators.ts). */
  simulated?: boolean;
  db: Queryable;
  signal?: AbortSignal;
  /** The job's log (its ids bound): every platform call is a debug line on it. */
  log?: Logger;
  /** The sync run or write job this context serves: a platform that calls us queues its requests for it. */
  polledWaiter?: PolledWaiter;
}

/** ctx.polled: the job's queue for a platform that calls us; none for other platforms. */
function polledOf(input: ContextInput): PolledExchange | null {
  const platform = input.connector.polled;
  if (platform === undefined) return null;
  return input.polledWaiter === undefined ? NO_EXCHANGE : polledExchange(input.db, input.connectionId, input.polledWaiter, platform);
}

function statusClass(event: AttemptEvent): string {
  return event.status === null ? 'error' : `${Math.floor(event.status / 100)}xx`;
}

/** The attempt's outcome by its status: 429 apart from other 4xx, no answer at all a network error. */
export function callOutcome(status: number | null): PlatformCallOutcome {
  if (status === null) return 'network_error';
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return 'ok';
}

/**
 * Every platform call attempt is counted (ledgerport_platform_calls_total by host, ledgerport_platform_call_outcomes_total
 * by platform) and, with a log, a line at debug: no query
 * string, header or body (they may carry keys).
 */
export function observePlatformCall(log: Logger | undefined, platform: string): (event: AttemptEvent) => void {
  return (event) => {
    const url = new URL(event.url);
    platformCalls.inc({ host: url.host, status: statusClass(event) });
    platformCallOutcomes.inc({ platform, outcome: callOutcome(event.status) });
    platformCallDuration.observe({ host: url.host }, event.durationMs / 1000);
    // With traces on: a span per attempt, child of the job's (no query string: it may carry keys).
    recordSpan('platform call', {
      kind: SpanKind.CLIENT,
      attributes: {
        'ledgerport.platform': platform,
        'ledgerport.operation': event.operation,
        'http.request.method': event.method,
        'server.address': url.host,
        'url.path': url.pathname,
        'http.request.resend_count': event.attempt - 1,
        ...(event.status === null ? {} : { 'http.response.status_code': event.status }),
      },
      startMs: Date.now() - event.durationMs,
      durationMs: event.durationMs,
      error: event.error === null ? null : `${event.error.kind}: ${event.error.message}`,
    });
    log?.debug(
      {
        platform_call: {
          operation: event.operation,
          method: event.method,
          host: url.host,
          path: url.pathname,
          status: event.status,
          attempt: event.attempt,
          duration_ms: Math.round(event.durationMs),
          limiter_wait_ms: Math.round(event.limiterWaitMs),
          error: event.error?.kind ?? null,
          retry_in_ms: event.retryInMs,
        },
      },
      'platform call',
    );
  };
}

/** A session over fixed tokens: for one-off calls (identify during the link flow) that never outlive the token. */
export function fixedTokenSession(tokens: OAuthTokens | null): OAuthSession | null {
  if (tokens === null) return null;
  return { tokens: () => Promise.resolve(tokens), rejected: () => Promise.resolve(tokens) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The limits every process shares, for a stored connection (the meters reference it); calls before one exists (the
 * link flow's probes, named 'probe' or 'unlinked') keep to this process's limiter only.
 */
function sharedLimiterOf(input: ContextInput): SharedLimiter | null {
  if (!UUID.test(input.connectionId)) return null;
  return createSharedLimiter({
    db: input.db,
    connectionId: input.connectionId,
    platform: input.connector.id,
    limits: input.connector.limits,
    sleep: realSleep,
    maxBudgetWaitMs: HTTP_DEFAULTS.maxRetryAfterMs,
  });
}

export function connectorContext(input: ContextInput): ConnectorContext {
  const { connector, connectionId } = input;
  const signal = input.signal ?? new AbortController().signal;
  const sharedLimiter = sharedLimiterOf(input);
  return {
    connectionId,
    credentials: input.credentials,
    tokens: input.tokens,
    oauth: input.oauth ?? fixedTokenSession(input.tokens),
    environment: input.environment,
    signal,
    http: createPlatformHttp({
      limitKey: `${connector.id}:${connectionId}`,
      // The shared limiter paces the rate when there is one; this process still caps what it has in flight.
      limits: {
        requestsPerMinute: sharedLimiter === null ? connector.limits.requestsPerMinute : null,
        concurrentRequests: connector.limits.concurrentRequests,
        ...(connector.limits.burst === undefined ? {} : { burst: connector.limits.burst }),
      },
      sharedLimiter,
      signal,
      onAttempt: observePlatformCall(input.log, connector.id),
      ...simulatorFetch(connector.id, input.simulated === true),
    }),
    ref(type: UnifiedObjectType, platformId) {
      if (platformId === null || platformId === undefined || platformId === '') return null;
      return serviceId(connectionId, type, String(platformId));
    },
    polled: polledOf(input),
    async platformIdOf(type: UnifiedObjectType, id: string) {
      // Not a service id at all: unknown, rather than a query PostgreSQL refuses (invalid input syntax for type uuid).
      if (!isServiceId(id)) return null;
      return platformIdOfRecord(input.db, connectionId, type, id);
    },
  };
}

/**
 * Fresh OAuth tokens for a connection, shared by syncs, writes and every
 * process. A token is refreshed when it expires within REFRESH_MARGIN_MS, or
 * when a call was just refused (401) with the access token still stored.
 * Refreshers of one connection serialise on an advisory lock and re-read the
 * stored tokens under it, so however many requests, workers or processes find
 * a token expired at once, the platform sees exactly one refresh call; the
 * others pick up its result. The new access token and the rotated refresh token
 * are stored (encrypted) in the same transaction: a crash can never keep one
 * without the other. A refresh the platform refuses (revoked grant) surfaces as
 * a PlatformError of kind `unauthorized`, which callers turn into needs_reauth.
 */
import type { Cipher } from '../crypto/secrets.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { findSealedTokens, lockConnectionTokens, storeSealedTokens } from '../sql/connection-tokens.ts';
import type { AuthContext, Connector, Credentials, OAuthSession, OAuthTokens } from './connector.ts';
import type { Logger } from '../log/logger.ts';
import { observePlatformCall, openCredentials, openTokens, sealJson } from './context.ts';
import { tokenRefreshes } from '../metrics/registry.ts';
import { PlatformError } from './errors.ts';
import { createPlatformHttp } from './http.ts';
import { connectionOAuthApp } from './oauth-app.ts';
import { simulatorFetch } from './context.ts';

/** Refresh this long before expiry, so no call starts with a token that dies in flight. */
export const REFRESH_MARGIN_MS = 60_000;

export interface TokenDeps {
  pool: Pool;
  cipher: Cipher;
  now?: () => number;
  /** The job's log: a line when a refresh starts and when it ends. */
  log?: Logger;
}

export interface FreshTokenOptions {
  /** The access token a call was just refused with: refresh unless another refresher already replaced it. */
  rejected?: string;
  signal?: AbortSignal;
}

async function storedTokens(db: Queryable, cipher: Cipher, connectionId: string): Promise<OAuthTokens | null> {
  return openTokens(cipher, await findSealedTokens(db, connectionId));
}

function needsRefresh(tokens: OAuthTokens, now: number, rejected: string | undefined): boolean {
  if (rejected !== undefined) return tokens.accessToken === rejected;
  return tokens.expiresAt !== null && Date.parse(tokens.expiresAt) - now <= REFRESH_MARGIN_MS;
}

/** What renewing gives: the tokens to store, and whether the platform sent a new refresh token (for the log). */
interface Renewed {
  tokens: OAuthTokens;
  rotated: boolean;
}

/**
 * How a connection's tokens are renewed, an OAuth refresh grant or a new session from its credentials: checked
 * first (a missing refresh token or OAuth app fails before any log line), then run.
 */
type Renewal = (latest: OAuthTokens | null, db: Queryable) => Promise<(ctx: AuthContext) => Promise<Renewed>>;

function renewalOf(deps: TokenDeps, connection: ConnectionRecord, connector: Connector): Renewal | null {
  const { auth } = connector;
  const credentials = (): Credentials => openCredentials(deps.cipher, connection.credentialsCiphertext);
  if (auth.type === 'credentials') {
    const session = auth.session;
    if (session === undefined) return null;
    return () => Promise.resolve(async (ctx) => ({ tokens: await session.login(ctx, credentials()), rotated: false }));
  }
  return async (latest, db) => {
    const refreshToken = latest?.refreshToken ?? null;
    if (latest === null || refreshToken === null) {
      throw new PlatformError({
        kind: 'unauthorized',
        message: `The ${connector.name} access token expired and no refresh token was issued; the end user must re-link.`,
        requestSent: false,
      });
    }
    const app = await connectionOAuthApp(db, deps.cipher, connection, connector.id);
    if (app === null) {
      throw new PlatformError({
        kind: 'unauthorized',
        message: `No OAuth app is registered for ${connector.id} in ${connection.environment}; register it through the admin API.`,
        requestSent: false,
      });
    }
    return async (ctx) => {
      // The connection's authorisation input (a shop domain: the token host) is kept as its credentials.
      const refreshed = await auth.refresh(ctx, app, refreshToken, credentials(), latest);
      const tokens: OAuthTokens = {
        ...refreshed,
        // Platforms that do not rotate refresh tokens return none: the old one stays valid.
        refreshToken: refreshed.refreshToken ?? refreshToken,
        tenantId: refreshed.tenantId ?? latest.tenantId,
      };
      return { tokens, rotated: refreshed.refreshToken !== null };
    };
  };
}

/**
 * The connection's tokens, refreshed first when needed; null for connections without OAuth tokens. A credentials
 * platform with a session (AuthSpec `session`) logs in here when it has none yet, under the same lock.
 */
export async function freshTokens(
  deps: TokenDeps,
  connection: ConnectionRecord,
  connector: Connector,
  options: FreshTokenOptions = {},
): Promise<OAuthTokens | null> {
  const now = deps.now ?? Date.now;
  const renewal = renewalOf(deps, connection, connector);
  const session = connector.auth.type === 'credentials';
  const due = (tokens: OAuthTokens | null): boolean => (tokens === null ? session : needsRefresh(tokens, now(), options.rejected));
  const current = await storedTokens(deps.pool, deps.cipher, connection.id);
  if (renewal === null || !due(current)) return current;
  return withTransaction(deps.pool, async (db) => {
    await lockConnectionTokens(db, connection.id);
    // Whoever held the lock before us may have refreshed (or logged in) already.
    const latest = await storedTokens(db, deps.cipher, connection.id);
    if (!due(latest)) return latest;
    const renew = await renewal(latest, db);
    const { log } = deps;
    const http = createPlatformHttp({
      limitKey: `${connector.id}:${connection.id}:auth`,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onAttempt: observePlatformCall(log, connector.id),
      ...simulatorFetch(connector.id, connection.simulated),
    });
    const reason = latest === null ? 'no session yet' : options.rejected === undefined ? 'expiring' : 'refused by the platform';
    const started = Date.now();
    log?.info({ token_refresh: { reason, expires_at: latest?.expiresAt ?? null } }, 'token refresh started');
    const ctx = { http, signal: options.signal ?? new AbortController().signal, environment: connection.environment };
    const { tokens, rotated } = await renew(ctx).catch((error: unknown) => {
      tokenRefreshes.inc({ platform: connector.id, outcome: 'failed' });
      log?.warn({ token_refresh: { reason, duration_ms: Date.now() - started }, err: error }, 'token refresh failed');
      // OAuth servers refuse a revoked or expired grant with 400 invalid_grant (or 401): the end user must re-link.
      if (error instanceof PlatformError && ['bad_request', 'unauthorized', 'forbidden'].includes(error.kind)) {
        throw new PlatformError({
          kind: 'unauthorized',
          httpStatus: error.httpStatus,
          message: `The refresh token was refused: ${error.platformMessage}`,
          code: error.platformCode,
          requestSent: true,
          cause: error,
        });
      }
      throw error;
    });
    await storeSealedTokens(db, connection.id, sealJson(deps.cipher, tokens));
    tokenRefreshes.inc({ platform: connector.id, outcome: 'refreshed' });
    log?.info(
      {
        token_refresh: {
          reason,
          duration_ms: Date.now() - started,
          expires_at: tokens.expiresAt,
          refresh_token_rotated: rotated,
        },
      },
      'token refreshed',
    );
    return tokens;
  });
}

/**
 * The tokens of one connection for the length of a job (a sync, a write). Kept
 * in memory between calls and refreshed through freshTokens when they near
 * expiry or the platform refuses them, so a long sync outlives its access token.
 */
export function tokenSession(
  deps: TokenDeps,
  connection: ConnectionRecord,
  connector: Connector,
  initial: OAuthTokens,
  signal?: AbortSignal,
): OAuthSession {
  const now = deps.now ?? Date.now;
  let current = initial;
  const withSignal = (rejected?: string): FreshTokenOptions => ({
    ...(signal === undefined ? {} : { signal }),
    ...(rejected === undefined ? {} : { rejected }),
  });
  const renew = async (rejected?: string): Promise<OAuthTokens> => {
    const latest = await freshTokens(deps, connection, connector, withSignal(rejected));
    if (latest === null)
      throw new PlatformError({
        kind: 'unauthorized',
        message: 'The connection has no OAuth tokens any more; the end user must re-link.',
        requestSent: false,
      });
    current = latest;
    return latest;
  };
  return {
    tokens: () => (needsRefresh(current, now(), undefined) ? renew() : Promise.resolve(current)),
    rejected: (accessToken) => (accessToken === current.accessToken ? renew(accessToken) : Promise.resolve(current)),
  };
}

/** connectorContext's token fields for a job: the fresh tokens and a session over them (both null without OAuth). */
export async function jobTokens(
  deps: TokenDeps,
  connection: ConnectionRecord,
  connector: Connector,
  signal?: AbortSignal,
): Promise<{ tokens: OAuthTokens | null; oauth: OAuthSession | null }> {
  const tokens = await freshTokens(deps, connection, connector, signal === undefined ? {} : { signal });
  return { tokens, oauth: tokens === null ? null : tokenSession(deps, connection, connector, tokens, signal) };
}

/**
 * The link flow's steps that do not depend on how the end user authenticated:
 * checking the account against the connection, completing the link, starting
 * the initial sync, recording failures as CONNECTION_LINK_ERROR.
 * Steps return an Outcome (a redirect or a page) and never throw for things
 * the end user can cause: those become pages in plain words.
 */
import type { FastifyBaseLogger } from 'fastify';
import { completeLink, recordLinkError } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { AccountIdentity, Connector, Credentials, OAuthTokens } from '../platforms/connector.ts';
import { connectorContext } from '../platforms/context.ts';
import { PlatformError } from '../platforms/errors.ts';
import type { Services } from '../services.ts';
import { findConnectionByLinkToken } from '../sql/connections.ts';
import { ensureInitialSync } from '../sync/requests.ts';
import { otherAccountMessage, platformFailureMessage } from './messages.ts';
import { withPublicToken } from './params.ts';
import { messagePage } from './views.ts';

/** The end user is waiting on every platform call of the flow. */
export const PLATFORM_CALL_TIMEOUT_MS = 30_000;

export type Outcome = { kind: 'redirect'; status: 302 | 303; location: string } | { kind: 'page'; status: number; render: (nonce: string) => string };

export interface FlowContext {
  services: Services;
  log: FastifyBaseLogger;
  /** The page request's id: the initial sync's log lines carry it. */
  requestId: string;
  /** This browser's CSRF secret (cookie); null when it has none. */
  secret: string | null;
  /** Counts a sign-in the platform refused, for the failed-authentication throttle (never throws). */
  refused: () => Promise<void>;
}

/**
 * The connection a link page acts on, with its link token: the one the end user
 * presented (the connection was found by its SHA-256). Held in memory only; the
 * database has the token sealed (src/connections/link-token.ts).
 */
export type LinkConnection = ConnectionRecord & { linkToken: string };

/** The connection a presented link token opens (looked up by its SHA-256), or null. */
export async function findLinkConnection(db: Queryable, linkToken: string): Promise<LinkConnection | null> {
  const connection = await findConnectionByLinkToken(db, sha256(linkToken));
  return connection === null ? null : { ...connection, linkToken };
}

export function page(status: number, render: (nonce: string) => string): Outcome {
  return { kind: 'page', status, render };
}

/** CONNECTION_LINK_ERROR; a failure to record it must not hide the page from the end user. */
export async function reportLinkError(ctx: FlowContext, connection: ConnectionRecord, platform: string, message: string): Promise<void> {
  const { pool, cipher, config } = ctx.services;
  try {
    await recordLinkError(pool, cipher, connection, config.publicUrl, platform, message);
  } catch (error) {
    ctx.log.error({ err: error, connectionId: connection.id }, 'could not record CONNECTION_LINK_ERROR');
  }
}

/** A page that says what went wrong, after recording it as CONNECTION_LINK_ERROR. */
export async function failure(
  ctx: FlowContext,
  connection: ConnectionRecord,
  connector: Connector,
  message: string,
  status: number,
  retryHref: string | null,
): Promise<Outcome> {
  await reportLinkError(ctx, connection, connector.id, message);
  return page(status, (nonce) => messagePage({ nonce, title: `Could not connect ${connector.name}`, message, retryHref }));
}

/** Status of a page about a platform failure: 503 when trying again later may help. */
export function failureStatus(error: unknown, fallback: number): number {
  return error instanceof PlatformError && error.retryable ? 503 : fallback;
}

export function logUnexpected(ctx: FlowContext, error: unknown, connector: Connector, step: string): void {
  // Platform refusals are expected; anything else is a bug or an outage worth a log line.
  if (!(error instanceof PlatformError)) ctx.log.error({ err: error, platform: connector.id }, `link flow: ${step} failed`);
}

/** Asks the platform who the account is; a message for the end user when it refuses. */
export async function identify(
  ctx: FlowContext,
  connection: ConnectionRecord,
  connector: Connector,
  credentials: Credentials,
  tokens: OAuthTokens | null,
): Promise<{ identity: AccountIdentity } | { message: string; error: unknown }> {
  try {
    const identity = await connector.identify(
      connectorContext({
        connector,
        connectionId: connection.id,
        credentials,
        tokens,
        environment: connection.environment,
        simulated: connection.simulated,
        db: ctx.services.pool,
        signal: AbortSignal.timeout(PLATFORM_CALL_TIMEOUT_MS),
      }),
    );
    // Re-authentication must be the same account: another one would silently swap the data behind this access_token.
    if (
      connection.linkedAt !== null &&
      connection.platform === connector.id &&
      connection.storeUniqueId !== null &&
      identity.storeUniqueId !== connection.storeUniqueId
    ) {
      return { message: otherAccountMessage(connector, connection.storeName), error: null };
    }
    return { identity };
  } catch (error) {
    logUnexpected(ctx, error, connector, 'identify');
    return { message: platformFailureMessage(connector, error), error };
  }
}

/**
 * Completes the link (new, re-authentication, or an account already connected
 * elsewhere in the organisation), starts the initial sync for a new link and
 * sends the end user to `target` with public_token appended.
 */
export async function finish(
  ctx: FlowContext,
  connection: ConnectionRecord,
  input: { platform: string; credentials: Credentials | null; tokens: OAuthTokens | null; identity: AccountIdentity; simulated?: boolean },
  target: string,
): Promise<Outcome> {
  const { pool, cipher, jobs } = ctx.services;
  const completion = await completeLink(pool, cipher, connection, input);
  try {
    // New links, and re-links of a connection whose initial sync failed (its data is still not ready).
    await ensureInitialSync(pool, jobs, completion.connection.id, 'link', ctx.requestId);
  } catch (error) {
    // The link itself is done and the token valid; the end user cannot fix a queue problem.
    ctx.log.error({ err: error, connectionId: completion.connection.id }, 'link flow: initial sync could not be requested');
  }
  return { kind: 'redirect', status: 303, location: withPublicToken(target, completion.publicToken) };
}

/** The connection's link address with the flow's kept query: where "Try again" goes. */
export function startOverHref(linkToken: string, query: string): string {
  return `/link/${encodeURIComponent(linkToken)}${query}`;
}

/**
 * Connections: creation, link completion (new and re-authentication),
 * de-duplication by store_unique_id, public tokens, access tokens.
 */
import type { ConnectionCache } from './access-token-cache.ts';
import { randomToken, sha256, type Cipher } from '../crypto/secrets.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { noteRequestConnection } from '../db/request-scope.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { emitEvent } from '../events/emit.ts';
import type { AccountIdentity, Credentials, OAuthTokens } from '../platforms/connector.ts';
import { sealJson } from '../platforms/context.ts';
import { findConnectionByAccessToken, findConnectionById, findConnectionByStore, insertConnection } from '../sql/connections.ts';
import { lockConnectedAccount } from '../sql/connected-account-lock.ts';
import { markDuplicateOf, storeLinkedAccount, storeReplacedCredentials } from '../sql/connection-link.ts';
import { setConnectionStatus } from '../sql/connection-health.ts';
import { insertPublicToken, usePublicToken } from '../sql/public-tokens.ts';
import { replaceAccessToken } from '../sql/replace-access-token.ts';
import type { Tenant } from '../tenants/types.ts';
import { canTransition, statusAfterLink } from './lifecycle.ts';
import { linkUrl, newLinkToken } from './link-token.ts';
import type { ConnectionRecord, ConnectionStatus } from './types.ts';

export const ACCESS_TOKEN_PREFIX = 'lpat_';
export const PUBLIC_TOKEN_PREFIX = 'lppt_';
export const PUBLIC_TOKEN_TTL_SECONDS = 30 * 60;

export function accessTokenOf(cipher: Cipher, connection: Pick<ConnectionRecord, 'accessTokenCiphertext'>): string {
  return cipher.decrypt(connection.accessTokenCiphertext);
}

export interface CreateConnectionInput {
  platform: string | null;
  name: string | null;
  credentials: Credentials | null;
  identity: AccountIdentity | null;
  syncConfig: unknown;
  scope: string | null;
  marketplace: string | null;
  redirectUrl: string | null;
}

/**
 * Creates a connection, or returns the existing one when the same platform
 * account is already connected in this organisation and environment.
 */
export async function createConnection(
  pool: Pool,
  cipher: Cipher,
  tenant: Tenant,
  input: CreateConnectionInput,
): Promise<{ connection: ConnectionRecord; created: boolean }> {
  return withTransaction(pool, async (db) => {
    if (input.platform !== null && input.identity !== null) {
      // Serialise concurrent creates of the same account so exactly one row wins.
      await lockConnectedAccount(db, tenant, input.platform, input.identity.storeUniqueId);
      const existing = await findConnectionByStore(db, tenant, input.platform, input.identity.storeUniqueId);
      if (existing !== null) return { connection: existing, created: false };
    }
    const accessToken = randomToken(ACCESS_TOKEN_PREFIX);
    const linkToken = newLinkToken(cipher);
    const connection = await insertConnection(db, {
      tenant,
      platform: input.platform,
      name: input.name,
      accessTokenSha256: sha256(accessToken),
      accessTokenCiphertext: cipher.encrypt(accessToken),
      linkTokenSha256: linkToken.sha256,
      linkTokenCiphertext: linkToken.ciphertext,
      credentialsCiphertext: input.credentials === null ? null : sealJson(cipher, input.credentials),
      storeUniqueId: input.identity?.storeUniqueId ?? null,
      storeName: input.identity?.storeName ?? null,
      storeDomain: input.identity?.storeDomain ?? null,
      syncConfig: input.syncConfig ?? null,
      scope: input.scope,
      marketplace: input.marketplace,
      redirectUrl: input.redirectUrl,
      linked: input.identity !== null,
    });
    return { connection, created: true };
  });
}

/** Resolves the access_token query parameter within the caller's tenant. */
/** `cache` (the data reads): remembered between change notifications (src/connections/access-token-cache.ts). */
export async function connectionForAccessToken(
  db: Queryable,
  tenant: Tenant,
  accessToken: string | undefined,
  cache?: ConnectionCache,
): Promise<ConnectionRecord> {
  if (accessToken === undefined || accessToken === '') {
    throw new ServiceError(
      'MISSING_ACCESS_TOKEN',
      'The access_token query parameter is required: pass the connection access_token from connection creation or the public token exchange.',
      { source: 'service', field: 'access_token', location: 'query' },
    );
  }
  const connection = accessToken.length > 200 ? null : await lookUp(db, tenant, sha256(accessToken), cache);
  if (connection === null) {
    throw new ServiceError(
      'INVALID_CREDENTIALS',
      'The access_token does not belong to a connection of these client credentials (check the environment, or whether it was invalidated).',
      { source: 'service', field: 'access_token', location: 'query' },
    );
  }
  noteRequestConnection(connection.id);
  return connection;
}

function lookUp(db: Queryable, tenant: Tenant, tokenSha256: Buffer, cache: ConnectionCache | undefined): Promise<ConnectionRecord | null> {
  const load = (): Promise<ConnectionRecord | null> => findConnectionByAccessToken(db, tenant, tokenSha256);
  return cache === undefined ? load() : cache.get(`${tenant.organizationId}:${tenant.environment}:${tokenSha256.toString('base64')}`, load);
}

export async function connectionForId(db: Queryable, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}): Promise<ConnectionRecord> {
  const connection = await findConnectionById(db, tenant, id, options);
  if (connection === null)
    throw new ServiceError('RESOURCE_NOT_FOUND', `No connection with id ${id}.`, { source: 'service', field: 'id', location: 'params' });
  noteRequestConnection(connection.id);
  return connection;
}

export async function setStatus(db: Queryable, connection: ConnectionRecord, to: ConnectionStatus): Promise<void> {
  if (!canTransition(connection.status, to)) throw new Error(`connection ${connection.id}: ${connection.status} → ${to} is not allowed`);
  await setConnectionStatus(db, connection.id, to);
}

export interface LinkCompletion {
  connection: ConnectionRecord;
  publicToken: string;
  /** True when the end user linked a new account; false for re-authentication or a duplicate. */
  isNewLink: boolean;
}

function connectionWebhook(cipher: Cipher, connection: ConnectionRecord, code: string, extra: Record<string, unknown>) {
  return { type: 'CONNECTION', code, connection_id: connection.id, access_token: accessTokenOf(cipher, connection), ...extra };
}

/**
 * The end user finished the platform's authentication in the link flow.
 * - Another connection of this tenant already holds the account → that one is
 *   refreshed and returned, and a placeholder never linked becomes its duplicate (IS_DUPLICATE).
 * - This connection was linked before → re-authentication: credentials replaced,
 *   access_token unchanged, CONNECTION_UPDATED.
 * - Otherwise → newly linked: the initial sync is started by the caller.
 * Always issues a public token (single use, 30 minutes).
 */
export async function completeLink(
  pool: Pool,
  cipher: Cipher,
  linkConnection: ConnectionRecord,
  /** `simulated`: the link went to the platform's simulator (src/platforms/simulators.ts); absent: it did not. */
  input: { platform: string; credentials: Credentials | null; tokens: OAuthTokens | null; identity: AccountIdentity; simulated?: boolean },
): Promise<LinkCompletion> {
  return withTransaction(pool, async (db) => {
    const tenant: Tenant = { organizationId: linkConnection.organizationId, environment: linkConnection.environment };
    await lockConnectedAccount(db, tenant, input.platform, input.identity.storeUniqueId);
    const holder = await findConnectionByStore(db, tenant, input.platform, input.identity.storeUniqueId);
    let target = (await findConnectionById(db, tenant, linkConnection.id, { forUpdate: true })) ?? linkConnection;
    if (holder !== null && holder.id !== target.id) {
      // The account is already connected: keep the existing connection; a placeholder never linked points at it, so
      // requests with its access token answer IS_DUPLICATE naming the holder (src/connections/unlinked.ts).
      if (target.linkedAt === null) await markDuplicateOf(db, target.id, holder.id);
      target = holder;
    }
    const wasLinked = target.linkedAt !== null;
    const status = wasLinked ? statusAfterLink(target.readyAt !== null) : 'not_ready';
    if (!canTransition(target.status, status)) throw new Error(`connection ${target.id}: ${target.status} → ${status} is not allowed`);
    const linkedAt = await storeLinkedAccount(db, {
      connectionId: target.id,
      platform: input.platform,
      credentialsCiphertext: input.credentials === null ? null : sealJson(cipher, input.credentials),
      tokensCiphertext: input.tokens === null ? null : sealJson(cipher, input.tokens),
      storeUniqueId: input.identity.storeUniqueId,
      storeName: input.identity.storeName,
      storeDomain: input.identity.storeDomain ?? null,
      status,
      simulated: input.simulated === true,
    });
    const refreshed: ConnectionRecord = {
      ...target,
      simulated: input.simulated === true,
      platform: input.platform,
      storeUniqueId: input.identity.storeUniqueId,
      storeName: input.identity.storeName,
      storeDomain: input.identity.storeDomain ?? null,
      status,
      linkedAt: linkedAt ?? new Date(),
      disableError: null,
      disableMessage: null,
    };
    const publicToken = randomToken(PUBLIC_TOKEN_PREFIX);
    await insertPublicToken(db, sha256(publicToken), refreshed.id, PUBLIC_TOKEN_TTL_SECONDS);
    await emitEvent(db, cipher, {
      tenant,
      connectionId: refreshed.id,
      type: 'CONNECTION',
      code: 'CONNECTION_UPDATED',
      payload: connectionWebhook(cipher, refreshed, 'CONNECTION_UPDATED', { store_unique_id: refreshed.storeUniqueId }),
    });
    return { connection: refreshed, publicToken, isNewLink: !wasLinked };
  });
}

/** CONNECTION_LINK_ERROR: the flow failed; the end user sees the message too. */
export async function recordLinkError(
  db: Queryable,
  cipher: Cipher,
  connection: ConnectionRecord,
  publicUrl: string,
  platform: string,
  message: string,
): Promise<void> {
  await emitEvent(db, cipher, {
    tenant: { organizationId: connection.organizationId, environment: connection.environment },
    connectionId: connection.id,
    type: 'CONNECTION',
    code: 'CONNECTION_LINK_ERROR',
    payload: connectionWebhook(cipher, connection, 'CONNECTION_LINK_ERROR', {
      update_url: linkUrl(publicUrl, cipher, connection),
      message,
      platform,
    }),
  });
}

/** Single use within 30 minutes; used, expired, unknown or another tenant's → the same 400. */
export async function exchangePublicToken(pool: Pool, tenant: Tenant, publicToken: string): Promise<ConnectionRecord> {
  return withTransaction(pool, async (db) => {
    const id = await usePublicToken(db, tenant, sha256(publicToken));
    if (id === null) {
      throw new ServiceError(
        'INVALID_PUBLIC_TOKEN',
        'The public_token is unknown, already exchanged, expired (they live 30 minutes), or from another environment; run the link flow again.',
        { source: 'service', field: 'public_token', location: 'body' },
      );
    }
    return connectionForId(db, tenant, id);
  });
}

/** Replaces the token the caller presented; a concurrent invalidation of the same token wins once, the other gets 401. */
export async function invalidateAccessToken(pool: Pool, cipher: Cipher, connection: ConnectionRecord, presented: string): Promise<string> {
  const accessToken = randomToken(ACCESS_TOKEN_PREFIX);
  const replaced = await replaceAccessToken(
    pool,
    connection.id,
    { sha256: sha256(accessToken), ciphertext: cipher.encrypt(accessToken) },
    sha256(presented),
  );
  if (!replaced) {
    throw new ServiceError('INVALID_CREDENTIALS', 'This access_token was invalidated meanwhile; use the token the other call returned.', {
      source: 'service',
      field: 'access_token',
      location: 'query',
    });
  }
  return accessToken;
}

/**
 * `POST /connections/create` with credentials of an account that is already
 * connected: the new credentials replace the stored ones (they may be the fix
 * for needs_reauth), the connection recovers like a re-link, and
 * CONNECTION_UPDATED fires. The access_token stays.
 */
export async function refreshCredentials(
  pool: Pool,
  cipher: Cipher,
  connection: ConnectionRecord,
  credentials: Credentials,
): Promise<ConnectionRecord> {
  return withTransaction(pool, async (db) => {
    const current =
      (await findConnectionById(db, { organizationId: connection.organizationId, environment: connection.environment }, connection.id, {
        forUpdate: true,
      })) ?? connection;
    const status = statusAfterLink(current.readyAt !== null);
    if (!canTransition(current.status, status)) throw new Error(`connection ${current.id}: ${current.status} → ${status} is not allowed`);
    await storeReplacedCredentials(db, current.id, sealJson(cipher, credentials), status);
    const refreshed: ConnectionRecord = { ...current, status, disableError: null, disableMessage: null };
    await emitEvent(db, cipher, {
      tenant: { organizationId: current.organizationId, environment: current.environment },
      connectionId: current.id,
      type: 'CONNECTION',
      code: 'CONNECTION_UPDATED',
      payload: connectionWebhook(cipher, refreshed, 'CONNECTION_UPDATED', { store_unique_id: refreshed.storeUniqueId }),
    });
    return refreshed;
  });
}

/**
 * Builds the ConnectorContext a connector gets for one connection: decrypted
 * credentials and tokens, the shared HTTP client with the platform's limits,
 * and id translation between service and platform ids.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { isServiceId, serviceId } from '../store/ids.ts';
import type { Environment } from '../tenants/types.ts';
import type { Connector, ConnectorContext, Credentials, OAuthSession, OAuthTokens } from './connector.ts';
import { createPlatformHttp } from './http.ts';

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
  db: Queryable;
  signal?: AbortSignal;
}

/** A session over fixed tokens: for one-off calls (identify during the link flow) that never outlive the token. */
export function fixedTokenSession(tokens: OAuthTokens | null): OAuthSession | null {
  if (tokens === null) return null;
  return { tokens: () => Promise.resolve(tokens), rejected: () => Promise.resolve(tokens) };
}

export function connectorContext(input: ContextInput): ConnectorContext {
  const { connector, connectionId } = input;
  const signal = input.signal ?? new AbortController().signal;
  return {
    connectionId,
    credentials: input.credentials,
    tokens: input.tokens,
    oauth: input.oauth ?? fixedTokenSession(input.tokens),
    environment: input.environment,
    signal,
    http: createPlatformHttp({
      limitKey: `${connector.id}:${connectionId}`,
      limits: { requestsPerMinute: connector.limits.requestsPerMinute, concurrentRequests: connector.limits.concurrentRequests },
      signal,
    }),
    ref(type: UnifiedObjectType, platformId) {
      if (platformId === null || platformId === undefined || platformId === '') return null;
      return serviceId(connectionId, type, String(platformId));
    },
    async platformIdOf(type: UnifiedObjectType, id: string) {
      // Not a service id at all: unknown, rather than a query PostgreSQL refuses (invalid input syntax for type uuid).
      if (!isServiceId(id)) return null;
      const result = await input.db.query<{ platform_id: string }>(
        'SELECT platform_id FROM records WHERE connection_id = $1 AND object_type = $2 AND id = $3',
        [connectionId, type, id],
      );
      return result.rows[0]?.platform_id ?? null;
    },
  };
}

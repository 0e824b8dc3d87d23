/**
 * A connector action run for a client's request rather than in a job (a balance, custom field definitions, a file):
 * the connection's fresh tokens, a deadline, and the platform's refusal answered as the service's error.
 */
import type { ConnectionRecord } from '../connections/types.ts';
import type { Connector, ConnectorContext } from './connector.ts';
import { connectorContext, openCredentials } from './context.ts';
import { PlatformError } from './errors.ts';
import { jobTokens, type TokenDeps } from './tokens.ts';

export async function callPlatformLive<T>(
  deps: TokenDeps,
  connection: ConnectionRecord,
  connector: Connector,
  timeoutMs: number,
  call: (ctx: ConnectorContext) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  const ctx = connectorContext({
    connector,
    connectionId: connection.id,
    db: deps.pool,
    signal,
    environment: connection.environment,
    simulated: connection.simulated,
    credentials: openCredentials(deps.cipher, connection.credentialsCiphertext),
    ...(await jobTokens(deps, connection, connector, signal)),
  });
  try {
    return await call(ctx);
  } catch (error) {
    throw error instanceof PlatformError ? error.toServiceError() : error;
  }
}

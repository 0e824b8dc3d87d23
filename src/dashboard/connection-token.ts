/**
 * The access token of a connection of the signed-in user's organisation and environment, found on the server for the
 * page's own API call (the API masks tokens in its answers to sessions). Null for a connection the user may not see.
 * Never rendered: it only travels inside the in-process request.
 */
import { accessTokenOf } from '../connections/connections.ts';
import { findConnectionForService } from '../sql/connections.ts';
import { UUID } from './components.ts';
import type { DashboardContext } from './context.ts';

export async function connectionAccessToken(ctx: DashboardContext, connectionId: string): Promise<string | null> {
  if (!UUID.test(connectionId)) return null;
  const { pool, cipher } = ctx.request.server.services;
  const connection = await findConnectionForService(pool, connectionId);
  if (connection?.organizationId !== ctx.user.organizationId || connection.environment !== ctx.environment) return null;
  return accessTokenOf(cipher, connection);
}

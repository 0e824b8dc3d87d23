/**
 * Data and write requests on a connection that was never linked (created without credentials, the end user not
 * through the link flow yet): nothing can be read or written, and the answer says where the link stands. IS_DUPLICATE
 * when the end user linked it to an account another connection holds (that one got the link), PENDING
 * while the end user signs in at the platform, LINK_ERROR when the last attempt failed, NO_CREDENTIALS otherwise;
 * all 409 CONNECTION_ERROR, as the spec's "conflict with current state". Only asked for unlinked connections, so
 * the usual request costs nothing.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { linkState } from '../sql/link-state.ts';
import type { ConnectionRecord } from './types.ts';

export async function assertLinked(db: Queryable, connection: ConnectionRecord): Promise<void> {
  if (connection.linkedAt !== null) return;
  const state = await linkState(db, connection.id);
  if (state.duplicateOf !== null) {
    throw new ServiceError(
      'IS_DUPLICATE',
      `The end user linked this connection to an account that connection ${state.duplicateOf} already holds, so the link flow joined them to that connection: use its access token (the public token of the flow exchanges for it).`,
      { source: 'service', connection_id: state.duplicateOf },
    );
  }
  if (state.pending) {
    throw new ServiceError(
      'PENDING',
      'The end user is signing in at the platform for this connection; wait for CONNECTION_UPDATED, then for INITIAL_UPDATE.',
      { source: 'service' },
    );
  }
  if (state.lastLinkError !== null) {
    throw new ServiceError(
      'LINK_ERROR',
      `The end user's last attempt to link this connection failed: ${state.lastLinkError} Send them to link_url to try again.`,
      { source: 'service' },
    );
  }
  throw new ServiceError(
    'NO_CREDENTIALS',
    'This connection has no platform credentials yet: send the end user to its link_url (or create it with credentials).',
    { source: 'service' },
  );
}

/** Where a connection that was never linked stands in its link flow (src/connections/unlinked.ts). */
import type { Queryable } from '../db/pool.ts';

export interface LinkState {
  /** An OAuth consent is in flight: a sign-in state that has not expired. */
  pending: boolean;
  /** The message of the last CONNECTION_LINK_ERROR, if the flow failed. */
  lastLinkError: string | null;
  /** The connection that holds the account this one was linked to (migration 0021), if it is a duplicate. */
  duplicateOf: string | null;
}

export async function linkState(db: Queryable, connectionId: string): Promise<LinkState> {
  const result = await db.query<{ pending: boolean; last_link_error: string | null; duplicate_of: string | null }>(
    `SELECT (SELECT duplicate_of FROM connections WHERE id = $1) AS duplicate_of,
            EXISTS (SELECT 1 FROM oauth_states WHERE connection_id = $1 AND expires_at > clock_timestamp()) AS pending,
            (SELECT payload->>'message' FROM events WHERE connection_id = $1 AND code = 'CONNECTION_LINK_ERROR'
              ORDER BY created_at DESC LIMIT 1) AS last_link_error`,
    [connectionId],
  );
  const row = result.rows[0];
  return { pending: row?.pending ?? false, lastLinkError: row?.last_link_error ?? null, duplicateOf: row?.duplicate_of ?? null };
}

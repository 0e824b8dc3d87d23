/** The live session a ticket names, its expiry moved on by `seconds` (each call of a session keeps it alive). */
import type { Queryable } from '../db/pool.ts';

export interface PolledTicket {
  connectionId: string;
  /** The connection's organisation, for the session's log lines. */
  organizationId: string;
  lastError: string;
}

export async function touchPolledTicket(db: Queryable, ticketSha256: Buffer, seconds: number): Promise<PolledTicket | null> {
  const { rows } = await db.query<{ connection_id: string; organization_id: string; last_error: string }>(
    `UPDATE polled_tickets t SET expires_at = clock_timestamp() + make_interval(secs => $2)
       FROM connections c
      WHERE t.ticket_sha256 = $1 AND t.expires_at >= clock_timestamp() AND c.id = t.connection_id
      RETURNING t.connection_id, c.organization_id, t.last_error`,
    [ticketSha256, seconds],
  );
  const row = rows[0];
  return row === undefined ? null : { connectionId: row.connection_id, organizationId: row.organization_id, lastError: row.last_error };
}

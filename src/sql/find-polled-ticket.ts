/** The live session a ticket names, its expiry moved on by `seconds` (each call of a session keeps it alive). */
import type { Queryable } from '../db/pool.ts';

export interface PolledTicket {
  connectionId: string;
  lastError: string;
}

export async function touchPolledTicket(db: Queryable, ticketSha256: Buffer, seconds: number): Promise<PolledTicket | null> {
  const { rows } = await db.query<{ connection_id: string; last_error: string }>(
    `UPDATE polled_tickets SET expires_at = clock_timestamp() + make_interval(secs => $2)
      WHERE ticket_sha256 = $1 AND expires_at >= clock_timestamp()
      RETURNING connection_id, last_error`,
    [ticketSha256, seconds],
  );
  const row = rows[0];
  return row === undefined ? null : { connectionId: row.connection_id, lastError: row.last_error };
}

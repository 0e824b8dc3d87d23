/**
 * Starts a Web Connector session: its ticket, stored by SHA-256 only, valid for `seconds`. The Web Connector runs one
 * session of an application at a time, so a new one ends the connection's others: a request one of them was sent and
 * never answered (the Web Connector or QuickBooks stopped half-way) is handed out again in this one.
 */
import type { Queryable } from '../db/pool.ts';

export async function openPolledTicket(db: Queryable, ticketSha256: Buffer, connectionId: string, seconds: number): Promise<void> {
  await db.query(
    `UPDATE polled_requests SET status = 'pending', ticket_sha256 = NULL
      WHERE connection_id = $1 AND status = 'sent'`,
    [connectionId],
  );
  // Expired sessions of any connection go too: the table stays the size of the sessions running.
  await db.query('DELETE FROM polled_tickets WHERE connection_id = $1 OR expires_at < clock_timestamp()', [connectionId]);
  await db.query(
    `INSERT INTO polled_tickets (ticket_sha256, connection_id, expires_at) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))`,
    [ticketSha256, connectionId, seconds],
  );
}

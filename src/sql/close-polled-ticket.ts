/** Ends a session: its ticket goes, and a request it was sent but never answered waits for the next session. */
import type { Queryable } from '../db/pool.ts';

export async function closePolledTicket(db: Queryable, ticketSha256: Buffer): Promise<void> {
  await db.query(`UPDATE polled_requests SET status = 'pending', ticket_sha256 = NULL WHERE ticket_sha256 = $1 AND status = 'sent'`, [ticketSha256]);
  await db.query('DELETE FROM polled_tickets WHERE ticket_sha256 = $1', [ticketSha256]);
}

/** What getLastError answers next for a session ('NoOp': nothing to send yet, ask again shortly). */
import type { Queryable } from '../db/pool.ts';

export async function setPolledTicketError(db: Queryable, ticketSha256: Buffer, lastError: string): Promise<void> {
  await db.query('UPDATE polled_tickets SET last_error = $2 WHERE ticket_sha256 = $1', [ticketSha256, lastError]);
}

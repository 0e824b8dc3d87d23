/**
 * The next request of a connection for a session: the oldest one pending, or sent under a session that is over (its
 * Web Connector or our process stopped before the answer came: it is issued again). SKIP LOCKED: two sessions of one
 * connection, on two processes, never get the same request.
 */
import type { Queryable } from '../db/pool.ts';

export interface ClaimedPolledRequest {
  id: string;
  body: string;
  issued: number;
  /** The sync run or the write job waiting on it (one of the two). */
  syncRunId: string | null;
  writeJobId: string | null;
}

export async function claimPolledRequest(db: Queryable, connectionId: string, ticketSha256: Buffer): Promise<ClaimedPolledRequest | null> {
  const { rows } = await db.query<{ id: string; request: string; issued: number; sync_run_id: string | null; write_job_id: string | null }>(
    `UPDATE polled_requests SET status = 'sent', ticket_sha256 = $2, sent_at = clock_timestamp(), issued = issued + 1
      WHERE id = (
        SELECT r.id FROM polled_requests r
         WHERE r.connection_id = $1
           AND (r.status = 'pending'
                OR (r.status = 'sent' AND NOT EXISTS (SELECT 1 FROM polled_tickets t
                                                       WHERE t.ticket_sha256 = r.ticket_sha256 AND t.expires_at >= clock_timestamp())))
         ORDER BY r.created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
      RETURNING id, request, issued, sync_run_id, write_job_id`,
    [connectionId, ticketSha256],
  );
  const row = rows[0];
  return row === undefined ? null : { id: row.id, body: row.request, issued: row.issued, syncRunId: row.sync_run_id, writeJobId: row.write_job_id };
}

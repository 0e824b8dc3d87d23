/** Records the platform's answer (or its refusal) to the request a session was sent; returns who waits on it. */
import type { Queryable } from '../db/pool.ts';
import type { PolledWaiter } from './queue-polled-request.ts';

export async function answerPolledRequest(
  db: Queryable,
  ticketSha256: Buffer,
  outcome: { answer: string } | { error: string },
): Promise<{ id: string; waiter: PolledWaiter } | null> {
  const { rows } = await db.query<{ id: string; sync_run_id: string | null; write_job_id: string | null }>(
    `UPDATE polled_requests
        SET status = CASE WHEN $2::text IS NULL THEN 'failed' ELSE 'answered' END,
            answer = $2, error = $3, answered_at = clock_timestamp(), ticket_sha256 = NULL
      WHERE id = (SELECT id FROM polled_requests WHERE ticket_sha256 = $1 AND status = 'sent' ORDER BY sent_at DESC LIMIT 1 FOR UPDATE)
      RETURNING id, sync_run_id, write_job_id`,
    [ticketSha256, 'answer' in outcome ? outcome.answer : null, 'error' in outcome ? outcome.error : null],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const waiter: PolledWaiter = row.sync_run_id !== null ? { syncRunId: row.sync_run_id } : { writeJobId: row.write_job_id ?? '' };
  return { id: row.id, waiter };
}

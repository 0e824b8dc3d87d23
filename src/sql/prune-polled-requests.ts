/**
 * Drops the requests of platforms that call us whose job no longer needs them: answered (or refused) requests of sync
 * runs and write jobs that are over, and any answered a day ago (a job that still waits on one that old has been retried
 * with a new request anyway). What is waiting or sent stays: a session may still answer it.
 */
import type { Queryable } from '../db/pool.ts';

export async function prunePolledRequests(db: Queryable): Promise<number> {
  const result = await db.query(
    `DELETE FROM polled_requests r
      WHERE r.status IN ('answered', 'failed')
        AND (r.answered_at < clock_timestamp() - interval '1 day'
             OR (r.sync_run_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_runs s WHERE s.id = r.sync_run_id AND s.status IN ('queued', 'running')))
             OR (r.write_job_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM write_jobs w WHERE w.id = r.write_job_id AND w.status IN ('pending', 'in_progress'))))`,
  );
  return result.rowCount ?? 0;
}

/**
 * What a polled connection still has to do with its platform: requests waiting to be sent, and sync runs or write jobs
 * not over (they may queue more). A session goes on while any is left.
 */
import type { Queryable } from '../db/pool.ts';

export interface PolledWorkLeft {
  waiting: number;
  answered: number;
  openJobs: number;
}

export async function polledWorkLeft(db: Queryable, connectionId: string): Promise<PolledWorkLeft> {
  const { rows } = await db.query<{ waiting: number; answered: number; open_jobs: number }>(
    `SELECT (SELECT count(*)::int FROM polled_requests WHERE connection_id = $1 AND status IN ('pending', 'sent')) AS waiting,
            (SELECT count(*)::int FROM polled_requests
              WHERE connection_id = $1 AND status IN ('answered', 'failed') AND answered_at > clock_timestamp() - interval '1 hour') AS answered,
            (SELECT count(*)::int FROM sync_runs
              WHERE connection_id = $1 AND status IN ('queued', 'running') AND (request->>'after_initial') IS DISTINCT FROM 'true')
          + (SELECT count(*)::int FROM write_jobs WHERE connection_id = $1 AND status IN ('pending', 'in_progress')) AS open_jobs`,
    [connectionId],
  );
  const row = rows[0];
  return { waiting: row?.waiting ?? 0, answered: row?.answered ?? 0, openJobs: row?.open_jobs ?? 0 };
}

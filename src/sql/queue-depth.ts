import type { Queryable } from '../db/pool.ts';

export interface QueueDepthRow {
  queue: string;
  /** Waiting jobs whose start time has come (created or retry, start_after passed). */
  ready: number;
  /** Waiting jobs whose start time has not come yet (a retry's backoff, a deferred send). */
  deferred: number;
  /** Seconds since the oldest ready job's start time: how long work has waited for a worker; 0 when none waits. */
  oldest_ready_seconds: number;
}

/**
 * Every pg-boss queue's waiting jobs, read at scrape time: one statement over the partial index pg-boss fetches by
 * (job_i11: name, … WHERE state < 'active'), so it reads waiting jobs only, never finished ones.
 */
export async function queueDepths(db: Queryable): Promise<QueueDepthRow[]> {
  const result = await db.query<QueueDepthRow>(
    `SELECT q.name AS queue,
            COALESCE(j.ready, 0)::int AS ready,
            COALESCE(j.deferred, 0)::int AS deferred,
            COALESCE(extract(epoch FROM (clock_timestamp() - j.oldest_ready)), 0)::float8 AS oldest_ready_seconds
       FROM pgboss.queue q
       LEFT JOIN (SELECT name,
                         count(*) FILTER (WHERE start_after <= clock_timestamp()) AS ready,
                         count(*) FILTER (WHERE start_after > clock_timestamp()) AS deferred,
                         min(start_after) FILTER (WHERE start_after <= clock_timestamp()) AS oldest_ready
                    FROM pgboss.job
                   WHERE state < 'active'
                   GROUP BY name) j ON j.name = q.name
      ORDER BY q.name`,
  );
  return result.rows;
}

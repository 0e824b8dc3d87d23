import type { Queryable } from '../db/pool.ts';

export interface WindowState {
  hits: number;
  resetMs: number;
}

/**
 * Counts `hits` requests (normally one) in the bucket's window. The window starts at the first
 * request after the previous one ended and lasts `windowSeconds`; the row lock
 * of the upsert serialises concurrent processes on one database.
 */
export async function rateLimitHit(db: Queryable, bucket: string, windowSeconds: number, hits = 1): Promise<WindowState> {
  const result = await db.query<{ hits: number; reset_ms: number }>(
    `INSERT INTO rate_limit_windows AS w (bucket, window_start, hits)
          VALUES ($1, clock_timestamp(), $3::int)
     ON CONFLICT (bucket) DO UPDATE SET
          window_start = CASE WHEN w.window_start <= clock_timestamp() - make_interval(secs => $2)
                              THEN clock_timestamp() ELSE w.window_start END,
          hits = CASE WHEN w.window_start <= clock_timestamp() - make_interval(secs => $2)
                      THEN $3::int ELSE w.hits + $3::int END
     RETURNING hits,
               GREATEST(0, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - clock_timestamp())) * 1000))::float8 AS reset_ms`,
    [bucket, windowSeconds, hits],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('rate limit upsert returned no row');
  return { hits: row.hits, resetMs: row.reset_ms };
}

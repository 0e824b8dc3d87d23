/** SQL of the failed-authentication throttle (src/ratelimit/auth-failures.ts). */
import type { Queryable } from '../db/pool.ts';

export interface FailureCount {
  bucket: string;
  failures: number;
  /** Milliseconds until the bucket's window ends. */
  resetMs: number;
}

/**
 * Counts one failure in each bucket, in one statement, and returns the counts.
 * A window opens at a bucket's first failure after the previous one ended and
 * lasts `windowSeconds`. Buckets are taken in sorted order, so two concurrent
 * failures that share buckets lock their rows in the same order.
 */
export async function countAuthFailures(db: Queryable, buckets: readonly string[], windowSeconds: number): Promise<FailureCount[]> {
  const result = await db.query<{ bucket: string; failures: number; reset_ms: number }>(
    `INSERT INTO auth_failures AS f (bucket, window_start, failures)
     SELECT b, clock_timestamp(), 1 FROM unnest($1::text[]) AS b ORDER BY b
     ON CONFLICT (bucket) DO UPDATE SET
          window_start = CASE WHEN f.window_start <= clock_timestamp() - make_interval(secs => $2)
                              THEN clock_timestamp() ELSE f.window_start END,
          failures = CASE WHEN f.window_start <= clock_timestamp() - make_interval(secs => $2)
                          THEN 1 ELSE f.failures + 1 END
     RETURNING bucket, failures,
               GREATEST(0, ceil(extract(epoch FROM (window_start + make_interval(secs => $2) - clock_timestamp())) * 1000))::float8 AS reset_ms`,
    [[...buckets].sort(), windowSeconds],
  );
  return result.rows.map((row) => ({ bucket: row.bucket, failures: row.failures, resetMs: row.reset_ms }));
}

/** Drops buckets whose window ended (addresses that failed once and never came back). */
export async function sweepAuthFailures(db: Queryable, windowSeconds: number): Promise<void> {
  await db.query(`DELETE FROM auth_failures WHERE window_start <= clock_timestamp() - make_interval(secs => $1)`, [windowSeconds]);
}

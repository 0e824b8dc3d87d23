/**
 * The dashboard overview's deliveries still being retried: failed at least once, not yet given up (their 15-minute
 * window runs), so neither delivered nor failed in the chart.
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface RetryingDeliveries {
  retrying: number;
  /** The newest failing attempt's error (or HTTP status) among them, for the overview's line. */
  last_error: string | null;
  last_status_code: number | null;
  oldest_at: Date | null;
}

export async function retryingDeliveries(db: Queryable, organizationId: string, environment: Environment): Promise<RetryingDeliveries> {
  // On the due index of pending work (migration 0017): only unfinished deliveries are read.
  const result = await db.query<RetryingDeliveries>(
    `SELECT count(*)::int AS retrying,
            (array_agg(last_error ORDER BY updated_at DESC))[1] AS last_error,
            (array_agg(last_status_code ORDER BY updated_at DESC))[1] AS last_status_code,
            min(created_at) AS oldest_at
       FROM webhook_deliveries
      WHERE organization_id = $1 AND environment = $2 AND status IN ('pending', 'delivering') AND attempts > 0`,
    [organizationId, environment],
  );
  return result.rows[0] ?? { retrying: 0, last_error: null, last_status_code: null, oldest_at: null };
}

/** The dashboard overview's webhook chart: finished deliveries of an organisation's environment per hour. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface DeliveryHourRow {
  hour: Date;
  delivered: number;
  failed: number;
}

/** Hours from `since` (the start of an hour), by when each delivery finished; hours without any are absent. */
export async function deliveriesPerHour(db: Queryable, organizationId: string, environment: Environment, since: Date): Promise<DeliveryHourRow[]> {
  const result = await db.query<DeliveryHourRow>(
    // created_at bounds the scan on the tenant index: a delivery finishes within its 15-minute window of creation.
    `SELECT date_trunc('hour', finished_at) AS hour,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE status = 'failed')::int AS failed
       FROM webhook_deliveries
      WHERE organization_id = $1 AND environment = $2 AND created_at >= $3::timestamptz - interval '1 day'
        AND status IN ('delivered', 'failed') AND finished_at >= $3
      GROUP BY 1 ORDER BY 1`,
    [organizationId, environment, since],
  );
  return result.rows;
}

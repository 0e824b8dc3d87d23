/**
 * The stored orders of a connection summed by calendar month (UTC, by the order's creation) and currency, for the
 * commerce metrics (src/api/commerce/metrics): how many orders, their totals, how many distinct customers placed them
 * (guest orders name none) and how many have a refund. One statement over the connection's live orders.
 */
import type { Queryable } from '../db/pool.ts';

export interface OrderMonthRow {
  /** First day of the month, YYYY-MM-DD. */
  month: string;
  currency: string;
  orders: number;
  /** Sum of the orders' total_price, as decimal text. */
  revenue: string;
  customers: number;
  refunded: number;
  /** When the newest of these orders was last synced. */
  last_synced_at: Date;
}

export async function commerceOrderMonths(db: Queryable, connectionId: string): Promise<OrderMonthRow[]> {
  const result = await db.query<OrderMonthRow>(
    `SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month,
            COALESCE(data ->> 'iso_currency_code', '') AS currency,
            count(*)::int AS orders,
            COALESCE(sum((data ->> 'total_price')::numeric), 0)::text AS revenue,
            count(DISTINCT data -> 'customer' ->> 'id')::int AS customers,
            count(*) FILTER (WHERE jsonb_array_length(COALESCE(data -> 'refunds', '[]'::jsonb)) > 0)::int AS refunded,
            max(last_synced_at) AS last_synced_at
       FROM records
      WHERE connection_id = $1 AND object_type = 'order' AND deleted_at IS NULL AND created_at IS NOT NULL
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    [connectionId],
  );
  return result.rows;
}

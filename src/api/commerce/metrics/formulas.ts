/**
 * The reference's commerce metrics (2024-08-31, "Commerce Metrics Formula"), month by month from the stored orders
 * summed per month and currency (src/sql/commerce-order-months.ts): total_revenue is the sum of the orders' totals,
 * total_orders their count, active_customers the distinct customers who placed them (guest orders name none),
 * refund_rate the share of them with a refund. Each value covers the orders of one currency; a currency's months run
 * from its first order to the last month with any order, months without orders counting zero (a refund rate has no
 * value for them: nothing to divide by).
 */
import type { OrderMonthRow } from '../../../sql/commerce-order-months.ts';

export interface MetricValue {
  start_date: string;
  end_date: string;
  currency: string;
  value: string;
}

type Month = Pick<OrderMonthRow, 'orders' | 'revenue' | 'customers' | 'refunded'>;

/** Metric name → its value for one month and currency, or null when it has none. Amounts and ratios four places. */
export const ORDER_METRICS = {
  total_revenue: (m: Month) => Number(m.revenue).toFixed(4),
  total_orders: (m: Month) => String(m.orders),
  active_customers: (m: Month) => String(m.customers),
  refund_rate: (m: Month) => (m.orders === 0 ? null : (m.refunded / m.orders).toFixed(4)),
} as const satisfies Record<string, (month: Month) => string | null>;

export type CommerceMetricName = keyof typeof ORDER_METRICS;
export const COMMERCE_METRIC_NAMES = Object.keys(ORDER_METRICS) as CommerceMetricName[];

export function isCommerceMetricName(name: string): name is CommerceMetricName {
  return Object.hasOwn(ORDER_METRICS, name);
}

const EMPTY: Month = { orders: 0, revenue: '0', customers: 0, refunded: 0 };

/** YYYY-MM-DD of the first day of the month after `month`. */
function nextMonth(month: string): string {
  const date = new Date(`${month}T00:00:00.000Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

function lastDayOf(month: string): string {
  return new Date(Date.parse(`${nextMonth(month)}T00:00:00.000Z`) - 86_400_000).toISOString();
}

/** The metric per currency and month, oldest month first, months without orders filled in. */
export function monthlyCommerceMetric(name: CommerceMetricName, rows: readonly OrderMonthRow[]): MetricValue[] {
  const of = ORDER_METRICS[name];
  const last = rows.reduce((latest, row) => (row.month > latest ? row.month : latest), '');
  const byCurrency = new Map<string, Map<string, Month>>();
  for (const row of rows) {
    const months = byCurrency.get(row.currency) ?? new Map<string, Month>();
    months.set(row.month, row);
    byCurrency.set(row.currency, months);
  }
  const values: MetricValue[] = [];
  for (const [currency, months] of byCurrency) {
    const first = [...months.keys()].sort()[0] ?? last;
    for (let month = first; month <= last; month = nextMonth(month)) {
      const value = of(months.get(month) ?? EMPTY);
      if (value !== null) values.push({ start_date: `${month}T00:00:00.000Z`, end_date: lastDayOf(month), currency, value });
    }
  }
  return values.sort((a, b) => a.start_date.localeCompare(b.start_date) || a.currency.localeCompare(b.currency));
}

/**
 * The reference's accounting metrics that the stored monthly income statements answer (2024-08-31, "Fetch a Metric"):
 * one value per month, each from that month's statement. A ratio is skipped for a month whose revenue is zero or not
 * given, an amount for a month whose statement does not give it. Values are decimal text with four places, as the
 * reference shows them ("-1149613.2900").
 */
type Json = Record<string, unknown>;

const amount =
  (field: string) =>
  (statement: Json): number | null =>
    typeof statement[field] === 'number' ? statement[field] : null;

function ratio(numerator: (s: Json) => number | null, denominator: (s: Json) => number | null): (statement: Json) => number | null {
  return (statement) => {
    const top = numerator(statement);
    const bottom = denominator(statement);
    return top === null || bottom === null || bottom === 0 ? null : top / bottom;
  };
}

const revenue = amount('net_sales');

/** Metric name → its value for one month's income statement. */
export const INCOME_STATEMENT_METRICS = {
  total_revenue: revenue,
  total_income: amount('total_income'),
  total_expenses: amount('total_expenses'),
  cost_of_goods_sold: amount('total_cost_of_sales'),
  net_income: amount('net_income'),
  net_operating_income: amount('net_operating_income'),
  gross_profit_margin: ratio(amount('gross_profit'), revenue),
  net_profit_margin: ratio(amount('net_income'), revenue),
} as const satisfies Record<string, (statement: Json) => number | null>;

export type MetricName = keyof typeof INCOME_STATEMENT_METRICS;
export const METRIC_NAMES = Object.keys(INCOME_STATEMENT_METRICS) as MetricName[];

export function isMetricName(name: string): name is MetricName {
  return Object.hasOwn(INCOME_STATEMENT_METRICS, name);
}

export interface MetricValue {
  start_date: string;
  end_date: string;
  currency: string;
  value: string;
}

/** The metric of each month, oldest first; months without a value are left out. */
export function monthlyMetric(name: MetricName, statements: Json[]): MetricValue[] {
  const of = INCOME_STATEMENT_METRICS[name];
  return statements
    .filter((s) => typeof s.start_date === 'string' && typeof s.end_date === 'string')
    .sort((a, b) => String(a.start_date).localeCompare(String(b.start_date)))
    .flatMap((s) => {
      const value = of(s);
      if (value === null || !Number.isFinite(value)) return [];
      return [
        {
          start_date: String(s.start_date),
          end_date: String(s.end_date),
          currency: typeof s.currency_code === 'string' ? s.currency_code : '',
          value: value.toFixed(4),
        },
      ];
    });
}

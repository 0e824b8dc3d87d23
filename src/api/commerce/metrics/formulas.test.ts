import { describe, expect, it } from 'vitest';
import type { OrderMonthRow } from '../../../sql/commerce-order-months.ts';
import { isCommerceMetricName, monthlyCommerceMetric } from './formulas.ts';

const synced = new Date('2025-06-01T00:00:00Z');
const row = (month: string, currency: string, orders: number, revenue: string, customers: number, refunded: number): OrderMonthRow => ({
  month,
  currency,
  orders,
  revenue,
  customers,
  refunded,
  last_synced_at: synced,
});

const rows = [row('2024-11-01', 'USD', 4, '100.5', 3, 1), row('2025-02-01', 'USD', 2, '20', 2, 0), row('2025-01-01', 'EUR', 1, '9.99', 1, 1)];

describe('commerce metrics from orders by month', () => {
  it('fills the months of a currency from its first order to the last month with any order, with zeros', () => {
    expect(monthlyCommerceMetric('total_orders', rows).map((v) => [v.start_date.slice(0, 7), v.currency, v.value])).toEqual([
      ['2024-11', 'USD', '4'],
      ['2024-12', 'USD', '0'],
      ['2025-01', 'EUR', '1'],
      ['2025-01', 'USD', '0'],
      ['2025-02', 'EUR', '0'],
      ['2025-02', 'USD', '2'],
    ]);
  });

  it('gives amounts and rates four places, a month its last day, and no rate where nothing was ordered', () => {
    expect(monthlyCommerceMetric('total_revenue', rows)[0]).toEqual({
      start_date: '2024-11-01T00:00:00.000Z',
      end_date: '2024-11-30T00:00:00.000Z',
      currency: 'USD',
      value: '100.5000',
    });
    expect(monthlyCommerceMetric('refund_rate', rows).map((v) => [v.start_date.slice(0, 7), v.currency, v.value])).toEqual([
      ['2024-11', 'USD', '0.2500'],
      ['2025-01', 'EUR', '1.0000'],
      ['2025-02', 'USD', '0.0000'],
    ]);
    expect(monthlyCommerceMetric('active_customers', []).length).toBe(0);
    expect(monthlyCommerceMetric('total_orders', [row('2024-02-01', 'USD', 1, '1', 1, 0)])[0]?.end_date).toBe('2024-02-29T00:00:00.000Z');
  });

  it('knows only its own names', () => {
    expect(['total_revenue', 'total_orders', 'active_customers', 'refund_rate'].every(isCommerceMetricName)).toBe(true);
    expect(isCommerceMetricName('constructor')).toBe(false);
  });
});

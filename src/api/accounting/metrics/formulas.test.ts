import { describe, expect, it } from 'vitest';
import { isMetricName, monthlyMetric } from './formulas.ts';

const month = (m: string, fields: Record<string, unknown>) => ({
  start_date: `2026-${m}-01T00:00:00.000Z`,
  end_date: `2026-${m}-28T00:00:00.000Z`,
  currency_code: 'USD',
  ...fields,
});

describe('monthly metrics from income statements', () => {
  it('answers amounts and ratios month by month, oldest first, as four-place decimal text', () => {
    const statements = [
      month('02', { net_sales: 200, gross_profit: 50, net_income: -30, total_expenses: 80 }),
      month('01', { net_sales: 1000, gross_profit: 400, net_income: 125.5, total_expenses: 274.5 }),
    ];
    expect(monthlyMetric('total_revenue', statements).map((v) => [v.start_date.slice(0, 7), v.value])).toEqual([
      ['2026-01', '1000.0000'],
      ['2026-02', '200.0000'],
    ]);
    expect(monthlyMetric('gross_profit_margin', statements).map((v) => v.value)).toEqual(['0.4000', '0.2500']);
    expect(monthlyMetric('net_profit_margin', statements).map((v) => v.value)).toEqual(['0.1255', '-0.1500']);
    expect(monthlyMetric('net_income', statements)[0]).toEqual({
      start_date: '2026-01-01T00:00:00.000Z',
      end_date: '2026-01-28T00:00:00.000Z',
      currency: 'USD',
      value: '125.5000',
    });
  });

  it('leaves out months without the value, and ratios over no revenue', () => {
    const statements = [month('01', { net_sales: 0, gross_profit: 0, net_income: 0 }), month('02', { net_sales: null, net_income: 5 })];
    expect(monthlyMetric('gross_profit_margin', statements)).toEqual([]);
    expect(monthlyMetric('total_revenue', statements).map((v) => v.value)).toEqual(['0.0000']);
    expect(monthlyMetric('cost_of_goods_sold', statements)).toEqual([]);
  });

  it('knows only the metrics it computes', () => {
    expect(isMetricName('net_income')).toBe(true);
    expect(isMetricName('ebitda')).toBe(false);
    expect(isMetricName('constructor')).toBe(false);
  });
});

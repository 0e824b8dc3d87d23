import { describe, expect, it } from 'vitest';
import { incomeStatementOf, sectionsTree } from './statements.ts';

const row = (name: string, value: number) => ({ account_id: '', name, value, items: [] });

describe('statement helpers', () => {
  it("make one tree of a part's sections: the section itself, a row over several, an empty row over none", () => {
    expect(sectionsTree('Income', [row('Sales', 10)])).toEqual(row('Sales', 10));
    expect(sectionsTree('Income', [row('Sales', 0.1), row('Other Income', 0.2)])).toEqual({
      account_id: '',
      name: 'Income',
      value: 0.3,
      items: [row('Sales', 0.1), row('Other Income', 0.2)],
    });
    expect(sectionsTree('Expenses', [])).toEqual(row('Expenses', 0));
  });

  it('take the totals from the trees and net_profit from net income', () => {
    const statement = incomeStatementOf({
      start_date: '2026-01-01T00:00:00.000Z',
      end_date: '2026-01-31T00:00:00.000Z',
      accounting_standard: 'accrual',
      currency_code: 'USD',
      gross_profit: 70,
      net_income: 50,
      net_operating_income: null,
      net_sales: 100,
      income: row('Income', 100),
      cost_of_sales: row('Cost', 30),
      expenses: row('Expenses', 20),
    });
    expect(statement).toMatchObject({
      total_income: 100,
      total_cost_of_sales: 30,
      total_expenses: 20,
      net_profit: 50,
      created_at: null,
      updated_at: null,
      platform_url: null,
    });
  });
});

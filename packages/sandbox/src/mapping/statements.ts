/** Income statements and cash flows: the native report rows as unified statement trees, amounts as numbers. */
import type { NativeCashFlow, NativeIncomeStatement, NativeReportRow } from '../native.ts';
import { day, money, type Mapped, type Ref } from './common.ts';

type Node = Mapped<'income_statement'>['income'];

function node(row: NativeReportRow, ref: Ref): Node {
  return {
    account_id: row.AccountId === undefined ? '' : (ref('account', row.AccountId) ?? ''),
    name: row.Name,
    value: money(row.Amount),
    items: row.Rows.map((child) => node(child, ref)),
  };
}

export function mapIncomeStatement(r: NativeIncomeStatement, ref: Ref): Mapped<'income_statement'> {
  return {
    start_date: day(r.PeriodStart),
    end_date: day(r.PeriodEnd),
    accounting_standard: 'accrual',
    currency_code: r.CurrencyCode,
    gross_profit: money(r.GrossProfit),
    net_income: money(r.NetIncome),
    total_cost_of_sales: money(r.TotalCostOfSales),
    total_expenses: money(r.TotalExpenses),
    total_income: money(r.TotalIncome),
    net_operating_income: money(r.NetOperatingIncome),
    net_profit: money(r.NetIncome),
    net_sales: money(r.NetSales),
    income: node(r.Income, ref),
    expenses: node(r.Expenses, ref),
    cost_of_sales: node(r.CostOfSales, ref),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapCashFlow(r: NativeCashFlow, ref: Ref): Mapped<'cash_flow_statement'> {
  return {
    start_date: day(r.PeriodStart),
    end_date: day(r.PeriodEnd),
    currency_code: r.CurrencyCode,
    starting_balance: money(r.StartingBalance),
    ending_balance: money(r.EndingBalance),
    total_financing: money(r.TotalFinancing),
    total_investing: money(r.TotalInvesting),
    total_operating: money(r.TotalOperating),
    gross_cash_in_flow: money(r.CashIn),
    gross_cash_out_flow: money(r.CashOut),
    financing_activities: node(r.Financing, ref),
    investing_activities: node(r.Investing, ref),
    operating_activities: node(r.Operating, ref),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

/**
 * What the connectors share when they turn a platform's profit and loss report into an income statement: the
 * sections of one part (income, cost of sales, expenses) as one tree, and the statement's totals from its trees.
 */
import type { IncomeStatement } from '../model/income-statement.ts';
import type { ReportNode } from '../model/report-tree.ts';

type Node = ReportNode<number>;

/** The sections found for one part of a statement: the section itself when there is one, else a row over them all. */
export function sectionsTree(name: string, sections: readonly Node[]): Node {
  const [only] = sections;
  if (sections.length === 1 && only !== undefined) return only;
  const cents = sections.reduce((sum, n) => sum + Math.round(n.value * 100), 0);
  return { account_id: '', name, value: cents / 100, items: [...sections] };
}

export type MappedIncomeStatement = Omit<IncomeStatement, 'id' | 'last_synced_at' | 'platform_data'>;

/** An income statement whose total_* are its trees' values and whose net_profit is its net income. */
export function incomeStatementOf(
  input: Pick<
    MappedIncomeStatement,
    | 'start_date'
    | 'end_date'
    | 'accounting_standard'
    | 'currency_code'
    | 'gross_profit'
    | 'net_income'
    | 'net_operating_income'
    | 'net_sales'
    | 'income'
    | 'expenses'
    | 'cost_of_sales'
  >,
): MappedIncomeStatement {
  return {
    ...input,
    total_cost_of_sales: input.cost_of_sales.value,
    total_expenses: input.expenses.value,
    total_income: input.income.value,
    net_profit: input.net_income,
    // A report has no creation or update time of its own (when it ran is not when the statement changed).
    created_at: null,
    updated_at: null,
    platform_url: null,
  };
}

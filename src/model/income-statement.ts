/**
 * Income statement (profit and loss): a monthly statement of income, cost of sales and expenses. Fields follow the
 * reference (docs/reference.md, "Objects"); amounts are JSON numbers where the reference has decimal text (spec,
 * Shared rules: "Amounts are JSON numbers").
 */
import { Type, type Static } from 'typebox';
import { reportTree, type ReportNode } from './report-tree.ts';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformUrlProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

/** A row of a statement whose amounts are numbers (income and cash flow statements). */
export type StatementNode = ReportNode<number>;

export const StatementNodeSchema = Type.Unsafe<StatementNode>(reportTree(() => Type.Number({ description: 'Value of the row.' })));

/** A statement total: a number, null when the platform does not give it. */
export function StatementTotal(what: string) {
  return Nullable(Type.Number({ description: `${what}.` }), `${what}; null when the platform does not give it.`);
}

export const ACCOUNTING_STANDARDS = ['cash', 'accrual', 'unknown'] as const;

export const IncomeStatementSchema = Type.Object(
  {
    id: IdProperty,
    start_date: Timestamp('First day of the statement period (ISO 8601).'),
    end_date: Timestamp('Last day of the statement period (ISO 8601).'),
    accounting_standard: StringEnum(ACCOUNTING_STANDARDS, 'Basis the statement was prepared on: cash, accrual or unknown.'),
    currency_code: Str('ISO 4217 code of the currency of the statement.'),
    gross_profit: StatementTotal('Net sales less the cost of sales'),
    net_income: StatementTotal('Total income less cost of sales and all expenses'),
    total_cost_of_sales: StatementTotal('Total cost of sales'),
    total_expenses: StatementTotal('Total expenses, operating and other'),
    total_income: StatementTotal('Total income, operating and other'),
    net_operating_income: StatementTotal('Gross profit less operating expenses'),
    net_profit: StatementTotal('Net profit (the net income)'),
    net_sales: StatementTotal('Operating income (sales)'),
    income: StatementNodeSchema,
    expenses: StatementNodeSchema,
    cost_of_sales: StatementNodeSchema,
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_url: PlatformUrlProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Monthly statement of the income, cost of sales and expenses of the business.' },
);

export type IncomeStatement = Static<typeof IncomeStatementSchema>;

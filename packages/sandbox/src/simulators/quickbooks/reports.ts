/**
 * GET reports/BalanceSheet, reports/ProfitAndLoss and reports/CashFlow from SANDBOX's monthly statements. QBO answers
 * one table: a row per account (sections for groups, a Summary with their total), a Money column per month of
 * start_date..end_date (summarize_column_by=Month) and a Total column. Each report is a layout of sections (a SANDBOX
 * statement tree, merged month by month: ../statement-trees.ts) and total-only rows, in QBO's order.
 */
import { formatCents, parseCents } from '../../money.ts';
import type { NativeOf, NativeReportRow } from '../../native.ts';
import type { SimulatorBooks } from '../kit.ts';
import { alignTrees, periods, type AlignedRow, type Period } from '../statement-trees.ts';
import { qboId, type Json } from './shapes.ts';

export { periods };

export class ReportError extends Error {}

/** How a row's Total column sums its months: flows add up, balances are the last month's (cash at the start the first's). */
type TotalRule = 'sum' | 'last' | 'first';

/** A section of a report: a SANDBOX statement tree, or a month's total alone or over sections of its own. */
interface Node<S> {
  group: string;
  title: string;
  tree?: (statement: S) => NativeReportRow;
  amount?: (statement: S) => string;
  rule?: TotalRule;
  children?: Node<S>[];
}

/** A report's rows for its months, and whether SANDBOX had any statement for it. */
type Layout = (books: SimulatorBooks, months: readonly Period[], byMonth: boolean) => Promise<{ rows: Json[]; empty: boolean }>;

/** A report's columns: the account, a Money column per month (none unless summarised by month), and the Total. */
export function reportColumns(months: readonly Omit<Period, 'month'>[]): Record<string, unknown>[] {
  return [
    { ColType: 'Account', ColTitle: '', MetaData: [{ Name: 'ColKey', Value: 'account' }] },
    ...months.map((p) => ({
      ColType: 'Money',
      ColTitle: p.title,
      MetaData: [
        { Name: 'StartDate', Value: p.start },
        { Name: 'EndDate', Value: p.end },
        { Name: 'ColKey', Value: p.title },
      ],
    })),
    { ColType: 'Money', ColTitle: 'Total', MetaData: [{ Name: 'ColKey', Value: 'total' }] },
  ];
}

function total(amounts: readonly (string | undefined)[], rule: TotalRule): string {
  const given = amounts.filter((a): a is string => a !== undefined);
  if (given.length === 0) return '';
  if (rule === 'last') return amounts.at(-1) ?? '';
  if (rule === 'first') return amounts[0] ?? '';
  return formatCents(given.reduce((sum, a) => sum + parseCents(a), 0));
}

/** The cells after the label: one per month (none when summarized as a total), then the total. */
function cells(amounts: readonly (string | undefined)[], rule: TotalRule, byMonth: boolean): Json[] {
  return [...(byMonth ? amounts.map((a) => ({ value: a ?? '' })) : []), { value: total(amounts, rule) }];
}

function section(label: Json, values: readonly Json[], rows: Json[], group?: string): Json {
  const out = {
    Header: { ColData: [label, ...values.map(() => ({ value: '' }))] },
    Rows: { Row: rows },
    Summary: { ColData: [{ value: `Total ${String(label.value)}` }, ...values] },
    type: 'Section',
  };
  return group === undefined ? out : { ...out, group };
}

function accountRow(row: AlignedRow, rule: TotalRule, byMonth: boolean): Json {
  const label = row.accountId === undefined ? { value: row.name } : { value: row.name, id: qboId(row.accountId) };
  const values = cells(row.amounts, rule, byMonth);
  if (row.children.length === 0) return { ColData: [label, ...values], type: 'Data' };
  return section(
    label,
    values,
    row.children.map((child) => accountRow(child, rule, byMonth)),
  );
}

function node<S>(n: Node<S>, statements: readonly (S | undefined)[], reportRule: TotalRule, byMonth: boolean): Json {
  const { tree, amount, children } = n;
  const rule = n.rule ?? reportRule;
  if (tree !== undefined) {
    const merged = alignTrees(
      n.title,
      statements.map((s) => (s === undefined ? undefined : tree(s))),
    );
    const rows = merged.children.map((child) => accountRow(child, rule, byMonth));
    return section({ value: n.title }, cells(merged.amounts, rule, byMonth), rows, n.group);
  }
  const values = cells(
    statements.map((s) => (s === undefined ? undefined : amount?.(s))),
    rule,
    byMonth,
  );
  if (children === undefined) return { Summary: { ColData: [{ value: n.title }, ...values] }, type: 'Section', group: n.group };
  return section(
    { value: n.title },
    values,
    children.map((child) => node(child, statements, reportRule, byMonth)),
    n.group,
  );
}

function layout<T extends 'balance_sheet' | 'income_statement' | 'cash_flow_statement'>(
  type: T,
  rule: TotalRule,
  nodes: Node<NativeOf[T]>[],
): Layout {
  return async (books, months, byMonth) => {
    const byKey = new Map((await books.all(type)).map((s) => [s.PeriodEnd.slice(0, 7), s]));
    const statements = months.map((p) => byKey.get(p.month));
    return { rows: nodes.map((n) => node(n, statements, rule, byMonth)), empty: byKey.size === 0 };
  };
}

/** Each report in QBO's order: the balance sheet nests Liabilities and Equity in one section. */
const REPORTS = {
  BalanceSheet: layout('balance_sheet', 'last', [
    { group: 'TotalAssets', title: 'ASSETS', tree: (s) => s.Assets },
    {
      group: 'TotalLiabilitiesAndEquity',
      title: 'LIABILITIES AND EQUITY',
      amount: (s) => formatCents(parseCents(s.TotalLiabilities) + parseCents(s.TotalEquity)),
      children: [
        { group: 'Liabilities', title: 'Liabilities', tree: (s) => s.Liabilities },
        { group: 'Equity', title: 'Equity', tree: (s) => s.Equity },
      ],
    },
  ]),
  ProfitAndLoss: layout('income_statement', 'sum', [
    { group: 'Income', title: 'Income', tree: (s) => s.Income },
    { group: 'COGS', title: 'Cost of Goods Sold', tree: (s) => s.CostOfSales },
    { group: 'GrossProfit', title: 'Gross Profit', amount: (s) => s.GrossProfit },
    { group: 'Expenses', title: 'Expenses', tree: (s) => s.Expenses },
    { group: 'NetOperatingIncome', title: 'Net Operating Income', amount: (s) => s.NetOperatingIncome },
    { group: 'NetIncome', title: 'Net Income', amount: (s) => s.NetIncome },
  ]),
  CashFlow: layout('cash_flow_statement', 'sum', [
    { group: 'OperatingActivities', title: 'OPERATING ACTIVITIES', tree: (s) => s.Operating },
    { group: 'InvestingActivities', title: 'INVESTING ACTIVITIES', tree: (s) => s.Investing },
    { group: 'FinancingActivities', title: 'FINANCING ACTIVITIES', tree: (s) => s.Financing },
    {
      group: 'CashIncrease',
      title: 'NET CASH INCREASE FOR PERIOD',
      amount: (s) => formatCents(parseCents(s.EndingBalance) - parseCents(s.StartingBalance)),
    },
    { group: 'BeginningCash', title: 'Cash at beginning of period', amount: (s) => s.StartingBalance, rule: 'first' },
    { group: 'EndingCash', title: 'CASH AT END OF PERIOD', amount: (s) => s.EndingBalance, rule: 'last' },
  ]),
} satisfies Record<string, Layout>;

export type ReportName = keyof typeof REPORTS;

export const isReportName = (name: string): name is ReportName => Object.hasOwn(REPORTS, name);

function date(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new ReportError(`${name} must be YYYY-MM-DD`);
  return value;
}

/**
 * What a report request asks for, within the column summaries and accounting methods the server answers; `methodsWhy`
 * tells a refused client why only those methods are kept.
 */
export function reportRequest(
  params: URLSearchParams,
  summaries: readonly string[],
  methods: readonly string[],
  methodsWhy = `only ${methods.join(' and ')} is served`,
): { start: string; end: string; summarize: string; method: string } {
  const start = date(params, 'start_date');
  const end = date(params, 'end_date');
  if (start > end) throw new ReportError('start_date must not be after end_date');
  const summarize = params.get('summarize_column_by') ?? 'Total';
  if (!summaries.includes(summarize)) throw new ReportError(`summarize_column_by ${summarize} is not supported`);
  const method = params.get('accounting_method') ?? 'Accrual';
  if (!methods.includes(method)) throw new ReportError(`accounting_method ${method}: ${methodsWhy}`);
  return { start, end, summarize, method };
}

export async function report(books: SimulatorBooks, name: ReportName, params: URLSearchParams, time: string): Promise<Json> {
  const { start, end, summarize, method } = reportRequest(params, ['Month', 'Total'], ['Accrual'], 'SANDBOX keeps its books on the accrual basis');
  const months = periods(start, end);
  const { rows, empty } = await REPORTS[name](books, months, summarize === 'Month');
  return {
    Header: {
      Time: time,
      ReportName: name,
      ...(name === 'CashFlow' ? {} : { ReportBasis: method }),
      StartPeriod: start,
      EndPeriod: end,
      SummarizeColumnsBy: summarize,
      Currency: books.company.currency,
      Option: [{ Name: 'NoReportData', Value: String(empty) }],
    },
    Columns: { Column: reportColumns(summarize === 'Month' ? months : []) },
    Rows: { Row: rows },
  };
}

/**
 * GET reports/BalanceSheet, reports/ProfitAndLoss and reports/CashFlow from SANDBOX's monthly statements. QBO answers
 * one table: a row per account (sections for groups, a Summary with their total), a Money column per month of
 * start_date..end_date (summarize_column_by=Month) and a Total column. SANDBOX keeps one tree per month, so the trees
 * are merged by account (or name) and each month's amount goes in its column; a month SANDBOX has no statement for,
 * or an account a month lacks, gets an empty cell (QBO's zero).
 */
import { formatCents, parseCents } from '../../money.ts';
import type { NativeReportRow } from '../../native.ts';
import type { SimulatorBooks } from '../kit.ts';
import { qboId, type Json } from './shapes.ts';

export class ReportError extends Error {}

export const REPORTS = ['BalanceSheet', 'ProfitAndLoss', 'CashFlow'] as const;
export type ReportName = (typeof REPORTS)[number];

export function isReportName(name: string): name is ReportName {
  return (REPORTS as readonly string[]).includes(name);
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface Period {
  title: string;
  start: string;
  end: string;
  /** YYYY-MM: the SANDBOX statement of the month. */
  month: string;
}

/** The months of a report from `start` to `end` (YYYY-MM-DD), each cut to the range: QuickBooks' SummarizeColumnsBy=Month. */
export function periods(start: string, end: string): Period[] {
  const out: Period[] = [];
  for (let cursor = new Date(`${start.slice(0, 7)}-01T00:00:00Z`); cursor.toISOString().slice(0, 10) <= end;) {
    const next = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1));
    const first = cursor.toISOString().slice(0, 10);
    const last = new Date(next.getTime() - 86_400_000).toISOString().slice(0, 10);
    out.push({
      title: `${MONTH_NAMES[cursor.getUTCMonth()] ?? ''} ${cursor.getUTCFullYear()}`,
      start: first < start ? start : first,
      end: last > end ? end : last,
      month: first.slice(0, 7),
    });
    cursor = next;
  }
  return out;
}

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

/** How a row's Total column sums its months: flows add up, balances are the last month's (cash at the start the first's). */
type TotalRule = 'sum' | 'last' | 'first';

/** One row of the merged table: an amount per month. */
interface Merged {
  name: string;
  accountId: string | undefined;
  group: string | undefined;
  amounts: (string | undefined)[];
  children: Merged[];
  rule: TotalRule;
}

function mergedRow(name: string, accountId: string | undefined, months: number, rule: TotalRule, group?: string): Merged {
  return { name, accountId, group, amounts: Array.from({ length: months }, () => undefined), children: [], rule };
}

/** Adds month `index` of a SANDBOX row (and its children) into the merged row. */
function mergeInto(target: Merged, row: NativeReportRow, index: number): void {
  target.amounts[index] = row.Amount;
  for (const child of row.Rows) {
    const key = child.AccountId ?? child.Name;
    let found = target.children.find((c) => (c.accountId ?? c.name) === key);
    if (found === undefined) {
      found = mergedRow(child.Name, child.AccountId, target.amounts.length, target.rule);
      target.children.push(found);
    }
    mergeInto(found, child, index);
  }
}

function total(row: Merged): string {
  const given = row.amounts.filter((a): a is string => a !== undefined);
  if (given.length === 0) return '';
  if (row.rule === 'last') return row.amounts.at(-1) ?? '';
  if (row.rule === 'first') return row.amounts[0] ?? '';
  return formatCents(given.reduce((sum, a) => sum + parseCents(a), 0));
}

/** The cells after the label: one per month (or none when summarized as a total), then the total. */
function cells(row: Merged, byMonth: boolean): Json[] {
  return [...(byMonth ? row.amounts.map((a) => ({ value: a ?? '' })) : []), { value: total(row) }];
}

function label(row: Merged): Json {
  return row.accountId === undefined ? { value: row.name } : { value: row.name, id: qboId(row.accountId) };
}

function render(row: Merged, byMonth: boolean): Json {
  if (row.children.length === 0 && row.group === undefined) return { ColData: [label(row), ...cells(row, byMonth)], type: 'Data' };
  const section: Json = {
    Header: { ColData: [label(row), ...cells(row, byMonth).map(() => ({ value: '' }))] },
    Rows: { Row: row.children.map((child) => render(child, byMonth)) },
    Summary: { ColData: [{ value: `Total ${row.name}` }, ...cells(row, byMonth)] },
    type: 'Section',
  };
  return row.group === undefined ? section : { ...section, group: row.group };
}

/** A total-only section (Gross Profit, Net Income, …): a Summary and no rows. */
function totalOnly(group: string, title: string, amounts: (string | undefined)[], rule: TotalRule, byMonth: boolean): Json {
  const row = { ...mergedRow(title, undefined, amounts.length, rule, group), amounts };
  return { Summary: { ColData: [{ value: title }, ...cells(row, byMonth)] }, type: 'Section', group };
}

interface Statement {
  month: string;
  sections: Record<string, NativeReportRow>;
  totals: Record<string, string>;
}

async function statements(books: SimulatorBooks, report: ReportName): Promise<Statement[]> {
  if (report === 'BalanceSheet') {
    return (await books.all('balance_sheet')).map((s) => ({
      month: s.PeriodEnd.slice(0, 7),
      sections: { Assets: s.Assets, Liabilities: s.Liabilities, Equity: s.Equity },
      totals: { LiabilitiesAndEquity: formatCents(parseCents(s.TotalLiabilities) + parseCents(s.TotalEquity)) },
    }));
  }
  if (report === 'ProfitAndLoss') {
    return (await books.all('income_statement')).map((s) => ({
      month: s.PeriodEnd.slice(0, 7),
      sections: { Income: s.Income, CostOfSales: s.CostOfSales, Expenses: s.Expenses },
      totals: { GrossProfit: s.GrossProfit, NetOperatingIncome: s.NetOperatingIncome, NetIncome: s.NetIncome },
    }));
  }
  return (await books.all('cash_flow_statement')).map((s) => ({
    month: s.PeriodEnd.slice(0, 7),
    sections: { Operating: s.Operating, Investing: s.Investing, Financing: s.Financing },
    totals: {
      CashIncrease: formatCents(parseCents(s.EndingBalance) - parseCents(s.StartingBalance)),
      BeginningCash: s.StartingBalance,
      EndingCash: s.EndingBalance,
    },
  }));
}

/** Section name in SANDBOX, QBO group, title; then the total-only rows. */
const LAYOUT: Readonly<Record<ReportName, { sections: [string, string, string][]; totals: [string, string, TotalRule][] }>> = {
  BalanceSheet: {
    sections: [
      ['Assets', 'TotalAssets', 'ASSETS'],
      ['Liabilities', 'Liabilities', 'Liabilities'],
      ['Equity', 'Equity', 'Equity'],
    ],
    totals: [],
  },
  ProfitAndLoss: {
    sections: [
      ['Income', 'Income', 'Income'],
      ['CostOfSales', 'COGS', 'Cost of Goods Sold'],
      ['Expenses', 'Expenses', 'Expenses'],
    ],
    totals: [
      ['GrossProfit', 'Gross Profit', 'sum'],
      ['NetOperatingIncome', 'Net Operating Income', 'sum'],
      ['NetIncome', 'Net Income', 'sum'],
    ],
  },
  CashFlow: {
    sections: [
      ['Operating', 'OperatingActivities', 'OPERATING ACTIVITIES'],
      ['Investing', 'InvestingActivities', 'INVESTING ACTIVITIES'],
      ['Financing', 'FinancingActivities', 'FINANCING ACTIVITIES'],
    ],
    totals: [
      ['CashIncrease', 'NET CASH INCREASE FOR PERIOD', 'sum'],
      ['BeginningCash', 'Cash at beginning of period', 'first'],
      ['EndingCash', 'CASH AT END OF PERIOD', 'last'],
    ],
  },
};

/** QBO's order: the balance sheet nests Liabilities and Equity in one section, profit and loss has Gross Profit after COGS. */
function arrange(name: ReportName, sections: Json[], totals: Json[], liabilitiesAndEquity: Json): Json[] {
  if (name === 'BalanceSheet') {
    const [assets = {}, ...rest] = sections;
    return [assets, { ...liabilitiesAndEquity, Rows: { Row: rest } }];
  }
  if (name === 'ProfitAndLoss') {
    const [income, cogs, expenses] = sections;
    const [gross, operating, net] = totals;
    return [income, cogs, gross, expenses, operating, net].filter((r): r is Json => r !== undefined);
  }
  return [...sections, ...totals];
}

function date(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new ReportError(`${name} must be YYYY-MM-DD`);
  return value;
}

export async function report(books: SimulatorBooks, name: ReportName, params: URLSearchParams, time: string): Promise<Json> {
  const start = date(params, 'start_date');
  const end = date(params, 'end_date');
  if (start > end) throw new ReportError('start_date must not be after end_date');
  const summarize = params.get('summarize_column_by') ?? 'Total';
  if (summarize !== 'Month' && summarize !== 'Total') throw new ReportError(`summarize_column_by ${summarize} is not supported`);
  const method = params.get('accounting_method') ?? 'Accrual';
  if (method !== 'Accrual') throw new ReportError(`accounting_method ${method}: SANDBOX keeps its books on the accrual basis`);
  const byMonth = summarize === 'Month';
  const months = periods(start, end);
  const byMonthKey = new Map((await statements(books, name)).map((s) => [s.month, s]));
  const rule: TotalRule = name === 'BalanceSheet' ? 'last' : 'sum';
  const layout = LAYOUT[name];
  const sections = layout.sections.map(([key, group, title]) => {
    const merged = mergedRow(title, undefined, months.length, rule, group);
    months.forEach((p, index) => {
      const row = byMonthKey.get(p.month)?.sections[key];
      if (row !== undefined) mergeInto(merged, row, index);
    });
    return merged;
  });
  const totals = layout.totals.map(([key, title, totalRule]) =>
    totalOnly(
      key,
      title,
      months.map((p) => byMonthKey.get(p.month)?.totals[key]),
      totalRule,
      byMonth,
    ),
  );
  const liabilitiesAndEquity: Merged = {
    ...mergedRow('LIABILITIES AND EQUITY', undefined, months.length, rule, 'TotalLiabilitiesAndEquity'),
    amounts: months.map((p) => byMonthKey.get(p.month)?.totals.LiabilitiesAndEquity),
  };
  const rows = arrange(
    name,
    sections.map((s) => render(s, byMonth)),
    totals,
    render(liabilitiesAndEquity, byMonth),
  );
  return {
    Header: {
      Time: time,
      ReportName: name,
      ...(name === 'CashFlow' ? {} : { ReportBasis: method }),
      StartPeriod: start,
      EndPeriod: end,
      SummarizeColumnsBy: summarize,
      Currency: books.company.currency,
      Option: [{ Name: 'NoReportData', Value: String(byMonthKey.size === 0) }],
    },
    Columns: {
      Column: reportColumns(byMonth ? months : []),
    },
    Rows: { Row: rows },
  };
}

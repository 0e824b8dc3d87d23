/**
 * The BalanceSheet, ProfitAndLoss and CashFlow reports, each read once with a
 * column per month (summarize_column_by=Month), parsed, split into one record
 * per month, and each month mapped to the unified statement.
 */
import type { QboColData, QboReport, QboReportColumn, QboReportRow } from '../generated/native.ts';
import type { ReportNode } from '../../../model/report-tree.ts';
import { incomeStatementOf, sectionsTree } from '../../statements.ts';
import { ACCOUNTING_STANDARDS } from '../../../model/income-statement.ts';
import { day, modelValue, type MapContext, type Mapped } from './common.ts';
import { isRecord, record, records } from '../../readers.ts';

/**
 * One month of a report (BalanceSheet, ProfitAndLoss, CashFlow) as the connector stores it: the report's header and
 * rows with the values of that month's column only (the one record of QBO's the connector composes itself).
 */
export interface QboReportMonth {
  Id: string;
  StartDate: string;
  EndDate: string;
  Currency: string;
  /** Accrual or Cash, as the report's header says. */
  ReportBasis?: string;
  Rows: QboReportRow[];
}

/** The fields of `names` that are strings in `value`, in that order; the rest is left out. */
function stringFields<N extends string>(value: unknown, names: readonly N[]): Partial<Record<N, string>> {
  const raw = record(value) ?? {};
  const picked: Partial<Record<N, string>> = {};
  for (const name of names) {
    const field = raw[name];
    if (typeof field === 'string') picked[name] = field;
  }
  return picked;
}

/** A row's cells as `pick` keeps them (all of them when the answer is parsed, a month's when it is split). */
type Cells = (cells: QboColData[]) => QboColData[];

function cellsOf(value: unknown, pick: Cells): QboColData[] | undefined {
  const cells = record(value)?.ColData;
  return Array.isArray(cells) ? pick(cells.map((cell) => stringFields(cell, ['value', 'id']))) : undefined;
}

function rowsOf(value: unknown, pick: Cells = (cells) => cells): QboReportRow[] {
  return records(record(value)?.Row).map((raw) => rowOf(raw, pick));
}

function rowOf(raw: Record<string, unknown>, pick: Cells): QboReportRow {
  const [header, data, summary] = [cellsOf(raw.Header, pick), cellsOf(raw, pick), cellsOf(raw.Summary, pick)];
  return {
    ...(raw.type === 'Section' || raw.type === 'Data' ? { type: raw.type } : {}),
    ...stringFields(raw, ['group']),
    ...(header === undefined ? {} : { Header: { ColData: header } }),
    ...(data === undefined ? {} : { ColData: data }),
    ...(isRecord(raw.Rows) ? { Rows: { Row: rowsOf(raw.Rows, pick) } } : {}),
    ...(summary === undefined ? {} : { Summary: { ColData: summary } }),
  };
}

const HEADER = ['ReportName', 'Time', 'StartPeriod', 'EndPeriod', 'Currency', 'ReportBasis', 'SummarizeColumnsBy'] as const;

/** A report answer parsed into the shapes the connector reads (anything else in it is left out). */
export function parseReport(body: Record<string, unknown>): QboReport {
  const columns = records(record(body.Columns)?.Column).map((column): QboReportColumn => ({
    MetaData: records(column.MetaData).flatMap((m) =>
      typeof m.Name === 'string' && typeof m.Value === 'string' ? [{ Name: m.Name, Value: m.Value }] : [],
    ),
    ...stringFields(column, ['ColTitle', 'ColType']),
  }));
  return { Header: stringFields(body.Header, HEADER), Columns: { Column: columns }, Rows: { Row: rowsOf(body.Rows) } };
}

function meta(column: QboReportColumn, name: string): string | undefined {
  return column.MetaData?.find((m) => m.Name === name)?.Value;
}

/** One record per month column of the report (the trailing Total column is not a month). */
export function splitReport(report: QboReport): QboReportMonth[] {
  const columns = report.Columns?.Column ?? [];
  const currency = report.Header?.Currency ?? 'USD';
  const months: QboReportMonth[] = [];
  columns.forEach((column, index) => {
    const start = meta(column, 'StartDate');
    const end = meta(column, 'EndDate');
    if (index === 0 || start === undefined || end === undefined) return;
    months.push({
      Id: start.slice(0, 7),
      StartDate: start,
      EndDate: end,
      Currency: currency,
      ...(report.Header?.ReportBasis === undefined ? {} : { ReportBasis: report.Header.ReportBasis }),
      // The label cell and the month's.
      Rows: rowsOf(report.Rows, (cells) => [cells[0] ?? {}, cells[index] ?? {}]),
    });
  });
  return months;
}

/** A stored month record (platform_data) read back. */
export function reportMonth(raw: Record<string, unknown>): QboReportMonth {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    Id: text(raw.Id),
    StartDate: text(raw.StartDate),
    EndDate: text(raw.EndDate),
    Currency: text(raw.Currency),
    ...(typeof raw.ReportBasis === 'string' ? { ReportBasis: raw.ReportBasis } : {}),
    Rows: rowsOf({ Row: raw.Rows }),
  };
}

/** Report amounts as the model's numeric text: QBO leaves empty cells for zero. */
function numeric(value: string | undefined): string {
  const trimmed = (value ?? '').replace(/,/g, '').trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? trimmed : '0';
}

/** Amounts of the income and cash flow statements: numbers (spec, Shared rules). */
const amount = (value: string | undefined): number => Number(numeric(value));

/** The value cell of a row: a section's total (Summary, or Header for the total-only sections), or a data row's cell. */
function valueOf(row: QboReportRow): string | undefined {
  return row.Summary?.ColData?.[1]?.value ?? row.ColData?.[1]?.value ?? row.Header?.ColData?.[1]?.value;
}

function node<V>(row: QboReportRow, mc: MapContext, value: (text: string | undefined) => V): ReportNode<V> {
  const label = row.Header?.ColData?.[0] ?? row.ColData?.[0];
  return {
    account_id: mc.ref('account', label?.id) ?? '',
    name: label?.value ?? '',
    value: value(row.Summary?.ColData?.[1]?.value ?? row.ColData?.[1]?.value),
    items: (row.Rows?.Row ?? []).map((child) => node(child, mc, value)),
  };
}

function section(rows: readonly QboReportRow[], group: string): QboReportRow | undefined {
  for (const row of rows) {
    if (row.group === group) return row;
    const inner = section(row.Rows?.Row ?? [], group);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function sectionNode(rows: readonly QboReportRow[], group: string, name: string, mc: MapContext): ReportNode<string> {
  const row = section(rows, group);
  return row === undefined ? { account_id: '', name, value: '0', items: [] } : node(row, mc, numeric);
}

/** The sections of `groups` present in the report as one tree. */
function statementTree(rows: readonly QboReportRow[], groups: readonly string[], name: string, mc: MapContext): ReportNode<number> {
  return sectionsTree(
    name,
    groups.flatMap((group) => {
      const row = section(rows, group);
      return row === undefined ? [] : [node(row, mc, amount)];
    }),
  );
}

/** The total of a total-only section (Gross Profit, Net Income, …); null when the report has none. */
function totalOf(rows: readonly QboReportRow[], group: string): number | null {
  const row = section(rows, group);
  return row === undefined ? null : amount(valueOf(row));
}

/** A month of the ProfitAndLoss report: income (with other income), cost of goods sold, expenses (with other expenses). */
export function mapIncomeStatement(r: QboReportMonth, mc: MapContext): Mapped<'income_statement'> {
  return incomeStatementOf({
    ...period(r),
    accounting_standard: modelValue(ACCOUNTING_STANDARDS, r.ReportBasis),
    currency_code: r.Currency,
    gross_profit: totalOf(r.Rows, 'GrossProfit'),
    net_income: totalOf(r.Rows, 'NetIncome'),
    net_operating_income: totalOf(r.Rows, 'NetOperatingIncome'),
    net_sales: totalOf(r.Rows, 'Income'),
    income: statementTree(r.Rows, ['Income', 'OtherIncome'], 'Income', mc),
    expenses: statementTree(r.Rows, ['Expenses', 'OtherExpenses'], 'Expenses', mc),
    cost_of_sales: statementTree(r.Rows, ['COGS'], 'Cost of Goods Sold', mc),
  });
}

/** A month of the CashFlow report: the three activities, cash at the beginning and end; QBO gives no gross flows. */
export function mapCashFlow(r: QboReportMonth, mc: MapContext): Mapped<'cash_flow_statement'> {
  const operating = statementTree(r.Rows, ['OperatingActivities'], 'Operating Activities', mc);
  const investing = statementTree(r.Rows, ['InvestingActivities'], 'Investing Activities', mc);
  const financing = statementTree(r.Rows, ['FinancingActivities'], 'Financing Activities', mc);
  return {
    ...period(r),
    currency_code: r.Currency,
    starting_balance: totalOf(r.Rows, 'BeginningCash'),
    ending_balance: totalOf(r.Rows, 'EndingCash'),
    total_financing: financing.value,
    total_investing: investing.value,
    total_operating: operating.value,
    gross_cash_in_flow: null,
    gross_cash_out_flow: null,
    financing_activities: financing,
    investing_activities: investing,
    operating_activities: operating,
    created_at: null,
    updated_at: null,
    platform_url: null,
  };
}

function period(r: QboReportMonth): { start_date: string; end_date: string } {
  return { start_date: day(r.StartDate) ?? `${r.Id}-01T00:00:00.000Z`, end_date: day(r.EndDate) ?? `${r.Id}-28T00:00:00.000Z` };
}

export function mapBalanceSheet(r: QboReportMonth, mc: MapContext): Mapped<'balance_sheet'> {
  const assets = sectionNode(r.Rows, 'TotalAssets', 'Assets', mc);
  const liabilities = sectionNode(r.Rows, 'Liabilities', 'Liabilities', mc);
  const equity = sectionNode(r.Rows, 'Equity', 'Equity', mc);
  return {
    ...period(r),
    currency_code: r.Currency,
    total_assets: assets.value,
    total_equity: equity.value,
    total_liabilities: liabilities.value,
    assets,
    equity,
    liabilities,
    // A report has no creation or update time of its own (the report's Time is when it was run).
    created_at: null,
    updated_at: null,
  };
}

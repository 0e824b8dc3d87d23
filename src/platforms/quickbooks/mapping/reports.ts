/**
 * The BalanceSheet report, read once with a column per month
 * (summarize_column_by=Month), split into one record per month, and each
 * month mapped to the unified statement tree.
 */
import type { QboBalanceSheetMonth, QboColData, QboReport, QboReportColumn, QboReportRow } from '../native.ts';
import { day, type MapContext, type Mapped } from './common.ts';

function meta(column: QboReportColumn, name: string): string | undefined {
  return column.MetaData?.find((m) => m.Name === name)?.Value;
}

/** The row with only the label cell and cell `index`, at every depth. */
function rowAt(row: QboReportRow, index: number): QboReportRow {
  const cells = (data: QboColData[] | undefined): QboColData[] | undefined => (data === undefined ? undefined : [data[0] ?? {}, data[index] ?? {}]);
  const out: QboReportRow = {};
  if (row.type !== undefined) out.type = row.type;
  if (row.group !== undefined) out.group = row.group;
  if (row.Header !== undefined) out.Header = { ColData: cells(row.Header.ColData) ?? [] };
  if (row.ColData !== undefined) out.ColData = cells(row.ColData) ?? [];
  if (row.Rows !== undefined) out.Rows = { Row: (row.Rows.Row ?? []).map((child) => rowAt(child, index)) };
  if (row.Summary !== undefined) out.Summary = { ColData: cells(row.Summary.ColData) ?? [] };
  return out;
}

/** One record per month column of the report (the trailing Total column is not a month). */
export function splitBalanceSheet(report: QboReport): QboBalanceSheetMonth[] {
  const columns = report.Columns?.Column ?? [];
  const rows = report.Rows?.Row ?? [];
  const currency = report.Header?.Currency ?? 'USD';
  const months: QboBalanceSheetMonth[] = [];
  columns.forEach((column, index) => {
    const start = meta(column, 'StartDate');
    const end = meta(column, 'EndDate');
    if (index === 0 || start === undefined || end === undefined) return;
    months.push({ Id: start.slice(0, 7), StartDate: start, EndDate: end, Currency: currency, Rows: rows.map((row) => rowAt(row, index)) });
  });
  return months;
}

/** A stored month record (platform_data) read back. */
export function balanceSheetMonth(raw: Record<string, unknown>): QboBalanceSheetMonth {
  const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    Id: textOf(raw.Id), StartDate: textOf(raw.StartDate), EndDate: textOf(raw.EndDate), Currency: textOf(raw.Currency),
    Rows: Array.isArray(raw.Rows) ? (raw.Rows as QboReportRow[]) : [],
  };
}

type Node = Mapped<'balance_sheet'>['assets'];

/** Report amounts as the model's numeric text: QBO leaves empty cells for zero. */
function numeric(value: string | undefined): string {
  const trimmed = (value ?? '').replace(/,/g, '').trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? trimmed : '0';
}

function node(row: QboReportRow, mc: MapContext): Node {
  const label = row.Header?.ColData?.[0] ?? row.ColData?.[0];
  const value = row.Summary?.ColData?.[1]?.value ?? row.ColData?.[1]?.value;
  return {
    account_id: mc.ref('account', label?.id) ?? '',
    name: label?.value ?? '',
    value: numeric(value),
    items: (row.Rows?.Row ?? []).map((child) => node(child, mc)),
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

function sectionNode(rows: readonly QboReportRow[], group: string, name: string, mc: MapContext): Node {
  const row = section(rows, group);
  return row === undefined ? { account_id: '', name, value: '0', items: [] } : node(row, mc);
}

export function mapBalanceSheet(r: QboBalanceSheetMonth, mc: MapContext): Mapped<'balance_sheet'> {
  const assets = sectionNode(r.Rows, 'TotalAssets', 'Assets', mc);
  const liabilities = sectionNode(r.Rows, 'Liabilities', 'Liabilities', mc);
  const equity = sectionNode(r.Rows, 'Equity', 'Equity', mc);
  return {
    start_date: day(r.StartDate) ?? `${r.Id}-01T00:00:00.000Z`,
    end_date: day(r.EndDate) ?? `${r.Id}-28T00:00:00.000Z`,
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

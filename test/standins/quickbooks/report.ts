/**
 * GET /reports/BalanceSheet, /reports/ProfitAndLoss and /reports/CashFlow from
 * the recorded reports (one Total column each). With summarize_column_by=Month
 * a report has a Money column per month of start_date..end_date (MetaData
 * StartDate, EndDate, ColKey) and a Total column, as QBO answers; every month
 * shows the recorded values (the stand-in keeps no ledger), the Total column too.
 */
import { isJson, type Json } from './fixtures.ts';
// The months and columns of a report by month: one layout for the stand-in and the simulator.
import { periods as reportPeriods, reportColumns } from '../../../packages/sandbox/src/simulators/quickbooks/reports.ts';

export class ReportError extends Error {}

const SUMMARIZE = new Set(['Total', 'Month', 'Week', 'Days', 'Quarter', 'Year']);
const METHODS = new Set(['Cash', 'Accrual']);

function date(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new ReportError(`${name} must be YYYY-MM-DD`);
  return value;
}

/** Repeats the value cell of every row once per period, then the total. */
function spread(row: Json, periods: number): Json {
  const out: Json = { ...row };
  const cells = (data: unknown): unknown[] => {
    if (!Array.isArray(data)) return [];
    const [label, value] = data as unknown[];
    return [label, ...Array.from({ length: periods }, () => structuredClone(value)), structuredClone(value)];
  };
  if (isJson(row.Header)) out.Header = { ...row.Header, ColData: cells(row.Header.ColData) };
  if (isJson(row.Summary)) out.Summary = { ...row.Summary, ColData: cells(row.Summary.ColData) };
  if (Array.isArray(row.ColData)) out.ColData = cells(row.ColData);
  if (isJson(row.Rows) && Array.isArray(row.Rows.Row)) out.Rows = { Row: row.Rows.Row.filter(isJson).map((child) => spread(child, periods)) };
  return out;
}

/** The reports the stand-in serves, by the name in the path. */
export const REPORT_NAMES = ['BalanceSheet', 'ProfitAndLoss', 'CashFlow'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export function isReportName(name: string | undefined): name is ReportName {
  return REPORT_NAMES.some((n) => n === name);
}

export function monthlyReport(recorded: Json, params: URLSearchParams, time: string): Json {
  const start = date(params, 'start_date');
  const end = date(params, 'end_date');
  if (start > end) throw new ReportError('start_date must not be after end_date');
  const summarize = params.get('summarize_column_by') ?? 'Total';
  if (!SUMMARIZE.has(summarize)) throw new ReportError(`summarize_column_by ${summarize} is not supported`);
  const method = params.get('accounting_method') ?? 'Accrual';
  if (!METHODS.has(method)) throw new ReportError(`accounting_method ${method} is not Cash or Accrual`);
  const header = isJson(recorded.Header) ? recorded.Header : {};
  const report: Json = {
    Header: { ...header, Time: time, StartPeriod: start, EndPeriod: end, ReportBasis: method, SummarizeColumnsBy: summarize, DateMacro: undefined },
    Columns: recorded.Columns,
    Rows: recorded.Rows,
  };
  if (summarize !== 'Month') return report;
  const periods = reportPeriods(start, end);
  const rows = isJson(recorded.Rows) && Array.isArray(recorded.Rows.Row) ? recorded.Rows.Row.filter(isJson) : [];
  report.Columns = { Column: reportColumns(periods) };
  report.Rows = { Row: rows.map((row) => spread(row, periods.length)) };
  return report;
}

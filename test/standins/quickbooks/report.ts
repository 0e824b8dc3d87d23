/**
 * GET /reports/BalanceSheet, /reports/ProfitAndLoss and /reports/CashFlow from
 * the recorded reports (one Total column each). With summarize_column_by=Month
 * a report has a Money column per month of start_date..end_date (MetaData
 * StartDate, EndDate, ColKey) and a Total column, as QBO answers; every month
 * shows the recorded values (the stand-in keeps no ledger), the Total column too.
 */
import { isJson, type Json } from './fixtures.ts';
// The months and columns of a report by month: one layout for the stand-in and the simulator.
import { periods as reportPeriods, reportColumns, reportRequest } from '../../../packages/sandbox/src/simulators/quickbooks/reports.ts';

// The stand-in serves the simulator's reports, by the name in the path.
export { isReportName, ReportError, type ReportName } from '../../../packages/sandbox/src/simulators/quickbooks/reports.ts';

/** QBO's column summaries and accounting methods. */
const SUMMARIZE = ['Total', 'Month', 'Week', 'Days', 'Quarter', 'Year'];
const METHODS = ['Cash', 'Accrual'];

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

export function monthlyReport(recorded: Json, params: URLSearchParams, time: string): Json {
  const { start, end, summarize, method } = reportRequest(params, SUMMARIZE, METHODS);
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

/**
 * Xero's BalanceSheet and ProfitAndLoss reports from SANDBOX's monthly statements, one value column per month (newest
 * first, as Xero lays out `periods` with `timeframe=MONTH`). Xero's layout is flat: a heading section per group, a
 * titled section per sub-group with its account rows and total row, an untitled section with the group's total, and
 * untitled one-line sections (Gross Profit, Net Profit). A month without a SANDBOX statement reads as zeros.
 */
import { formatCents, parseCents } from '../../money.ts';
import type { NativeBalanceSheet, NativeIncomeStatement, NativeReportRow } from '../../native.ts';
import { leaves, mergedRows, monthEnds } from '../statement-columns.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { msDate } from './dates.ts';
import type { Json } from './view.ts';

/** Xero's account id of rows that stand for no account (Current Year Earnings). */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

const label = (end: string): string => new Date(`${end}T00:00:00Z`).toUTCString().slice(5, 16);

/** Per column, the rows a section shows and its total. */
interface Part {
  rows: NativeReportRow[];
  total: number;
}

function cell(value: string, accountId: string | undefined): Json {
  return { Value: value, ...(accountId === undefined ? {} : { Attributes: [{ Value: accountId, Id: 'account' }] }) };
}

/** A titled section of account rows aligned across the columns, and its total row. */
function section(title: string, totalLabel: string | null, columns: readonly Part[]): Json {
  const rows: Json[] = mergedRows(columns.map((part) => part.rows)).map(({ row, amounts }) => {
    const id = row.AccountId === undefined ? NO_ACCOUNT : uuidOfId(row.AccountId);
    return { RowType: 'Row', Cells: [cell(row.Name, id), ...amounts.map((a) => cell(formatCents(parseCents(a ?? '0.00')), id))] };
  });
  if (totalLabel !== null)
    rows.push({ RowType: 'SummaryRow', Cells: [{ Value: totalLabel }, ...columns.map((p) => ({ Value: formatCents(p.total) }))] });
  return { RowType: 'Section', Title: title, Rows: rows };
}

/** An untitled section of one line (Gross Profit) or one total row (Total Assets). */
function line(name: string, totals: readonly number[], rowType: 'Row' | 'SummaryRow'): Json {
  return { RowType: 'Section', Title: '', Rows: [{ RowType: rowType, Cells: [{ Value: name }, ...totals.map((t) => ({ Value: formatCents(t) }))] }] };
}

const header = (ends: readonly string[]): Json => ({ RowType: 'Header', Cells: [{ Value: '' }, ...ends.map((e) => ({ Value: label(e) }))] });

function report(id: string, name: string, titles: string[], updated: readonly string[], rows: Json[]): Json {
  const newest = updated.reduce((a, b) => (a > b ? a : b), '1970-01-01T00:00:00.000Z');
  return {
    ReportID: id,
    ReportName: name,
    ReportType: id,
    ReportTitles: titles,
    ReportDate: label(new Date().toISOString().slice(0, 10)),
    UpdatedDateUTC: msDate(newest),
    Fields: [],
    Rows: rows,
  };
}

/** A balance sheet group (Assets) as Xero lays it out: its own accounts, a section per sub-group, its total. */
function balanceGroup(title: string, trees: readonly (NativeReportRow | undefined)[]): Json[] {
  const subgroups = new Set<string>();
  for (const tree of trees) for (const row of tree?.Rows ?? []) if (row.Kind === 'Group') subgroups.add(row.Name);
  const own = trees.map((tree) => ({ rows: (tree?.Rows ?? []).filter((r) => r.Kind !== 'Group'), total: 0 }));
  const parts = [...subgroups].map((name) =>
    section(
      name,
      `Total ${name}`,
      trees.map((tree) => {
        const group = tree?.Rows.find((r) => r.Kind === 'Group' && r.Name === name);
        return { rows: group === undefined ? [] : leaves(group), total: parseCents(group?.Amount ?? '0.00') };
      }),
    ),
  );
  const totals = trees.map((tree) => parseCents(tree?.Amount ?? '0.00'));
  return [section(title, null, own), ...parts, line(`Total ${title}`, totals, 'SummaryRow')];
}

export function balanceSheetReport(sheets: readonly NativeBalanceSheet[], company: string, date: string, periods: number): Json {
  const ends = monthEnds(date, periods + 1);
  const columns = ends.map((end) => sheets.find((s) => s.PeriodEnd === end));
  const assets = columns.map((c) => c?.Assets);
  const liabilities = columns.map((c) => c?.Liabilities);
  const equity = columns.map((c) => c?.Equity);
  const net = columns.map((c) => (c === undefined ? 0 : parseCents(c.TotalAssets) - parseCents(c.TotalLiabilities)));
  const rows = [
    header(ends),
    ...balanceGroup('Assets', assets),
    ...balanceGroup('Liabilities', liabilities),
    line('Net Assets', net, 'Row'),
    ...balanceGroup('Equity', equity),
  ];
  const updated = columns.flatMap((c) => (c === undefined ? [] : [c.UpdatedAt]));
  return report('BalanceSheet', 'Balance Sheet', ['Balance Sheet', company, `As at ${label(ends[0] ?? date)}`], updated, rows);
}

const isOther = (row: NativeReportRow): boolean => /other/i.test(row.Name);

/** Rows of a statement part, split by whether they are "other" (Other Income) or not, with their total. */
function split(tree: NativeReportRow | undefined, other: boolean): Part {
  const groups = (tree?.Rows ?? []).filter((r) => isOther(r) === other);
  return { rows: groups.flatMap(leaves), total: groups.reduce((t, r) => t + parseCents(r.Amount), 0) };
}

const whole = (tree: NativeReportRow | undefined): Part => ({
  rows: tree === undefined ? [] : leaves(tree),
  total: parseCents(tree?.Amount ?? '0.00'),
});

export function profitAndLossReport(statements: readonly NativeIncomeStatement[], company: string, fromDate: string, periods: number): Json {
  const ends = monthEnds(fromDate, periods + 1);
  const columns = ends.map((end) => statements.find((s) => s.PeriodEnd === end));
  const amount = (pick: (s: NativeIncomeStatement) => string): number[] => columns.map((c) => (c === undefined ? 0 : parseCents(pick(c))));
  const income = columns.map((c) => split(c?.Income, false));
  const otherIncome = columns.map((c) => split(c?.Income, true));
  const costOfSales = columns.map((c) => whole(c?.CostOfSales));
  const expenses = columns.map((c) => whole(c?.Expenses));
  const grossProfit = amount((s) => s.GrossProfit);
  const netProfit = amount((s) => s.NetIncome);
  const rows = [
    header(ends),
    section('Income', 'Total Income', income),
    section('Less Cost of Sales', 'Total Cost of Sales', costOfSales),
    line('Gross Profit', grossProfit, 'Row'),
    section('Plus Other Income', 'Total Other Income', otherIncome),
    section('Less Operating Expenses', 'Total Operating Expenses', expenses),
    line('Net Profit', netProfit, 'Row'),
  ];
  const first = ends[ends.length - 1] ?? fromDate;
  const updated = columns.flatMap((c) => (c === undefined ? [] : [c.UpdatedAt]));
  return report('ProfitAndLoss', 'Profit and Loss', ['Profit & Loss', company, `${label(first)} to ${label(ends[0] ?? fromDate)}`], updated, rows);
}

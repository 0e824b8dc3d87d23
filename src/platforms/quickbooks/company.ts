/** The company itself (CompanyInfo and its home currency from Preferences) and the monthly reports. */
import type { AccountIdentity, ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { callQbo, preferences, realmOf } from './client.ts';
import { parseEntity } from './contract.ts';
import { parseReport, splitReport } from './mapping/reports.ts';
import type { QboCompanyInfo } from './generated/native.ts';

async function realm(ctx: ConnectorContext): Promise<string> {
  const tokens = ctx.oauth === null ? ctx.tokens : await ctx.oauth.tokens();
  if (tokens === null)
    throw new PlatformError({
      kind: 'unauthorized',
      message: 'This connection has no OAuth tokens: the end user must link it first.',
      requestSent: false,
    });
  return realmOf(tokens);
}

async function companyInfo(ctx: ConnectorContext): Promise<QboCompanyInfo> {
  const id = await realm(ctx);
  const body = await callQbo(ctx, { method: 'GET', path: `companyinfo/${encodeURIComponent(id)}`, operation: 'read CompanyInfo' });
  if (body.CompanyInfo === undefined) throw new Error('QuickBooks Online answered companyinfo without a CompanyInfo');
  return parseEntity('CompanyInfo', body.CompanyInfo);
}

/** store_unique_id is the realm (company) id; the name is the company's. */
export async function identify(ctx: ConnectorContext): Promise<AccountIdentity> {
  const info = await companyInfo(ctx);
  return { storeUniqueId: await realm(ctx), storeName: info.CompanyName ?? info.LegalName ?? null };
}

/**
 * One record: CompanyInfo, with Preferences' home currency copied in as
 * HomeCurrency (CompanyInfo does not carry the currency).
 */
export async function readCompany(ctx: ConnectorContext): Promise<ReadPage> {
  const info = await companyInfo(ctx);
  const home = (await preferences(ctx))?.CurrencyPrefs?.HomeCurrency;
  const raw = { ...info, ...(home === undefined ? {} : { HomeCurrency: home }) };
  return { records: [{ platformId: info.Id, raw }], nextPageToken: null, nextSince: null };
}

/** Months read when the sync has no window (all history): two years of monthly statements. */
export const REPORT_MONTHS = 24;
/** The most months one read asks for. */
export const MAX_REPORT_MONTHS = 120;

/** A month as a number (year × 12 + month), for arithmetic on months. */
const monthOf = (date: Date): number => date.getUTCFullYear() * 12 + date.getUTCMonth();

/** YYYY-MM-DD of a day of a month number (day 0: the last day of the month before). */
const ymd = (month: number, day: number): string => new Date(Date.UTC(Math.floor(month / 12), month % 12, day)).toISOString().slice(0, 10);

/** The months of the window (clamped to the current month and MAX_REPORT_MONTHS), as a report date range. */
export function reportRange(window: ReadRequest['window'], now: Date): { start: string; end: string } {
  const current = monthOf(now);
  const end = window === null ? current : Math.min(current, monthOf(new Date(Date.parse(window.end) - 1)));
  const wanted = window === null ? end - (REPORT_MONTHS - 1) : monthOf(new Date(window.start));
  const start = Math.max(end - (MAX_REPORT_MONTHS - 1), wanted);
  return { start: ymd(start, 1), end: ymd(end + 1, 0) };
}

/** The reports read as monthly statements; ProfitAndLoss and BalanceSheet on the accrual basis (CashFlow has no basis). */
export type MonthlyReport = 'BalanceSheet' | 'ProfitAndLoss' | 'CashFlow';

/** A report with a column per month, one record per month (platform id YYYY-MM). */
export async function readMonthlyReport(
  ctx: ConnectorContext,
  request: ReadRequest,
  report: MonthlyReport,
  now: Date = new Date(),
): Promise<ReadPage> {
  const range = reportRange(request.window, now);
  if (range.start > range.end) return { records: [], nextPageToken: null, nextSince: null };
  const body = await callQbo(ctx, {
    method: 'GET',
    path: `reports/${report}`,
    operation: `report ${report}`,
    query: {
      start_date: range.start,
      end_date: range.end,
      summarize_column_by: 'Month',
      ...(report === 'CashFlow' ? {} : { accounting_method: 'Accrual' }),
    },
  });
  const records: PlatformRecord[] = splitReport(parseReport(body)).map((month) => ({ platformId: month.Id, raw: { ...month } }));
  return { records, nextPageToken: null, nextSince: null };
}

/**
 * Reading Xero lists: the paged endpoints (100 records a page, line items included only when paging) are read in
 * UpdatedDateUTC order by keyset, not by page number: each page asks If-Modified-Since the newest UpdatedDateUTC of
 * the page before (less 1 ms, whether Xero counts the bound in or not) and page 1 of that. A record changed mid-read
 * gets an UpdatedDateUTC later than everything read so far, so it moves ahead of the reader and is read again; with
 * page numbers, a record of an earlier page moving to the end shifted the next page by one and one record was never
 * read (a reviewer's run stored 249 of 250 bills, and incremental reads never fetched the one missing). More than a
 * page of records at one UpdatedDateUTC (a bulk import) is paged by number within that instant. Incremental reads
 * start at the cursor, taken from the newest UpdatedDateUTC seen (Xero's clock, not ours); date windows are a `where`
 * clause. Records Xero reports DELETED come back as tombstones.
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { listOf, XERO_PAGE_SIZE, xeroCall } from './client.ts';
import { whereDate, xeroMillis } from './dates.ts';
import type { XeroAccount, XeroAccountRef, XeroJournalLine, XeroLineItem, XeroLists, XeroOrganisation } from './types.ts';
import { perJob } from '../per-job.ts';

export interface XeroList<K extends keyof XeroLists> {
  /** The answer's list key ("Invoices"), also its endpoint (/Invoices). */
  key: K;
  /** Paged in UpdatedDateUTC order and read incrementally (If-Modified-Since the cursor); else read whole each time. */
  paged?: true;
  /** A fixed filter in Xero's where syntax (`Type=="ACCPAY"`). */
  where?: string;
  /** Honours the read's window with a `where` on Date. */
  dated?: boolean;
  query?: Record<string, string | boolean>;
  /** Xero's records of one page as platform records (tombstones, one record per option, …). */
  records(items: XeroLists[K][], ctx: ConnectorContext): Promise<PlatformRecord[]> | PlatformRecord[];
}

/** Where a paged read continues: the lower bound it asks from (ms), the page within it, and the newest UpdatedDateUTC seen. */
interface Cursor {
  after: number | null;
  page: number;
  newest: number | null;
}

const KEYSET = 'k1';

/** A number of a page token's part; null when empty or no number. */
export const tokenNumber = (text: string | undefined): number | null =>
  text === undefined || text === '' || !Number.isFinite(Number(text)) ? null : Number(text);

function parseToken(token: string | null): Cursor {
  if (token === null) return { after: null, page: 1, newest: null };
  const parts = token.split(':');
  if (parts[0] === KEYSET) return { after: tokenNumber(parts[1]), page: tokenNumber(parts[2]) ?? 1, newest: tokenNumber(parts[3]) };
  // A read paged by number before this version: everything up to its newest UpdatedDateUTC was read in order, so the
  // keyset continues from there.
  const newest = tokenNumber(parts[1]);
  return { after: newest === null ? null : newest - 1, page: 1, newest };
}

const tokenOf = (cursor: Cursor): string => `${KEYSET}:${cursor.after ?? ''}:${cursor.page}:${cursor.newest ?? ''}`;

/** The first midnight at or after an ISO time: a record dated that day or later is inside the window. */
function ceilDay(iso: string): string {
  const at = Date.parse(iso);
  const day = new Date(at);
  day.setUTCHours(0, 0, 0, 0);
  if (day.getTime() < at) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString();
}

export function whereOf(fixed: string | undefined, window: ReadRequest['window']): string | undefined {
  const parts = fixed === undefined ? [] : [fixed];
  if (window !== null) {
    parts.push(`Date>=${whereDate(ceilDay(window.start))}`);
    if (Date.parse(window.end) < Date.parse('9999-01-01T00:00:00Z')) parts.push(`Date<${whereDate(ceilDay(window.end))}`);
  }
  return parts.length === 0 ? undefined : parts.join(' && ');
}

/** A record, or its tombstone when Xero reports it in one of `gone` statuses. */
export function recordOf(
  platformId: string | undefined,
  raw: object,
  status: string | undefined,
  gone: readonly string[] = ['DELETED'],
): PlatformRecord {
  return {
    platformId: platformId ?? '',
    raw: { ...raw },
    ...(status !== undefined && gone.includes(status) ? { deleted: true } : {}),
  };
}

export async function readList<K extends keyof XeroLists>(ctx: ConnectorContext, request: ReadRequest, list: XeroList<K>): Promise<ReadPage> {
  const cursor = parseToken(request.pageToken);
  const paged = list.paged === true;
  const since = paged ? request.since : null;
  const from = paged && cursor.after !== null ? new Date(cursor.after).toISOString() : since;
  const response = await xeroCall(ctx, {
    method: 'GET',
    path: `/${list.key}`,
    since: from,
    operation: `list ${list.key}`,
    query: {
      ...list.query,
      ...(paged ? { page: cursor.page, order: 'UpdatedDateUTC ASC' } : {}),
      where: whereOf(list.where, list.dated === true ? request.window : null),
    },
  });
  const items = listOf(response, list.key);
  let pageNewest: number | null = null;
  for (const item of items) {
    const updated = 'UpdatedDateUTC' in item ? xeroMillis(item.UpdatedDateUTC) : null;
    if (updated !== null && (pageNewest === null || updated > pageNewest)) pageNewest = updated;
  }
  const newest = pageNewest === null || (cursor.newest !== null && cursor.newest >= pageNewest) ? cursor.newest : pageNewest;
  const more = paged && items.length >= XERO_PAGE_SIZE;
  return {
    records: await list.records(items, ctx),
    nextPageToken: more ? tokenOf(nextCursor(cursor, pageNewest, newest)) : null,
    // An empty incremental read keeps the cursor it had.
    nextSince: more || !paged ? null : newest === null ? since : new Date(newest).toISOString(),
  };
}

/** The next page: from just before this page's newest record, or, when that is no further on, the next page within it. */
function nextCursor(cursor: Cursor, pageNewest: number | null, newest: number | null): Cursor {
  const after = pageNewest === null ? null : pageNewest - 1;
  if (after === null || (cursor.after !== null && after <= cursor.after)) return { after: cursor.after, page: cursor.page + 1, newest };
  return { after, page: 1, newest };
}

export async function readOrganisation(ctx: ConnectorContext): Promise<XeroOrganisation> {
  const response = await xeroCall(ctx, { method: 'GET', path: '/Organisation', operation: 'get Organisation' });
  const [organisation] = listOf(response, 'Organisations');
  return organisation ?? {};
}

/**
 * The organisation's chart of accounts, once per job (a sync or a write):
 * line items in contract 2.9.4 name their account by code only, so the
 * connector looks the AccountID up here, and writes turn AccountIDs into codes.
 */
const charts = perJob((ctx) => xeroCall(ctx, { method: 'GET', path: '/Accounts', operation: 'list Accounts' }).then((r) => listOf(r, 'Accounts')));

export const chartOf = (ctx: ConnectorContext): Promise<XeroAccount[]> => charts.get(ctx);

/** Lines with their AccountID filled in from the account code (Xero's newer API versions send both). */
export function withAccountIds<L extends XeroLineItem | XeroJournalLine>(chart: readonly XeroAccount[], lines: L[] | undefined): L[] | undefined {
  if (lines === undefined) return undefined;
  return lines.map((line) => {
    if (line.AccountID !== undefined || line.AccountCode === undefined) return line;
    const account = chart.find((a) => a.Code === line.AccountCode);
    return account?.AccountID === undefined ? line : { ...line, AccountID: account.AccountID };
  });
}

/** An embedded account with its currency from the chart (bank transfers name only id, code and name). */
export function withCurrency(chart: readonly XeroAccount[], account: XeroAccountRef | undefined): XeroAccountRef | undefined {
  if (account === undefined || account.CurrencyCode !== undefined) return account;
  const found = chart.find((a) => a.AccountID === account.AccountID);
  return found?.CurrencyCode === undefined ? account : { ...account, CurrencyCode: found.CurrencyCode };
}

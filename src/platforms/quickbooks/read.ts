/**
 * How an entity is read. A full read pages through `SELECT * FROM <Entity>`
 * (optionally windowed on TxnDate) until a short page. An incremental read
 * asks ChangeDataCapture for what changed since the cursor: changed records
 * and tombstones (status "Deleted") in one answer. CDC only looks back 30
 * days and holds at most 1,000 objects, so an older cursor, or a full CDC
 * answer, pages through `MetaData.LastUpdatedTime > cursor` instead (changed
 * records only: deletions older than the CDC window are not reported).
 * Cursors are QBO's own clock (the answer's `time`), never ours, and each
 * incremental read starts a little before the cursor so that a change in the
 * same second as the previous answer is not lost (re-reading an unchanged
 * record changes nothing). Query pages overlap by PAGE_OVERLAP records, so a deletion mid-read skips nothing.
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { changes, literal, PAGE_SIZE, qboTime, queryPage } from './client.ts';
import { loadHomeCurrency } from './currencies.ts';
import type { EntitySpec } from './objects.ts';

/** CDC answers for changes up to 30 days back; a day is kept in hand for clock skew. */
export const CDC_MAX_AGE_MS = 29 * 24 * 60 * 60_000;

/** Incremental reads start this long before the cursor. */
export const CURSOR_OVERLAP_MS = 60_000;

/**
 * Each page of a query starts this many records before the end of the page before. Pages are in Id order, which an
 * edit never changes, but a record deleted from an earlier page mid-read moves every later one a position down: with
 * no overlap the first record of the next page would slip into the page already read and never be read (an unchanged
 * record is not in any later incremental read either). Re-reading 10 records of 1,000 (1% more rows, no more calls)
 * absorbs up to 10 deletions between two page requests; a re-read record is stored unchanged and announces nothing.
 */
export const PAGE_OVERLAP = 10;

/** Where a read continues: the next STARTPOSITION of a query, and QBO's time at the read's first answer (the next cursor). */
interface Position {
  at: number;
  time: string | null;
  changedSince?: string;
}

function encode(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decode(token: string): Position {
  const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Position>;
  if (typeof value.at !== 'number' || value.at < 1) throw new Error(`not a QuickBooks page token: ${token}`);
  return {
    at: value.at,
    time: typeof value.time === 'string' ? value.time : null,
    ...(typeof value.changedSince === 'string' ? { changedSince: value.changedSince } : {}),
  };
}

/** Transactions lack CurrencyRef in a company without multicurrency: their mapper needs the home currency then. */
async function withHomeCurrency(ctx: ConnectorContext, page: ReadPage): Promise<ReadPage> {
  if (page.records.some((r) => r.deleted !== true && 'TxnDate' in r.raw && !('CurrencyRef' in r.raw))) await loadHomeCurrency(ctx);
  return page;
}

function toRecords(spec: EntitySpec, raws: readonly Record<string, unknown>[]): PlatformRecord[] {
  const records: PlatformRecord[] = [];
  for (const raw of raws) {
    const id = raw.Id;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    if (raw.status === 'Deleted') records.push({ platformId: String(id), raw, deleted: true });
    else if (spec.keep === undefined || spec.keep(raw)) records.push({ platformId: String(id), raw });
  }
  return records;
}

/** TxnDate conditions of a window (its start inclusive, its end exclusive, by date). */
function windowConditions(spec: EntitySpec, window: ReadRequest['window']): string[] {
  if (!spec.dated || window === null) return [];
  return [`TxnDate >= ${literal(window.start.slice(0, 10))}`, `TxnDate < ${literal(window.end.slice(0, 10))}`];
}

/** One page of a query read; the last page (fewer than PAGE_SIZE records) carries the next cursor. */
async function queryRead(ctx: ConnectorContext, spec: EntitySpec, conditions: string[], position: Position): Promise<ReadPage> {
  const page = await queryPage(ctx, spec.entity, conditions, position.at);
  const time = position.time ?? page.time;
  const more = page.records.length >= PAGE_SIZE;
  return {
    records: toRecords(spec, page.records),
    nextPageToken: more ? encode({ ...position, at: position.at + page.records.length - PAGE_OVERLAP, time }) : null,
    nextSince: more ? null : time,
  };
}

function changedSince(since: string): string {
  const at = Date.parse(since);
  return Number.isNaN(at) ? since : qboTime(at - CURSOR_OVERLAP_MS);
}

export async function readEntity(ctx: ConnectorContext, spec: EntitySpec, request: ReadRequest, now: number = Date.now()): Promise<ReadPage> {
  return withHomeCurrency(ctx, await readEntityPage(ctx, spec, request, now));
}

async function readEntityPage(ctx: ConnectorContext, spec: EntitySpec, request: ReadRequest, now: number): Promise<ReadPage> {
  if (request.pageToken !== null) {
    const position = decode(request.pageToken);
    const conditions =
      position.changedSince === undefined ? windowConditions(spec, request.window) : [`MetaData.LastUpdatedTime > ${literal(position.changedSince)}`];
    return queryRead(ctx, spec, conditions, position);
  }
  if (request.since === null || !spec.cdc) return queryRead(ctx, spec, windowConditions(spec, request.window), { at: 1, time: null });
  const since = changedSince(request.since);
  const sinceMs = Date.parse(since);
  if (Number.isNaN(sinceMs) || now - sinceMs > CDC_MAX_AGE_MS) {
    return queryRead(ctx, spec, [`MetaData.LastUpdatedTime > ${literal(since)}`], { at: 1, time: null, changedSince: since });
  }
  const cdc = await changes(ctx, spec.entity, since);
  const records = toRecords(spec, cdc.records);
  if (cdc.records.length < PAGE_SIZE) return { records, nextPageToken: null, nextSince: cdc.time };
  // A full CDC answer may have left changes out: page through them by query, keeping CDC's tombstones and time.
  const rest = await queryRead(ctx, spec, [`MetaData.LastUpdatedTime > ${literal(since)}`], { at: 1, time: cdc.time, changedSince: since });
  return { ...rest, records: [...records.filter((r) => r.deleted === true), ...rest.records] };
}

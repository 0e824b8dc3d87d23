/**
 * How an entity is read. A full read pages through `SELECT * FROM <Entity>` (optionally windowed on TxnDate) until a
 * short page. An incremental read asks ChangeDataCapture for what changed since the cursor: changed records and
 * tombstones (status "Deleted") in one answer. CDC only looks back 30 days and holds at most 1,000 objects, so an older
 * cursor, or a full CDC answer, pages through `MetaData.LastUpdatedTime > cursor` instead (changed records only:
 * deletions older than the CDC window are not reported). Cursors are QBO's own clock (the answer's `time`), never
 * ours, and each incremental read starts a little before the cursor so that a change in the same second as the
 * previous answer is not lost (re-reading an unchanged record changes nothing).
 */
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { nextOffset, pageTokens } from '../paging.ts';
import { changes, literal, PAGE_SIZE, qboTime, queryPage } from './client.ts';
import { QBO_BASE } from './currencies.ts';

/** What a read needs to know of an entity (objects.ts). */
export interface EntityRead {
  /** Name in queries and CDC ("Bill"). */
  entity: string;
  /** Whether ChangeDataCapture covers it. */
  cdc: boolean;
  /** Whether it has a TxnDate to window initial syncs on. */
  dated: boolean;
  /** Records of the entity that are not objects of the type (note-only attachables). */
  keep?: (raw: Record<string, unknown>) => boolean;
}

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

const positions = pageTokens<Position>('QuickBooks Online', (value) =>
  typeof value.at === 'number' && value.at >= 1
    ? {
        at: value.at,
        time: typeof value.time === 'string' ? value.time : null,
        ...(typeof value.changedSince === 'string' ? { changedSince: value.changedSince } : {}),
      }
    : null,
);

/** Transactions lack CurrencyRef in a company without multicurrency: their mapper needs the home currency then. */
async function withHomeCurrency(ctx: ConnectorContext, page: ReadPage): Promise<ReadPage> {
  if (page.records.some((r) => r.deleted !== true && 'TxnDate' in r.raw && !('CurrencyRef' in r.raw))) await QBO_BASE.get(ctx);
  return page;
}

/**
 * The records of an answer; CDC's tombstones (status "Deleted") stay records, marked deleted, as the platform sent
 * them (the simulator's read test looks for them so). Records that are no objects of the type are left out.
 */
function toRecords(spec: EntityRead, raws: readonly Record<string, unknown>[]): PlatformRecord[] {
  return raws.flatMap((raw): PlatformRecord[] => {
    if (typeof raw.Id !== 'string') return [];
    if (raw.status === 'Deleted') return [{ platformId: raw.Id, raw, deleted: true }];
    return spec.keep === undefined || spec.keep(raw) ? [{ platformId: raw.Id, raw }] : [];
  });
}

/** TxnDate conditions of a window (its start inclusive, its end exclusive, by date). */
function windowConditions(spec: EntityRead, window: ReadRequest['window']): string[] {
  if (!spec.dated || window === null) return [];
  return [`TxnDate >= ${literal(window.start.slice(0, 10))}`, `TxnDate < ${literal(window.end.slice(0, 10))}`];
}

/** One page of a query read; the last page (fewer than PAGE_SIZE records) carries the next cursor. */
async function queryRead(ctx: ConnectorContext, spec: EntityRead, conditions: string[], position: Position): Promise<ReadPage> {
  const page = await queryPage(ctx, spec.entity, conditions, position.at);
  const time = position.time ?? page.time;
  const next = nextOffset(position.at, page.records.length, PAGE_SIZE, PAGE_OVERLAP);
  return {
    records: toRecords(spec, page.records),
    nextPageToken: next === null ? null : positions.encode({ ...position, at: next, time }),
    nextSince: next === null ? time : null,
  };
}

function changedSince(since: string): string {
  const at = Date.parse(since);
  return Number.isNaN(at) ? since : qboTime(at - CURSOR_OVERLAP_MS);
}

const changedAfter = (since: string): string[] => [`MetaData.LastUpdatedTime > ${literal(since)}`];

export async function readEntity(ctx: ConnectorContext, spec: EntityRead, request: ReadRequest, now: number = Date.now()): Promise<ReadPage> {
  return withHomeCurrency(ctx, await readEntityPage(ctx, spec, request, now));
}

async function readEntityPage(ctx: ConnectorContext, spec: EntityRead, request: ReadRequest, now: number): Promise<ReadPage> {
  const position = positions.decode(request.pageToken);
  if (position !== null) {
    const { changedSince } = position;
    return queryRead(ctx, spec, changedSince === undefined ? windowConditions(spec, request.window) : changedAfter(changedSince), position);
  }
  if (request.since === null || !spec.cdc) return queryRead(ctx, spec, windowConditions(spec, request.window), { at: 1, time: null });
  const since = changedSince(request.since);
  const sinceMs = Date.parse(since);
  if (Number.isNaN(sinceMs) || now - sinceMs > CDC_MAX_AGE_MS) {
    return queryRead(ctx, spec, changedAfter(since), { at: 1, time: null, changedSince: since });
  }
  const cdc = await changes(ctx, spec.entity, since);
  const records = toRecords(spec, cdc.records);
  if (cdc.records.length < PAGE_SIZE) return { records, nextPageToken: null, nextSince: cdc.time };
  // A full CDC answer may have left changes out: page through them by query, keeping CDC's tombstones and time.
  const rest = await queryRead(ctx, spec, changedAfter(since), { at: 1, time: cdc.time, changedSince: since });
  return { ...rest, records: [...records.filter((r) => r.deleted === true), ...rest.records] };
}

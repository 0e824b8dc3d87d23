/**
 * Paging primitives of the object table (docs/connectors.md, "Reads"): what a read carries from page to page, written
 * once. A page token is the connector's own JSON, base64url-encoded and checked when it comes back; the four ways
 * platforms page (page number, cursor or next link, keyset on modified time, offset with overlap), the incremental
 * cursor on modified time, and the two ways deletions are seen in a read (tombstones, and deletion events replayed
 * newest first).
 */
import type { PlatformRecord, ReadPage } from './connector.ts';
import { isRecord } from './json.ts';
import { later } from './readers.ts';

type Raw = Record<string, unknown>;

/**
 * A page token codec for one read's state; `parse` checks a decoded object and gives null when it is not one. Tokens
 * are base64url JSON, or plain JSON (`plain`) for connectors whose tokens were so before, so a read in flight across an
 * upgrade resumes.
 */
export function pageTokens<T extends object>(platform: string, parse: (value: Raw) => T | null, options: { plain?: boolean } = {}) {
  const plain = options.plain === true;
  return {
    encode: (state: T): string => (plain ? JSON.stringify(state) : Buffer.from(JSON.stringify(state)).toString('base64url')),
    decode(token: string | null): T | null {
      if (token === null) return null;
      let value: unknown;
      try {
        value = JSON.parse(plain ? token : Buffer.from(token, 'base64url').toString('utf8'));
      } catch {
        value = null;
      }
      const state = isRecord(value) ? parse(value) : null;
      if (state === null) throw new Error(`a ${platform} page token is not the connector’s own`);
      return state;
    },
  };
}

/** Page number paging: the next page while a page comes back full. */
export const nextPageNumber = (page: number, count: number, pageSize: number): number | null => (count >= pageSize ? page + 1 : null);

/** Cursor or next-link paging: the platform's cursor for the next page when it says there is one. */
export const nextCursor = (hasMore: boolean, cursor: string | null | undefined): string | null =>
  hasMore && cursor !== undefined && cursor !== null && cursor !== '' ? cursor : null;

/**
 * Offset paging with overlap, for lists that may shift while read (a record added before the offset pushes the rest
 * down): the next page starts `overlap` records back, and change detection finds those re-read unchanged.
 */
export const nextOffset = (offset: number, count: number, pageSize: number, overlap = 0): number | null =>
  count >= pageSize ? offset + count - Math.min(overlap, count - 1) : null;

/** Keyset on modified time: the latest modified time among `times` and the one carried so far. */
export const latestModified = (carried: string | null, times: readonly (string | null)[]): string | null => times.reduce(later, carried);

/**
 * The incremental cursor at the end of a read: the platform's latest modified time seen (its clock, not ours), or the
 * cursor the read started from when nothing changed. Records are read with `>=` that time, so one changed in the same
 * second as the last is never missed (the last is re-read, and change detection finds it unchanged).
 */
export const nextSince = (latest: string | null, since: string | null): string | null => latest ?? since;

/** Tombstones: records the platform still lists but marks deleted become deletedPlatformIds, the rest records. */
export function withTombstones(
  page: readonly PlatformRecord[],
  deleted: (record: PlatformRecord) => boolean,
): Pick<ReadPage, 'records' | 'deletedPlatformIds'> {
  const gone = page.filter(deleted).map((record) => record.platformId);
  return { records: page.filter((record) => !deleted(record)), ...(gone.length > 0 ? { deletedPlatformIds: gone } : {}) };
}

/**
 * Change events replayed newest first (Stripe's events): each object is taken from its newest event only, so an older
 * state never overwrites a newer one; `seen` carries the ids taken across pages.
 */
export function newestFirst<E>(
  events: readonly E[],
  seen: Set<string>,
  subject: (event: E) => { id: string; deleted: boolean; raw: Raw } | null,
): { changed: Raw[]; deleted: string[] } {
  const changed: Raw[] = [];
  const deleted: string[] = [];
  for (const event of events) {
    const object = subject(event);
    if (object === null || seen.has(object.id)) continue;
    seen.add(object.id);
    if (object.deleted) deleted.push(object.id);
    else changed.push(object.raw);
  }
  return { changed, deleted };
}

/**
 * Reads of the native API: full listings paged by platform id (keyset), and
 * incremental listings of what changed after a `since` cursor, with deletions.
 * The cursor is the account's change sequence number ("seq:<n>"); the first
 * page of any read pins a snapshot of it, so the cursor handed out on the last
 * page covers exactly what was returned, whatever changed while paging.
 */
import type { Pool } from 'pg';
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import { collectionOf } from '../collections.ts';
import type { NativeRecord } from '../native.ts';
import { NativeError } from '../native-error.ts';
import type { AccountState } from './state.ts';

export interface ListQuery {
  since: string | null;
  pageToken: string | null;
  from: string | null;
  to: string | null;
  limit: number;
}

export interface ListResult {
  items: NativeRecord[];
  deleted: { Id: string; DeletedAt: string }[];
  nextPageToken: string | null;
  nextSince: string | null;
}

interface Token {
  m: 'full' | 'changes';
  after: string;
  snapshot: number;
}

export function formatSince(seq: number): string {
  return `seq:${seq}`;
}

export function parseSince(since: string): number {
  const match = /^seq:(\d{1,15})$/.exec(since);
  if (match?.[1] === undefined) throw new NativeError(400, 'InvalidCursor', `since "${since}" is not a cursor this API issued`, 'since');
  return Number(match[1]);
}

function encodeToken(token: Token): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(text: string): Token {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      typeof value === 'object' &&
      value !== null &&
      'm' in value &&
      'after' in value &&
      'snapshot' in value &&
      (value.m === 'full' || value.m === 'changes') &&
      typeof value.after === 'string' &&
      typeof value.snapshot === 'number'
    ) {
      return { m: value.m, after: value.after, snapshot: value.snapshot };
    }
  } catch {
    // Falls through to the error below.
  }
  throw new NativeError(400, 'InvalidPageToken', 'pageToken is not a token this API issued', 'pageToken');
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function listPage(pool: Pool, state: AccountState, type: UnifiedObjectType, query: ListQuery): Promise<ListResult> {
  for (const [name, value] of [
    ['from', query.from],
    ['to', query.to],
  ] as const) {
    if (value !== null && !DATE.test(value)) throw new NativeError(400, 'InvalidDate', `${name} must be a date (YYYY-MM-DD)`, name);
  }
  // Records without a business date are not filtered by a window.
  const dated = collectionOf(type).dateField !== null;
  const from = dated ? query.from : null;
  const to = dated ? query.to : null;
  const since = query.since === null ? null : parseSince(query.since);
  const token = query.pageToken === null ? null : decodeToken(query.pageToken);
  const mode = since === null ? 'full' : 'changes';
  if (token !== null && token.m !== mode) throw new NativeError(400, 'InvalidPageToken', 'pageToken belongs to another kind of read', 'pageToken');
  const snapshot = token?.snapshot ?? state.seq;

  if (mode === 'full') {
    const result = await pool.query<{ platform_id: string; data: NativeRecord }>(
      `SELECT platform_id, data FROM sandbox_platform.records
       WHERE account_id = $1 AND object_type = $2 AND deleted_at IS NULL AND platform_id > $3
         AND ($4::date IS NULL OR business_date >= $4::date) AND ($5::date IS NULL OR business_date <= $5::date)
       ORDER BY platform_id LIMIT $6`,
      [state.id, type, token?.after ?? '', from, to, query.limit + 1],
    );
    const more = result.rows.length > query.limit;
    const rows = result.rows.slice(0, query.limit);
    const last = rows[rows.length - 1];
    return {
      items: rows.map((r) => r.data),
      deleted: [],
      nextPageToken: more && last !== undefined ? encodeToken({ m: 'full', after: last.platform_id, snapshot }) : null,
      nextSince: more ? null : formatSince(snapshot),
    };
  }

  const after = token === null ? (since ?? 0) : Number(token.after);
  const result = await pool.query<{ platform_id: string; data: NativeRecord; deleted_at: Date | null; seq: string | number }>(
    `SELECT platform_id, data, deleted_at, seq FROM sandbox_platform.records
     WHERE account_id = $1 AND object_type = $2 AND seq > 0 AND seq > $3 AND seq <= $4
       AND ($5::date IS NULL OR business_date >= $5::date) AND ($6::date IS NULL OR business_date <= $6::date)
     ORDER BY seq LIMIT $7`,
    [state.id, type, after, snapshot, from, to, query.limit + 1],
  );
  const more = result.rows.length > query.limit;
  const rows = result.rows.slice(0, query.limit);
  const last = rows[rows.length - 1];
  return {
    items: rows.filter((r) => r.deleted_at === null).map((r) => r.data),
    deleted: rows.flatMap((r) => (r.deleted_at === null ? [] : [{ Id: r.platform_id, DeletedAt: r.deleted_at.toISOString() }])),
    nextPageToken: more && last !== undefined ? encodeToken({ m: 'changes', after: String(last.seq), snapshot }) : null,
    nextSince: more ? null : formatSince(Math.max(snapshot, since ?? 0)),
  };
}

export async function getRecord(pool: Pool, state: AccountState, type: UnifiedObjectType, id: string): Promise<NativeRecord | null> {
  const result = await pool.query<{ data: NativeRecord }>(
    'SELECT data FROM sandbox_platform.records WHERE account_id = $1 AND object_type = $2 AND platform_id = $3 AND deleted_at IS NULL',
    [state.id, type, id],
  );
  return result.rows[0]?.data ?? null;
}

/** Every live record of a (small) type, by platform id: the chart of accounts, the bank feeds. */
export async function allRecords(pool: Pool, state: AccountState, type: UnifiedObjectType): Promise<NativeRecord[]> {
  const result = await pool.query<{ data: NativeRecord }>(
    'SELECT data FROM sandbox_platform.records WHERE account_id = $1 AND object_type = $2 AND deleted_at IS NULL ORDER BY platform_id',
    [state.id, type],
  );
  return result.rows.map((r) => r.data);
}

/** Every deleted record of a type, with when it was deleted: what a platform that reports deletions shows. */
export async function deletedRecords(pool: Pool, state: AccountState, type: UnifiedObjectType): Promise<{ data: NativeRecord; deletedAt: Date }[]> {
  const result = await pool.query<{ data: NativeRecord; deleted_at: Date }>(
    'SELECT data, deleted_at FROM sandbox_platform.records WHERE account_id = $1 AND object_type = $2 AND deleted_at IS NOT NULL ORDER BY platform_id',
    [state.id, type],
  );
  return result.rows.map((r) => ({ data: r.data, deletedAt: r.deleted_at }));
}

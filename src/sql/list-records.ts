/**
 * Reads of the stored copy for the data endpoints: one page of live records of
 * one connection and type, keyset-paged on (sort key, id), with an optional
 * compiled filter (trusted SQL from src/query, values as parameters).
 */
import type { Queryable } from '../db/pool.ts';

export interface RecordRow {
  id: string;
  data: Record<string, unknown>;
  raw: Record<string, unknown> | null;
  last_synced_at: Date;
  sort_key: string | null;
  /** Length of `raw` as JSON text, when it was read (lists with platform_data), to bound a page's size. */
  raw_bytes?: number;
}

/** How a sort key compares: as time, as number or as text. */
export type SortType = 'timestamptz' | 'numeric' | 'text';

/** Nulls become the smallest value of their type: first ascending, last descending, never NULL in a comparison. */
const SMALLEST: Record<SortType, string> = { timestamptz: `'-infinity'::timestamptz`, numeric: `'-Infinity'::numeric`, text: `''` };

/** Table columns are already typed; written without a cast so the expression matches the indexes of 0006. */
const TYPED_COLUMNS = new Set(['updated_at', 'created_at', 'last_synced_at']);

export function sortKeySql(expr: string, type: SortType): string {
  if (type === 'text') return `COALESCE(${expr}, '')`;
  return TYPED_COLUMNS.has(expr) ? `COALESCE(${expr}, ${SMALLEST[type]})` : `COALESCE((${expr})::${type}, ${SMALLEST[type]})`;
}

export interface ListRecordsQuery {
  connectionId: string;
  objectType: string;
  /** Trusted SQL expression of the sort field, from the sort whitelist, and how it compares. */
  sortSql: string;
  sortType: SortType;
  direction: 'ASC' | 'DESC';
  /** Start at this position, inclusive (next_cursor names the first entity of the next page). */
  from: { value: string; id: string } | null;
  /** Extra conditions: trusted SQL with $n placeholders numbered after the base parameters (5 on). */
  where: { sql: string; params: unknown[] } | null;
  limit: number;
  withRaw: boolean;
}

export const BASE_PARAMS = 5;

/** The statement of one page, separate from running it so tests can EXPLAIN exactly what runs. */
export function buildListQuery(q: ListRecordsQuery): { text: string; values: unknown[] } {
  const cmp = q.direction === 'DESC' ? '<=' : '>=';
  const key = sortKeySql(q.sortSql, q.sortType);
  const text = `SELECT id, data, ${q.withRaw ? 'raw, octet_length(raw::text) AS raw_bytes' : 'NULL::jsonb AS raw'}, last_synced_at, ${key}::text AS sort_key
      FROM records
     WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL
       AND ($3::text IS NULL OR (${key}, id) ${cmp} ($3::${q.sortType}, $4::uuid))
       ${q.where === null ? '' : `AND (${q.where.sql})`}
     ORDER BY ${key} ${q.direction}, id ${q.direction}
     LIMIT $5`;
  return { text, values: [q.connectionId, q.objectType, q.from?.value ?? null, q.from?.id ?? null, q.limit + 1, ...(q.where?.params ?? [])] };
}

export async function listRecords(db: Queryable, q: ListRecordsQuery): Promise<RecordRow[]> {
  const { text, values } = buildListQuery(q);
  const result = await db.query<RecordRow>(text, values);
  return result.rows;
}

export async function fetchRecord(
  db: Queryable,
  connectionId: string,
  objectType: string,
  by: 'service' | 'platform',
  id: string,
  withRaw: boolean,
): Promise<RecordRow | null> {
  const result = await db.query<RecordRow>(
    `SELECT id, data, ${withRaw ? 'raw' : 'NULL::jsonb AS raw'}, last_synced_at, NULL AS sort_key
       FROM records
      WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL
        AND ${by === 'service' ? 'id::text = $3' : 'platform_id = $3'}`,
    [connectionId, objectType, id],
  );
  return result.rows[0] ?? null;
}

/**
 * The list operation's query: pagination, deprecated time bounds and
 * object-specific deprecated filters, turned into one keyset query.
 */
import { Type, type TSchema } from 'typebox';
import type { Pool } from '../../db/pool.ts';
import { boundedRead } from '../../db/bounded-read.ts';
import { costlyRead } from '../../db/api-pool.ts';
import type { ConnectionRecord } from '../../connections/types.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { BASE_PARAMS, listRecords, type ListRecordsQuery, type RecordRow, type SortType } from '../../sql/list-records.ts';
import type { FilterKind } from '../../model/fields.ts';
import { isRealInstant } from '../../http/keyset-cursor.ts';
import { isoOfUnixMillis, UnixMillisParam } from '../../http/time-params.ts';
import { textProblem } from '../../http/storable-input.ts';
import { isUuid } from '../../http/uuid.ts';
import { compileFilterFor, enumValuesOf, jsonbFieldSql, parseSortFor } from '../../query/model-query.ts';
import { MODEL } from '../../model/index.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

/** The monthly statements: listed with start_date, end_date and response_mode (accounting-resources.md, "Balance sheets"). */
export const REPORT_TYPES: ReadonlySet<UnifiedObjectType> = new Set(['balance_sheet', 'income_statement', 'cash_flow_statement']);

export function isReportType(type: UnifiedObjectType): boolean {
  return REPORT_TYPES.has(type);
}

/** Deprecated equality filters some resources keep (use `filter` instead). */
const DEPRECATED_FILTERS: Partial<Record<UnifiedObjectType, readonly string[]>> = {
  bill: ['document_number'],
  customer: ['customer_name'],
  account: ['account_type'],
  // Not deprecated: the attachments list's own parameter (the entity the files belong to).
  attachment: ['attached_to_id'],
};

/**
 * Time bounds the reference's list of a type takes as `<field>_min` / `<field>_max` (Unix milliseconds, inclusive),
 * besides the updated_at bounds every list has: the payouts list's arrival and creation times.
 */
const TIME_BOUNDS: Partial<Record<UnifiedObjectType, readonly string[]>> = {
  payout: ['arrival_at', 'created_at'],
};

export function ListQuerySchema(type: UnifiedObjectType): TSchema {
  const extra: Record<string, TSchema> = Object.fromEntries((DEPRECATED_FILTERS[type] ?? []).map((field) => {
    const description = `Deprecated: equality on ${field}; use filter.`;
    // An enum field takes only its values: a misspelt one is a 400 listing them, not an empty page.
    const values = enumValuesOf(MODEL[type].schema, field);
    const schema = values === undefined ? Type.String({ maxLength: 500, description }) : Type.Union(values.map((v) => Type.Literal(v)), { description });
    return [field, Type.Optional(schema)];
  }));
  for (const field of TIME_BOUNDS[type] ?? []) {
    extra[`${field}_min`] = Type.Optional(UnixMillisParam(`Only records whose ${field} is at or after this instant (inclusive).`));
    extra[`${field}_max`] = Type.Optional(UnixMillisParam(`Only records whose ${field} is at or before this instant (inclusive).`));
  }
  if (isReportType(type)) {
    extra.start_date = Type.Optional(Type.String({ format: 'date', description: 'Deprecated: statements whose month starts on or after this date; use filter.' }));
    extra.end_date = Type.Optional(Type.String({ format: 'date', description: 'Deprecated: statements whose month ends on or before this date; use filter.' }));
    extra.response_mode = Type.Optional(Type.Union([Type.Literal('prefer_sync'), Type.Literal('async')], { description: 'prefer_sync (default) answers at once; async answers an async_response whose job (GET /jobs/:id) holds the answer.' }));
  }
  return Type.Object({
    access_token: Type.Optional(Type.String({ description: 'Connection access token (required).' })),
    cursor: Type.Optional(Type.String({ maxLength: 1000, description: 'next_cursor of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}.` })),
    filter: Type.Optional(Type.String({ maxLength: 2000, description: 'Filter on F fields, e.g. status = "open" AND due_date < 2024-06-30 (docs/filtering.md).' })),
    sort: Type.Optional(Type.String({ maxLength: 200, description: 'An F field, optionally followed by ASC or DESC; default updated_at DESC.' })),
    expand: Type.Optional(Type.Union([Type.Literal('platform_data'), Type.Array(Type.Literal('platform_data'))], { description: 'platform_data adds the raw platform record.' })),
    updated_at_min: Type.Optional(UnixMillisParam('Deprecated: inclusive; use filter.')),
    updated_at_max: Type.Optional(UnixMillisParam('Deprecated: inclusive; use filter.')),
    last_synced_at_min: Type.Optional(UnixMillisParam('Deprecated: inclusive; use filter.')),
    force_fetch: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true answers even before the initial sync has finished.' })),
    ...extra,
  });
}

interface Sort { field: string; sql: string; type: SortType; direction: 'ASC' | 'DESC' }

/** The sync timestamps are table columns (indexed); every other F field lives in the object's jsonb. */
const COLUMNS = new Set(['updated_at', 'created_at', 'last_synced_at']);
const jsonField = jsonbFieldSql('data');

function fieldSql(field: string, kind: FilterKind): string {
  return COLUMNS.has(field) ? field : jsonField(field, kind);
}

function sortOf(type: UnifiedObjectType, text: string | undefined): Sort {
  const spec = parseSortFor(type, text);
  const sortType: SortType = spec.kind === 'date' ? 'timestamptz' : spec.kind === 'number' ? 'numeric' : 'text';
  return { field: spec.field, sql: fieldSql(spec.field, spec.kind), type: sortType, direction: spec.direction };
}

/** A timestamptz as PostgreSQL prints it ("2024-05-01 10:11:12.123456+00"), with a real date and time of day. */
function isPostgresTimestamp(text: string): boolean {
  // PostgreSQL's offsets stay within ±15:59.
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2}$/.exec(text);
  return match !== null && isRealInstant(`${match[1] ?? ''}T${match[2] ?? ''}Z`);
}

/** Opaque cursor: the next entity's sort key and id, plus the sort it belongs to. */
function encode(sort: Sort, row: RecordRow): string {
  return Buffer.from(JSON.stringify({ s: `${sort.field} ${sort.direction}`, v: row.sort_key ?? '', id: row.id })).toString('base64url');
}

function decode(sort: Sort, raw: string): { value: string; id: string } {
  const invalid = new ServiceError('INVALID_CURSOR', 'The cursor is malformed or belongs to another sort: pass next_cursor unchanged with the same sort and filter.', { source: 'service', field: 'cursor', location: 'query' });
  if (!/^[A-Za-z0-9_-]{1,1000}={0,2}$/.test(raw)) throw invalid;
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')); } catch { throw invalid; }
  if (typeof parsed !== 'object' || parsed === null) throw invalid;
  const { s, v, id } = parsed as Record<string, unknown>;
  if (s !== `${sort.field} ${sort.direction}` || typeof v !== 'string' || typeof id !== 'string' || !isUuid(id) || textProblem(v) !== null) throw invalid;
  if (sort.type === 'timestamptz' && v !== '-infinity' && !isPostgresTimestamp(v)) throw invalid;
  if (sort.type === 'numeric' && !/^-?(\d+(\.\d+)?|Infinity)$/.test(v)) throw invalid;
  return { value: v, id };
}

/** Parameterised conditions, numbered after the base parameters of listRecords. */
class Conditions {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  add(sqlWithPlaceholder: (p: string) => string, value: unknown): void {
    this.params.push(value);
    this.parts.push(sqlWithPlaceholder(`$${BASE_PARAMS + this.params.length}`));
  }
  /** A compiled filter whose placeholders were numbered from `offset` (see paramOffset). */
  addCompiled(compiled: { sql: string; params: unknown[] }): void {
    this.params.push(...compiled.params);
    this.parts.push(compiled.sql);
  }
  get offset(): number {
    return BASE_PARAMS + this.params.length;
  }
}

export interface ListPlan {
  query: ListRecordsQuery;
  /** The filter has `~` comparisons, which read the text of every record: the read takes a costly-read slot. */
  costly: boolean;
  /** next_cursor for the first row of the next page. */
  cursorOf(row: RecordRow): string;
}

/** Fields of the stored object every record of a list has (a view of the type: the attachments of bills); names come from code, never from the request. */
export type ListScope = Readonly<Record<string, string>>;

/** The keyset query of one page, without running it (the read benchmark's bare handler runs the same statement). */
export function planListPage(connectionId: string, type: UnifiedObjectType, query: Record<string, unknown>, withRaw: boolean, scope: ListScope = {}): ListPlan {
  const sort = sortOf(type, typeof query.sort === 'string' ? query.sort : undefined);
  const limit = typeof query.limit === 'number' ? query.limit : DEFAULT_LIMIT;
  const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? decode(sort, query.cursor) : null;
  const where = new Conditions();
  // Objects that are never updated (attachments have no updated_at) take the bounds on their creation time.
  const updated = 'updated_at' in MODEL[type].schema.properties ? 'updated_at' : 'created_at';
  if (typeof query.updated_at_min === 'number') where.add((p) => `${updated} >= ${p}::timestamptz`, isoOfUnixMillis(query.updated_at_min));
  if (typeof query.updated_at_max === 'number') where.add((p) => `${updated} <= ${p}::timestamptz`, isoOfUnixMillis(query.updated_at_max));
  if (typeof query.last_synced_at_min === 'number') where.add((p) => `last_synced_at >= ${p}::timestamptz`, isoOfUnixMillis(query.last_synced_at_min));
  if (isReportType(type)) {
    // One statement per month in the inclusive range.
    if (typeof query.start_date === 'string') where.add((p) => `(data->>'start_date')::timestamptz >= ${p}::date`, query.start_date);
    if (typeof query.end_date === 'string') where.add((p) => `(data->>'end_date')::timestamptz < (${p}::date + 1)`, query.end_date);
  }
  for (const field of TIME_BOUNDS[type] ?? []) {
    // The field names come from the fixed table above, never from the request.
    const column = COLUMNS.has(field) ? field : `(${fieldSql(field, 'date')})::timestamptz`;
    const min = query[`${field}_min`];
    const max = query[`${field}_max`];
    if (typeof min === 'number') where.add((p) => `${column} >= ${p}::timestamptz`, isoOfUnixMillis(min));
    if (typeof max === 'number') where.add((p) => `${column} <= ${p}::timestamptz`, isoOfUnixMillis(max));
  }
  for (const [field, value] of Object.entries(scope)) where.add((p) => `data->>'${field}' = ${p}`, value);
  for (const field of DEPRECATED_FILTERS[type] ?? []) {
    const value = query[field];
    // The field name comes from the fixed table above, never from the request.
    if (typeof value === 'string') where.add((p) => `data->>'${field}' = ${p}`, value);
  }
  const filter = compileFilterFor(type, typeof query.filter === 'string' ? query.filter : undefined, { fieldSql, paramOffset: where.offset });
  if (filter !== undefined) where.addCompiled(filter);
  return {
    query: {
      connectionId, objectType: type, sortSql: sort.sql, sortType: sort.type, direction: sort.direction,
      from: cursor, where: where.parts.length === 0 ? null : { sql: where.parts.join(' AND '), params: where.params }, limit, withRaw,
    },
    costly: (filter?.substringComparisons ?? 0) > 0,
    cursorOf: (row) => encode(sort, row),
  };
}

/** What one page may cost (READ_STATEMENT_TIMEOUT_MS, LIST_PLATFORM_DATA_MAX_BYTES). */
export interface PageLimits { statementTimeoutMs: number; pagePlatformDataBytes: number }

/**
 * How many of `rows` fit on the page: at most `limit`, and with platform_data no more than `maxBytes` of it, but
 * always one (a record larger than the bound comes alone). The rest start the next page.
 */
export function pageLength(rows: readonly RecordRow[], limit: number, maxBytes: number): number {
  let bytes = 0;
  for (let i = 0; i < Math.min(limit, rows.length); i++) {
    bytes += rows[i]?.raw_bytes ?? 0;
    if (bytes > maxBytes && i > 0) return i;
  }
  return Math.min(limit, rows.length);
}

export async function listPage(pool: Pool, connection: ConnectionRecord, type: UnifiedObjectType, query: Record<string, unknown>, withRaw: boolean, limits: PageLimits, scope: ListScope = {}): Promise<{ rows: RecordRow[]; nextCursor: string | null }> {
  const plan = planListPage(connection.id, type, query, withRaw, scope);
  const blame = { field: typeof query.filter === 'string' && query.filter !== '' ? 'filter' : 'limit', location: 'query' as const };
  const read = (): Promise<RecordRow[]> => boundedRead(pool, limits.statementTimeoutMs, blame, (db) => listRecords(db, plan.query));
  const rows = plan.costly ? await costlyRead(pool, connection.organizationId, read) : await read();
  const length = pageLength(rows, plan.query.limit, limits.pagePlatformDataBytes);
  const next = rows[length];
  return { rows: rows.slice(0, length), nextCursor: next === undefined ? null : plan.cursorOf(next) };
}

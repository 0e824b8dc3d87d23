/**
 * The part of QBO's query language the connector may use:
 *   SELECT * FROM <Entity> [WHERE <cond> [AND <cond>]…] [ORDERBY <field> [ASC|DESC]] [STARTPOSITION n] [MAXRESULTS m]
 * with conditions `<field> <op> '<literal>'` on Id, TxnDate, MetaData.CreateTime
 * and MetaData.LastUpdatedTime. Anything else is a parse error (QBO's 4000
 * QueryParserError): the stand-in records it as a violation, the simulator answers QBO's Fault.
 * Shared by the QuickBooks simulator and the test stand-in (test/standins/quickbooks), each with its own entities.
 */

import { holds, isComparison, order, sortedBy, tokenize, valueAt } from '../lists.ts';
import { qboTime, type Json } from './shapes.ts';

export type Field = 'Id' | 'TxnDate' | 'MetaData.CreateTime' | 'MetaData.LastUpdatedTime';
export type Operator = '=' | '<' | '>' | '<=' | '>=';
const OPERATORS: readonly Operator[] = ['=', '<', '>', '<=', '>='];

export interface Condition {
  field: Field;
  op: Operator;
  value: string;
}

export interface Query<E extends string = string> {
  entity: E;
  where: Condition[];
  orderBy: { field: Field; descending: boolean } | null;
  /** 1-based. */
  startPosition: number;
  maxResults: number;
}

/** QBO's default page is 100 records; it answers at most 1,000. */
export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS = 1000;

/** The fields a query may filter or sort on, and how their values compare: ids as numbers, dates as text, times as instants. */
const FIELDS = new Map<string, [Field, 'number' | 'date' | 'time']>([
  ['id', ['Id', 'number']],
  ['txndate', ['TxnDate', 'date']],
  ['metadata.createtime', ['MetaData.CreateTime', 'time']],
  ['metadata.lastupdatedtime', ['MetaData.LastUpdatedTime', 'time']],
]);

export class QueryError extends Error {}

function field(name: string | undefined): Field {
  const found = name === undefined ? undefined : FIELDS.get(name.toLowerCase());
  if (found === undefined) throw new QueryError(`no filter or sort on "${name ?? ''}"`);
  return found[0];
}

/** Words, operators and quoted literals (\' escapes a quote). */
const TOKEN = /\s*('(?:\\.|[^'\\])*'|<=|>=|[=<>*]|[A-Za-z_][\w.]*|\d+)/y;

/** Parses a query on one of the entities `isEntity` knows. */
export function parseQuery<E extends string>(text: string, isEntity: (name: string) => name is E): Query<E> {
  const words = tokenize(text, TOKEN, (at) => new QueryError(`Encountered "${text.slice(at).trim().slice(0, 20)}" at column ${at + 1}`));
  let at = 0;
  const next = (): string | undefined => words[at++];
  /** Takes the next word when it is `word` (any case). */
  const take = (word: string): boolean => {
    const found = words[at]?.toUpperCase() === word;
    if (found) at++;
    return found;
  };
  /** Takes the next word, which must be `word`: true, or a QueryError. */
  const keyword = (word: string): boolean => {
    const got = next();
    if (got?.toUpperCase() !== word) throw new QueryError(`expected ${word}, found "${got ?? 'end of query'}"`);
    return true;
  };
  const count = (word: string, fallback: number): number => (take(word) ? Number(next()) : fallback);
  keyword('SELECT');
  if (next() !== '*') throw new QueryError('only SELECT * is answered');
  keyword('FROM');
  const entity = next() ?? '';
  if (!isEntity(entity)) throw new QueryError(`unknown entity "${entity}"`);
  const where: Condition[] = [];
  if (take('WHERE')) {
    do {
      const name = field(next());
      const op = next() ?? '';
      if (!isComparison(op, OPERATORS)) throw new QueryError(`unknown operator "${op}"`);
      const literal = next() ?? '';
      if (!/^'.*'$/s.test(literal)) throw new QueryError(`expected a quoted value after ${name} ${op}`);
      where.push({ field: name, op, value: literal.slice(1, -1).replace(/\\(.)/g, '$1') });
    } while (take('AND'));
  }
  let orderBy: Query['orderBy'] = null;
  if (take('ORDER') ? keyword('BY') : take('ORDERBY')) {
    const name = field(next());
    const descending = take('DESC');
    if (!descending) take('ASC');
    orderBy = { field: name, descending };
  }
  const query: Query<E> = { entity, where, orderBy, startPosition: count('STARTPOSITION', 1), maxResults: count('MAXRESULTS', DEFAULT_MAX_RESULTS) };
  if (at < words.length) throw new QueryError(`unexpected "${words[at] ?? ''}"`);
  if (!Number.isInteger(query.startPosition) || query.startPosition < 1) throw new QueryError('STARTPOSITION must be 1 or more');
  if (!Number.isInteger(query.maxResults) || query.maxResults < 1 || query.maxResults > MAX_RESULTS)
    throw new QueryError(`MAXRESULTS must be 1 to ${MAX_RESULTS}`);
  if (entity === 'ExchangeRate' && (orderBy?.field === 'Id' || where.some((c) => c.field === 'Id'))) throw new QueryError('ExchangeRate has no Id');
  return query;
}

const kindOf = (name: Field): 'number' | 'date' | 'time' => FIELDS.get(name.toLowerCase())?.[1] ?? 'date';

/** A record's value of a field as something comparable; a record without it has 0 (or no date). */
function valueOf(record: Json, name: Field): number | string {
  const value = valueAt(record, name.split('.'));
  const kind = kindOf(name);
  if (kind === 'number') return Number(value);
  if (typeof value !== 'string') return kind === 'date' ? '' : 0;
  return kind === 'date' ? value : Date.parse(value);
}

function literalOf(condition: Condition): number | string {
  const kind = kindOf(condition.field);
  if (kind !== 'time') return kind === 'number' ? Number(condition.value) : condition.value;
  const at = Date.parse(condition.value);
  if (Number.isNaN(at)) throw new QueryError(`"${condition.value}" is not a date-time`);
  return at;
}

const satisfies = (record: Json, condition: Condition): boolean => holds(condition.op, order(valueOf(record, condition.field), literalOf(condition)));

/** The page of `records` the query selects. */
export function runQuery(query: Query, records: readonly Json[]): Json[] {
  const selected = records.filter((r) => query.where.every((c) => satisfies(r, c)));
  const { orderBy } = query;
  const sorted = orderBy === null ? selected : sortedBy(selected, [{ of: (r) => valueOf(r, orderBy.field), descending: orderBy.descending }]);
  return sorted.slice(query.startPosition - 1, query.startPosition - 1 + query.maxResults);
}

/** One entity's entry of a QueryResponse: its records and where the page starts; nothing at all when there are none, as QBO answers it. */
export function queryResponse(entity: string, records: readonly Json[], startPosition = 1): Json {
  return records.length === 0 ? {} : { [entity]: records, startPosition, maxResults: records.length };
}

/** ChangeDataCapture looks back 30 days at most. */
export const CDC_LOOKBACK_MS = 30 * 24 * 60 * 60_000;

/** What a cdc request asks for, or why QBO refuses it: a parameter missing, or a changedSince past the look-back. */
export type CdcRequest = { entities: string[]; since: number } | { refused: 'missing' | 'too-old'; element: string; detail: string };

/** GET cdc?entities=A,B&changedSince=…, read at `now`. */
export function cdcRequest(query: URLSearchParams, now: number): CdcRequest {
  const entities = (query.get('entities') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const since = Date.parse(query.get('changedSince') ?? '');
  if (entities.length === 0) return { refused: 'missing', element: 'entities', detail: 'cdc needs entities' };
  if (Number.isNaN(since)) return { refused: 'missing', element: 'changedSince', detail: 'cdc needs changedSince as a date-time' };
  if (now - since > CDC_LOOKBACK_MS) return { refused: 'too-old', element: 'changedSince', detail: 'changedSince must be within the last 30 days' };
  return { entities, since };
}

/** When a record last changed; never, for one without the time (NaN compares with nothing). */
export const updatedAt = (record: Json): number => Date.parse(String(valueAt(record, ['MetaData', 'LastUpdatedTime'])));

/** A record deleted at `at`, as ChangeDataCapture lists it. */
export const tombstone = (id: string, at: string | number): Json => ({
  domain: 'QBO',
  status: 'Deleted',
  Id: id,
  MetaData: { LastUpdatedTime: qboTime(at) },
});

/** ChangeDataCapture's answer: one QueryResponse entry per entity asked for. */
export const cdcResponse = (responses: readonly Json[]): Json => ({ CDCResponse: [{ QueryResponse: responses }] });

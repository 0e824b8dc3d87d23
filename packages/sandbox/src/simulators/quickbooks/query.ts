/**
 * The part of QBO's query language the connector may use:
 *   SELECT * FROM <Entity> [WHERE <cond> [AND <cond>]…] [ORDERBY <field> [ASC|DESC]] [STARTPOSITION n] [MAXRESULTS m]
 * with conditions `<field> <op> '<literal>'` on Id, TxnDate, MetaData.CreateTime
 * and MetaData.LastUpdatedTime. Anything else is a parse error (QBO's 4000
 * QueryParserError): the stand-in records it as a violation, the simulator answers QBO's Fault.
 * Shared by the QuickBooks simulator and the test stand-in (test/standins/quickbooks), each with its own entities.
 */

import { holds, order, sortedBy, tokenize } from '../lists.ts';

type Json = Record<string, unknown>;

export type Field = 'Id' | 'TxnDate' | 'MetaData.CreateTime' | 'MetaData.LastUpdatedTime';
export type Operator = '=' | '<' | '>' | '<=' | '>=';

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

const FIELDS = new Map<string, Field>([
  ['id', 'Id'],
  ['txndate', 'TxnDate'],
  ['metadata.createtime', 'MetaData.CreateTime'],
  ['metadata.lastupdatedtime', 'MetaData.LastUpdatedTime'],
]);
const OPERATORS = new Set<string>(['=', '<', '>', '<=', '>=']);

export class QueryError extends Error {}

function field(name: string | undefined): Field {
  const found = name === undefined ? undefined : FIELDS.get(name.toLowerCase());
  if (found === undefined) throw new QueryError(`no filter or sort on "${name ?? ''}"`);
  return found;
}

/** Words, operators and quoted literals (\' escapes a quote). */
const TOKEN = /\s*('(?:\\.|[^'\\])*'|<=|>=|[=<>*]|[A-Za-z_][\w.]*|\d+)/y;

const tokens = (text: string): string[] =>
  tokenize(text, TOKEN, (at) => new QueryError(`Encountered "${text.slice(at).trim().slice(0, 20)}" at column ${at + 1}`));

/** Parses a query on one of the entities `isEntity` knows. */
export function parseQuery<E extends string>(text: string, isEntity: (name: string) => name is E): Query<E> {
  const words = tokens(text);
  let at = 0;
  const next = (): string | undefined => words[at++];
  const keyword = (...expected: string[]): void => {
    for (const word of expected) {
      const got = next();
      if (got?.toUpperCase() !== word) throw new QueryError(`expected ${word}, found "${got ?? 'end of query'}"`);
    }
  };
  keyword('SELECT');
  if (next() !== '*') throw new QueryError('only SELECT * is answered');
  keyword('FROM');
  const entity = next() ?? '';
  if (!isEntity(entity)) throw new QueryError(`unknown entity "${entity}"`);
  const query: Query<E> = { entity, where: [], orderBy: null, startPosition: 1, maxResults: DEFAULT_MAX_RESULTS };
  let clause = next();
  if (clause?.toUpperCase() === 'WHERE') {
    for (;;) {
      const name = field(next());
      const op = next() ?? '';
      if (!OPERATORS.has(op)) throw new QueryError(`unknown operator "${op}"`);
      const literal = next() ?? '';
      if (!/^'.*'$/s.test(literal)) throw new QueryError(`expected a quoted value after ${name} ${op}`);
      query.where.push({ field: name, op: op as Operator, value: literal.slice(1, -1).replace(/\\(.)/g, '$1') });
      clause = next();
      if (clause?.toUpperCase() !== 'AND') break;
    }
  }
  if (clause?.toUpperCase() === 'ORDERBY' || clause?.toUpperCase() === 'ORDER') {
    if (clause.toUpperCase() === 'ORDER') keyword('BY');
    const name = field(next());
    let descending = false;
    clause = next();
    if (clause?.toUpperCase() === 'ASC' || clause?.toUpperCase() === 'DESC') {
      descending = clause.toUpperCase() === 'DESC';
      clause = next();
    }
    query.orderBy = { field: name, descending };
  }
  if (clause?.toUpperCase() === 'STARTPOSITION') {
    query.startPosition = Number(next());
    clause = next();
  }
  if (clause?.toUpperCase() === 'MAXRESULTS') {
    query.maxResults = Number(next());
    clause = next();
  }
  if (clause !== undefined) throw new QueryError(`unexpected "${clause}"`);
  if (!Number.isInteger(query.startPosition) || query.startPosition < 1) throw new QueryError('STARTPOSITION must be 1 or more');
  if (!Number.isInteger(query.maxResults) || query.maxResults < 1 || query.maxResults > MAX_RESULTS)
    throw new QueryError(`MAXRESULTS must be 1 to ${MAX_RESULTS}`);
  if (entity === 'ExchangeRate' && (query.orderBy?.field === 'Id' || query.where.some((c) => c.field === 'Id')))
    throw new QueryError('ExchangeRate has no Id');
  return query;
}

/** A record's value of a field as something comparable: numbers for Id and times, text for dates. */
function valueOf(record: Json, name: Field): number | string {
  const meta = typeof record.MetaData === 'object' && record.MetaData !== null ? (record.MetaData as Json) : {};
  switch (name) {
    case 'Id':
      return Number(record.Id);
    case 'TxnDate':
      return typeof record.TxnDate === 'string' ? record.TxnDate : '';
    case 'MetaData.CreateTime':
      return typeof meta.CreateTime === 'string' ? Date.parse(meta.CreateTime) : 0;
    case 'MetaData.LastUpdatedTime':
      return typeof meta.LastUpdatedTime === 'string' ? Date.parse(meta.LastUpdatedTime) : 0;
  }
}

function literalOf(condition: Condition): number | string {
  switch (condition.field) {
    case 'Id':
      return Number(condition.value);
    case 'TxnDate':
      return condition.value;
    default: {
      const at = Date.parse(condition.value);
      if (Number.isNaN(at)) throw new QueryError(`"${condition.value}" is not a date-time`);
      return at;
    }
  }
}

const satisfies = (record: Json, condition: Condition): boolean => holds(condition.op, order(valueOf(record, condition.field), literalOf(condition)));

/** The page of `records` the query selects. */
export function runQuery(query: Query, records: readonly Json[]): Json[] {
  const selected = records.filter((r) => query.where.every((c) => satisfies(r, c)));
  const { orderBy } = query;
  const sorted = orderBy === null ? selected : sortedBy(selected, [{ of: (r) => valueOf(r, orderBy.field), descending: orderBy.descending }]);
  return sorted.slice(query.startPosition - 1, query.startPosition - 1 + query.maxResults);
}

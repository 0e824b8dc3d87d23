/**
 * Xero's list behaviour over rendered records: If-Modified-Since (records changed at or after it), `where`, `order`
 * (stable, so records at one UpdatedDateUTC keep their order from page to page), and 100-record pages when `page` is
 * asked. Documents carry their line items only when paged or fetched by id, as Xero sends them.
 */
import type { SimulatorAnswer, SimulatorRequest } from '../kit.ts';
import { envelope, queryParseError } from './answers.ts';
import { xeroMillis } from './dates.ts';
import { matches, parseWhere, sortBy, WhereError } from './where.ts';
import type { Json } from './view.ts';

export const PAGE_SIZE = 100;

export function listAnswer(key: string, records: Json[], request: SimulatorRequest): SimulatorAnswer {
  const listed = listedRecords(records, request.query, request.headers['if-modified-since']);
  return Array.isArray(listed) ? envelope(key, listed) : listed;
}

/** The records a list answer carries, or Xero's refusal of its `where` or `order` (the stand-in lists by it too). */
export function listedRecords(records: Json[], query: URLSearchParams, since: string | undefined): Json[] | SimulatorAnswer {
  let list = records;
  if (since !== undefined && since !== '') {
    const from = Date.parse(since);
    if (!Number.isNaN(from)) list = list.filter((r) => (xeroMillis(r.UpdatedDateUTC ?? r.CreatedDateUTC) ?? Number.POSITIVE_INFINITY) >= from);
  }
  try {
    const where = query.get('where');
    if (where !== null && where.trim() !== '') {
      const expr = parseWhere(where);
      list = list.filter((r) => matches(expr, r));
    }
    const order = query.get('order');
    if (order !== null && order.trim() !== '') list = sortBy(list, order);
  } catch (error) {
    if (error instanceof WhereError) return queryParseError(error.message);
    throw error;
  }
  const page = query.get('page');
  if (page !== null) {
    const size = Math.min(1000, Math.max(1, Number(query.get('pageSize') ?? PAGE_SIZE) || PAGE_SIZE));
    const n = Math.max(1, Number(page) || 1);
    list = list.slice((n - 1) * size, n * size);
  }
  if (page === null || query.get('summaryOnly') === 'true') list = list.map(({ LineItems: _lines, ...rest }) => rest);
  return list;
}

/** One record by its id field, with its lines. */
export function oneAnswer(key: string, idField: string, records: readonly Json[], id: string, notFound: () => SimulatorAnswer): SimulatorAnswer {
  const found = records.filter((r) => typeof r[idField] === 'string' && r[idField].toLowerCase() === id.toLowerCase());
  return found.length === 0 ? notFound() : envelope(key, found);
}

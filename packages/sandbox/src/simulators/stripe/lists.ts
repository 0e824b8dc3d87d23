/**
 * Stripe's list behaviour (https://docs.stripe.com/api/pagination): newest first; `limit` 1 to 100, default 10;
 * `starting_after` (the page after an object, older) and `ending_before` (the page before one, newer); `created` as a
 * unix time or `created[gt|gte|lt|lte]`; the envelope {object: 'list', data, has_more, url}. A parameter the endpoint
 * does not take is refused as Stripe refuses it ("Received unknown parameter").
 */
import type { SimulatorAnswer } from '../kit.ts';
import { sortedBy } from '../lists.ts';
import { badParameter, noSuch, unknownParameter, type Json } from './answers.ts';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
const LIST_PARAMS = ['limit', 'starting_after', 'ending_before', 'created'];

/** `created[gte]` → name `created`, key `gte`; `types[0]` and `types[]` → name `types`, key ``. */
function splitKey(key: string): { name: string; sub: string | null } {
  const match = /^([^[\]]+)\[([^\]]*)\]$/.exec(key);
  return match === null ? { name: key, sub: null } : { name: match[1] ?? key, sub: match[2] ?? '' };
}

/** The values of a list parameter: `types[0]=a&types[1]=b`, `types[]=a`, or plain `types=a`. */
export function listParam(query: URLSearchParams, name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of query) if (splitKey(key).name === name) values.push(value);
  return values;
}

/** The first parameter of the query the endpoint does not take (`expand` included: the simulator expands nothing). */
export function unknownParam(query: URLSearchParams, allowed: readonly string[]): string | null {
  for (const key of query.keys()) {
    const { name } = splitKey(key);
    if (!LIST_PARAMS.includes(name) && !allowed.includes(name)) return key;
  }
  return null;
}

function integer(value: string): number | null {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : null;
}

type Bounds = { gt?: number; gte?: number; lt?: number; lte?: number };

function boundsOf(query: URLSearchParams, name: string): Bounds | SimulatorAnswer {
  const bounds: Bounds = {};
  for (const [key, value] of query) {
    const { name: base, sub } = splitKey(key);
    if (base !== name) continue;
    const n = integer(value);
    if (n === null) return badParameter(key, `Invalid integer: ${value}`);
    if (sub === null) {
      bounds.gte = n;
      bounds.lte = n;
    } else if (sub === 'gt' || sub === 'gte' || sub === 'lt' || sub === 'lte') bounds[sub] = n;
    else return unknownParameter(key);
  }
  return bounds;
}

const within = (t: number, b: Bounds): boolean =>
  (b.gt === undefined || t > b.gt) && (b.gte === undefined || t >= b.gte) && (b.lt === undefined || t < b.lt) && (b.lte === undefined || t <= b.lte);

const isAnswer = (value: Bounds | SimulatorAnswer): value is SimulatorAnswer => 'status' in value;

/** Stripe's order: newest first; one second's objects by id, descending, so pages are stable. */
export const newestFirst = (items: readonly Json[]): Json[] =>
  sortedBy(items, [
    { of: (j) => (typeof j.created === 'number' ? j.created : 0), descending: true },
    { of: (j) => String(j.id), descending: true },
  ]);

/**
 * One page of `items` (every object of the list, in Stripe's order: `newestFirst`) for the query, as Stripe answers it.
 * `object` names the items in a not-found message; `more` are bounds on other time fields the endpoint takes (payouts'
 * arrival_date).
 */
export function listPage(items: readonly Json[], query: URLSearchParams, url: string, object: string, more: readonly string[] = []): SimulatorAnswer {
  const limitText = query.get('limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    const n = integer(limitText);
    if (n === null) return badParameter('limit', `Invalid integer: ${limitText}`);
    if (n < 1 || n > MAX_LIMIT) return badParameter('limit', `This value must be greater than or equal to 1 and less than or equal to ${MAX_LIMIT}.`);
    limit = n;
  }
  const inBounds: ((j: Json) => boolean)[] = [];
  for (const field of ['created', ...more]) {
    const bounds = boundsOf(query, field);
    if (isAnswer(bounds)) return bounds;
    inBounds.push((j) => typeof j[field] === 'number' && within(j[field], bounds));
  }
  const after = query.get('starting_after');
  // ending_before pages towards newer objects, unless starting_after is given too.
  const before = after === null ? query.get('ending_before') : null;
  const cursor = before ?? after;
  const at = cursor === null ? -1 : items.findIndex((j) => j.id === cursor);
  if (cursor !== null && at < 0) return noSuch(object, cursor, before === null ? 'starting_after' : 'ending_before');
  // From the cursor away (older, or newer for ending_before), one object past the page to know whether there are more.
  const step = before === null ? 1 : -1;
  const data: Json[] = [];
  let hasMore = false;
  for (let i = at + step; i >= 0 && i < items.length && !hasMore; i += step) {
    const item = items[i];
    if (item === undefined || !inBounds.every((inside) => inside(item))) continue;
    if (data.length === limit) hasMore = true;
    else data.push(item);
  }
  if (before !== null) data.reverse();
  return { status: 200, body: { object: 'list', data, has_more: hasMore, url } };
}

/**
 * GET cdc?entities=A,B&changedSince=…: what changed since then, per entity, with deleted records as tombstones
 * (`status: "Deleted"`). QBO looks back 30 days at most, answers at most 1,000 objects, and leaves TaxRate, TaxAgency
 * and the other lists outside CDC out.
 */
import type { SimulatorAnswer, SimulatorBooks } from '../kit.ts';
import { entityNamed, type RenderContext } from './entities.ts';
import { fault, required } from './faults.ts';
import { ok, qboId, qboTime, type Json } from './shapes.ts';

const LOOKBACK_MS = 30 * 24 * 60 * 60_000;
const MAX_OBJECTS = 1000;

function updatedAt(record: Json): number {
  const meta = record.MetaData;
  return typeof meta === 'object' && meta !== null && 'LastUpdatedTime' in meta && typeof meta.LastUpdatedTime === 'string'
    ? Date.parse(meta.LastUpdatedTime)
    : 0;
}

export async function changeDataCapture(books: SimulatorBooks, query: URLSearchParams, ctx: RenderContext): Promise<SimulatorAnswer> {
  const names = (query.get('entities') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const since = Date.parse(query.get('changedSince') ?? '');
  if (names.length === 0) return required('entities', 'cdc needs entities');
  if (Number.isNaN(since)) return required('changedSince', 'cdc needs changedSince as a date-time');
  if (Date.now() - since > LOOKBACK_MS)
    return fault(
      400,
      'ValidationFault',
      '2010',
      'Request has invalid or unsupported property',
      'changedSince must be within the last 30 days',
      'changedSince',
    );
  const responses: Json[] = [];
  let room = MAX_OBJECTS;
  for (const name of names) {
    const entity = entityNamed(name);
    if (entity?.type === undefined || entity.type === null || !entity.cdc) {
      return fault(400, 'ValidationFault', '500', 'Unsupported Operation', `ChangeDataCapture does not cover ${name}`);
    }
    const changed = (await entity.all(books, ctx)).filter((r) => updatedAt(r) >= since);
    const gone = (await books.deleted(entity.type))
      .filter((d) => Date.parse(d.deletedAt) >= since)
      .map((d) => ({ domain: 'QBO', status: 'Deleted', Id: qboId(d.id), MetaData: { LastUpdatedTime: qboTime(d.deletedAt) } }));
    const all = [...changed, ...gone].slice(0, room);
    room -= all.length;
    responses.push(all.length === 0 ? {} : { [entity.name]: all, startPosition: 1, maxResults: all.length });
  }
  return ok({ CDCResponse: [{ QueryResponse: responses }] });
}

/**
 * POST /v3/company/{realmId}/{entity}: a create (no Id), an update (Id and SyncToken; sparse or full, both applied as
 * a patch of the fields sent) or, with ?operation=delete, a delete. Each becomes one SANDBOX write under the request's
 * `requestid` as idempotency key, so a repeated request id applies once and answers the record again; the answer is
 * the record as a read renders it now.
 */
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import { NativeError } from '../../native-error.ts';
import type { Body } from '../../writes/validate.ts';
import type { SimulatorAnswer, SimulatorBooks } from '../kit.ts';
import { isRecord } from '../wire.ts';
import { entityNamed, type RenderContext } from './entities.ts';
import { notFound, refusal, required, stale, unsupported } from './faults.ts';
import { customerBody, vendorBody } from './names.ts';
import { ok, qboId, sandboxId, type Json } from './shapes.ts';
import { billBody, journalEntryBody } from './transactions.ts';

interface Writable {
  entity: string;
  type: UnifiedObjectType;
  body: (from: Json, create: boolean) => Body;
  /** Name lists (customers, vendors) are made inactive in QBO, never deleted. */
  deletable: boolean;
}

const WRITABLE: readonly Writable[] = [
  { entity: 'Bill', type: 'bill', body: billBody, deletable: true },
  { entity: 'JournalEntry', type: 'journal_entry', body: journalEntryBody, deletable: true },
  { entity: 'Customer', type: 'customer', body: customerBody, deletable: false },
  { entity: 'Vendor', type: 'vendor', body: vendorBody, deletable: false },
];

export function writableOfResource(resource: string): Writable | undefined {
  return WRITABLE.find((w) => w.entity.toLowerCase() === resource.toLowerCase());
}

const answer = (entity: string, record: Json): SimulatorAnswer => ok({ [entity]: record });

async function rendered(books: SimulatorBooks, writable: Writable, sandboxRecordId: string, ctx: RenderContext): Promise<SimulatorAnswer> {
  const entity = entityNamed(writable.entity);
  const record = entity === undefined ? null : await entity.get(books, qboId(sandboxRecordId), ctx);
  return record === null ? notFound(writable.entity, qboId(sandboxRecordId)) : answer(writable.entity, record);
}

export async function write(
  books: SimulatorBooks,
  writable: Writable,
  body: unknown,
  query: URLSearchParams,
  ctx: RenderContext,
): Promise<SimulatorAnswer> {
  if (!isRecord(body) || 'malformedJson' in body) return required('body', `Request has no ${writable.entity} object (a JSON body is required)`);
  const idempotencyKey = query.get('requestid');
  const id = typeof body.Id === 'string' || typeof body.Id === 'number' ? String(body.Id) : undefined;
  const operation = query.get('operation');
  if (operation !== null && operation !== 'delete' && operation !== 'update') return unsupported(`POST operation=${operation}`, writable.entity);
  if (operation === 'delete' && !writable.deletable) return unsupported('delete', writable.entity);
  try {
    if (id === undefined) {
      if (operation === 'delete') return required('Id', 'Id is required to delete');
      const result = await books.write({ type: writable.type, op: 'create', id: null, body: writable.body(body, true), idempotencyKey });
      return await rendered(books, writable, itemId(result.body), ctx);
    }
    const current = await entityNamed(writable.entity)?.get(books, id, ctx);
    const target = sandboxId(writable.type, id);
    if (current === null || current === undefined || target === null) return notFound(writable.entity, id);
    const token = typeof body.SyncToken === 'string' || typeof body.SyncToken === 'number' ? String(body.SyncToken) : undefined;
    if (token !== undefined && token !== current.SyncToken) return stale(writable.entity, id);
    if (operation === 'delete') {
      await books.write({ type: writable.type, op: 'delete', id: target, body: {}, idempotencyKey });
      return answer(writable.entity, { domain: 'QBO', status: 'Deleted', Id: id });
    }
    await books.write({ type: writable.type, op: 'update', id: target, body: writable.body(body, false), idempotencyKey });
    return await rendered(books, writable, target, ctx);
  } catch (error) {
    if (error instanceof NativeError) return refusal(error);
    throw error;
  }
}

/** The id of the record a SANDBOX write answered (`{ Item: record }`). */
function itemId(body: Record<string, unknown>): string {
  const item = body.Item;
  return isRecord(item) && typeof item.Id === 'string' ? item.Id : '';
}

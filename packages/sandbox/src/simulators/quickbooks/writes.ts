/**
 * POST /v3/company/{realmId}/{entity}: a create (no Id), an update (Id and SyncToken; sparse or full, both applied as
 * a patch of the fields sent), with ?operation=delete a delete, or with include=void QBO's void of a transaction. Each becomes one SANDBOX write under the request's
 * `requestid` as idempotency key, so a repeated request id applies once and answers the record again; the answer is
 * the record as a read renders it now.
 */
import { NativeError } from '../../native-error.ts';
import type { SimulatorAnswer, SimulatorBooks } from '../kit.ts';
import { isRecord } from '../wire.ts';
import type { RenderContext, WritableEntity } from './entities.ts';
import { notFound, refusal, required, stale, unsupported } from './faults.ts';
import { ok, qboId, sandboxId, type Json } from './shapes.ts';

const answer = (entity: string, record: Json): SimulatorAnswer => ok({ [entity]: record });

async function rendered(books: SimulatorBooks, entity: WritableEntity, sandboxRecordId: string, ctx: RenderContext): Promise<SimulatorAnswer> {
  const record = await entity.get(books, qboId(sandboxRecordId), ctx);
  return record === null ? notFound(entity.name, qboId(sandboxRecordId)) : answer(entity.name, record);
}

export async function write(
  books: SimulatorBooks,
  entity: WritableEntity,
  body: unknown,
  query: URLSearchParams,
  ctx: RenderContext,
): Promise<SimulatorAnswer> {
  if (!isRecord(body) || 'malformedJson' in body) return required('body', `Request has no ${entity.name} object (a JSON body is required)`);
  const idempotencyKey = query.get('requestid');
  const id = typeof body.Id === 'string' || typeof body.Id === 'number' ? String(body.Id) : undefined;
  const operation = query.get('operation');
  if (operation !== null && operation !== 'delete' && operation !== 'update') return unsupported(`POST operation=${operation}`, entity.name);
  if (operation === 'delete' && !entity.written.deletable) return unsupported('delete', entity.name);
  const voiding = query.get('include') === 'void';
  if (voiding && entity.written.voided === undefined) return unsupported('void', entity.name);
  try {
    if (id === undefined) {
      if (operation === 'delete') return required('Id', 'Id is required to delete');
      const result = await books.write({ type: entity.type, op: 'create', id: null, body: entity.written.body(body, true), idempotencyKey });
      return await rendered(books, entity, itemId(result.body), ctx);
    }
    const current = await entity.get(books, id, ctx);
    const target = sandboxId(entity.type, id);
    if (current === null || target === null) return notFound(entity.name, id);
    const token = typeof body.SyncToken === 'string' || typeof body.SyncToken === 'number' ? String(body.SyncToken) : undefined;
    if (token !== undefined && token !== current.SyncToken) return stale(entity.name, id);
    if (operation === 'delete') {
      await books.write({ type: entity.type, op: 'delete', id: target, body: {}, idempotencyKey });
      return answer(entity.name, { domain: 'QBO', status: 'Deleted', Id: id });
    }
    const change = voiding ? (entity.written.voided ?? {}) : entity.written.body(body, false);
    await books.write({ type: entity.type, op: 'update', id: target, body: change, idempotencyKey });
    return await rendered(books, entity, target, ctx);
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

/**
 * Creates, updates and deletes. Every write carries the job's idempotency key
 * as QBO's `requestid`: QBO answers a repeated request id with the outcome of
 * the first request, so the HTTP layer may retry a write, and a create whose
 * answer was lost is looked up by sending it again (findCreated). Updates and
 * deletes need the record's current SyncToken: the record is read first, and
 * when someone changed it in between (5010 stale object) it is read again and
 * the write is tried once more.
 */
import type { ObjectHandler, PlatformRecord, WriteContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { invalid, type Input, type Native } from '../inbound.ts';
import { callQbo } from './client.ts';
import { parseRecord } from './contract.ts';

export interface WriteSpec {
  /** QBO entity name ("Bill"), the key of its answers; lower-cased it is the REST resource. */
  entity: string;
  /** The request body of a create (and of an update's sparse change); absent: the entity is not created through us. */
  body?: (ctx: WriteContext, input: Input) => Promise<Native>;
  /**
   * How a DELETE is carried out: `delete` (QBO deletes the transaction), `deactivate` (a name list entry such as Vendor
   * or Term, which QBO never deletes: its delete in QBO's own screens makes it inactive, Active false), or not at all.
   */
  deletes?: 'delete' | 'deactivate';
  /** Created only: no update through us (classes, departments and terms, whose updates the API does not serve). */
  createOnly?: true;
  duplicateProperty?: string;
  /** A PATCH of `status: "void"` alone is QBO's void (an update with include=void: amounts zeroed, the record kept). */
  voids?: true;
}

function recordOf(spec: WriteSpec, body: Record<string, unknown>): PlatformRecord {
  const raw = body[spec.entity];
  if (raw === undefined) throw new Error(`QuickBooks Online answered without a ${spec.entity}`);
  const record = parseRecord(spec.entity, raw);
  return { platformId: String(record.Id), raw: record };
}

const resource = (spec: WriteSpec): string => spec.entity.toLowerCase();

async function readCurrent(ctx: WriteContext, spec: WriteSpec, platformId: string): Promise<Record<string, unknown>> {
  const body = await callQbo(ctx, { method: 'GET', path: `${resource(spec)}/${encodeURIComponent(platformId)}`, operation: `read ${spec.entity}` });
  return recordOf(spec, body).raw;
}

/**
 * Sends a write that needs the current SyncToken. A stale token (someone
 * changed the record since it was read) re-reads and sends once more, with a
 * request id of its own: the first request failed, so it is no repeat.
 */
async function withSyncToken(
  ctx: WriteContext,
  spec: WriteSpec,
  platformId: string,
  operation: 'update' | 'delete' | 'void',
  build: (current: Record<string, unknown>) => Native,
): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const current = await readCurrent(ctx, spec, platformId);
    try {
      return await post(ctx, spec, operation, build(current), attempt === 1 ? ctx.idempotencyKey : `${ctx.idempotencyKey}-${attempt}`);
    } catch (error) {
      if (attempt >= 2 || !(error instanceof PlatformError) || error.kind !== 'conflict') throw error;
    }
  }
}

/** The query parameters that make a POST of the entity a delete or a void (create and update need none). */
const OPERATION_QUERY: Readonly<Partial<Record<string, Record<string, string>>>> = {
  delete: { operation: 'delete' },
  void: { operation: 'update', include: 'void' },
};

/** A write of the entity under a request id (QBO answers a repeated one with the first outcome). */
function post(
  ctx: WriteContext,
  spec: WriteSpec,
  operation: 'create' | 'update' | 'delete' | 'void',
  body: Native,
  requestId: string,
): Promise<Record<string, unknown>> {
  const query = OPERATION_QUERY[operation];
  return callQbo(ctx, {
    method: 'POST',
    path: resource(spec),
    body,
    operation: `${operation} ${spec.entity}`,
    requestId,
    ...(query === undefined ? {} : { query }),
    ...(spec.duplicateProperty === undefined ? {} : { duplicateProperty: spec.duplicateProperty }),
  });
}

/** QBO's void of a transaction: only its Id and SyncToken go, so nothing else may change with it. */
function voidRecord(ctx: WriteContext, spec: WriteSpec, platformId: string, patch: Input): Promise<Record<string, unknown>> {
  const others = Object.keys(patch).filter((field) => field !== 'status');
  if (others.length > 0) throw invalid(others[0] ?? 'status', 'QuickBooks Online voids a transaction as it is: send status "void" alone.');
  return withSyncToken(ctx, spec, platformId, 'void', (current) => ({ Id: platformId, SyncToken: current.SyncToken, sparse: true }));
}

export function writeHandlers(spec: WriteSpec): Pick<ObjectHandler, 'create' | 'update' | 'delete' | 'findCreated'> {
  const handlers: Pick<ObjectHandler, 'create' | 'update' | 'delete' | 'findCreated'> = {};
  const { body } = spec;
  if (body !== undefined) {
    const create = async (ctx: WriteContext, input: Input): Promise<PlatformRecord> =>
      recordOf(spec, await post(ctx, spec, 'create', await body(ctx, input), ctx.idempotencyKey));
    handlers.create = create;
    // The same request id again: QBO answers with the record the earlier attempt created, or creates it now if it never arrived.
    handlers.findCreated = create;
  }
  if (body !== undefined && spec.createOnly !== true) {
    handlers.update = async (ctx, platformId, patch) => {
      if (spec.voids === true && patch.status === 'void') return recordOf(spec, await voidRecord(ctx, spec, platformId, patch));
      const changes = await body(ctx, patch);
      const answer = await withSyncToken(ctx, spec, platformId, 'update', (current) => ({
        ...changes,
        Id: platformId,
        SyncToken: current.SyncToken,
        sparse: true,
      }));
      return recordOf(spec, answer);
    };
  }
  if (spec.deletes === 'delete') {
    handlers.delete = async (ctx, platformId) => {
      await withSyncToken(ctx, spec, platformId, 'delete', (current) => ({ Id: platformId, SyncToken: current.SyncToken }));
    };
  }
  if (spec.deletes === 'deactivate') {
    handlers.delete = async (ctx, platformId) => {
      await withSyncToken(ctx, spec, platformId, 'update', (current) => ({
        Id: platformId,
        SyncToken: current.SyncToken,
        sparse: true,
        Active: false,
      }));
    };
  }
  return handlers;
}

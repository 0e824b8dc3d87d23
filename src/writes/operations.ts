/**
 * What each kind of write asks of the connector, and what it leaves behind:
 * the record to store (write-through), the record that is gone, and the answer
 * the client gets. One entry per operation; the executor does the rest
 * (locks, retries, storing, events) the same way for all of them.
 */
import type { Pool, PoolClient } from '../db/pool.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { OBJECT_TYPES, isUnifiedObjectType, type UnifiedObjectType } from '../model/object-types.ts';
import type {
  Connector,
  ConnectorActions,
  FulfillmentInput,
  NestedHandler,
  ObjectHandler,
  PlatformRecord,
  WriteContext,
} from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { insertBankFeedTransactions } from '../sql/bank-feed-transactions.ts';
import { loadJobFile, type WriteJob } from '../sql/write-jobs.ts';
import type { WriteOperation } from '../sql/write-job-states.ts';
import { feedLine, referenceLine, type SentFeedLine } from './bank-feed-lines.ts';
import { creditSideOf } from './credit-sides.ts';
import { deletedBody } from './deleted-answers.ts';
import { withOurNames } from './input-names.ts';
import { nestedDeletedBody, nestedOfJob, type NestedKind, type NestedOperation } from './nested.ts';

type Json = Record<string, unknown>;

export interface OperationInput {
  job: WriteJob;
  type: UnifiedObjectType;
  connector: Connector;
  ctx: WriteContext;
  pool: Pool;
  /** The record the write acts on, as stored now; null for creates. */
  target: { id: string; platformId: string; data: Json } | null;
}

export interface Answer {
  status: number;
  body: unknown;
}

export interface Effect {
  store?: { type: UnifiedObjectType; record: PlatformRecord };
  remove?: { type: UnifiedObjectType; platformId: string };
  /** What else the write leaves in the store, in the transaction that completes the job. */
  keep?(db: PoolClient): Promise<void>;
  /** The client's answer, given the stored object when one was stored. */
  answer(stored: Json | null): Answer;
}

type Operation = (input: OperationInput) => Promise<Effect>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The part of the request body under `key` (the singular name, or an action's wrapper). */
export function bodyPart(job: WriteJob, key: string): Json {
  const body = job.request.body;
  const part = isJson(body) ? body[key] : undefined;
  return isJson(part) ? part : {};
}

function notSupported(what: string, platform: string): ServiceError {
  return new ServiceError('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM', `${what} is not supported for platform ${platform}; see docs/platforms.md.`, {
    source: 'service',
  });
}

function handlerFor(connector: Connector, type: UnifiedObjectType, op: 'create' | 'update' | 'delete'): ObjectHandler {
  const entry = connector.objects[type];
  if (entry?.capabilities[op] !== true) throw notSupported(`${op} ${type}`, connector.id);
  return entry.handler;
}

function actionFor<K extends keyof ConnectorActions>(connector: Connector, name: K): NonNullable<ConnectorActions[K]> {
  const action = connector.actions?.[name];
  if (action === undefined) throw notSupported(name, connector.id);
  return action;
}

function requireTarget(input: OperationInput): NonNullable<OperationInput['target']> {
  if (input.target === null) throw new Error(`job ${input.job.id} (${input.job.operation}) has no target`);
  return input.target;
}

const objectAnswer =
  (type: UnifiedObjectType) =>
  (stored: Json | null): Answer => ({ status: 200, body: { [OBJECT_TYPES[type].singular]: stored } });

/** A create that may already have happened is looked up on the platform before anything is sent again. */
async function create({ job, type, connector, ctx }: OperationInput): Promise<Effect> {
  const handler = handlerFor(connector, type, 'create');
  const input = withOurNames(type, bodyPart(job, OBJECT_TYPES[type].singular));
  let record: PlatformRecord | null = null;
  if (job.indeterminate) {
    if (handler.findCreated === undefined) {
      throw new ServiceError(
        'PLATFORM_ERROR',
        `An earlier attempt of this create may have reached ${connector.id} and it cannot be checked; nothing was sent again. Check the platform before creating it anew.`,
        { source: 'service', indeterminate: true },
      );
    }
    record = await handler.findCreated(ctx, input);
  }
  record ??= (await handler.create?.(ctx, input)) ?? null;
  if (record === null) throw new Error(`${connector.id} create ${type} returned nothing`);
  return { store: { type, record }, answer: objectAnswer(type) };
}

async function update(input: OperationInput): Promise<Effect> {
  const { job, type, connector, ctx } = input;
  const handler = handlerFor(connector, type, 'update');
  const patch = withOurNames(type, bodyPart(job, OBJECT_TYPES[type].singular));
  // A PATCH carries absolute values: applying it again after an indeterminate attempt changes nothing more.
  const record = await handler.update?.(ctx, requireTarget(input).platformId, patch);
  if (record === undefined) throw new Error(`${connector.id} update ${type} returned nothing`);
  return { store: { type, record }, answer: objectAnswer(type) };
}

async function remove(input: OperationInput): Promise<Effect> {
  const { job, type, connector, ctx } = input;
  const handler = handlerFor(connector, type, 'delete');
  const { platformId } = requireTarget(input);
  try {
    await handler.delete?.(ctx, platformId);
  } catch (error) {
    // The earlier, interrupted attempt deleted it.
    if (!(job.indeterminate && error instanceof PlatformError && error.kind === 'not_found')) throw error;
  }
  return { remove: { type, platformId }, answer: () => ({ status: 200, body: deletedBody(type, requireTarget(input).id) }) };
}

interface Allocation {
  id: string;
  allocated_amount: number;
}

function allocations(value: unknown): Allocation[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isJson)
    .map((entry) => ({ id: String(entry.id), allocated_amount: typeof entry.allocated_amount === 'number' ? entry.allocated_amount : 0 }));
}

const cents = (amount: number): number => Math.round(amount * 100);

/**
 * The credit memo's applications after the change, as absolute amounts: sending
 * the whole list again after an interrupted attempt leaves the same state.
 */
export function appliedAfter(current: Allocation[], change: Allocation[], operation: 'apply_credit' | 'unapply_credit'): Allocation[] {
  const byDocument = new Map(current.map((a) => [a.id, cents(a.allocated_amount)]));
  for (const entry of change) {
    if (operation === 'unapply_credit') byDocument.delete(entry.id);
    else byDocument.set(entry.id, (byDocument.get(entry.id) ?? 0) + cents(entry.allocated_amount));
  }
  return [...byDocument].map(([id, amount]) => ({ id, allocated_amount: amount / 100 }));
}

/**
 * Applying a credit memo, or undoing it: an update of the memo's applications, sent as absolute amounts (bill or
 * invoice credit memo alike, src/writes/credit-sides.ts). The answer carries the reference's `{success: true}`
 * beside the credit memo (src/api/accounting/credit-applications).
 */
function creditApplication(operation: 'apply_credit' | 'unapply_credit'): Operation {
  return async (input) => {
    const { job, type, connector, ctx } = input;
    const side = creditSideOf(type);
    if (side === null) throw new Error(`job ${job.id} applies credit of a ${type}`);
    const handler = handlerFor(connector, side.memoType, 'update');
    const target = requireTarget(input);
    const change = allocations(bodyPart(job, side.key)[side.linkedField]);
    const linked = appliedAfter(allocations(target.data[side.linkedField]), change, operation);
    const record = await handler.update?.(ctx, target.platformId, { [side.linkedField]: linked });
    if (record === undefined) throw new Error(`${connector.id} update ${side.memoType} returned nothing`);
    const referenceKey = side.referenceKeys[operation === 'apply_credit' ? 'apply' : 'unapply'];
    return {
      store: { type: side.memoType, record },
      answer: (stored) => ({ status: 200, body: { [side.memoType]: stored, [referenceKey]: { success: true } } }),
    };
  };
}

async function uploadAttachment(input: OperationInput): Promise<Effect> {
  const { job, type, connector, ctx, pool } = input;
  const upload = actionFor(connector, 'uploadAttachment');
  const file = await loadJobFile(pool, job.id);
  if (file === null) throw new Error(`job ${job.id} has no file`);
  // Connectors send uploads with ctx.idempotencyKey: a repeat after an interrupted attempt returns the first attachment.
  const record = await upload(ctx, { type, platformId: requireTarget(input).platformId }, file);
  return { store: { type: 'attachment', record }, answer: objectAnswer('attachment') };
}

async function sendBankFeedTransactions(input: OperationInput): Promise<Effect> {
  const { job, connector, ctx } = input;
  const send = actionFor(connector, 'sendBankFeedTransactions');
  const part = bodyPart(job, 'bank_feed_transactions');
  // The body as the client sent it, checked by the endpoint: our names or the reference's.
  const sent = (Array.isArray(part.transactions) ? part.transactions : []) as SentFeedLine[];
  const pairs = sent.map((line, n) => ({ sent: line, line: feedLine(line, `bank_feed_transactions.transactions[${n}]`) }));
  const transactions = pairs.map((pair) => pair.line);
  // Platforms de-duplicate lines on internal_transaction_id, so a repeated batch adds nothing twice.
  const target = requireTarget(input);
  const result = await send(ctx, target.platformId, transactions);
  const lines = pairs.map((pair) => ({ transactionId: pair.line.internal_transaction_id, line: referenceLine(pair.sent, pair.line) }));
  return {
    store: { type: 'bank_feed_account', record: result.feedAccount },
    // The lines the platform skipped as duplicates are kept too: it has them, from this or an earlier batch.
    keep: (db) => insertBankFeedTransactions(db, { connectionId: job.connectionId, bankFeedAccountId: target.id, writeJobId: job.id, lines }),
    answer: () => ({
      status: 200,
      body: {
        bank_feed_transactions: {
          bank_feed_account_id: target.id,
          accepted_count: result.accepted,
          duplicate_count: result.duplicates,
          platform_batch_id: result.batchPlatformId,
        },
      },
    }),
  };
}

async function bankFeedMappingLink(input: OperationInput): Promise<Effect> {
  const { connector, ctx } = input;
  const link = await actionFor(connector, 'bankFeedMappingLink')(ctx, requireTarget(input).platformId);
  return {
    answer: () => ({
      status: 200,
      body: {
        mapping_link: { bank_feed_account_id: requireTarget(input).id, url: link.url, expires_at: link.expiresAt },
        bank_feed_account_mapping_link: { url: link.url, expires_at: link.expiresAt },
      },
    }),
  };
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The fulfillment as the endpoint checked it (src/writes/commerce-bodies.ts), typed. */
function fulfillmentOf(part: Json): FulfillmentInput {
  const lines = Array.isArray(part.line_items) ? part.line_items.filter(isJson) : [];
  const notify = isJson(part.additional_fields) ? part.additional_fields.notify_customer : undefined;
  const fulfillment: FulfillmentInput = {
    carrier: String(part.carrier),
    tracking_number: String(part.tracking_number),
    line_items: lines.map((l) => ({
      line_item_id: String(l.line_item_id),
      ...(typeof l.quantity === 'number' ? { quantity: l.quantity } : {}),
    })),
  };
  const service = optionalText(part.service);
  const trackingUrl = optionalText(part.tracking_url);
  const locationId = optionalText(part.location_id);
  if (service !== undefined) fulfillment.service = service;
  if (trackingUrl !== undefined) fulfillment.tracking_url = trackingUrl;
  if (locationId !== undefined) fulfillment.location_id = locationId;
  if (typeof notify === 'boolean') fulfillment.additional_fields = { notify_customer: notify };
  return fulfillment;
}

/**
 * A shipment of an order's lines. A repeat after an interrupted attempt is safe where the platform dedupes on the job
 * id (SANDBOX's Idempotency-Key); the answer is the new fulfillment as the stored order has it.
 */
async function fulfill(input: OperationInput): Promise<Effect> {
  const { job, connector, ctx } = input;
  const send = actionFor(connector, 'fulfillOrder');
  const result = await send(ctx, requireTarget(input).platformId, fulfillmentOf(bodyPart(job, 'fulfillment')));
  return {
    store: { type: 'order', record: result.order },
    answer: (stored) => {
      const shipped = Array.isArray(stored?.fulfillments) ? (stored.fulfillments as Json[]) : [];
      return { status: 200, body: { fulfillment: shipped.find((f) => f.id === result.fulfillmentPlatformId) ?? null } };
    },
  };
}

/** The nested handler a connector has for a kind and operation, or not supported. */
function nestedHandlerFor<K extends NestedOperation>(connector: Connector, kind: NestedKind, op: K): NonNullable<NestedHandler[K]> {
  const handler = connector.objects[kind.parent]?.handler.nested?.[kind.field]?.[op];
  if (handler === undefined) throw notSupported(`${op} ${kind.singular}`, connector.id);
  return handler;
}

function nestedIdOf(job: WriteJob, nestedId: string | null): string {
  if (nestedId === null) throw new Error(`job ${job.id} (${job.request.path}) names no nested record`);
  return nestedId;
}

/**
 * A record kept inside a commerce object (src/writes/nested.ts): the platform answers the parent afterwards, which is
 * stored; the answer is the nested record as stored, or the reference's answer to a delete.
 */
function nestedWrite(op: NestedOperation): Operation {
  return async (input) => {
    const { job, connector, ctx } = input;
    const { kind, nestedId } = nestedOfJob(job);
    const parent = requireTarget(input);
    const body = bodyPart(job, kind.singular);
    // A repeated attempt is sent with the same idempotency key (an update carries absolute values anyway).
    const result =
      op === 'create'
        ? await nestedHandlerFor(connector, kind, 'create')(ctx, parent.platformId, body)
        : op === 'update'
          ? await nestedHandlerFor(connector, kind, 'update')(ctx, parent.platformId, nestedIdOf(job, nestedId), withoutId(body))
          : await nestedHandlerFor(connector, kind, 'delete')(ctx, parent.platformId, nestedIdOf(job, nestedId));
    return {
      store: { type: kind.parent, record: result.parent },
      answer: (stored) => {
        if (op === 'delete') return { status: 200, body: nestedDeletedBody(kind, parent.id, result.nestedId) };
        const entries = stored !== null && Array.isArray(stored[kind.field]) ? (stored[kind.field] as unknown[]) : [];
        const written = entries.find((entry) => isJson(entry) && entry.id === result.nestedId) ?? null;
        return { status: 200, body: { [kind.singular]: written } };
      },
    };
  };
}

/** The reference's update body repeats the nested record's id (checked equal to the path's): not a change. */
function withoutId(body: Json): Json {
  const { id: _id, ...rest } = body;
  return rest;
}

export const OPERATIONS: Readonly<Record<WriteOperation, Operation>> = {
  create,
  update,
  delete: remove,
  apply_credit: creditApplication('apply_credit'),
  unapply_credit: creditApplication('unapply_credit'),
  upload_attachment: uploadAttachment,
  send_bank_feed_transactions: sendBankFeedTransactions,
  bank_feed_mapping_link: bankFeedMappingLink,
  fulfill,
  create_nested: nestedWrite('create'),
  update_nested: nestedWrite('update'),
  delete_nested: nestedWrite('delete'),
};

/** The object type a job's target (or created record) is of. */
export function jobObjectType(job: WriteJob): UnifiedObjectType {
  if (!isUnifiedObjectType(job.objectType)) throw new Error(`job ${job.id} has unknown object type ${job.objectType}`);
  return job.objectType;
}

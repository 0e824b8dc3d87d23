/**
 * The typed object table (docs/connectors.md, "Reads"): `defineObject<'bill'>({...})` ties an object's `map` to the
 * model's unified type, so a field the model lacks, a missing field or a wrong type fails the typecheck in the
 * connector, not at run time, and its writes to the model's field names. What the sync runner sees is the erased
 * ObjectHandler of src/platforms/connector.ts, as before.
 */
import type { ObjectTypeMap } from '../model/fields.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import type {
  BulkRead,
  ConnectorContext,
  ObjectCapabilities,
  ObjectHandler,
  PlatformRecord,
  ReadPage,
  ReadRequest,
  WriteContext,
} from './connector.ts';
import { namesUnknownCurrency, type BaseCurrency } from './readers.ts';

/** The unified object without the service-owned fields: what a connector's `map` returns. */
export type Mapped<K extends UnifiedObjectType> = Omit<ObjectTypeMap[K], 'id' | 'last_synced_at' | 'platform_data'>;

/**
 * A write's body: the model's field names, each value still to be read (the write schema of src/writes checked it
 * before the connector is called; connectors read values with the readers, never cast them).
 */
export type WriteInput<K extends UnifiedObjectType> = { readonly [F in keyof Mapped<K>]?: unknown } & Readonly<Record<string, unknown>>;

export interface BaseSpec {
  of: BaseCurrency;
  fields: readonly string[];
}

export interface ObjectSpec<K extends UnifiedObjectType> {
  capabilities: ObjectCapabilities;
  /** Paged reads; with `bulk`, the incremental ones. */
  read: (ctx: ConnectorContext, request: ReadRequest) => Promise<ReadPage>;
  bulk?: BulkRead;
  /** Unified fields from a raw record; links via ctx.ref. Pure and synchronous. */
  map: (record: PlatformRecord, ctx: ConnectorContext) => Mapped<K>;
  businessDate?: (record: PlatformRecord) => string | null;
  /** The connection's base currency and the raw fields that name a currency: `map` reads it with `knownBase`. */
  baseCurrency?: BaseSpec;
  create?: (ctx: WriteContext, input: WriteInput<K>) => Promise<PlatformRecord>;
  update?: (ctx: WriteContext, platformId: string, patch: WriteInput<K>) => Promise<PlatformRecord>;
  delete?: (ctx: WriteContext, platformId: string) => Promise<void>;
  findCreated?: (ctx: WriteContext, input: WriteInput<K>) => Promise<PlatformRecord | null>;
}

/** How an object is read and mapped: an ObjectSpec without its capabilities and writes (a table of reads per platform). */
export type ObjectReads<K extends UnifiedObjectType> = Pick<ObjectSpec<K>, 'read' | 'bulk' | 'map' | 'businessDate' | 'baseCurrency'>;

/** Each object's reads, typed by its unified type. */
export type ReadTable = { readonly [K in UnifiedObjectType]?: ObjectReads<K> };

/** An entry of a Connector's `objects`. */
export interface ObjectEntry {
  capabilities: ObjectCapabilities;
  handler: ObjectHandler;
}

/**
 * Hands a page on once the job's base currency is known, if a record of it names a currency the model does not know
 * (in a field named `fields`, at any depth): only then does `map` need it, so a job whose records name known currencies
 * (nearly all) makes no call for it.
 */
async function withBase<P extends { records: PlatformRecord[] }>(spec: BaseSpec | undefined, ctx: ConnectorContext, page: P): Promise<P> {
  if (spec !== undefined && page.records.some((record) => namesUnknownCurrency(record.raw, spec.fields))) await spec.of.get(ctx);
  return page;
}

export function defineObject<K extends UnifiedObjectType>(spec: ObjectSpec<K>): ObjectEntry {
  const { capabilities, read, bulk, map, businessDate, baseCurrency: base, create, update, findCreated } = spec;
  const remove = spec.delete;
  const handler: ObjectHandler = {
    read: async (ctx, request) => withBase(base, ctx, await read(ctx, request)),
    // A spread copy: the model's interfaces have no index signature, the runner's erased handler wants one.
    map: (record, ctx) => ({ ...map(record, ctx) }),
    ...(bulk === undefined
      ? {}
      : { bulk: { ...bulk, readExportPage: async (ctx, id, cursor) => withBase(base, ctx, await bulk.readExportPage(ctx, id, cursor)) } }),
    ...(businessDate === undefined ? {} : { businessDate }),
    ...(create === undefined ? {} : { create: (ctx, input) => create(ctx, input) }),
    ...(update === undefined ? {} : { update: (ctx, id, patch) => update(ctx, id, patch) }),
    ...(remove === undefined ? {} : { delete: (ctx, id) => remove(ctx, id) }),
    ...(findCreated === undefined ? {} : { findCreated: (ctx, input) => findCreated(ctx, input) }),
  };
  return { capabilities, handler };
}

/** A Connector's `objects` from its entries, keyed by unified type. */
export type ObjectTable = Partial<Record<UnifiedObjectType, ObjectEntry>>;

/**
 * Stores one page read from a platform: maps records to unified objects,
 * compares content hashes with the stored copy, writes only what changed, and
 * writes the matching entity events and the read's resume point — all in one
 * transaction, so a crash at any point redoes the page without losing or
 * duplicating a change or an event.
 */
import { setImmediate } from 'node:timers/promises';
import type { Cipher } from '../crypto/secrets.ts';
import type { PoolClient } from '../db/pool.ts';
import { emitEvents, type NewEvent } from '../events/emit.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import type { ConnectorContext, ObjectHandler, ReadPage } from '../platforms/connector.ts';
import {
  deleteByPlatformIds,
  loadStoredHashes,
  markSeen,
  upsertRecords,
  type DeletedRecord,
  type RecordWrite,
  type StoredHash,
} from '../sql/records.ts';
import type { Tenant } from '../tenants/types.ts';
import { serviceId } from '../store/ids.ts';
import { canonicalJson, hashOfText } from './hash.ts';
import { conformMapped, type MappingCheck } from './mapped-check.ts';

export interface PageContext {
  tenant: Tenant;
  connectionId: string;
  accessToken: string;
  /** Seals the access token of the page's events (src/events/emit.ts). */
  cipher: Cipher;
  objectType: UnifiedObjectType;
  handler: ObjectHandler;
  connectorContext: ConnectorContext;
  runId: string;
  /**
   * Pages record the platform ids they saw, for the deletion sweep at the end of a full listing. Not needed when no
   * live record of the type was synced before the run: the sweep considers only those, and every record stored from
   * then on is newer (measured: a million-record initial sync wrote, and later deleted, a million sync_seen rows).
   */
  rememberSeen: boolean;
  /**
   * False only for an initial download into a store holding nothing of the type: there is nothing to compare with and
   * nothing is announced, so the stored-hash lookup is skipped (a record met twice is simply written twice).
   */
  compareStored: boolean;
  /** Set when the page is the result of a client's write: its entity events carry the job id. */
  jobId?: string;
  /**
   * False while a connection's initial download runs: what it finds is announced once, by INITIAL_UPDATE (and
   * HISTORICAL_UPDATE per batch), not by one entity event per record (docs/sync.md, "Change detection").
   */
  announceChanges: boolean;
  /** How a mapped object that does not fit its unified schema is handled (src/sync/mapped-check.ts). */
  mapping: MappingCheck;
}

export interface PageOutcome {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  rawOnly: number;
}

function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return Number.isNaN(Date.parse(value)) ? null : value;
}

export function entityEvent(
  ctx: Pick<PageContext, 'connectionId' | 'accessToken' | 'objectType'>,
  change: 'CREATED' | 'UPDATED' | 'DELETED',
  object: Record<string, unknown>,
  jobId?: string,
): Omit<NewEvent, 'tenant'> {
  const names = OBJECT_TYPES[ctx.objectType];
  return {
    connectionId: ctx.connectionId,
    type: names.entity,
    code: `${names.entity}_${change}`,
    payload: {
      type: names.entity,
      code: `${names.entity}_${change}`,
      connection_id: ctx.connectionId,
      access_token: ctx.accessToken,
      [names.singular]: object,
      ...(jobId !== undefined ? { job_id: jobId } : {}),
    },
  };
}

export function deletedEvents(ctx: PageContext, rows: DeletedRecord[]): Omit<NewEvent, 'tenant'>[] {
  return rows.map((row) => entityEvent(ctx, 'DELETED', { ...row.data, last_synced_at: row.last_synced_at.toISOString() }, ctx.jobId));
}

/** A page mapped and hashed, ready to be compared with the stored copy and written. */
export interface PreparedPage {
  live: Map<string, RecordWrite>;
  tombstones: Set<string>;
}

/** Records prepared between two turns of the event loop (about 2 ms of work). */
const PREPARE_SLICE = 32;

/**
 * The CPU part of storing a page (mapping to unified objects, content hashes), apart
 * from the database part, so a sync can prepare its next page while this one is written.
 * It yields to the event loop every few records: the page being written goes on to its next
 * statement as soon as the database answers, instead of waiting for this whole page
 * (measured: the database sat idle for most of each page's preparation).
 */
export async function preparePage(ctx: PageContext, page: ReadPage): Promise<PreparedPage> {
  // The last occurrence of a platform id in a page wins.
  const live = new Map<string, RecordWrite>();
  const tombstones = new Set(page.deletedPlatformIds ?? []);
  for (let i = 0; i < page.records.length; i++) {
    if (i > 0 && i % PREPARE_SLICE === 0) await setImmediate();
    const record = page.records[i];
    if (record === undefined) continue;
    if (record.deleted === true) {
      tombstones.add(record.platformId);
      live.delete(record.platformId);
      continue;
    }
    tombstones.delete(record.platformId);
    const id = serviceId(ctx.connectionId, ctx.objectType, record.platformId);
    const data = conformMapped(ctx.mapping, ctx.objectType, record.platformId, {
      id,
      ...ctx.handler.map(record, ctx.connectorContext),
      platform_id: record.platformId,
    });
    const dataJson = canonicalJson(data);
    // platform_data is compared as the platform's record serialises, keys in the order it sent them: a platform that
    // reorders keys costs one platform_data-only rewrite, never an event. The unified object, which the events and the
    // API answer with, is compared canonically (key order from mapping code must never read as a change).
    const rawJson = JSON.stringify(record.raw);
    live.set(record.platformId, {
      id,
      platformId: record.platformId,
      data,
      dataJson,
      raw: record.raw,
      rawJson,
      contentHash: hashOfText(dataJson),
      rawHash: hashOfText(rawJson),
      updatedAt: isoOrNull(data.updated_at),
      createdAt: isoOrNull(data.created_at),
      businessDate: ctx.handler.businessDate?.(record) ?? null,
    });
  }
  return { live, tombstones };
}

export async function storePage(db: PoolClient, ctx: PageContext, page: ReadPage): Promise<PageOutcome> {
  return storePrepared(db, ctx, await preparePage(ctx, page));
}

export async function storePrepared(db: PoolClient, ctx: PageContext, prepared: PreparedPage): Promise<PageOutcome> {
  const outcome: PageOutcome = { created: 0, updated: 0, deleted: 0, unchanged: 0, rawOnly: 0 };
  const { live, tombstones } = prepared;
  const stored = ctx.compareStored
    ? await loadStoredHashes(
        db,
        ctx.connectionId,
        ctx.objectType,
        [...live.values()].map((write) => write.id),
      )
    : new Map<string, StoredHash>();
  const writes: RecordWrite[] = [];
  const changes: { write: RecordWrite; change: 'CREATED' | 'UPDATED' }[] = [];
  for (const write of live.values()) {
    const before = stored.get(write.platformId);
    if (before === undefined || before.deleted) {
      writes.push(write);
      changes.push({ write, change: 'CREATED' });
    } else if (!before.content_hash.equals(write.contentHash)) {
      writes.push(write);
      changes.push({ write, change: 'UPDATED' });
    } else if (before.raw_hash?.equals(write.rawHash) !== true) {
      // Only platform_data changed: keep it current, announce nothing (the unified object is the same).
      writes.push(write);
      outcome.rawOnly += 1;
    } else {
      outcome.unchanged += 1;
    }
  }
  // One timestamp for the rows and their events, so a webhook's last_synced_at equals the stored one.
  const syncedAt = new Date().toISOString();
  await upsertRecords(db, ctx.connectionId, ctx.objectType, writes, syncedAt);
  if (ctx.rememberSeen) await markSeen(db, ctx.runId, ctx.objectType, [...live.keys()]);
  const deleted = await deleteByPlatformIds(db, ctx.connectionId, ctx.objectType, [...tombstones], syncedAt);

  const events = ctx.announceChanges
    ? [
        ...changes.map(({ write, change }) => entityEvent(ctx, change, { ...write.data, last_synced_at: syncedAt }, ctx.jobId)),
        ...deletedEvents(ctx, deleted),
      ]
    : [];
  await emitEvents(db, ctx.cipher, ctx.tenant, events);
  outcome.created = changes.filter((c) => c.change === 'CREATED').length;
  outcome.updated = changes.length - outcome.created;
  outcome.deleted = deleted.length;
  return outcome;
}

/**
 * Runs one sync (initial, incremental or backfill) of one connection. Progress
 * is kept in the database page by page (sync_objects), so a run interrupted at
 * any point — a crash, kill -9, a lost database connection — resumes where it
 * stopped when its job is delivered again, and redoing a page changes nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreServices } from '../core-services.ts';
import { checkSessionAlive, isConnectionLoss, withTransaction, type PoolClient } from '../db/pool.ts';
import { accessTokenOf } from '../connections/connections.ts';
import { disableConnection, emitConnectionEvent, markNeedsReauth, markReady, recordSyncFailure, recordSyncSuccess } from '../connections/health.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { findConnectionForService } from '../sql/connections.ts';
import { effectiveSyncConfig } from '../connections/sync-defaults.ts';
import { isUnifiedObjectType, type UnifiedObjectType } from '../model/object-types.ts';
import type { Connector, ConnectorContext, ReadPage } from '../platforms/connector.ts';
import { connectorContext, openCredentials } from '../platforms/context.ts';
import { jobTokens } from '../platforms/tokens.ts';
import { PlatformError } from '../platforms/errors.ts';
import { getConnector } from '../platforms/index.ts';
import { deleteUnseen, forgetSeen, storedBeforeRun } from '../sql/records.ts';
import { findUnresolvedWrite } from '../sql/write-jobs.ts';
import { beginObjectRead, completeObjectRead, failRunObjects, finishObjectBatch, loadSyncObject, recordPage } from '../sql/sync-objects.ts';
import { emitEvents } from '../events/emit.ts';
import { withIds } from '../log/logger.ts';
import { QUEUES } from '../queue/names.ts';
import { notePause, pauseFor, secondsUntil } from '../connections/platform-pause.ts';
import { activePause, pausePlatformCalls } from '../sql/platform-pauses.ts';
import { requeueRunForPause } from '../sql/sync-runs.ts';
import { countRunDeletions, countRunPage } from '../sql/sync-run-objects.ts';
import { syncRunDuration, syncRuns, syncStartDelay } from '../metrics/registry.ts';
import { entityToObjectType, objectTypeToEntity, type SyncConfig } from '../connections/sync-config.ts';
import { ExportPending, pageReader, waitForExport } from './bulk-read.ts';
import { AnswerPending } from '../platforms/polled.ts';
import { dropReadSyncExport } from '../sql/drop-read-sync-export.ts';
import { withConnectionPageLock } from './lock.ts';
import { cancelFollowUpsAfterInitial, releaseFollowUpsAfterInitial } from './requests.ts';
import { tryLockConnectionSync, unlockConnectionSync } from '../sql/sync-locks.ts';
import {
  cancelSyncRun,
  completeSyncRun,
  failSyncRun,
  loadSyncRun,
  markHistoricalBatchAnnounced,
  requeueAfterError,
  requeueWithoutAttempt,
  startSyncRun,
  type SyncRunToRun,
} from '../sql/sync-run-lifecycle.ts';
import { detectsDeletionsByListing, initialBatches, type Batch } from './plan.ts';
import { fixRunDataBatching } from '../sql/data-batching.ts';
import { deletedEvents, preparePage, storePrepared, type PageContext, type PreparedPage } from './store-page.ts';

export const MAX_ATTEMPTS = 6;
/**
 * Lost database connections (a restart, a failover, pg_terminate_backend) one delivery of a run rides out in place,
 * each time resuming from its saved page after a short pause; they spend none of its MAX_ATTEMPTS.
 */
const RESUMES_AFTER_CONNECTION_LOSS = 50;
const RESUME_PAUSE_MS = 200;

/** Pages read and stored in one hold of the page lock: a write waits at most this many pages. */
const PAGES_PER_LOCK = 4;

/** The run waits for a write whose outcome is not written through yet (src/sql/write-jobs.ts findUnresolvedWrite). */
class UnresolvedWrite extends Error {}

/**
 * `paused`: the platform paused the connection's calls; the run is queued again for the end of the pause.
 * `waiting`: a platform export the run reads is not ready; the run is queued again for its next poll (bulk-read.ts).
 */
export type RunOutcome = 'completed' | 'failed' | 'busy' | 'retry' | 'skipped' | 'paused' | 'waiting';

/** Object types this run reads, in a stable order (a targeted run's: its request's). */
function objectsToRead(connector: Connector, connection: ConnectionRecord, run: SyncRunToRun): UnifiedObjectType[] {
  const offered = (Object.keys(connector.objects) as UnifiedObjectType[]).filter((t) => connector.objects[t]?.capabilities.read === true).sort();
  const config = connection.syncConfig as SyncConfig | null;
  const configured = config?.entities === undefined ? offered : offered.filter((t) => config.entities?.includes(objectTypeToEntity(t)));
  if (run.kind === 'backfill') {
    const type = run.request.entity === undefined ? undefined : entityToObjectType(run.request.entity);
    return type !== undefined && configured.includes(type) ? [type] : type !== undefined && offered.includes(type) ? [type] : [];
  }
  if (run.kind === 'incremental' && Array.isArray(run.request.object_types)) {
    const wanted = run.request.object_types.map(entityToObjectType).filter((t): t is UnifiedObjectType => t !== undefined && isUnifiedObjectType(t));
    // In the request's order: a webhook's run reads the types it named before those they change on the side.
    return [...new Set(wanted)].filter((t) => offered.includes(t));
  }
  return configured;
}

function batchesFor(run: SyncRunToRun, connection: ConnectionRecord, type: UnifiedObjectType, dated: boolean): Batch[] {
  if (run.kind === 'initial') {
    // The run's own batching (fixRunDataBatching): the connection's override or its organisation's setting.
    const config: SyncConfig = { ...(connection.syncConfig as SyncConfig | null), data_batching: run.request.data_batching ?? undefined };
    return initialBatches(config, objectTypeToEntity(type), dated, run.created_at);
  }
  if (run.kind === 'backfill' && dated && run.request.start_date !== undefined && run.request.end_date !== undefined) {
    const end = new Date(`${run.request.end_date}T00:00:00.000Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    return [{ window: { start: `${run.request.start_date}T00:00:00.000Z`, end: end.toISOString() }, monthsAgo: null }];
  }
  return [{ window: null, monthsAgo: null }];
}

interface ObjectRead {
  type: UnifiedObjectType;
  batches: Batch[];
}

export async function runSync(services: CoreServices, runId: string, signal: AbortSignal): Promise<RunOutcome> {
  const run = await loadSyncRun(services.pool, runId);
  if (run === null || ['completed', 'failed', 'cancelled'].includes(run.status)) return 'skipped';
  // Not before the initial sync completes: its completion sends this run's job (src/sync/requests.ts).
  if (run.request.after_initial === true) return 'skipped';
  const found = await findConnectionForService(services.pool, run.connection_id);
  if (found === null) return 'skipped';
  // A connection without a syncConfig of its own follows its organisation's default (src/connections/sync-defaults.ts).
  const connection = { ...found, syncConfig: await effectiveSyncConfig(services.pool, found) };
  if (connection.platform === null || connection.linkedAt === null) return 'skipped';
  if (connection.status === 'disabled') {
    // Syncs stop until the end user re-links (lifecycle.ts): runs queued before, and retries of failed ones, end here.
    await cancelSyncRun(services.pool, run.id, `The connection was disabled: ${connection.disableMessage ?? 'see GET /connections/status'}`);
    services.log.info(
      { organization_id: connection.organizationId, connection_id: connection.id, sync_run_id: run.id },
      'sync run cancelled: the connection is disabled',
    );
    return 'skipped';
  }
  const connector = getConnector(connection.platform);
  if (connector === undefined) return 'skipped';
  const log = withIds(services.log, {
    organization_id: connection.organizationId,
    connection_id: connection.id,
    sync_run_id: run.id,
    request_id: run.request_id,
    platform: connection.platform,
  });
  const started = Date.now();
  const outcome = await runLocked({ ...services, log }, run, connection, connector, signal).catch((error: unknown) => {
    log.error({ err: error, sync: { kind: run.kind, trigger: run.trigger } }, 'sync run stopped by an error inside the service');
    throw error;
  });
  // A busy connection is the normal case of a run waiting its turn: no line for it.
  if (outcome !== 'busy') {
    const durationMs = Date.now() - started;
    syncRuns.inc({ platform: connector.id, kind: run.kind, outcome });
    syncRunDuration.observe({ platform: connector.id, kind: run.kind }, durationMs / 1000);
    log.info({ sync: { kind: run.kind, trigger: run.trigger, outcome }, duration_ms: durationMs }, 'sync run ended');
  }
  return outcome;
}

/** The run under the connection's sync lock; `services.log` carries the run's ids. */
async function runLocked(
  services: CoreServices,
  run: SyncRunToRun,
  connection: ConnectionRecord,
  connector: Connector,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { log } = services;
  const lockClient = await services.pool.connect();
  try {
    if (!(await tryLockConnectionSync(lockClient, connection.id))) return 'busy';
    const pause = await activePause(services.pool, connection.id);
    if (pause !== null) {
      await withTransaction(services.pool, async (db) => {
        await requeueRunForPause(db, run.id, null, false);
        await services.jobs.send(
          QUEUES.sync,
          { syncRunId: run.id, connectionId: connection.id },
          { startAfterSeconds: secondsUntil(pause.until) },
          db,
        );
      });
      log.info({ paused_until: pause.until.toISOString() }, 'sync run put off until the platform pause ends');
      return 'paused';
    }
    // The request as it is now: a queued follow-up may have been widened since it was loaded (src/sql/follow-up-runs.ts).
    run.request = (await startSyncRun(services.pool, run.id)) ?? run.request;
    // The wait before the first start is the sync lag an operator watches (workers keeping up); retries are not counted.
    if (run.attempts === 0)
      syncStartDelay.observe({ platform: connector.id, kind: run.kind }, Math.max(0, Date.now() - run.created_at.getTime()) / 1000);
    log.info({ sync: { kind: run.kind, trigger: run.trigger, attempt: run.attempts + 1 } }, 'sync run started');
    const pageLock: PageLock = (work) => withConnectionPageLock(lockClient, connection.id, 'sync', work);
    if (run.kind === 'initial') {
      const own = (connection.syncConfig as SyncConfig | null)?.data_batching ?? null;
      run.request.data_batching = await fixRunDataBatching(services.pool, run.id, connection.organizationId, own);
    }
    try {
      // Refreshed first when they expire soon; a revoked grant fails the run like a 401 (needs_reauth).
      const ctx = connectorContext({
        connector,
        connectionId: connection.id,
        db: services.pool,
        signal,
        log,
        credentials: openCredentials(services.cipher, connection.credentialsCiphertext),
        environment: connection.environment,
        simulated: connection.simulated,
        polledWaiter: { syncRunId: run.id },
        ...(await jobTokens(services, connection, connector, signal)),
      });
      await resumingAfterConnectionLoss(lockClient, async () => {
        await execute(services, run, connection, connector, ctx, pageLock);
        await finishRun(services, run, connection);
      });
      return 'completed';
    } catch (error) {
      // Not failures: the run is tried again shortly (the worker's busy retry) and resumes from its saved page. A lost
      // connection ends up here when it was the lock's own session (the lock went with it) or when losses went on.
      if (error instanceof ExportPending) {
        const next = await waitForExport(services, run.id, connection.id, error);
        log.info({ export_id: error.exportId, next_poll_at: next.toISOString() }, 'sync run waits for the platform export');
        return 'waiting';
      }
      // A platform that calls us has the run's request: the answer wakes the run (src/sync/polled-session.ts).
      if (error instanceof AnswerPending) {
        const next = await waitForExport(services, run.id, connection.id, error);
        log.info({ polled_request_id: error.requestId, next_check_at: next.toISOString() }, 'sync run waits for the platform to call');
        return 'waiting';
      }
      if (error instanceof UnresolvedWrite || isConnectionLoss(error)) {
        await requeueWithoutAttempt(services.pool, run.id);
        return 'busy';
      }
      return await handleFailure(services, run, connection, error);
    }
  } finally {
    await unlockConnectionSync(lockClient, connection.id).catch(() => undefined);
    lockClient.release();
  }
}

/**
 * Runs `work` again after a lost database connection (its transaction was rolled back; the run's progress is in the
 * database, so doing it again resumes at the saved page), as long as the lock's session is still there.
 */
async function resumingAfterConnectionLoss(lockClient: PoolClient, work: () => Promise<void>): Promise<void> {
  for (let resumes = 0; ; resumes++) {
    try {
      await work();
      return;
    } catch (error) {
      if (!isConnectionLoss(error) || resumes >= RESUMES_AFTER_CONNECTION_LOSS) throw error;
      await sleep(RESUME_PAUSE_MS);
      // Fails (a connection loss) when the cut session was this one: the connection's sync lock is gone.
      await checkSessionAlive(lockClient);
    }
  }
}

/** Runs a page read and its storing without a write of the same connection in between (src/sync/lock.ts). */
type PageLock = <T>(work: () => Promise<T>) => Promise<T>;

async function execute(
  services: CoreServices,
  run: SyncRunToRun,
  connection: ConnectionRecord,
  connector: Connector,
  ctx: ConnectorContext,
  pageLock: PageLock,
): Promise<void> {
  const reads: ObjectRead[] = objectsToRead(connector, connection, run).map((type) => {
    const handler = connector.objects[type]?.handler;
    return { type, batches: batchesFor(run, connection, type, handler?.businessDate !== undefined) };
  });
  const batchCount = Math.max(0, ...reads.map((r) => r.batches.length));
  const tenant = { organizationId: connection.organizationId, environment: connection.environment };
  const accessToken = accessTokenOf(services.cipher, connection);
  // Batch by batch across objects, so each finished batch is a consistent slice (HISTORICAL_UPDATE).
  for (let batchIndex = 0; batchIndex < batchCount; batchIndex++) {
    const included: { platformEntity: string; xMonthsAgo: number }[] = [];
    for (const read of reads) {
      const batch = read.batches[batchIndex];
      const object = connector.objects[read.type];
      if (batch === undefined || object === undefined) continue;
      await readBatch(
        services,
        run,
        connection,
        ctx,
        { tenant, accessToken, objectType: read.type, handler: object.handler, capabilities: object.capabilities },
        batch,
        batchIndex,
        read.batches.length,
        pageLock,
      );
      if (batch.monthsAgo !== null) included.push({ platformEntity: objectTypeToEntity(read.type), xMonthsAgo: batch.monthsAgo });
    }
    if (included.length > 0 && run.kind === 'initial') {
      await emitHistoricalOnce(services, run, connection, batchIndex, included);
    }
  }
}

interface ReadTarget {
  tenant: { organizationId: string; environment: 'sandbox' | 'production' };
  accessToken: string;
  objectType: UnifiedObjectType;
  handler: PageContext['handler'];
  capabilities: NonNullable<Connector['objects'][UnifiedObjectType]>['capabilities'];
}

async function readBatch(
  services: CoreServices,
  run: SyncRunToRun,
  connection: ConnectionRecord,
  ctx: ConnectorContext,
  target: ReadTarget,
  batch: Batch,
  batchIndex: number,
  batchTotal: number,
  pageLock: PageLock,
): Promise<void> {
  const { pool } = services;
  let state = await loadSyncObject(pool, connection.id, target.objectType);
  // Resuming after a crash: skip what this run already finished, continue from the saved page.
  if (state.run_id === run.id && state.status === 'completed') return;
  const resuming = state.run_id === run.id && state.status === 'in_progress';
  if (resuming && state.batches_done > batchIndex) return;
  const since = run.kind === 'incremental' && target.capabilities.incremental === 'cursor' ? state.since_cursor : null;
  const fullListing = detectsDeletionsByListing(target.capabilities, since, batch.window);
  const announceChanges = !(run.kind === 'initial' && connection.readyAt === null);
  // Only an unannounced download, or a full listing about to begin, has a use for what is stored; the rest assume all of it.
  const before =
    !announceChanges || (fullListing && !resuming)
      ? await storedBeforeRun(pool, connection.id, target.objectType, run.id)
      : { anyStored: true, liveBeforeRun: true };
  if (!resuming) {
    // Decided once, before this run stores anything of the type, and kept across a resume (migration 0014).
    await beginObjectRead(pool, connection.id, target.objectType, run.id, batch.window, batchIndex, fullListing && before.liveBeforeRun);
    state = await loadSyncObject(pool, connection.id, target.objectType);
  }
  const sweepDeletions = fullListing && state.sweep_deletions;
  const pageContext: PageContext = {
    tenant: target.tenant,
    connectionId: connection.id,
    accessToken: target.accessToken,
    cipher: services.cipher,
    objectType: target.objectType,
    handler: target.handler,
    connectorContext: ctx,
    runId: run.id,
    rememberSeen: sweepDeletions,
    compareStored: announceChanges || before.anyStored,
    announceChanges,
    mapping: { strict: services.config.strictMapping, platform: connection.platform ?? 'unknown', log: services.log },
  };
  let pageToken = state.page_token;
  const read = pageReader(pool, services.cipher, ctx, target.handler, {
    connectionId: connection.id,
    objectType: target.objectType,
    runId: run.id,
    batchIndex,
  });
  const readPrepared = async (token: string | null): Promise<{ page: ReadPage; prepared: PreparedPage }> => {
    const page = await read({ since, window: batch.window, pageToken: token });
    return { page, prepared: await preparePage(pageContext, page) };
  };
  for (;;) {
    const page = await pageLock(async () => {
      const unresolved = await withTransaction(pool, (db) => findUnresolvedWrite(db, connection.id));
      if (unresolved !== null) throw new UnresolvedWrite(`write job ${unresolved} may be on the platform but is not stored yet`);
      // Writes wait for the lock (held shared from their platform call to their write-through), so while it is held
      // nothing is written: several pages may be read and stored in one hold. The next page is read, mapped and
      // hashed while this one is written, so the platform, this process and the database work at the same time.
      let current = await readPrepared(pageToken);
      for (let n = 1; ; n++) {
        const token = current.page.nextPageToken;
        const next = token !== null && n < PAGES_PER_LOCK ? readPrepared(token) : null;
        // Awaited below, or abandoned when storing fails: never an unhandled rejection.
        next?.catch(() => undefined);
        await storeRead(current.page, current.prepared);
        if (next === null) return current.page;
        current = await next;
      }
    });
    if (page.nextPageToken === null) return;
    pageToken = page.nextPageToken;
  }

  async function storeRead(page: ReadPage, prepared: PreparedPage): Promise<void> {
    const last = page.nextPageToken === null;
    await withTransaction(pool, async (db) => {
      const outcome = await storePrepared(db, pageContext, prepared);
      await recordPage(db, connection.id, target.objectType, page.nextPageToken, page.records.length);
      // The run's own counts, for its sync history (the object's pages_read and records_read count every run).
      await countRunPage(db, run.id, target.objectType, { records: page.records.length, ...outcome });
      if (!last) return;
      if (sweepDeletions) {
        const gone = await deleteUnseen(db, connection.id, target.objectType, run.id, new Date().toISOString());
        await countRunDeletions(db, run.id, target.objectType, gone.length);
        if (pageContext.announceChanges) await emitEvents(db, services.cipher, target.tenant, deletedEvents(pageContext, gone));
      }
      if (fullListing) await forgetSeen(db, run.id, target.objectType);
      // The export read (if this was one) is done: its row, and the link to its results, go with the last page.
      await dropReadSyncExport(db, connection.id, target.objectType);
      // A backfill reads one window: its cursor says nothing about changes elsewhere, so it never moves the object's cursor.
      await finishObjectBatch(db, connection.id, target.objectType, batchIndex + 1, run.kind === 'backfill' ? null : (page.nextSince ?? null));
      if (batchIndex + 1 >= batchTotal) await completeObjectRead(db, connection.id, target.objectType, since === null && run.kind !== 'backfill');
    });
  }
}

async function emitHistoricalOnce(
  services: CoreServices,
  run: SyncRunToRun,
  connection: ConnectionRecord,
  batchIndex: number,
  included: { platformEntity: string; xMonthsAgo: number }[],
): Promise<void> {
  await withTransaction(services.pool, async (db) => {
    // One HISTORICAL_UPDATE per batch of a run, also when the run resumes after a crash.
    if (!(await markHistoricalBatchAnnounced(db, run.id, batchIndex))) return;
    await emitConnectionEvent(db, services.cipher, connection, 'HISTORICAL_UPDATE', { entities_included_to_time_range: included });
  });
}

async function finishRun(services: CoreServices, run: SyncRunToRun, connection: ConnectionRecord): Promise<void> {
  await withTransaction(services.pool, async (db) => {
    if (!(await completeSyncRun(db, run.id))) return;
    await recordSyncSuccess(db, connection);
    if (run.kind === 'initial') {
      await markReady(db, services.cipher, connection);
      const released = await releaseFollowUpsAfterInitial(db, services.jobs, connection.id);
      if (released > 0)
        services.log.info(
          { organization_id: connection.organizationId, connection_id: connection.id, sync_run_id: run.id, follow_up_runs: released },
          'initial sync completed: follow-up runs that waited for it are queued',
        );
    }
    if (run.kind === 'incremental' && run.trigger === 'manual') {
      await emitConnectionEvent(db, services.cipher, connection, 'INCREMENTAL_SYNC_COMPLETED', {
        incremental_sync_type: 'manual',
        entities: Array.isArray(run.request.object_types) ? run.request.object_types : null,
      });
    }
  });
}

async function handleFailure(services: CoreServices, run: SyncRunToRun, connection: ConnectionRecord, error: unknown): Promise<RunOutcome> {
  services.log.warn({ err: error }, 'sync run failed');
  const message = error instanceof Error ? error.message : String(error);
  const platformError = error instanceof PlatformError ? error : null;
  const pauseRequest = pauseFor(error);
  return withTransaction(services.pool, async (db) => {
    if (pauseRequest !== null) {
      // Not a failure: the run resumes from its saved page when the pause ends, in whichever worker.
      const pause = await pausePlatformCalls(db, connection.id, pauseRequest.until, pauseRequest.reason);
      await requeueRunForPause(db, run.id, message, true);
      await services.jobs.send(QUEUES.sync, { syncRunId: run.id, connectionId: connection.id }, { startAfterSeconds: secondsUntil(pause.until) }, db);
      services.log.warn({ paused_until: pause.until.toISOString(), pause_cause: pauseRequest.cause }, notePause(pauseRequest, connection.platform));
      return 'paused';
    }
    const failObjectsAndFollowUps = async () => {
      await failRunObjects(db, connection.id, run.id, message.slice(0, 1000));
      const cancelled = run.kind === 'initial' ? await cancelFollowUpsAfterInitial(db, connection.id) : 0;
      if (cancelled > 0)
        services.log.info(
          { organization_id: connection.organizationId, connection_id: connection.id, sync_run_id: run.id, follow_up_runs: cancelled },
          'initial sync failed: follow-up runs that waited for it are cancelled',
        );
    };
    if (platformError !== null && (platformError.kind === 'unauthorized' || platformError.kind === 'forbidden')) {
      await markNeedsReauth(db, services.cipher, services.config.publicUrl, connection);
      services.log.warn({ connection_status: 'needs_reauth' }, 'connection needs re-authentication: the platform refused its credentials');
      await failSyncRun(db, run.id, message);
      await failObjectsAndFollowUps();
      return 'failed';
    }
    if (platformError !== null && platformError.kind === 'billing') {
      // The account is suspended or unpaid: no retry or re-authentication helps until the business settles it.
      await disableConnection(
        db,
        services.cipher,
        connection,
        'PLATFORM_BILLING_ISSUE',
        `The platform refused access to the account: ${platformError.platformMessage.slice(0, 500)}`,
      );
      services.log.warn(
        { connection_status: 'disabled', disable_code: 'PLATFORM_BILLING_ISSUE' },
        'connection disabled: the platform refused access for billing',
      );
      await failSyncRun(db, run.id, message);
      await failObjectsAndFollowUps();
      return 'failed';
    }
    const retryable = platformError === null || platformError.retryable;
    if (platformError !== null && retryable) {
      const health = await recordSyncFailure(db, services.cipher, connection, { code: platformError.toServiceError().code, message });
      if (health !== 'unchanged') services.log.warn({ connection_status: health }, `connection ${health} after repeated sync failures`);
    }
    if (!retryable || run.attempts + 1 >= MAX_ATTEMPTS) {
      await failSyncRun(db, run.id, message);
      await failObjectsAndFollowUps();
      return 'failed';
    }
    await requeueAfterError(db, run.id, message);
    return 'retry';
  });
}

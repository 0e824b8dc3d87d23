/**
 * Requests for syncs: a sync_runs row (queued) and its job, in one transaction.
 * The sync worker picks the job up and runs it; at most one sync per
 * connection runs at a time.
 */
import { withTransaction, type Pool, type PoolClient } from '../db/pool.ts';
import type { JobSender } from '../queue/sender.ts';
import { QUEUES } from '../queue/names.ts';
import type { UnifiedObjectType } from '../model/object-types.ts';
import { cancelRunsAfterInitial, insertFollowUpRun, queuedRuns, releaseRunsAfterInitial, widenQueuedRun } from '../sql/follow-up-runs.ts';
import { lockFollowUpRequests } from '../sql/sync-locks.ts';
import { initialSyncNeeded, insertQueuedSyncRun } from '../sql/sync-requests.ts';
import { objectTypeToEntity } from '../connections/sync-config.ts';

export type SyncKind = 'initial' | 'incremental' | 'backfill';
export type SyncTrigger = 'link' | 'schedule' | 'manual' | 'api' | 'write' | 'platform_webhook';

export interface SyncRunView {
  id: string;
  kind: SyncKind;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  created_at: string;
}

export async function requestSync(
  pool: Pool,
  jobs: JobSender,
  connectionId: string,
  request: { kind: SyncKind; trigger: SyncTrigger; details: Record<string, unknown>; requestId?: string },
): Promise<SyncRunView> {
  return withTransaction(pool, async (db) => {
    const row = await insertQueuedSyncRun(db, {
      connectionId,
      kind: request.kind,
      trigger: request.trigger,
      details: request.details,
      requestId: request.requestId ?? null,
    });
    await jobs.send(QUEUES.sync, { syncRunId: row.id, connectionId }, {}, db);
    return { id: row.id, kind: request.kind, status: 'queued', created_at: row.created_at.toISOString() };
  });
}

/**
 * Makes sure a linked connection whose data is not ready has an initial sync
 * queued or running: after the first link, and after a re-link that follows a
 * failed initial sync (401, persistent platform errors). Returns the run it queued, if any.
 */
export async function ensureInitialSync(
  pool: Pool,
  jobs: JobSender,
  connectionId: string,
  trigger: SyncTrigger,
  requestId?: string,
): Promise<SyncRunView | null> {
  if (!(await initialSyncNeeded(pool, connectionId))) return null;
  return requestSync(pool, jobs, connectionId, { kind: 'initial', trigger, details: {}, ...(requestId === undefined ? {} : { requestId }) });
}

/**
 * After a write: an incremental sync of the types it can touch (follow-up-scope.ts) shortly after, so records the
 * write changed on the side (a paid bill's amount_due, an applied credit) reach the stored copy. A queued run that
 * reads those types already is enough; a queued follow-up of another write is widened instead of queuing a second.
 */
export const FOLLOW_UP_DELAY_SECONDS = 5;

export async function requestFollowUpSync(
  pool: Pool,
  jobs: JobSender,
  connectionId: string,
  objectTypes: readonly UnifiedObjectType[],
): Promise<string | null> {
  return requestTargetedSync(pool, jobs, connectionId, objectTypes, { trigger: 'write', delaySeconds: FOLLOW_UP_DELAY_SECONDS });
}

/**
 * An incremental sync of some types only, for a write's follow-up (after FOLLOW_UP_DELAY_SECONDS) or a platform's
 * webhook (at once). A queued run that reads those types already is enough; a queued run of the same trigger is
 * widened instead of queuing a second. While the connection's initial sync is under way the run waits for it to
 * complete (src/sql/follow-up-runs.ts): the initial sync may have read those types before the change. Null when the
 * connection's data is not ready and no initial sync is queued or running.
 */
export async function requestTargetedSync(
  pool: Pool,
  jobs: JobSender,
  connectionId: string,
  objectTypes: readonly UnifiedObjectType[],
  options: { trigger: 'write' | 'platform_webhook'; delaySeconds: number },
): Promise<string | null> {
  return withTransaction(pool, (db) => requestTargetedSyncIn(db, jobs, connectionId, objectTypes, options));
}

/** requestTargetedSync inside the caller's transaction (a platform webhook's receipt commits with its runs). */
export async function requestTargetedSyncIn(
  db: PoolClient,
  jobs: JobSender,
  connectionId: string,
  objectTypes: readonly UnifiedObjectType[],
  options: { trigger: 'write' | 'platform_webhook'; delaySeconds: number },
): Promise<string | null> {
  // In the caller's order, which is the order the run reads them (the types a webhook named first).
  const entities = [...new Set(objectTypes.map(objectTypeToEntity))];
  // Serialises concurrent writers of one connection for this check-then-insert only.
  await lockFollowUpRequests(db, connectionId);
  const queued = await queuedRuns(db, connectionId);
  // A queued incremental run that reads these entities (or all of them) will see the change too, and so will an initial
  // run not yet started; one put back after starting resumes past what it read. A backfill reads one entity's window.
  const covering = queued.find(
    (run) =>
      (run.kind === 'incremental' || (run.kind === 'initial' && !run.started)) &&
      (run.entities === null || entities.every((e) => run.entities?.includes(e))),
  );
  if (covering !== undefined) return covering.id;
  const sameTrigger = queued.find((run) => run.trigger === options.trigger);
  if (sameTrigger !== undefined && (await widenQueuedRun(db, sameTrigger.id, entities))) return sameTrigger.id;
  const inserted = await insertFollowUpRun(db, connectionId, entities, options.trigger);
  if (inserted === null) return null;
  // Its job is sent when the initial sync completes (releaseFollowUpsAfterInitial).
  if (!inserted.afterInitial) await sendFollowUpJob(db, jobs, connectionId, inserted.id, options.trigger, options.delaySeconds);
  return inserted.id;
}

async function sendFollowUpJob(
  db: PoolClient,
  jobs: JobSender,
  connectionId: string,
  runId: string,
  trigger: string,
  delaySeconds: number,
): Promise<void> {
  // A webhook's run waits its turn behind a running sync a second at a time (src/sync/worker.ts, BUSY_RETRY_SECONDS).
  const data = trigger === 'platform_webhook' ? { syncRunId: runId, connectionId, busyRetrySeconds: 1 } : { syncRunId: runId, connectionId };
  await jobs.send(QUEUES.sync, data, delaySeconds > 0 ? { startAfterSeconds: delaySeconds } : {}, db);
}

/**
 * In the transaction that completes a connection's initial sync (after its connection row is updated): the follow-up
 * runs that waited for it get their jobs, at once. Under the follow-up lock, so a request either inserted its run
 * before (released here) or sees the connection ready (and sends its own job).
 */
export async function releaseFollowUpsAfterInitial(db: PoolClient, jobs: JobSender, connectionId: string): Promise<number> {
  await lockFollowUpRequests(db, connectionId);
  const released = await releaseRunsAfterInitial(db, connectionId);
  for (const run of released) await sendFollowUpJob(db, jobs, connectionId, run.id, run.trigger, 0);
  return released.length;
}

/**
 * In the transaction that fails a connection's initial sync: the follow-up runs that waited for it are cancelled (the
 * retry reads everything, and a queued run would keep the retry from being scheduled: src/sql/due-syncs.ts). Under the
 * follow-up lock, so a request either inserted its run before (cancelled here) or sees no initial sync under way.
 */
export async function cancelFollowUpsAfterInitial(db: PoolClient, connectionId: string): Promise<number> {
  await lockFollowUpRequests(db, connectionId);
  return cancelRunsAfterInitial(db, connectionId);
}

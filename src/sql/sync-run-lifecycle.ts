/**
 * A sync run as its runner moves it along (src/sync/runner.ts): taken, put back, announced batch by batch, and
 * finished. Each statement names the run by id; the status conditions keep a run that moved meanwhile as it is.
 */
import type { Queryable } from '../db/pool.ts';
import type { DataBatching } from './data-batching.ts';

/** What the run was asked to read (sync_runs.request); `data_batching` is fixed by the run's first start. */
export interface SyncRunRequest {
  object_types?: string[] | null;
  entity?: string;
  start_date?: string;
  end_date?: string;
  data_batching?: DataBatching | null;
  /** A follow-up run waiting for the connection's initial sync to complete (src/sql/follow-up-runs.ts). */
  after_initial?: boolean;
}

export interface SyncRunToRun {
  id: string;
  connection_id: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  status: string;
  request: SyncRunRequest;
  attempts: number;
  created_at: Date;
  request_id: string | null;
}

export async function loadSyncRun(db: Queryable, runId: string): Promise<SyncRunToRun | null> {
  const result = await db.query<SyncRunToRun>(
    'SELECT id, connection_id, kind, trigger, status, request, attempts, created_at, request_id FROM sync_runs WHERE id = $1',
    [runId],
  );
  return result.rows[0] ?? null;
}

/**
 * Marks the run running and counts the attempt. Returns the request as it is now (a queued follow-up may have been
 * widened since the run was loaded: src/sql/follow-up-runs.ts); null when the run is gone.
 */
export async function startSyncRun(db: Queryable, runId: string): Promise<SyncRunRequest | null> {
  const result = await db.query<{ request: SyncRunRequest }>(
    `UPDATE sync_runs SET status = 'running', attempts = attempts + 1, started_at = COALESCE(started_at, clock_timestamp()) WHERE id = $1 RETURNING request`,
    [runId],
  );
  return result.rows[0]?.request ?? null;
}

/** Puts a running run back in the queue without spending its attempt (it waited, it did not fail). */
export async function requeueWithoutAttempt(db: Queryable, runId: string): Promise<void> {
  await db.query(`UPDATE sync_runs SET status = 'queued', attempts = attempts - 1 WHERE id = $1 AND status = 'running'`, [runId]);
}

/**
 * Records that the run announced its batch `batchIndex` (HISTORICAL_UPDATE): true the first time only, so the event
 * goes out once per batch also when the run resumes after a crash.
 */
export async function markHistoricalBatchAnnounced(db: Queryable, runId: string, batchIndex: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE sync_runs SET request = jsonb_set(request, '{historical_batches_announced}', to_jsonb($2::int))
      WHERE id = $1 AND COALESCE((request->>'historical_batches_announced')::int, 0) <= $3 RETURNING id`,
    [runId, batchIndex + 1, batchIndex],
  );
  return result.rowCount === 1;
}

/** Completes a running run; false when it was not running (then nothing that follows completion may happen). */
export async function completeSyncRun(db: Queryable, runId: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE sync_runs SET status = 'completed', error = NULL, finished_at = clock_timestamp() WHERE id = $1 AND status = 'running' RETURNING id`,
    [runId],
  );
  return result.rowCount === 1;
}

export async function failSyncRun(db: Queryable, runId: string, error: string): Promise<void> {
  await db.query(`UPDATE sync_runs SET status = 'failed', error = $2, finished_at = clock_timestamp() WHERE id = $1`, [runId, error]);
}

/** Ends a run that has not finished without reading anything (its connection was disabled since it was queued). */
export async function cancelSyncRun(db: Queryable, runId: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE sync_runs SET status = 'cancelled', error = $2, finished_at = clock_timestamp() WHERE id = $1 AND status IN ('queued', 'running')`,
    [runId, reason],
  );
}

/** Queues a failed attempt again (pg-boss redelivers its job with backoff); the error stays until the next outcome. */
export async function requeueAfterError(db: Queryable, runId: string, error: string): Promise<void> {
  await db.query(`UPDATE sync_runs SET status = 'queued', error = $2 WHERE id = $1`, [runId, error]);
}

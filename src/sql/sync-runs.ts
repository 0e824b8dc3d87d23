import type { Queryable } from '../db/pool.ts';

export interface SyncRunRow {
  id: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function latestSyncRuns(db: Queryable, connectionId: string, limit: number): Promise<SyncRunRow[]> {
  const result = await db.query<SyncRunRow>(
    `SELECT id, kind, trigger, status, error, created_at, started_at, finished_at
       FROM sync_runs WHERE connection_id = $1 ORDER BY created_at DESC LIMIT $2`,
    [connectionId, limit],
  );
  return result.rows;
}

/** When a sync of the connection last started (any kind); null when none has. */
export async function lastStartedSyncAt(db: Queryable, connectionId: string): Promise<Date | null> {
  const result = await db.query<{ started_at: Date | null }>('SELECT max(started_at) AS started_at FROM sync_runs WHERE connection_id = $1', [
    connectionId,
  ]);
  return result.rows[0]?.started_at ?? null;
}

/** When a sync of the connection last completed (any kind); null when none has. */
export async function lastCompletedSyncAt(db: Queryable, connectionId: string): Promise<Date | null> {
  const result = await db.query<{ finished_at: Date | null }>(
    // The connection's runs newest first on its index, up to the first completed one (not every run it ever had).
    `SELECT finished_at FROM sync_runs WHERE connection_id = $1 AND status = 'completed' ORDER BY created_at DESC LIMIT 1`,
    [connectionId],
  );
  return result.rows[0]?.finished_at ?? null;
}

/**
 * Data batches the connection's initial sync has announced with HISTORICAL_UPDATE (src/sync/runner.ts); null when
 * its initial sync runs without batching (or has not started).
 */
export async function historicalBatchesAnnounced(db: Queryable, connectionId: string): Promise<number | null> {
  const result = await db.query<{ batches: number | null; batching: boolean | null }>(
    `SELECT max((request->>'historical_batches_announced')::int) AS batches,
            bool_or(jsonb_typeof(request->'data_batching'->'months') = 'array' AND jsonb_array_length(request->'data_batching'->'months') > 0) AS batching
       FROM sync_runs WHERE connection_id = $1 AND kind = 'initial'`,
    [connectionId],
  );
  const row = result.rows[0];
  return row?.batching === true ? (row.batches ?? 0) : null;
}

/**
 * Puts a run back in the queue until a platform pause ends (src/connections/platform-pause.ts). `uncount`: the
 * attempt that met the pause does not count against the run's attempts (the platform refused before doing anything).
 */
export async function requeueRunForPause(db: Queryable, runId: string, error: string | null, uncount: boolean): Promise<void> {
  await db.query(
    `UPDATE sync_runs SET status = 'queued', error = COALESCE($2, error), attempts = attempts - CASE WHEN $3 THEN 1 ELSE 0 END
      WHERE id = $1 AND status IN ('queued', 'running')`,
    [runId, error, uncount],
  );
}

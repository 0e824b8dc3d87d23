import type { Queryable } from '../db/pool.ts';

export interface SyncObjectRow {
  object_type: string;
  status: 'not_started' | 'in_progress' | 'completed' | 'failed';
  since_cursor: string | null;
  run_id: string | null;
  run_window: { start: string; end: string } | null;
  page_token: string | null;
  batches_done: number;
  pages_read: number;
  records_read: number;
  error: string | null;
  last_started_at: Date | null;
  last_completed_at: Date | null;
  /** Decided when the read began (migration 0014): whether it remembers what it sees and sweeps the rest. */
  sweep_deletions: boolean;
}

const COLUMNS = `object_type, status, since_cursor, run_id, run_window, page_token, batches_done, pages_read, records_read, error, last_started_at, last_completed_at, sweep_deletions`;

export async function loadSyncObject(db: Queryable, connectionId: string, objectType: string): Promise<SyncObjectRow> {
  const result = await db.query<SyncObjectRow>(
    `INSERT INTO sync_objects (connection_id, object_type) VALUES ($1, $2)
     ON CONFLICT (connection_id, object_type) DO UPDATE SET object_type = EXCLUDED.object_type
     RETURNING ${COLUMNS}`,
    [connectionId, objectType],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('sync object upsert returned no row');
  return row;
}

export async function listSyncObjects(db: Queryable, connectionId: string): Promise<SyncObjectRow[]> {
  const result = await db.query<SyncObjectRow>(`SELECT ${COLUMNS} FROM sync_objects WHERE connection_id = $1 ORDER BY object_type`, [connectionId]);
  return result.rows;
}

/** Starts (or restarts) a read of this object within a run. */
export async function beginObjectRead(
  db: Queryable,
  connectionId: string,
  objectType: string,
  runId: string,
  window: { start: string; end: string } | null,
  batchesDone: number,
  sweepDeletions: boolean,
): Promise<void> {
  await db.query(
    `UPDATE sync_objects SET status = 'in_progress', run_id = $3, run_window = $4, page_token = NULL, batches_done = $5, sweep_deletions = $6,
            error = NULL, last_started_at = CASE WHEN run_id IS DISTINCT FROM $3 THEN clock_timestamp() ELSE last_started_at END
      WHERE connection_id = $1 AND object_type = $2`,
    [connectionId, objectType, runId, window === null ? null : JSON.stringify(window), batchesDone, sweepDeletions],
  );
}

export async function recordPage(
  db: Queryable,
  connectionId: string,
  objectType: string,
  nextPageToken: string | null,
  recordCount: number,
): Promise<void> {
  await db.query(
    `UPDATE sync_objects SET page_token = $3, pages_read = pages_read + 1, records_read = records_read + $4
      WHERE connection_id = $1 AND object_type = $2`,
    [connectionId, objectType, nextPageToken, recordCount],
  );
}

/**
 * A batch (window) of the run finished for this object. The first batch's
 * incremental cursor becomes the object's: it was read first, so later syncs
 * re-read rather than miss anything changed during the rest of the run.
 */
export async function finishObjectBatch(
  db: Queryable,
  connectionId: string,
  objectType: string,
  batchesDone: number,
  nextSince: string | null,
): Promise<void> {
  await db.query(
    `UPDATE sync_objects SET batches_done = $3, page_token = NULL,
            since_cursor = CASE WHEN $3 = 1 AND $4::text IS NOT NULL THEN $4 ELSE since_cursor END
      WHERE connection_id = $1 AND object_type = $2`,
    [connectionId, objectType, batchesDone, nextSince],
  );
}

/**
 * `fullRead`: the run read every record of the object (no incremental cursor, no backfill window): its count of the
 * object (sync_run_objects, written earlier in the same transaction) is the next estimate's total.
 */
export async function completeObjectRead(db: Queryable, connectionId: string, objectType: string, fullRead = false): Promise<void> {
  await db.query(
    `UPDATE sync_objects SET status = 'completed', run_window = NULL, page_token = NULL,
            batches_done = 0, error = NULL, last_completed_at = clock_timestamp(),
            last_full_read_records = CASE WHEN $3 THEN COALESCE(
              (SELECT ro.records_read FROM sync_run_objects ro WHERE ro.run_id = sync_objects.run_id AND ro.object_type = sync_objects.object_type),
              0) ELSE last_full_read_records END
      WHERE connection_id = $1 AND object_type = $2`,
    [connectionId, objectType, fullRead],
  );
}

export async function failObjectRead(db: Queryable, connectionId: string, objectType: string, error: string): Promise<void> {
  await db.query(`UPDATE sync_objects SET status = 'failed', error = $3 WHERE connection_id = $1 AND object_type = $2`, [
    connectionId,
    objectType,
    error,
  ]);
}

/** Fails the objects a run was still reading when it failed for good (its own, not another run's). */
export async function failRunObjects(db: Queryable, connectionId: string, runId: string, error: string): Promise<void> {
  await db.query(`UPDATE sync_objects SET status = 'failed', error = $2 WHERE connection_id = $1 AND status = 'in_progress' AND run_id = $3`, [
    connectionId,
    error,
    runId,
  ]);
}

export interface ObjectCoverage {
  object_type: string;
  live: number;
  /** Business dates (null for undated objects). */
  oldest: Date | null;
  newest: Date | null;
  /**
   * Entity dates: each record's business date, else its creation on the platform, else its last update there; null
   * only when none is stored or none of them carries a date.
   */
  oldest_entity: Date | null;
  newest_entity: Date | null;
}

const COVERAGE = `object_type, count(*)::int AS live, min(business_date) AS oldest, max(business_date) AS newest,
       min(COALESCE(business_date, created_at, updated_at)) AS oldest_entity, max(COALESCE(business_date, created_at, updated_at)) AS newest_entity`;

/**
 * Every object's coverage. One pass over the connection's live rows, which count(*) needs anyway (no index answers a
 * count): the dates are aggregates of the same pass and add no reads.
 */
export async function objectCoverage(db: Queryable, connectionId: string): Promise<Map<string, ObjectCoverage>> {
  const result = await db.query<ObjectCoverage>(
    `SELECT ${COVERAGE} FROM records WHERE connection_id = $1 AND deleted_at IS NULL GROUP BY object_type`,
    [connectionId],
  );
  return new Map(result.rows.map((r) => [r.object_type, r]));
}

/**
 * One object's coverage; null when none is stored. Bounded by records_platform_id_idx's (connection_id, object_type)
 * prefix to that object's rows, which it reads for their business dates: one pass over the object's live rows, the
 * cost objectCoverage pays for every object on the status endpoint.
 */
export async function coverageOf(db: Queryable, connectionId: string, objectType: string): Promise<ObjectCoverage | null> {
  const result = await db.query<ObjectCoverage>(
    `SELECT ${COVERAGE} FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL GROUP BY object_type`,
    [connectionId, objectType],
  );
  return result.rows[0] ?? null;
}

/** Whether a full read of this object of the connection has ever completed (an empty answer then means "none"). */
export async function objectEverRead(db: Queryable, connectionId: string, objectType: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM sync_objects WHERE connection_id = $1 AND object_type = $2 AND last_completed_at IS NOT NULL', [
    connectionId,
    objectType,
  ]);
  return result.rows.length > 0;
}

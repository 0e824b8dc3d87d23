/** Per run and object: pages and records read and the changes stored (migration 0036; the dashboard's sync history). */
import type { Queryable } from '../db/pool.ts';

export interface RunPageCounts {
  records: number;
  created: number;
  updated: number;
  deleted: number;
}

/** Adds one stored page to the run's counts of the object (inside the page's own transaction). */
export async function countRunPage(db: Queryable, runId: string, objectType: string, counts: RunPageCounts): Promise<void> {
  await db.query(
    `INSERT INTO sync_run_objects (run_id, object_type, pages_read, records_read, created, updated, deleted)
     VALUES ($1, $2, 1, $3, $4, $5, $6)
     ON CONFLICT (run_id, object_type) DO UPDATE SET
       pages_read = sync_run_objects.pages_read + 1, records_read = sync_run_objects.records_read + $3,
       created = sync_run_objects.created + $4, updated = sync_run_objects.updated + $5, deleted = sync_run_objects.deleted + $6,
       updated_at = clock_timestamp()`,
    [runId, objectType, counts.records, counts.created, counts.updated, counts.deleted],
  );
}

/** Records the run's sweep found gone from the platform (deleted from the stored copy). */
export async function countRunDeletions(db: Queryable, runId: string, objectType: string, deleted: number): Promise<void> {
  if (deleted === 0) return;
  await db.query(
    `INSERT INTO sync_run_objects (run_id, object_type, deleted) VALUES ($1, $2, $3)
     ON CONFLICT (run_id, object_type) DO UPDATE SET deleted = sync_run_objects.deleted + $3, updated_at = clock_timestamp()`,
    [runId, objectType, deleted],
  );
}

export interface SyncRunObjectRow {
  run_id: string;
  object_type: string;
  pages_read: number;
  records_read: number;
  created: number;
  updated: number;
  deleted: number;
}

export async function listSyncRunObjects(db: Queryable, runIds: readonly string[]): Promise<SyncRunObjectRow[]> {
  if (runIds.length === 0) return [];
  const result = await db.query<SyncRunObjectRow>(
    `SELECT run_id, object_type, pages_read, records_read, created, updated, deleted
       FROM sync_run_objects WHERE run_id = ANY($1::uuid[]) ORDER BY object_type`,
    [runIds],
  );
  return result.rows;
}

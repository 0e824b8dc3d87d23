/** A connection's sync history for the dashboard: its runs newest first, and each object's state in a run. */
import type { Queryable } from '../db/pool.ts';
import type { ListPosition as KeysetPosition } from './connections.ts';

export interface DashboardSyncRunRow {
  id: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  /** What was asked: object_types of an incremental sync, entity and window of a backfill. */
  request: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  position_ts: string;
}

/** One row more than `limit`: it says whether, and where, the next page starts. */
export async function listConnectionSyncRuns(
  db: Queryable,
  connectionId: string,
  from: KeysetPosition | null,
  limit: number,
): Promise<DashboardSyncRunRow[]> {
  const result = await db.query<DashboardSyncRunRow>(
    `SELECT id, kind, trigger, status, error, request, attempts, created_at, started_at, finished_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts
       FROM sync_runs
      WHERE connection_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) <= ($2::timestamptz, $3::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [connectionId, from?.createdAt ?? null, from?.id ?? null, limit + 1],
  );
  return result.rows;
}

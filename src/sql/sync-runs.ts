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

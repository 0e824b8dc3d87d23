/** Asking for a sync (src/sync/requests.ts): the queued sync_runs row its job names. */
import type { Queryable } from '../db/pool.ts';

export interface NewSyncRun {
  connectionId: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  details: Record<string, unknown>;
  requestId: string | null;
}

export async function insertQueuedSyncRun(db: Queryable, run: NewSyncRun): Promise<{ id: string; created_at: Date }> {
  const result = await db.query<{ id: string; created_at: Date }>(
    `INSERT INTO sync_runs (connection_id, kind, trigger, status, request, request_id) VALUES ($1, $2, $3, 'queued', $4, $5) RETURNING id, created_at`,
    [run.connectionId, run.kind, run.trigger, JSON.stringify(run.details), run.requestId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('sync run insert returned no row');
  return row;
}

/** Whether a linked connection whose data is not ready lacks an initial sync queued or running. */
export async function initialSyncNeeded(db: Queryable, connectionId: string): Promise<boolean> {
  const result = await db.query<{ needed: boolean }>(
    `SELECT c.ready_at IS NULL AND c.linked_at IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.connection_id = c.id AND r.kind = 'initial' AND r.status IN ('queued', 'running')) AS needed
       FROM connections c WHERE c.id = $1`,
    [connectionId],
  );
  return result.rows[0]?.needed === true;
}

/**
 * Requests for syncs: a sync_runs row (queued) and its job, in one transaction.
 * The sync worker picks the job up and runs it; at most one sync per
 * connection runs at a time.
 */
import { withTransaction, type Pool } from '../db/pool.ts';
import type { JobSender } from '../jobs/sender.ts';
import { QUEUES } from '../jobs/queue-names.ts';

export type SyncKind = 'initial' | 'incremental' | 'backfill';
export type SyncTrigger = 'link' | 'schedule' | 'manual' | 'api';

export interface SyncRunView {
  id: string;
  kind: SyncKind;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  created_at: string;
}

export async function requestSync(
  pool: Pool, jobs: JobSender, connectionId: string,
  request: { kind: SyncKind; trigger: SyncTrigger; details: Record<string, unknown> },
): Promise<SyncRunView> {
  return withTransaction(pool, async (db) => {
    const run = await db.query<{ id: string; created_at: Date }>(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, request) VALUES ($1, $2, $3, 'queued', $4) RETURNING id, created_at`,
      [connectionId, request.kind, request.trigger, JSON.stringify(request.details)],
    );
    const row = run.rows[0];
    if (row === undefined) throw new Error('sync run insert returned no row');
    await jobs.send(QUEUES.sync, { syncRunId: row.id, connectionId }, {}, db);
    return { id: row.id, kind: request.kind, status: 'queued', created_at: row.created_at.toISOString() };
  });
}

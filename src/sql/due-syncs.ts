/** The sync scheduler's questions (src/sync/worker.ts): which connections are due a sync now. At most 500 a round. */
import type { Queryable } from '../db/pool.ts';

/**
 * Linked, ready, not disabled connections whose last sync started longer ago than their frequency (or
 * `defaultFrequencyMinutes`), with nothing queued or running and no platform pause in force at `now`.
 */
export async function dueIncrementalSyncs(db: Queryable, now: Date, defaultFrequencyMinutes: number): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `SELECT c.id FROM connections c
      WHERE c.ready_at IS NOT NULL AND c.status IN ('active', 'unhealthy')
        AND NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.connection_id = c.id AND r.status IN ('queued', 'running'))
        AND NOT EXISTS (SELECT 1 FROM platform_pauses p WHERE p.connection_id = c.id AND p.paused_until > $1::timestamptz)
        AND COALESCE((SELECT max(r.created_at) FROM sync_runs r WHERE r.connection_id = c.id), c.ready_at)
            <= $1::timestamptz - make_interval(mins => COALESCE((c.sync_config->>'incremental_sync_frequency_minutes')::int, $2))
      LIMIT 500`,
    [now.toISOString(), defaultFrequencyMinutes],
  );
  return result.rows.map((row) => row.id);
}

/** Connections whose initial sync failed at least `pauseMinutes` before `now`, with nothing queued or running. */
export async function failedInitialSyncsToRetry(db: Queryable, now: Date, pauseMinutes: number): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `SELECT c.id FROM connections c
      WHERE c.ready_at IS NULL AND c.linked_at IS NOT NULL AND c.status IN ('not_ready', 'unhealthy')
        AND NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.connection_id = c.id AND r.status IN ('queued', 'running'))
        AND (SELECT max(r.finished_at) FROM sync_runs r WHERE r.connection_id = c.id AND r.kind = 'initial' AND r.status = 'failed')
            <= $1::timestamptz - make_interval(mins => $2)
      LIMIT 500`,
    [now.toISOString(), pauseMinutes],
  );
  return result.rows.map((row) => row.id);
}

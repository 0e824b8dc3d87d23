/** The sync scheduler's questions (src/sync/worker.ts): which connections are due a sync now. At most 500 a round. */
import type { Queryable } from '../db/pool.ts';

/**
 * How scheduled syncs keep to a platform's daily budget of calls: they may use `scheduledShare` of it, spread evenly
 * over the budget's 24-hour window (at least an hour's share at its start), so a connection whose calls are ahead of
 * that pace skips its scheduled syncs until time catches up. The rest of the budget is kept for writes, their
 * follow-up syncs, platform webhooks and syncs a client asks for, which are never held back here.
 */
export interface SchedulePacing {
  /** Daily budget by platform id, for platforms that state one (Connector.limits.dailyRequests). */
  budgets: Record<string, number>;
  scheduledShare: number;
}

/**
 * Linked, ready, not disabled connections whose last sync started longer ago than their frequency (or
 * `defaultFrequencyMinutes`), with nothing queued or running, no platform pause in force at `now`, and calls within
 * the scheduled pace of their platform's daily budget (SchedulePacing).
 */
export async function dueIncrementalSyncs(db: Queryable, now: Date, defaultFrequencyMinutes: number, pacing: SchedulePacing): Promise<string[]> {
  const result = await db.query<{ id: string }>(
    `SELECT c.id FROM connections c
      WHERE c.ready_at IS NOT NULL AND c.status IN ('active', 'unhealthy')
        AND NOT EXISTS (SELECT 1 FROM sync_runs r WHERE r.connection_id = c.id AND r.status IN ('queued', 'running'))
        AND NOT EXISTS (SELECT 1 FROM platform_pauses p WHERE p.connection_id = c.id AND p.paused_until > $1::timestamptz)
        AND COALESCE((SELECT max(r.created_at) FROM sync_runs r WHERE r.connection_id = c.id), c.ready_at)
            <= $1::timestamptz - make_interval(mins => COALESCE((c.sync_config->>'incremental_sync_frequency_minutes')::int,
              CASE WHEN c.sync_config IS NULL THEN (SELECT (o.sync_config->>'incremental_sync_frequency_minutes')::int
                                                      FROM organizations o WHERE o.id = c.organization_id) END, $2))
        AND NOT EXISTS (
          SELECT 1 FROM platform_call_meters m
           WHERE m.connection_id = c.id AND m.scope = '' AND $3::jsonb ? c.platform
             AND m.day_started_at > $1::timestamptz - interval '24 hours'
             AND m.day_calls >= ($3::jsonb ->> c.platform)::float8 * $4::float8
                 * GREATEST(extract(epoch FROM $1::timestamptz - m.day_started_at) / 86400.0, 1.0 / 24))
      LIMIT 500`,
    [now.toISOString(), defaultFrequencyMinutes, JSON.stringify(pacing.budgets), pacing.scheduledShare],
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

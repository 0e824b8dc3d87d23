import type { Queryable } from '../db/pool.ts';

/**
 * A queued run of the connection: its kind, trigger, the entities an incremental run reads (null: all of them), and
 * whether it started before (a run put back after a failure, a pause or a wait resumes from its saved page).
 */
export interface QueuedRun {
  id: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  entities: string[] | null;
  started: boolean;
}

export async function queuedRuns(db: Queryable, connectionId: string): Promise<QueuedRun[]> {
  const result = await db.query<QueuedRun>(
    `SELECT id, kind, trigger, started_at IS NOT NULL AS started,
            CASE WHEN jsonb_typeof(request->'object_types') = 'array'
                 THEN ARRAY(SELECT jsonb_array_elements_text(request->'object_types')) END AS entities
       FROM sync_runs WHERE connection_id = $1 AND status = 'queued' ORDER BY created_at`,
    [connectionId],
  );
  return result.rows;
}

/**
 * Adds entities to a queued follow-up run. Only while it is still queued: the runner takes the run's request when it
 * marks it running (src/sync/runner.ts), so an addition either lands before that or changes nothing (false).
 */
export async function widenQueuedRun(db: Queryable, runId: string, entities: string[]): Promise<boolean> {
  // The run's own entities keep their order and the new ones follow: a run reads in this order (runner.ts), and the
  // types a platform's webhook named come first in its request (src/sync/inbound-webhooks.ts).
  const result = await db.query(
    `UPDATE sync_runs
        SET request = jsonb_set(request, '{object_types}',
              (SELECT to_jsonb(array_agg(e ORDER BY pos))
                 FROM (SELECT e, min(pos) AS pos
                         FROM (SELECT e, ord AS pos FROM jsonb_array_elements_text(request->'object_types') WITH ORDINALITY AS own(e, ord)
                               UNION ALL
                               SELECT e, 1000000 + ord FROM unnest($2::text[]) WITH ORDINALITY AS added(e, ord)) listed
                        GROUP BY e) merged))
      WHERE id = $1 AND status = 'queued'`,
    [runId, entities],
  );
  return result.rowCount === 1;
}

/**
 * A queued incremental run of these entities (after a write, or a platform's webhook): when the connection's data is
 * ready, or while its initial sync is queued or running. Then the run waits for it (`after_initial` in its request: no
 * job is sent, and the runner leaves it) until the initial sync completes (releaseRunsAfterInitial) or fails
 * (cancelRunsAfterInitial). Null when there is neither (an initial sync that failed reads all again when retried).
 */
export async function insertFollowUpRun(
  db: Queryable,
  connectionId: string,
  entities: string[],
  trigger: 'write' | 'platform_webhook',
): Promise<{ id: string; afterInitial: boolean } | null> {
  const result = await db.query<{ id: string; after_initial: boolean }>(
    `INSERT INTO sync_runs (connection_id, kind, trigger, status, request)
     SELECT c.id, 'incremental', $3, 'queued',
            jsonb_build_object('object_types', to_jsonb($2::text[]))
              || CASE WHEN c.ready_at IS NULL THEN '{"after_initial": true}'::jsonb ELSE '{}'::jsonb END
       FROM connections c
      WHERE c.id = $1
        AND (c.ready_at IS NOT NULL
             OR EXISTS (SELECT 1 FROM sync_runs r WHERE r.connection_id = c.id AND r.kind = 'initial' AND r.status IN ('queued', 'running')))
     RETURNING id, request ? 'after_initial' AS after_initial`,
    [connectionId, entities, trigger],
  );
  const row = result.rows[0];
  return row === undefined ? null : { id: row.id, afterInitial: row.after_initial };
}

/**
 * The initial sync completed: the connection's runs that waited for it may run. Returns them (their jobs are the
 * caller's to send, in the same transaction).
 */
export async function releaseRunsAfterInitial(db: Queryable, connectionId: string): Promise<{ id: string; trigger: string }[]> {
  const result = await db.query<{ id: string; trigger: string }>(
    `UPDATE sync_runs SET request = request - 'after_initial'
      WHERE connection_id = $1 AND status = 'queued' AND request ? 'after_initial'
     RETURNING id, trigger`,
    [connectionId],
  );
  return result.rows;
}

/** The initial sync failed: the runs that waited for it are cancelled (the retry, or a re-link's initial sync, reads all). */
export async function cancelRunsAfterInitial(db: Queryable, connectionId: string): Promise<number> {
  const result = await db.query(
    `UPDATE sync_runs SET status = 'cancelled', finished_at = clock_timestamp(),
            error = 'The initial sync this run waited for failed; the next initial sync reads everything.'
      WHERE connection_id = $1 AND status = 'queued' AND request ? 'after_initial'`,
    [connectionId],
  );
  return result.rowCount ?? 0;
}

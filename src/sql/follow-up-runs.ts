import type { Queryable } from '../db/pool.ts';

/** A queued run of the connection: its kind, trigger and the entities an incremental run reads (null: all of them). */
export interface QueuedRun {
  id: string;
  kind: 'initial' | 'incremental' | 'backfill';
  trigger: string;
  entities: string[] | null;
}

export async function queuedRuns(db: Queryable, connectionId: string): Promise<QueuedRun[]> {
  const result = await db.query<QueuedRun>(
    `SELECT id, kind, trigger,
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

/** A queued incremental run of these entities (after a write, or a platform's webhook), if the connection's data is ready. */
export async function insertFollowUpRun(
  db: Queryable,
  connectionId: string,
  entities: string[],
  trigger: 'write' | 'platform_webhook',
): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `INSERT INTO sync_runs (connection_id, kind, trigger, status, request)
     SELECT c.id, 'incremental', $3, 'queued', jsonb_build_object('object_types', to_jsonb($2::text[]))
       FROM connections c WHERE c.id = $1 AND c.ready_at IS NOT NULL
     RETURNING id`,
    [connectionId, entities, trigger],
  );
  return result.rows[0]?.id ?? null;
}

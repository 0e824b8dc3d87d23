/**
 * The dashboard overview's running syncs: each running run of an organisation's environment with the objects it has
 * begun reading and what it has read of them so far (its rows of sync_run_objects, kept page by page).
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface RunningSyncObjectRow {
  run_id: string;
  kind: string;
  trigger: string;
  run_started_at: Date | null;
  connection_id: string;
  connection_name: string | null;
  platform: string | null;
  store_name: string | null;
  /** Null when the run has not begun reading any object yet. */
  object_type: string | null;
  object_status: string | null;
  run_pages_read: number | null;
  run_records_read: number | null;
  last_full_read_records: number | null;
  /** Seconds since the run began reading the object (database clock). */
  elapsed_seconds: number | null;
}

/** At most this many rows: a few runs of many objects each, plenty for one screen. */
const ROW_CAP = 1000;

export async function runningSyncObjects(db: Queryable, organizationId: string, environment: Environment): Promise<RunningSyncObjectRow[]> {
  const result = await db.query<RunningSyncObjectRow>(
    `SELECT r.id AS run_id, r.kind, r.trigger, r.started_at AS run_started_at,
            c.id AS connection_id, c.name AS connection_name, c.platform, c.store_name,
            o.object_type, o.status AS object_status, ro.pages_read AS run_pages_read, ro.records_read AS run_records_read,
            o.last_full_read_records,
            extract(epoch FROM clock_timestamp() - o.last_started_at)::float8 AS elapsed_seconds
       FROM sync_runs r
       JOIN connections c ON c.id = r.connection_id
       LEFT JOIN sync_objects o ON o.connection_id = r.connection_id AND o.run_id = r.id
       LEFT JOIN sync_run_objects ro ON ro.run_id = r.id AND ro.object_type = o.object_type
      WHERE r.status = 'running' AND c.organization_id = $1 AND c.environment = $2
      ORDER BY r.started_at, r.id, o.object_type
      LIMIT ${ROW_CAP}`,
    [organizationId, environment],
  );
  return result.rows;
}

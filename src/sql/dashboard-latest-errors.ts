/** The dashboard overview's latest errors of an organisation's environment, newest first, a few of each kind. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface FailedSyncRunRow {
  id: string;
  connection_id: string;
  connection_name: string | null;
  platform: string | null;
  store_name: string | null;
  kind: string;
  error: string | null;
  at: Date;
}

export async function latestFailedSyncRuns(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<FailedSyncRunRow[]> {
  const result = await db.query<FailedSyncRunRow>(
    `SELECT r.id, r.connection_id, c.name AS connection_name, c.platform, c.store_name, r.kind, r.error, COALESCE(r.finished_at, r.created_at) AS at
       FROM sync_runs r JOIN connections c ON c.id = r.connection_id
      WHERE c.organization_id = $1 AND c.environment = $2 AND r.status = 'failed'
      ORDER BY at DESC, r.id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

export interface FailedDeliveryRow {
  id: string;
  connection_id: string | null;
  connection_name: string | null;
  platform: string | null;
  store_name: string | null;
  code: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  at: Date;
}

export async function latestFailedDeliveries(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<FailedDeliveryRow[]> {
  const result = await db.query<FailedDeliveryRow>(
    `SELECT d.id, d.connection_id, c.name AS connection_name, c.platform, c.store_name, d.code, d.attempts, d.last_status_code, d.last_error,
            COALESCE(d.finished_at, d.created_at) AS at
       FROM webhook_deliveries d LEFT JOIN connections c ON c.id = d.connection_id
      WHERE d.organization_id = $1 AND d.environment = $2 AND d.status = 'failed'
      ORDER BY d.created_at DESC, d.id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

export interface FailedWriteJobRow {
  id: string;
  connection_id: string;
  connection_name: string | null;
  platform: string | null;
  store_name: string | null;
  object_type: string;
  operation: string;
  error: string | null;
  at: Date;
}

export async function latestFailedWriteJobs(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<FailedWriteJobRow[]> {
  const result = await db.query<FailedWriteJobRow>(
    `SELECT j.id, j.connection_id, c.name AS connection_name, c.platform, c.store_name, j.object_type, j.operation,
            j.response->>'error_message' AS error, COALESCE(j.finished_at, j.updated_at) AS at
       FROM write_jobs j JOIN connections c ON c.id = j.connection_id
      WHERE j.organization_id = $1 AND j.environment = $2 AND j.status = 'failed'
      ORDER BY at DESC, j.id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

export interface ReauthConnectionRow {
  id: string;
  name: string | null;
  platform: string | null;
  store_name: string | null;
  at: Date;
}

export async function connectionsNeedingReauth(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<ReauthConnectionRow[]> {
  const result = await db.query<ReauthConnectionRow>(
    `SELECT id, name, platform, store_name, updated_at AS at FROM connections
      WHERE organization_id = $1 AND environment = $2 AND status = 'needs_reauth'
      ORDER BY updated_at DESC, id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

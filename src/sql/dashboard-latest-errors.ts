/** The dashboard overview's latest errors of an organisation's environment, newest first, a few of each kind. */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface FailedSyncRunRow {
  id: string;
  connection_id: string;
  connection_name: string | null;
  platform: string | null;
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
    `SELECT r.id, r.connection_id, c.name AS connection_name, c.platform, r.kind, r.error, COALESCE(r.finished_at, r.created_at) AS at
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
    `SELECT id, connection_id, code, attempts, last_status_code, last_error, COALESCE(finished_at, created_at) AS at
       FROM webhook_deliveries
      WHERE organization_id = $1 AND environment = $2 AND status = 'failed'
      ORDER BY created_at DESC, id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

export interface FailedWriteJobRow {
  id: string;
  connection_id: string;
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
    `SELECT id, connection_id, object_type, operation, response->>'error_message' AS error, COALESCE(finished_at, updated_at) AS at
       FROM write_jobs
      WHERE organization_id = $1 AND environment = $2 AND status = 'failed'
      ORDER BY at DESC, id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

export interface ReauthConnectionRow {
  id: string;
  name: string | null;
  platform: string | null;
  at: Date;
}

export async function connectionsNeedingReauth(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  limit: number,
): Promise<ReauthConnectionRow[]> {
  const result = await db.query<ReauthConnectionRow>(
    `SELECT id, name, platform, updated_at AS at FROM connections
      WHERE organization_id = $1 AND environment = $2 AND status = 'needs_reauth'
      ORDER BY updated_at DESC, id LIMIT $3`,
    [organizationId, environment, limit],
  );
  return result.rows;
}

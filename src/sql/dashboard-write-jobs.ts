/** The write jobs of one connection, newest first, for the dashboard. */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';
import type { ListPosition as KeysetPosition } from './connections.ts';

export interface DashboardWriteJobRow {
  id: string;
  object_type: string;
  operation: string;
  target_id: string | null;
  status: string;
  attempts: number;
  response_status: number | null;
  result_id: string | null;
  created_at: Date;
  updated_at: Date;
  position_ts: string;
}

/** One row more than `limit`: it says whether, and where, the next page starts. */
export async function listConnectionWriteJobs(
  db: Queryable,
  tenant: Tenant,
  connectionId: string,
  from: KeysetPosition | null,
  limit: number,
): Promise<DashboardWriteJobRow[]> {
  const result = await db.query<DashboardWriteJobRow>(
    `SELECT id, object_type, operation, target_id, status, attempts, response_status, result_id, created_at, updated_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts
       FROM write_jobs
      WHERE organization_id = $1 AND environment = $2 AND connection_id = $3
        AND ($4::timestamptz IS NULL OR (created_at, id) <= ($4::timestamptz, $5::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $6`,
    [tenant.organizationId, tenant.environment, connectionId, from?.createdAt ?? null, from?.id ?? null, limit + 1],
  );
  return result.rows;
}

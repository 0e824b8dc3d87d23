/** The webhook events of one connection, newest first, for the dashboard (never their sealed secrets). */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';
import type { ListPosition as KeysetPosition } from './connections.ts';

export interface DashboardEventRow {
  id: string;
  type: string;
  code: string;
  /** The webhook body with its secret slots emptied (src/events/emit.ts). */
  payload: Record<string, unknown>;
  created_at: Date;
  position_ts: string;
}

/** One row more than `limit`: it says whether, and where, the next page starts. */
export async function listConnectionEvents(
  db: Queryable,
  tenant: Tenant,
  connectionId: string,
  filter: { code: string | null; from: KeysetPosition | null; limit: number },
): Promise<DashboardEventRow[]> {
  const result = await db.query<DashboardEventRow>(
    `SELECT id, type, code, payload, created_at,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts
       FROM events
      WHERE organization_id = $1 AND environment = $2 AND connection_id = $3
        AND ($4::text IS NULL OR code = $4)
        AND ($5::timestamptz IS NULL OR (created_at, id) <= ($5::timestamptz, $6::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $7`,
    [tenant.organizationId, tenant.environment, connectionId, filter.code, filter.from?.createdAt ?? null, filter.from?.id ?? null, filter.limit + 1],
  );
  return result.rows;
}

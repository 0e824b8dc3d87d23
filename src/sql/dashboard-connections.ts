/**
 * The dashboard's list of connections: search by name or id, filter by status and platform, newest first, keyset
 * paged, each with its latest sync run (src/api/dashboard/connections/list.ts).
 */
import type { Queryable } from '../db/pool.ts';
import type { ConnectionStatus } from '../connections/types.ts';
import type { Tenant } from '../tenants/types.ts';
import type { ListPosition as KeysetPosition } from './connections.ts';

export interface DashboardConnectionRow {
  id: string;
  name: string | null;
  platform: string | null;
  status: ConnectionStatus;
  store_name: string | null;
  created_at: Date;
  position_ts: string;
  last_sync_kind: string | null;
  last_sync_status: string | null;
  last_sync_started_at: Date | null;
  last_sync_finished_at: Date | null;
  last_sync_error: string | null;
}

export interface DashboardConnectionFilter {
  /** Part of the name (case-insensitive), or a whole connection id. */
  search: string | null;
  statuses: readonly ConnectionStatus[];
  platform: string | null;
  /** Where the page starts (inclusive), newest first. */
  from: KeysetPosition | null;
  limit: number;
}

/** `%` and `_` in the search are the user's characters, not patterns. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One row more than `limit`: it says whether, and where, the next page starts. */
export async function listDashboardConnections(db: Queryable, tenant: Tenant, filter: DashboardConnectionFilter): Promise<DashboardConnectionRow[]> {
  const search = filter.search === null || filter.search === '' ? null : filter.search;
  const result = await db.query<DashboardConnectionRow>(
    `SELECT c.id, c.name, c.platform, c.status, c.store_name, c.created_at,
            to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts,
            r.kind AS last_sync_kind, r.status AS last_sync_status, r.started_at AS last_sync_started_at,
            r.finished_at AS last_sync_finished_at, r.error AS last_sync_error
       FROM connections c
       LEFT JOIN LATERAL (
         SELECT kind, status, started_at, finished_at, error FROM sync_runs
          WHERE connection_id = c.id ORDER BY created_at DESC LIMIT 1
       ) r ON true
      WHERE c.organization_id = $1 AND c.environment = $2 AND c.status = ANY($3::text[])
        AND ($4::text IS NULL OR c.platform = $4)
        AND ($5::text IS NULL OR c.name ILIKE $6 OR c.id::text = lower($5) OR c.store_name ILIKE $6)
        AND ($7::timestamptz IS NULL OR (c.created_at, c.id) <= ($7::timestamptz, $8::uuid))
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT $9`,
    [
      tenant.organizationId,
      tenant.environment,
      filter.statuses,
      filter.platform,
      search,
      search === null ? null : likePattern(search),
      filter.from?.createdAt ?? null,
      filter.from?.id ?? null,
      filter.limit + 1,
    ],
  );
  return result.rows;
}

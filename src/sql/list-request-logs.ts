/** One page of an organisation's API request log, newest first, with its filters. */
import type { Queryable } from '../db/pool.ts';

export interface RequestLogRow {
  id: string;
  created_at: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  request_id: string;
  connection_id: string | null;
  error_code: string | null;
}

export interface RequestLogFilter {
  organizationId: string;
  environment: string;
  requestId: string | null;
  /** Inclusive range of statuses: one status (404, 404) or a class (400, 499). */
  status: { min: number; max: number } | null;
  connectionId: string | null;
  /** Where the page starts (inclusive), from the previous page's next_cursor. */
  from: { createdAt: string; id: string } | null;
  /** Rows to read: the page size plus one, to know whether another page follows. */
  limit: number;
}

export async function listRequestLogs(db: Queryable, filter: RequestLogFilter): Promise<RequestLogRow[]> {
  const result = await db.query<RequestLogRow>(
    `SELECT id::text, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, method, route, status,
            duration_ms, request_id, connection_id::text, error_code
       FROM request_logs
      WHERE organization_id = $1 AND environment = $2
        AND ($3::text IS NULL OR request_id = $3)
        AND ($4::int IS NULL OR status BETWEEN $4 AND $5)
        AND ($6::uuid IS NULL OR connection_id = $6)
        AND ($7::timestamptz IS NULL OR (created_at, id) <= ($7::timestamptz, $8::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $9`,
    [
      filter.organizationId,
      filter.environment,
      filter.requestId,
      filter.status?.min ?? null,
      filter.status?.max ?? null,
      filter.connectionId,
      filter.from?.createdAt ?? null,
      filter.from?.id ?? null,
      filter.limit,
    ],
  );
  return result.rows;
}

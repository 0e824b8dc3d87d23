import type { Queryable } from '../db/pool.ts';

export interface DeletionEventRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  position_ts: string;
}

/** Deletions logged for a connection, oldest first, keyset-paged on (created_at, id). */
export async function listDeletionEvents(
  db: Queryable,
  params: {
    connectionId: string;
    entityTypes: string[] | null;
    since: string | null;
    from: { createdAt: string; id: string } | null;
    limit: number;
  },
): Promise<DeletionEventRow[]> {
  const result = await db.query<DeletionEventRow>(
    `SELECT id, type, payload, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts
       FROM events
      WHERE connection_id = $1 AND code = type || '_DELETED'
        AND ($2::text[] IS NULL OR type = ANY($2::text[]))
        AND ($3::timestamptz IS NULL OR created_at >= $3::timestamptz)
        AND ($4::timestamptz IS NULL OR (created_at, id) >= ($4::timestamptz, $5::uuid))
      ORDER BY created_at, id
      LIMIT $6`,
    [params.connectionId, params.entityTypes, params.since, params.from?.createdAt ?? null, params.from?.id ?? null, params.limit + 1],
  );
  return result.rows;
}

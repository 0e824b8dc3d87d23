/** Single records of a connection's stored copy looked up by service id, for writes and connectors. */
import type { Queryable } from '../db/pool.ts';

/** The kinds (object types) of those of `ids` that are live records of the connection; ids must be UUIDs. */
export async function liveRecordKinds(db: Queryable, connectionId: string, ids: string[]): Promise<{ id: string; object_type: string }[]> {
  const result = await db.query<{ id: string; object_type: string }>(
    'SELECT id, object_type FROM records WHERE connection_id = $1 AND id = ANY($2::uuid[]) AND deleted_at IS NULL',
    [connectionId, ids],
  );
  return result.rows;
}

export interface LiveRecordRow {
  id: string;
  platform_id: string;
  data: Record<string, unknown>;
}

/** A live record of the type in the connection; `id` must be a UUID. */
export async function findLiveRecord(db: Queryable, connectionId: string, objectType: string, id: string): Promise<LiveRecordRow | null> {
  const result = await db.query<LiveRecordRow>(
    'SELECT id, platform_id, data FROM records WHERE connection_id = $1 AND object_type = $2 AND id = $3 AND deleted_at IS NULL',
    [connectionId, objectType, id],
  );
  return result.rows[0] ?? null;
}

/** The platform's id of a stored record (deleted ones too); `id` must be a UUID. */
export async function platformIdOfRecord(db: Queryable, connectionId: string, objectType: string, id: string): Promise<string | null> {
  const result = await db.query<{ platform_id: string }>(
    'SELECT platform_id FROM records WHERE connection_id = $1 AND object_type = $2 AND id = $3',
    [connectionId, objectType, id],
  );
  return result.rows[0]?.platform_id ?? null;
}

/** Those of `variantIds` that are variants (`variants[].id`, the platform's ids) of live products of the connection. */
export async function liveVariantIds(db: Queryable, connectionId: string, variantIds: string[]): Promise<Set<string>> {
  const result = await db.query<{ id: string }>(
    `SELECT DISTINCT v->>'id' AS id
       FROM records, jsonb_array_elements(data->'variants') AS v
      WHERE connection_id = $1 AND object_type = 'product' AND deleted_at IS NULL AND v->>'id' = ANY($2::text[])`,
    [connectionId, variantIds],
  );
  return new Set(result.rows.map((r) => r.id));
}

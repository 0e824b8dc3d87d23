/** Data batching: the organisation's setting (migration 0020) and the one an initial sync run fixes for itself. */
import type { Queryable } from '../db/pool.ts';

export interface DataBatching {
  months: number[];
}

/** Sets (or with null, turns off) the organisation's data batching; false when there is no such organisation. */
export async function setOrganizationDataBatching(db: Queryable, organizationId: string, batching: DataBatching | null): Promise<boolean> {
  const result = await db.query('UPDATE organizations SET data_batching = $2::jsonb WHERE id = $1', [
    organizationId,
    batching === null ? null : JSON.stringify(batching),
  ]);
  return result.rowCount === 1;
}

/**
 * The data batching of an initial sync run: on its first start, the connection's own (`connectionBatching`) or
 * else its organisation's, written into the run; on a resume, what was written then, so a setting changed meanwhile
 * cannot change the plan of a run half done. Null: no batching.
 */
export async function fixRunDataBatching(
  db: Queryable,
  runId: string,
  organizationId: string,
  connectionBatching: DataBatching | null,
): Promise<DataBatching | null> {
  await db.query(
    `UPDATE sync_runs SET request = jsonb_set(request, '{data_batching}',
            COALESCE($2::jsonb, (SELECT o.data_batching FROM organizations o WHERE o.id = $3), 'null'::jsonb))
      WHERE id = $1 AND NOT (request ? 'data_batching')`,
    [runId, connectionBatching === null ? null : JSON.stringify(connectionBatching), organizationId],
  );
  const result = await db.query<{ data_batching: DataBatching | null }>(
    `SELECT request->'data_batching' AS data_batching FROM sync_runs WHERE id = $1`,
    [runId],
  );
  return result.rows[0]?.data_batching ?? null;
}

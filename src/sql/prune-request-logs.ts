/** The request log's bounds (migration 0039): rows past their age go, then each organisation keeps its newest rows only. */
import type { Queryable } from '../db/pool.ts';

export async function pruneRequestLogs(db: Queryable, bounds: { retentionHours: number; maxRowsPerOrganization: number }): Promise<number> {
  const aged = await db.query(`DELETE FROM request_logs WHERE created_at < clock_timestamp() - make_interval(hours => $1)`, [bounds.retentionHours]);
  // Per organisation (both environments together), the first row past the newest N marks where its cut starts.
  const beyond = await db.query(
    `DELETE FROM request_logs r
      USING (SELECT o.organization_id, cut.created_at, cut.id
               FROM (SELECT id AS organization_id FROM organizations) o
               CROSS JOIN LATERAL (SELECT created_at, id FROM request_logs l WHERE l.organization_id = o.organization_id
                                    ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1) cut) c
      WHERE r.organization_id = c.organization_id AND (r.created_at, r.id) <= (c.created_at, c.id)`,
    [bounds.maxRowsPerOrganization],
  );
  return (aged.rowCount ?? 0) + (beyond.rowCount ?? 0);
}

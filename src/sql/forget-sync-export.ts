/** Drops a failed export, so the read's next attempt starts a new one. */
import type { Queryable } from '../db/pool.ts';

export async function forgetSyncExport(db: Queryable, connectionId: string, objectType: string, exportId: string): Promise<void> {
  await db.query('DELETE FROM sync_exports WHERE connection_id = $1 AND object_type = $2 AND export_id = $3', [connectionId, objectType, exportId]);
}

/** Drops the export of an object once its last page is stored: its link to the results is not kept past the read. */
import type { Queryable } from '../db/pool.ts';

export async function dropReadSyncExport(db: Queryable, connectionId: string, objectType: string): Promise<void> {
  await db.query('DELETE FROM sync_exports WHERE connection_id = $1 AND object_type = $2', [connectionId, objectType]);
}

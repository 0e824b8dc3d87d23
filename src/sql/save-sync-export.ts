/** Records the export of a read, or its new status: one row per connection and object, replacing an older read's. */
import type { Queryable } from '../db/pool.ts';
import type { ExportScope, SyncExport } from './find-sync-export.ts';

export async function saveSyncExport(db: Queryable, scope: ExportScope, state: SyncExport): Promise<void> {
  await db.query(
    `INSERT INTO sync_exports (connection_id, object_type, run_id, batch_index, export_id, status, result_cursor_ciphertext)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (connection_id, object_type) DO UPDATE
       SET run_id = EXCLUDED.run_id, batch_index = EXCLUDED.batch_index, export_id = EXCLUDED.export_id,
           status = EXCLUDED.status, result_cursor_ciphertext = EXCLUDED.result_cursor_ciphertext,
           started_at = CASE WHEN sync_exports.export_id = EXCLUDED.export_id THEN sync_exports.started_at ELSE clock_timestamp() END,
           polled_at = CASE WHEN sync_exports.export_id = EXCLUDED.export_id THEN clock_timestamp() ELSE NULL END`,
    [scope.connectionId, scope.objectType, scope.runId, scope.batchIndex, state.exportId, state.status, state.resultCursorCiphertext],
  );
}

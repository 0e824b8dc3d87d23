/** The export a read of one object started (migrations 0028, 0037), when it belongs to this run's batch. */
import type { Queryable } from '../db/pool.ts';

export interface SyncExport {
  exportId: string;
  status: 'running' | 'ready';
  /** Where the results begin: sealed at rest (it may hold the platform's link to them, a bearer URL). */
  resultCursorCiphertext: Buffer | null;
}

export interface ExportScope {
  connectionId: string;
  objectType: string;
  runId: string;
  batchIndex: number;
}

export async function findSyncExport(db: Queryable, scope: ExportScope): Promise<SyncExport | null> {
  const result = await db.query<{ export_id: string; status: 'running' | 'ready'; result_cursor_ciphertext: Buffer | null }>(
    `SELECT export_id, status, result_cursor_ciphertext FROM sync_exports
      WHERE connection_id = $1 AND object_type = $2 AND run_id = $3 AND batch_index = $4`,
    [scope.connectionId, scope.objectType, scope.runId, scope.batchIndex],
  );
  const row = result.rows[0];
  return row === undefined ? null : { exportId: row.export_id, status: row.status, resultCursorCiphertext: row.result_cursor_ciphertext };
}

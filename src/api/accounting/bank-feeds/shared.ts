import type { Queryable } from '../../../db/pool.ts';
import { invalidField } from '../../../writes/check-input.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A live bank feed account named by a body field, or a 400 naming that field. */
export async function feedAccount(db: Queryable, connectionId: string, id: string, field: string): Promise<{ id: string; data: Record<string, unknown> }> {
  const result = UUID.test(id)
    ? await db.query<{ id: string; data: Record<string, unknown> }>(
      `SELECT id, data FROM records WHERE connection_id = $1 AND object_type = 'bank_feed_account' AND id = $2 AND deleted_at IS NULL`, [connectionId, id])
    : { rows: [] };
  const row = result.rows[0];
  if (row === undefined) throw invalidField(field, `is not the id of a bank feed account in this connection (got "${id}")`);
  return row;
}

import type { Queryable } from '../db/pool.ts';

/** The connection's label, private to its organisation; null clears it. */
export async function renameConnection(db: Queryable, connectionId: string, name: string | null): Promise<void> {
  await db.query('UPDATE connections SET name = $2, updated_at = clock_timestamp() WHERE id = $1', [connectionId, name]);
}

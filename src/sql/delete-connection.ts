import type { Queryable } from '../db/pool.ts';

/** Deletes the connection; what is stored for it goes with it (the foreign keys cascade). */
export async function deleteConnection(db: Queryable, connectionId: string): Promise<void> {
  await db.query('DELETE FROM connections WHERE id = $1', [connectionId]);
}

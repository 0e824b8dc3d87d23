import type { Queryable } from '../db/pool.ts';

/** Records whether the connection is linked to its platform's simulator (migration 0029), as its link completes. */
export async function setConnectionSimulated(db: Queryable, connectionId: string, simulated: boolean): Promise<void> {
  await db.query('UPDATE connections SET simulated = $2 WHERE id = $1 AND simulated IS DISTINCT FROM $2', [connectionId, simulated]);
}

/**
 * At most one sync per connection: a PostgreSQL advisory lock keyed by the
 * connection, held by the syncing worker's session for the whole run. A worker
 * that dies loses its session and with it the lock, so nothing stays stuck.
 */
import type { PoolClient, Queryable } from '../db/pool.ts';

const KEY_SQL = `hashtextextended('ledgerport-sync:' || $1::text, 0)`;

/** Session lock for a sync run; false when another session holds it. */
export async function tryLockConnectionSync(client: PoolClient, connectionId: string): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${KEY_SQL}) AS locked`, [connectionId]);
  return result.rows[0]?.locked === true;
}

export async function unlockConnectionSync(client: PoolClient, connectionId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${KEY_SQL})`, [connectionId]);
}

/**
 * Inside a transaction: true when no sync runs, and then no sync can start
 * until the transaction ends (it holds the lock). For deleting a connection.
 */
export async function holdSyncLockForTransaction(db: Queryable, connectionId: string): Promise<boolean> {
  const result = await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${KEY_SQL}) AS locked`, [connectionId]);
  return result.rows[0]?.locked === true;
}

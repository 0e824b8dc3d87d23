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

/**
 * Writes and sync pages of one connection must not interleave: a sync page read
 * from the platform before a write and stored after its write-through would
 * announce the written record without its job_id (or put the old version
 * back). Writers hold this lock shared from their platform call to their
 * write-through; a sync holds it exclusively from reading a page to storing it.
 * Writers do not block each other; each waits at most one page or one write.
 */
const PAGE_KEY_SQL = `hashtextextended('ledgerport-page:' || $1::text, 0)`;

export async function withConnectionPageLock<T>(
  client: PoolClient,
  connectionId: string,
  mode: 'write' | 'sync',
  work: () => Promise<T>,
): Promise<T> {
  const [lock, unlock] = mode === 'write' ? ['pg_advisory_lock_shared', 'pg_advisory_unlock_shared'] : ['pg_advisory_lock', 'pg_advisory_unlock'];
  await client.query(`SELECT ${lock}(${PAGE_KEY_SQL})`, [connectionId]);
  try {
    return await work();
  } finally {
    await client.query(`SELECT ${unlock}(${PAGE_KEY_SQL})`, [connectionId]).catch(() => undefined);
  }
}

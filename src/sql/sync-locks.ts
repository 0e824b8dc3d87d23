/**
 * The advisory locks of a connection's syncs (src/sync/lock.ts says what each one keeps apart). Keys are derived from
 * the connection id in SQL, so every session computes the same one.
 */
import type { PoolClient, Queryable } from '../db/pool.ts';

const SYNC_KEY_SQL = `hashtextextended('ledgerport-sync:' || $1::text, 0)`;
const PAGE_KEY_SQL = `hashtextextended('ledgerport-page:' || $1::text, 0)`;
const FOLLOW_UP_KEY_SQL = `hashtextextended('ledgerport-follow-up:' || $1::text, 0)`;

/** Session lock for a sync run, held by the syncing worker's session; false when another session holds it. */
export async function tryLockConnectionSync(client: PoolClient, connectionId: string): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${SYNC_KEY_SQL}) AS locked`, [connectionId]);
  return result.rows[0]?.locked === true;
}

export async function unlockConnectionSync(client: PoolClient, connectionId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${SYNC_KEY_SQL})`, [connectionId]);
}

/**
 * Inside a transaction: true when no sync runs, and then no sync can start
 * until the transaction ends (it holds the lock). For deleting a connection.
 */
export async function holdSyncLockForTransaction(db: Queryable, connectionId: string): Promise<boolean> {
  const result = await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${SYNC_KEY_SQL}) AS locked`, [connectionId]);
  return result.rows[0]?.locked === true;
}

/** Who holds the page lock: writers share it, a sync holds it alone. */
export type PageLockMode = 'write' | 'sync';

/** Waits for the connection's page lock (a session lock: held until unlockConnectionPages). */
export async function lockConnectionPages(client: PoolClient, connectionId: string, mode: PageLockMode): Promise<void> {
  const lock = mode === 'write' ? 'pg_advisory_lock_shared' : 'pg_advisory_lock';
  await client.query(`SELECT ${lock}(${PAGE_KEY_SQL})`, [connectionId]);
}

export async function unlockConnectionPages(client: PoolClient, connectionId: string, mode: PageLockMode): Promise<void> {
  const unlock = mode === 'write' ? 'pg_advisory_unlock_shared' : 'pg_advisory_unlock';
  await client.query(`SELECT ${unlock}(${PAGE_KEY_SQL})`, [connectionId]);
}

/** Serialises the follow-up requests of one connection until the transaction ends (a check-then-insert). */
export async function lockFollowUpRequests(db: Queryable, connectionId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(${FOLLOW_UP_KEY_SQL})`, [connectionId]);
}

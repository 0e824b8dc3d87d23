/**
 * At most one sync per connection: a PostgreSQL advisory lock keyed by the
 * connection, held by the syncing worker's session for the whole run
 * (src/sql/sync-locks.ts). A worker that dies loses its session and with it the
 * lock, so nothing stays stuck.
 */
import type { PoolClient } from '../db/pool.ts';
import { lockConnectionPages, unlockConnectionPages, type PageLockMode } from '../sql/sync-locks.ts';

/**
 * Writes and sync pages of one connection must not interleave: a sync page read
 * from the platform before a write and stored after its write-through would
 * announce the written record without its job_id (or put the old version
 * back). Writers hold this lock shared from their platform call to their
 * write-through; a sync holds it exclusively from reading a page to storing it.
 * Writers do not block each other; each waits at most one page or one write.
 */
export async function withConnectionPageLock<T>(client: PoolClient, connectionId: string, mode: PageLockMode, work: () => Promise<T>): Promise<T> {
  await lockConnectionPages(client, connectionId, mode);
  try {
    return await work();
  } finally {
    await unlockConnectionPages(client, connectionId, mode).catch(() => undefined);
  }
}

/**
 * A connection's status as sync outcomes move it (src/connections/health.ts decides which move and announces it;
 * src/connections/lifecycle.ts says which moves are allowed). Each runs in the caller's transaction.
 */
import type { Queryable } from '../db/pool.ts';
import type { ConnectionStatus } from '../connections/types.ts';

export async function setConnectionStatus(db: Queryable, connectionId: string, status: ConnectionStatus): Promise<void> {
  await db.query('UPDATE connections SET status = $2, updated_at = clock_timestamp() WHERE id = $1', [connectionId, status]);
}

/** The platform refused the connection's credentials. */
export async function setNeedsReauthStatus(db: Queryable, connectionId: string): Promise<void> {
  await db.query(`UPDATE connections SET status = 'needs_reauth', updated_at = clock_timestamp() WHERE id = $1`, [connectionId]);
}

/** Disabled, with the reason shown to the client (disable_error is its code). */
export async function setDisabledStatus(db: Queryable, connectionId: string, disableError: string, disableMessage: string): Promise<void> {
  await db.query(
    `UPDATE connections SET status = 'disabled', disable_error = $2, disable_message = $3, updated_at = clock_timestamp() WHERE id = $1`,
    [connectionId, disableError, disableMessage],
  );
}

/** Counts one more retryable sync failure in a row; returns the count (0 when the connection is gone). */
export async function countSyncFailure(db: Queryable, connectionId: string): Promise<number> {
  const result = await db.query<{ failures: number }>(
    `UPDATE connections SET consecutive_failures = consecutive_failures + 1, updated_at = clock_timestamp() WHERE id = $1 RETURNING consecutive_failures AS failures`,
    [connectionId],
  );
  return result.rows[0]?.failures ?? 0;
}

export async function setUnhealthyStatus(db: Queryable, connectionId: string): Promise<void> {
  await db.query(`UPDATE connections SET status = 'unhealthy' WHERE id = $1`, [connectionId]);
}

/** A sync succeeded: the failure count resets and an unhealthy connection is active again. */
export async function resetSyncFailures(db: Queryable, connectionId: string): Promise<void> {
  await db.query(
    `UPDATE connections SET consecutive_failures = 0,
            status = CASE WHEN status = 'unhealthy' THEN 'active' ELSE status END
      WHERE id = $1`,
    [connectionId],
  );
}

/** The initial sync finished: ready and active. False when it was ready already (so INITIAL_UPDATE goes out once). */
export async function setReadyOnce(db: Queryable, connectionId: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE connections SET ready_at = clock_timestamp(), updated_at = clock_timestamp(),
            status = CASE WHEN status IN ('not_ready', 'unhealthy') THEN 'active' ELSE status END
      WHERE id = $1 AND ready_at IS NULL`,
    [connectionId],
  );
  return result.rowCount === 1;
}

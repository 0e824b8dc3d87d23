/**
 * What sync outcomes do to a connection's status, and the connection webhooks
 * that announce it. Each function runs in the caller's transaction.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { emitEvent } from '../events/emit.ts';
import { accessTokenOf } from './connections.ts';
import { linkUrl } from './link-token.ts';
import { canTransition } from './lifecycle.ts';
import type { ConnectionRecord } from './types.ts';

/** Retryable failures in a row before a connection is reported unhealthy, and before it is disabled. */
export const UNHEALTHY_AFTER = 3;
export const DISABLED_AFTER = 12;

function tenantOf(c: ConnectionRecord) {
  return { organizationId: c.organizationId, environment: c.environment };
}

function base(cipher: Cipher, c: ConnectionRecord, code: string) {
  return { type: 'CONNECTION', code, connection_id: c.id, access_token: accessTokenOf(cipher, c) };
}

/** The platform refused our credentials: needs_reauth and CONNECTION_NEEDS_UPDATE (once per episode). */
export async function markNeedsReauth(db: Queryable, cipher: Cipher, publicUrl: string, c: ConnectionRecord): Promise<void> {
  if (c.status === 'needs_reauth' || !canTransition(c.status, 'needs_reauth')) return;
  await db.query(`UPDATE connections SET status = 'needs_reauth', updated_at = clock_timestamp() WHERE id = $1`, [c.id]);
  await emitEvent(db, cipher, {
    tenant: tenantOf(c),
    connectionId: c.id,
    type: 'CONNECTION',
    code: 'CONNECTION_NEEDS_UPDATE',
    payload: { ...base(cipher, c, 'CONNECTION_NEEDS_UPDATE'), update_url: linkUrl(publicUrl, cipher, c) },
  });
}

/** Disables the connection (once per episode) and sends CONNECTION_DISABLED with the reason. */
export async function disableConnection(
  db: Queryable,
  cipher: Cipher,
  c: ConnectionRecord,
  disableError: string,
  disableMessage: string,
): Promise<boolean> {
  if (c.status === 'disabled' || !canTransition(c.status, 'disabled')) return false;
  await db.query(
    `UPDATE connections SET status = 'disabled', disable_error = $2, disable_message = $3, updated_at = clock_timestamp() WHERE id = $1`,
    [c.id, disableError, disableMessage],
  );
  await emitEvent(db, cipher, {
    tenant: tenantOf(c),
    connectionId: c.id,
    type: 'CONNECTION',
    code: 'CONNECTION_DISABLED',
    payload: { ...base(cipher, c, 'CONNECTION_DISABLED'), disable_error: disableError, disable_message: disableMessage },
  });
  return true;
}

/**
 * A retryable failure (5xx, 429, timeout): CONNECTION_ERROR and unhealthy after a few in a row, disabled when it
 * persists. CONNECTION_ERROR fires once per episode (the count resets when a sync succeeds), also for a connection
 * whose initial sync keeps failing (docs/webhooks.md).
 */
export async function recordSyncFailure(
  db: Queryable,
  cipher: Cipher,
  c: ConnectionRecord,
  failure: { code: string; message: string },
): Promise<'unchanged' | 'unhealthy' | 'disabled'> {
  const { message } = failure;
  const result = await db.query<{ failures: number }>(
    `UPDATE connections SET consecutive_failures = consecutive_failures + 1, updated_at = clock_timestamp() WHERE id = $1 RETURNING consecutive_failures AS failures`,
    [c.id],
  );
  const failures = result.rows[0]?.failures ?? 0;
  if (failures >= DISABLED_AFTER) {
    const disabled = await disableConnection(
      db,
      cipher,
      c,
      'PERSISTENT_PLATFORM_ERROR',
      `The platform failed ${failures} syncs in a row; the last error: ${message.slice(0, 500)}`,
    );
    if (disabled) return 'disabled';
  }
  if (failures === UNHEALTHY_AFTER) {
    await emitEvent(db, cipher, {
      tenant: tenantOf(c),
      connectionId: c.id,
      type: 'CONNECTION',
      code: 'CONNECTION_ERROR',
      payload: {
        ...base(cipher, c, 'CONNECTION_ERROR'),
        error_code: failure.code,
        error_message: message.slice(0, 1000),
        consecutive_failures: failures,
      },
    });
  }
  if (failures >= UNHEALTHY_AFTER && c.status === 'active') {
    await db.query(`UPDATE connections SET status = 'unhealthy' WHERE id = $1`, [c.id]);
    return 'unhealthy';
  }
  return 'unchanged';
}

/** A sync succeeded: failures reset, unhealthy connections recover. */
export async function recordSyncSuccess(db: Queryable, c: ConnectionRecord): Promise<void> {
  await db.query(
    `UPDATE connections SET consecutive_failures = 0,
            status = CASE WHEN status = 'unhealthy' THEN 'active' ELSE status END
      WHERE id = $1`,
    [c.id],
  );
}

/** The initial sync finished: ready, active, INITIAL_UPDATE (exactly once). */
export async function markReady(db: Queryable, cipher: Cipher, c: ConnectionRecord): Promise<boolean> {
  const result = await db.query(
    `UPDATE connections SET ready_at = clock_timestamp(), updated_at = clock_timestamp(),
            status = CASE WHEN status IN ('not_ready', 'unhealthy') THEN 'active' ELSE status END
      WHERE id = $1 AND ready_at IS NULL`,
    [c.id],
  );
  if (result.rowCount !== 1) return false;
  await emitEvent(db, cipher, {
    tenant: tenantOf(c),
    connectionId: c.id,
    type: 'CONNECTION',
    code: 'INITIAL_UPDATE',
    payload: base(cipher, c, 'INITIAL_UPDATE'),
  });
  return true;
}

export async function emitConnectionEvent(
  db: Queryable,
  cipher: Cipher,
  c: ConnectionRecord,
  code: string,
  extra: Record<string, unknown>,
): Promise<void> {
  await emitEvent(db, cipher, { tenant: tenantOf(c), connectionId: c.id, type: 'CONNECTION', code, payload: { ...base(cipher, c, code), ...extra } });
}

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
import {
  countSyncFailure,
  resetSyncFailures,
  setDisabledStatus,
  setNeedsReauthStatus,
  setReadyOnce,
  setUnhealthyStatus,
} from '../sql/connection-health.ts';

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
  await setNeedsReauthStatus(db, c.id);
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
  await setDisabledStatus(db, c.id, disableError, disableMessage);
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
  const failures = await countSyncFailure(db, c.id);
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
    await setUnhealthyStatus(db, c.id);
    return 'unhealthy';
  }
  return 'unchanged';
}

/** A sync succeeded: failures reset, unhealthy connections recover. */
export async function recordSyncSuccess(db: Queryable, c: ConnectionRecord): Promise<void> {
  await resetSyncFailures(db, c.id);
}

/** The initial sync finished: ready, active, INITIAL_UPDATE (exactly once). */
export async function markReady(db: Queryable, cipher: Cipher, c: ConnectionRecord): Promise<boolean> {
  if (!(await setReadyOnce(db, c.id))) return false;
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

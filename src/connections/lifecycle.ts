/**
 * Connection status machine. Every status change goes through `canTransition`;
 * the table is the documentation (docs/connections.md renders the same facts).
 *
 *   not_ready    created, or linked and the initial sync is still running
 *   active       linked and the initial sync finished; syncs succeed
 *   unhealthy    recent syncs failed with platform errors (5xx, timeouts); still retried
 *   needs_reauth the platform refused our credentials (401, revoked consent)
 *   disabled     persistent failure; syncs stopped until the end user re-links
 */
import type { ConnectionStatus } from './types.ts';

export const ALLOWED_TRANSITIONS: Record<ConnectionStatus, readonly ConnectionStatus[]> = {
  not_ready: ['active', 'needs_reauth', 'unhealthy', 'disabled'],
  active: ['unhealthy', 'needs_reauth', 'disabled', 'not_ready'],
  unhealthy: ['active', 'needs_reauth', 'disabled', 'not_ready'],
  needs_reauth: ['active', 'not_ready', 'disabled'],
  disabled: ['active', 'not_ready'],
};

export function canTransition(from: ConnectionStatus, to: ConnectionStatus): boolean {
  return from === to || ALLOWED_TRANSITIONS[from].includes(to);
}

/** Status after the end user completes the link flow (new or re-authentication). */
export function statusAfterLink(initialSyncFinished: boolean): ConnectionStatus {
  return initialSyncFinished ? 'active' : 'not_ready';
}

/** Statuses the list endpoint returns when no status filter is given (the spec's default set). */
export const DEFAULT_LIST_STATUSES: readonly ConnectionStatus[] = ['active', 'not_ready', 'unhealthy'];

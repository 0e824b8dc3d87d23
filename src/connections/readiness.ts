/**
 * Whether a connection's stored data may be served, or its platform asked. Data endpoints answer
 * PRODUCT_NOT_READY until the initial sync has finished (force_fetch=true answers with what is stored so far),
 * NEEDS_UPDATE while the platform refuses us (force_fetch=true reads the stored copy anyway), CONNECTION_DISABLED
 * while disabled; writes and sync requests, which need the platform, the last two always. Connections never linked
 * are answered before these (src/connections/unlinked.ts).
 */
import { ServiceError } from '../errors/catalogue.ts';
import type { ConnectionRecord } from './types.ts';

function disabled(connection: ConnectionRecord): ServiceError {
  return new ServiceError(
    'CONNECTION_DISABLED',
    `The connection is disabled: ${connection.disableMessage ?? 'see GET /connections/status'}. The end user can re-link through update_url.`,
    { source: 'service' },
  );
}

function needsUpdate(then: string): ServiceError {
  return new ServiceError(
    'NEEDS_UPDATE',
    `The platform no longer accepts this connection: send the end user to update_url to re-authenticate${then}.`,
    { source: 'service' },
  );
}

/** For what needs the platform (writes, sync requests): refused while disabled or while the platform refuses us. */
export function assertUsable(connection: ConnectionRecord, then: string): void {
  if (connection.status === 'disabled') throw disabled(connection);
  if (connection.status === 'needs_reauth') throw needsUpdate(then);
}

export function assertReadable(connection: ConnectionRecord, forceFetch: boolean): void {
  if (connection.status === 'disabled') throw disabled(connection);
  if (connection.status === 'needs_reauth' && !forceFetch) throw needsUpdate(' (force_fetch=true reads the stored data anyway)');
  if (connection.readyAt === null && !forceFetch) {
    throw new ServiceError(
      'PRODUCT_NOT_READY',
      'The initial sync of this connection has not finished yet; wait for the INITIAL_UPDATE webhook, or pass force_fetch=true for the data stored so far.',
      { source: 'service' },
    );
  }
}

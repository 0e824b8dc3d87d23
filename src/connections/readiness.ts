/**
 * Whether a connection's stored data may be served. Data endpoints answer
 * PRODUCT_NOT_READY until the initial sync has finished (force_fetch=true
 * answers with what is stored so far), NEEDS_UPDATE while the platform refuses
 * us, CONNECTION_DISABLED while disabled.
 */
import { ServiceError } from '../errors/catalogue.ts';
import type { ConnectionRecord } from './types.ts';

export function assertReadable(connection: ConnectionRecord, forceFetch: boolean): void {
  if (connection.status === 'disabled') {
    throw new ServiceError('CONNECTION_DISABLED', `The connection is disabled: ${connection.disableMessage ?? 'see GET /connections/status'}. The end user can re-link through update_url.`, { source: 'service' });
  }
  if (connection.status === 'needs_reauth' && !forceFetch) {
    throw new ServiceError('NEEDS_UPDATE', 'The platform no longer accepts this connection: send the end user to update_url to re-authenticate (force_fetch=true reads the stored data anyway).', { source: 'service' });
  }
  if (connection.readyAt === null && !forceFetch) {
    throw new ServiceError('PRODUCT_NOT_READY', 'The initial sync of this connection has not finished yet; wait for the INITIAL_UPDATE webhook, or pass force_fetch=true for the data stored so far.', { source: 'service' });
  }
}

/**
 * The custom fields a connection's business defined for an object, asked of its platform when requested (nothing is
 * synced or stored: the platform's settings are the one copy), through the connector's `customFields` action with
 * the connection's fresh tokens. A connector without the action answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
 */
import { ServiceError } from '../../../errors/catalogue.ts';
import { OBJECT_TYPES } from '../../../model/object-types.ts';
import type { CustomFieldDefinitions, CustomFieldObject } from '../../../platforms/connector.ts';
import { callPlatformLive } from '../../../platforms/live-call.ts';
import { getConnector } from '../../../platforms/index.ts';
import type { Services } from '../../../services.ts';
import type { ConnectionRecord } from '../../../connections/types.ts';

const PLATFORM_TIMEOUT_MS = 30_000;

export async function customFieldDefinitions(
  services: Services,
  connection: ConnectionRecord,
  type: CustomFieldObject,
): Promise<CustomFieldDefinitions> {
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  const read = connector?.actions?.customFields;
  if (connector === undefined || read === undefined) {
    throw new ServiceError(
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      `Custom fields of ${OBJECT_TYPES[type].plural} are not available on ${connection.platform ?? 'this connection'}; see docs/platforms.md.`,
      { source: 'service' },
    );
  }
  return callPlatformLive(services, connection, connector, PLATFORM_TIMEOUT_MS, (ctx) => read(ctx, type));
}

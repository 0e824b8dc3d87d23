import { Type, type Static } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { REFERENCE_OBJECTS, unavailableObjects } from '../../connections/unavailable-objects.ts';
import { getConnector } from '../../platforms/registry.ts';
import { lastCompletedSyncAt, lastStartedSyncAt } from '../../sql/sync-runs.ts';
import { coverageOf } from '../../sql/sync-objects.ts';
import { Nullable, StringEnum } from '../../model/shared.ts';
import { AccessTokenQuery, ConnectionSchema, connectionView } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';

const dateTime = (description: string) => Nullable(Type.String({ format: 'date-time' }), description);

/** The connection object, plus what the reference's "Fetch a Connection by access token" adds (docs/reference.md). */
const AccessTokenConnectionSchema = Type.Object(
  {
    ...ConnectionSchema.properties,
    last_sync_started_at: dateTime('When the latest sync started; null before any.'),
    last_sync_completed_at: dateTime('When a sync last completed; null if none has.'),
    estimated_completed_at: Type.Null({ description: 'Not estimated: always null.' }),
    oldest_order_date: dateTime('Oldest order date stored; null for platforms without orders, or none stored.'),
    newest_order_date: dateTime('Newest order date stored.'),
    initial_orders_synced_count: Nullable(Type.Integer(), 'Orders stored; null for platforms without orders.'),
    unavailable_objects: Nullable(
      Type.Array(StringEnum(REFERENCE_OBJECTS, "An object by the reference's name.")),
      "Objects this connection cannot read, by the reference's names (empty: every one); null until a platform is picked.",
    ),
  },
  { additionalProperties: false, description: 'A connection, with its sync progress and the objects it cannot read.' },
);

export const contract = defineContract({
  method: 'GET',
  url: '/connections/access_token',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Fetch the connection of an access_token.',
  querystring: AccessTokenQuery,
  success: { status: 200, schema: Type.Object({ connection: AccessTokenConnectionSchema }) },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

const iso = (date: Date | null | undefined): string | null => (date === null || date === undefined ? null : date.toISOString());

export default defineEndpoint(contract, async (request): Promise<{ connection: Static<typeof AccessTokenConnectionSchema> }> => {
  const { pool, cipher, config } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  const started = await lastStartedSyncAt(pool, connection.id);
  const completed = await lastCompletedSyncAt(pool, connection.id);
  const ordersRead = connection.platform !== null && getConnector(connection.platform)?.objects.order?.capabilities.read === true;
  const orders = ordersRead ? await coverageOf(pool, connection.id, 'order') : null;
  return {
    connection: {
      ...connectionView(cipher, config.publicUrl, connection),
      last_sync_started_at: iso(started),
      last_sync_completed_at: iso(completed),
      estimated_completed_at: null,
      oldest_order_date: iso(orders?.oldest),
      newest_order_date: iso(orders?.newest),
      initial_orders_synced_count: ordersRead ? (orders?.live ?? 0) : null,
      unavailable_objects: unavailableObjects(connection.platform),
    },
  };
});

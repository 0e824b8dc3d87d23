import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { decodeCursor, encodeCursor } from '../../http/keyset-cursor.ts';
import { isoOfUnixMillis, UnixMillisParam } from '../../http/time-params.ts';
import { OBJECT_TYPES } from '../../model/object-types.ts';
import { StringEnum } from '../../model/shared.ts';
import { listDeletionEvents } from '../../sql/deletion-events.ts';
import { ConnectionRefSchema, connectionRef } from '../shared/envelope.ts';
import { boundedRead } from '../../db/bounded-read.ts';
import { requireTenant } from '../../http/auth.ts';

export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 500;

const RESOURCE_BY_ENTITY = new Map<string, string>(Object.values(OBJECT_TYPES).map((o) => [o.entity, o.plural]));
const ENTITY_BY_RESOURCE = new Map<string, string>(Object.values(OBJECT_TYPES).map((o) => [o.plural, o.entity]));
const SINGULAR_BY_ENTITY = new Map<string, string>(Object.values(OBJECT_TYPES).map((o) => [o.entity, o.singular]));

export const EventSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Event id (also the webhook event id).' }),
    resource: Type.String({ description: 'Resource name as in its path, e.g. bills.' }),
    type: Type.Literal('object_deleted'),
    last_synced_at: Type.String({ format: 'date-time', description: 'When the service recorded the deletion.' }),
    object: Type.Record(Type.String(), Type.Unknown(), { description: 'The last known version of the deleted object.' }),
  },
  { additionalProperties: false },
);

export const contract = defineContract({
  method: 'GET',
  url: '/events',
  auth: 'client',
  tags: ['Events'],
  summary: 'Log of objects deleted on the platform (or through the API), oldest first.',
  querystring: Type.Object({
    access_token: Type.Optional(Type.String()),
    type: Type.Optional(StringEnum(['object_deleted'], 'Event type; object_deleted, the one logged, when absent.')),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'Default 500.' })),
    resources: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated resource names, e.g. bills,accounts.' })),
    last_synced_at_min: Type.Optional(UnixMillisParam('Inclusive.')),
  }),
  success: {
    status: 200,
    schema: Type.Object({ events: Type.Array(EventSchema), next_cursor: Type.Union([Type.String(), Type.Null()]), connection: ConnectionRefSchema }),
  },
  errors: [
    'MISSING_ACCESS_TOKEN',
    'INVALID_CREDENTIALS',
    'VALIDATION_ERROR',
    'INVALID_CURSOR',
    'RATE_LIMIT_EXCEEDED',
    'QUERY_TIMEOUT',
    'SERVICE_UNAVAILABLE',
  ],
});

export default defineEndpoint(contract, async (request) => {
  const { pool } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  const { cursor, resources, last_synced_at_min: sinceMs } = request.query;
  const limit = request.query.limit ?? DEFAULT_LIMIT;
  let entityTypes: string[] | null = null;
  if (resources !== undefined && resources !== '') {
    const names = resources
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
    const unknown = names.filter((n) => !ENTITY_BY_RESOURCE.has(n));
    if (unknown.length > 0) {
      throw new ServiceError(
        'VALIDATION_ERROR',
        `\`resources\` in the query string names unknown resources: ${unknown.join(', ')}. Use names like bills, accounts, journal_entries.`,
        { source: 'service', field: 'resources', location: 'query' },
      );
    }
    entityTypes = names.map((n) => ENTITY_BY_RESOURCE.get(n) ?? '');
  }
  const rows = await boundedRead(pool, request.server.services.config.readLimits.statementTimeoutMs, { field: 'limit', location: 'query' }, (db) =>
    listDeletionEvents(db, {
      connectionId: connection.id,
      entityTypes,
      since: sinceMs === undefined ? null : isoOfUnixMillis(sinceMs),
      from: cursor === undefined || cursor === '' ? null : decodeCursor(cursor),
      limit,
    }),
  );
  const page = rows.slice(0, limit);
  const next = rows[limit];
  return {
    events: page.map((row) => {
      const object = (row.payload[SINGULAR_BY_ENTITY.get(row.type) ?? ''] ?? {}) as Record<string, unknown>;
      return {
        id: row.id,
        resource: RESOURCE_BY_ENTITY.get(row.type) ?? row.type.toLowerCase(),
        type: 'object_deleted' as const,
        last_synced_at: typeof object.last_synced_at === 'string' ? object.last_synced_at : row.position_ts,
        object,
      };
    }),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
    connection: connectionRef(connection),
  };
});

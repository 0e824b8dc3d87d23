import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { CONNECTION_STATUSES, type ConnectionStatus } from '../../../connections/types.ts';
import { listConnectors } from '../../../platforms/index.ts';
import { listDashboardConnections } from '../../../sql/dashboard-connections.ts';
import { encodeCursor } from '../../../http/keyset-cursor.ts';
import { Nullable, StringEnum } from '../../../model/shared.ts';
import { ConnectionStatusSchema } from '../../connections/schemas.ts';
import { CursorQuery, iso, positionOf, sessionTenantOf } from './shared.ts';

export const PAGE_SIZE = 25;

const ListedConnectionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  status: ConnectionStatusSchema,
  store_name: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  last_sync: Nullable(
    Type.Object({
      kind: Type.String(),
      status: Type.String({ description: 'queued, running, completed, failed or cancelled.' }),
      started_at: Nullable(Type.String({ format: 'date-time' })),
      finished_at: Nullable(Type.String({ format: 'date-time' })),
      error: Nullable(Type.String()),
    }),
    'The latest sync run; null when none was asked for.',
  ),
});

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The dashboard's list of the organisation's connections in the session's environment: newest first, 25 a page, with the latest sync.",
  querystring: Type.Object({
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or store name (case-insensitive), or a connection id.' })),
    status: Type.Optional(StringEnum([...CONNECTION_STATUSES, 'any'], 'Filter; omitted or any = every status.')),
    platform: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Z0-9_]*$', description: 'Upper-case platform identifier; empty = all.' })),
    cursor: CursorQuery,
  }),
  success: {
    status: 200,
    schema: Type.Object({
      connections: Type.Array(ListedConnectionSchema),
      next_cursor: Nullable(Type.String(), 'Where the next page starts; null on the last page.'),
      platforms: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
        description: 'The platforms this service offers (for the filter and the new connection form).',
      }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'INVALID_CURSOR'],
});

export default defineEndpoint(contract, async (request) => {
  const tenant = sessionTenantOf(request);
  const { search, status, platform, cursor } = request.query;
  const statuses: readonly ConnectionStatus[] = status === undefined || status === 'any' ? CONNECTION_STATUSES : [status];
  const rows = await listDashboardConnections(request.server.services.pool, tenant, {
    search: search?.trim() ?? null,
    statuses,
    platform: platform === undefined || platform === '' ? null : platform,
    from: positionOf(cursor),
    limit: PAGE_SIZE,
  });
  const next = rows.length > PAGE_SIZE ? rows[PAGE_SIZE] : undefined;
  return {
    connections: rows.slice(0, PAGE_SIZE).map((row) => ({
      id: row.id,
      name: row.name,
      platform: row.platform,
      status: row.status,
      store_name: row.store_name,
      created_at: row.created_at.toISOString(),
      last_sync:
        row.last_sync_kind === null
          ? null
          : {
              kind: row.last_sync_kind,
              status: row.last_sync_status ?? 'queued',
              started_at: iso(row.last_sync_started_at),
              finished_at: iso(row.last_sync_finished_at),
              error: row.last_sync_error,
            },
    })),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
    platforms: listConnectors()
      .map((c) => ({ id: c.id, name: c.name }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
});

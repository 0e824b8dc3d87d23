import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { DEFAULT_LIST_STATUSES } from '../../connections/lifecycle.ts';
import { CONNECTION_STATUSES, type ConnectionStatus } from '../../connections/types.ts';
import { listConnectionsPage, listConnectionsUnpaged } from '../../sql/connections.ts';
import { decodeCursor, encodeCursor } from '../../http/keyset-cursor.ts';
import { StringEnum } from '../../model/shared.ts';
import { ConnectionSchema, connectionView } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
/** The deprecated unpaged mode answers at most this many (newest first); page for more. */
export const UNPAGED_CAP = 10_000;

export const contract = defineContract({
  method: 'GET',
  url: '/connections',
  auth: 'client',
  tags: ['Connections'],
  summary:
    'List connections. Supplying limit or cursor (even empty) turns on paged mode: creation time then id ascending, next_cursor null on the last page. Without both, the deprecated unpaged response (newest first, no next_cursor).',
  querystring: Type.Object({
    status: Type.Optional(StringEnum([...CONNECTION_STATUSES, 'any'], 'Filter; omitted = active, not_ready and unhealthy; any = all.')),
    cursor: Type.Optional(
      Type.String({ maxLength: 512, description: 'next_cursor of the previous page, with the same filters; empty starts the first page.' }),
    ),
    limit: Type.Optional(Type.String({ maxLength: 12, description: 'Integer 1 to 500; omitted, 0 or empty means 50 in paged mode.' })),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      connections: Type.Array(ConnectionSchema),
      next_cursor: Type.Optional(
        Type.Union([Type.String(), Type.Null()], { description: 'Paged mode only: where the next page starts; null on the last page.' }),
      ),
    }),
  },
  errors: ['VALIDATION_ERROR', 'INVALID_CURSOR', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '' || raw === '0') return DEFAULT_LIMIT;
  const value = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `\`limit\` in the query string must be an integer from 1 to ${MAX_LIMIT} (got "${raw.slice(0, 20)}").`,
      { source: 'service', field: 'limit', location: 'query' },
    );
  }
  return value;
}

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher, config } = request.server.services;
  const tenant = requireTenant(request);
  const { status, cursor, limit } = request.query;
  const statuses: readonly ConnectionStatus[] = status === undefined ? DEFAULT_LIST_STATUSES : status === 'any' ? CONNECTION_STATUSES : [status];
  const view = (c: Parameters<typeof connectionView>[2]) => connectionView(cipher, config.publicUrl, c);

  if (cursor === undefined && limit === undefined) {
    const all = await listConnectionsUnpaged(pool, tenant, statuses, UNPAGED_CAP);
    return { connections: all.map(view) };
  }
  const pageSize = parseLimit(limit);
  const from = cursor === undefined || cursor === '' ? null : decodeCursor(cursor);
  const rows = await listConnectionsPage(pool, tenant, statuses, from, pageSize);
  const next = rows.length > pageSize ? rows[pageSize] : undefined;
  return {
    connections: rows.slice(0, pageSize).map((r) => view(r.connection)),
    next_cursor: next === undefined ? null : encodeCursor(next.position),
  };
});

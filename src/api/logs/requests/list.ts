import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { decodeCursor, encodeCursor } from '../../../http/keyset-cursor.ts';
import { requireTenant } from '../../../http/auth.ts';
import { listRequestLogs } from '../../../sql/list-request-logs.ts';
import { RequestLogSchema, requestLogView } from './schemas.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const contract = defineContract({
  method: 'GET',
  url: '/logs/requests',
  auth: 'client',
  tags: ['Request logs'],
  summary: "List the organisation's API request log, newest first.",
  description:
    'One row per request these client credentials made in this environment, kept for REQUEST_LOG_RETENTION_HOURS (72) and to the newest REQUEST_LOG_MAX_ROWS of the organisation. Rows are written in batches about every second, so the newest second may not be listed yet.',
  querystring: Type.Object({
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only the request with this X-Request-Id.' })),
    status: Type.Optional(Type.String({ maxLength: 3, description: 'One status (404) or a class (2xx, 4xx, 5xx).' })),
    connection_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only requests that named this connection.' })),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: 'next_cursor of the previous page, with the same filters.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Default ${DEFAULT_LIMIT}.` })),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      request_logs: Type.Array(RequestLogSchema),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page.' }),
    }),
  },
  errors: ['INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'RATE_LIMIT_EXCEEDED'],
});

/** "404" → 404..404, "4xx" → 400..499; anything else is a 400 naming the field. */
export function parseStatusFilter(raw: string | undefined): { min: number; max: number } | null {
  if (raw === undefined || raw === '') return null;
  const exact = /^[1-5]\d\d$/.exec(raw);
  if (exact !== null) return { min: Number(raw), max: Number(raw) };
  const range = /^([1-5])xx$/i.exec(raw);
  if (range?.[1] !== undefined) return { min: Number(range[1]) * 100, max: Number(range[1]) * 100 + 99 };
  throw new ServiceError(
    'VALIDATION_ERROR',
    `\`status\` in the query string must be an HTTP status (e.g. 404) or a class (2xx, 4xx, 5xx); got "${raw}".`,
    { source: 'service', field: 'status', location: 'query' },
  );
}

export default defineEndpoint(contract, async (request) => {
  const tenant = requireTenant(request);
  const { request_id: requestId, connection_id: connectionId, cursor } = request.query;
  const status = parseStatusFilter(request.query.status);
  const limit = request.query.limit ?? DEFAULT_LIMIT;
  const rows = await listRequestLogs(request.server.services.pool, {
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    requestId: requestId ?? null,
    status,
    connectionId: connectionId ?? null,
    from: cursor === undefined || cursor === '' ? null : decodeCursor(cursor),
    limit: limit + 1,
  });
  const next = rows[limit];
  return {
    request_logs: rows.slice(0, limit).map(requestLogView),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.created_at, id: next.id }),
  };
});

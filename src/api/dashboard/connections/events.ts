import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { encodeCursor } from '../../../http/keyset-cursor.ts';
import { listConnectionEvents } from '../../../sql/dashboard-connection-events.ts';
import { Nullable } from '../../../model/shared.ts';
import { ConnectionIdParams } from '../../connections/schemas.ts';
import { CursorQuery, ownConnection, positionOf, sessionTenantOf } from './shared.ts';

export const EVENTS_PER_PAGE = 25;
/** Secret slots of a webhook body: emptied in the store, and never shown on a page. */
const SECRET_FIELDS = new Set(['access_token', 'update_url']);

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections/:id/events',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The webhook events of a connection (what its organisation's webhook receives), newest first, 25 a page, without their secrets.",
  params: ConnectionIdParams,
  querystring: Type.Object({
    code: Type.Optional(
      Type.String({ maxLength: 80, pattern: '^[A-Z0-9_]*$', description: 'Only this event code (e.g. INCREMENTAL_SYNC_COMPLETED); empty = all.' }),
    ),
    cursor: CursorQuery,
  }),
  success: {
    status: 200,
    schema: Type.Object({
      events: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid' }),
          type: Type.String(),
          code: Type.String(),
          created_at: Type.String({ format: 'date-time' }),
          payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The webhook body without access_token and update_url.' }),
        }),
      ),
      next_cursor: Nullable(Type.String()),
    }),
  },
  errors: ['VALIDATION_ERROR', 'RESOURCE_NOT_FOUND', 'INVALID_CURSOR'],
});

export default defineEndpoint(contract, async (request) => {
  const connection = await ownConnection(request, request.params.id);
  const code = request.query.code === undefined || request.query.code === '' ? null : request.query.code;
  const rows = await listConnectionEvents(request.server.services.pool, sessionTenantOf(request), connection.id, {
    code,
    from: positionOf(request.query.cursor),
    limit: EVENTS_PER_PAGE,
  });
  const next = rows.length > EVENTS_PER_PAGE ? rows[EVENTS_PER_PAGE] : undefined;
  return {
    events: rows.slice(0, EVENTS_PER_PAGE).map((row) => ({
      id: row.id,
      type: row.type,
      code: row.code,
      created_at: row.created_at.toISOString(),
      payload: Object.fromEntries(Object.entries(row.payload).filter(([name]) => !SECRET_FIELDS.has(name))),
    })),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
  };
});

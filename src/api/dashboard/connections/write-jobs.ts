import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { encodeCursor } from '../../../http/keyset-cursor.ts';
import { listConnectionWriteJobs } from '../../../sql/dashboard-write-jobs.ts';
import { Nullable } from '../../../model/shared.ts';
import { ConnectionIdParams } from '../../connections/schemas.ts';
import { CursorQuery, ownConnection, positionOf, sessionTenantOf } from './shared.ts';

export const JOBS_PER_PAGE = 25;

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections/:id/write-jobs',
  auth: 'session',
  tags: ['Dashboard'],
  summary: 'The write jobs of a connection (creates, updates, deletes sent to its platform), newest first, 25 a page.',
  params: ConnectionIdParams,
  querystring: Type.Object({ cursor: CursorQuery }),
  success: {
    status: 200,
    schema: Type.Object({
      jobs: Type.Array(
        Type.Object({
          id: Type.String({ format: 'uuid', description: 'As GET /jobs/:id knows it.' }),
          object_type: Type.String(),
          operation: Type.String(),
          target_id: Nullable(Type.String()),
          status: Type.String({ description: 'pending, in_progress, completed or failed.' }),
          attempts: Type.Integer(),
          response_status: Nullable(Type.Integer(), 'The HTTP status of its answer once it has one.'),
          result_id: Nullable(Type.String()),
          created_at: Type.String({ format: 'date-time' }),
          updated_at: Type.String({ format: 'date-time' }),
        }),
      ),
      next_cursor: Nullable(Type.String()),
    }),
  },
  errors: ['VALIDATION_ERROR', 'RESOURCE_NOT_FOUND', 'INVALID_CURSOR'],
});

export default defineEndpoint(contract, async (request) => {
  const connection = await ownConnection(request, request.params.id);
  const rows = await listConnectionWriteJobs(
    request.server.services.pool,
    sessionTenantOf(request),
    connection.id,
    positionOf(request.query.cursor),
    JOBS_PER_PAGE,
  );
  const next = rows.length > JOBS_PER_PAGE ? rows[JOBS_PER_PAGE] : undefined;
  return {
    jobs: rows.slice(0, JOBS_PER_PAGE).map((row) => ({
      id: row.id,
      object_type: row.object_type,
      operation: row.operation,
      target_id: row.target_id,
      status: row.status,
      attempts: row.attempts,
      response_status: row.response_status,
      result_id: row.result_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    })),
    next_cursor: next === undefined ? null : encodeCursor({ createdAt: next.position_ts, id: next.id }),
  };
});

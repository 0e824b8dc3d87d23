import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { auditPage } from '../../../users/audit.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/audit_log',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The organisation's audit log, newest first: every state-changing request of its dashboard users (refused ones too), sign-ins and sign-outs.",
  querystring: Type.Object({
    cursor: Type.Optional(Type.String({ maxLength: 20, description: 'next_cursor of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Entries per page (default 50).' })),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      entries: Type.Array(
        Type.Object({
          id: Type.String(),
          actor: Type.String({ description: 'The email of the user at the time.' }),
          action: Type.String({ description: 'METHOD /route, or SIGN_IN, SIGN_OUT, SIGN_OUT_EVERYWHERE.' }),
          target: Type.Union([Type.String(), Type.Null()], { description: 'The ids in the path and the query (never a token).' }),
          environment: Type.Union([Type.String(), Type.Null()]),
          status: Type.Integer({ description: 'The HTTP status it was answered with.' }),
          request_id: Type.Union([Type.String(), Type.Null()]),
          created_at: Type.String({ format: 'date-time' }),
        }),
      ),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  errors: ['VALIDATION_ERROR', 'INVALID_CURSOR'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const cursor = request.query.cursor ?? null;
  if (cursor !== null && !/^\d{1,18}$/.test(cursor)) {
    throw new ServiceError('INVALID_CURSOR', '`cursor` must be the next_cursor of a previous page of the audit log.', {
      source: 'service',
      field: 'cursor',
      location: 'query',
    });
  }
  return auditPage(request.server.services.pool, user.organizationId, cursor, request.query.limit ?? 50);
});

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { requireTenant } from '../../../http/auth.ts';
import { listRequestLogs } from '../../../sql/list-request-logs.ts';
import { RequestLogSchema, requestLogView } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/logs/requests/:id',
  auth: 'client',
  tags: ['Request logs'],
  summary: 'Fetch the request log row of one request, by the X-Request-Id of its answer.',
  description:
    'The newest request of these client credentials in this environment whose answer carried this X-Request-Id (a client that sends its own X-Request-Id may reuse one). 410 when there is none: unknown, another organisation’s, past the retention, or not written yet (rows are written about every second).',
  params: Type.Object({
    id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$', description: 'The X-Request-Id of the answer.' }),
  }),
  success: { status: 200, schema: Type.Object({ request_log: RequestLogSchema }) },
  errors: ['INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'RESOURCE_NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const tenant = requireTenant(request);
  const { id } = request.params;
  const [row] = await listRequestLogs(request.server.services.pool, {
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    requestId: id,
    status: null,
    connectionId: null,
    from: null,
    limit: 1,
  });
  if (row === undefined) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `No request with id ${id} in the request log of these client credentials.`, {
      source: 'service',
      field: 'id',
      location: 'params',
    });
  }
  return { request_log: requestLogView(row) };
});

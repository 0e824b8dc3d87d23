import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { requestSync } from '../../sync/requests.ts';
import { AccessTokenQuery } from './schemas.ts';
import { checkEntities, SyncRequestSchema, syncableEntities } from './incremental-sync.ts';
import { requireTenant } from '../../http/auth.ts';

export const MAX_BACKFILL_DAYS = 366 * 10;

export const contract = defineContract({
  method: 'POST',
  url: '/connections/backfill',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Re-read one entity over a date window (for example records older than the initial sync reached). Dates are inclusive, ISO 8601.',
  querystring: AccessTokenQuery,
  body: Type.Object(
    {
      entity: Type.String({ description: 'Upper-case entity name, e.g. BILL.' }),
      start_date: Type.String({ format: 'date', description: 'First day, YYYY-MM-DD.' }),
      end_date: Type.String({ format: 'date', description: 'Last day, YYYY-MM-DD (inclusive).' }),
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      success: Type.Boolean({ description: "The reference's answer: true, the run is queued (its details beside it)." }),
      backfill: Type.Object({ ...SyncRequestSchema.properties, entity: Type.String(), start_date: Type.String(), end_date: Type.String() }),
    }),
  },
  errors: [
    'MISSING_ACCESS_TOKEN',
    'INVALID_CREDENTIALS',
    'VALIDATION_ERROR',
    'NO_CREDENTIALS',
    'PENDING',
    'LINK_ERROR',
    'NEEDS_UPDATE',
    'CONNECTION_DISABLED',
    'RATE_LIMIT_EXCEEDED',
  ],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, jobs } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  const { entity, start_date: start, end_date: end } = request.body;
  checkEntities([entity], await syncableEntities(pool, connection), 'entity');
  const days = (Date.parse(end) - Date.parse(start)) / 86_400_000;
  if (days < 0)
    throw new ServiceError('VALIDATION_ERROR', '`end_date` in the request body must not be before `start_date`.', {
      source: 'service',
      field: 'end_date',
      location: 'body',
    });
  if (days > MAX_BACKFILL_DAYS)
    throw new ServiceError('VALIDATION_ERROR', '`end_date` in the request body is more than 10 years after `start_date`; split the backfill.', {
      source: 'service',
      field: 'end_date',
      location: 'body',
    });
  const run = await requestSync(pool, jobs, connection.id, {
    kind: 'backfill',
    trigger: 'api',
    details: { entity, start_date: start, end_date: end },
    requestId: request.id,
  });
  return { success: true, backfill: { id: run.id, status: 'queued' as const, created_at: run.created_at, entity, start_date: start, end_date: end } };
});

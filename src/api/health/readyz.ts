import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { appliedSchemaVersion } from '../../sql/schema-version.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/readyz',
  auth: 'none',
  tags: ['Operations'],
  summary: 'Readiness: the database answers and every migration is applied.',
  success: { status: 200, schema: Type.Object({ status: Type.Literal('ready'), schema_version: Type.Integer() }) },
  errors: ['SERVICE_UNAVAILABLE'],
});

export default defineEndpoint(contract, async (request) => {
  try {
    return { status: 'ready' as const, schema_version: (await appliedSchemaVersion(request.server.services.pool)) ?? 0 };
  } catch (error) {
    request.log.warn({ err: error }, 'readiness check failed');
    throw new ServiceError('SERVICE_UNAVAILABLE', 'The database does not answer.', { source: 'service' });
  }
});

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { removeRedirectUrls } from '../../../connections/redirect-urls.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';

export const contract = defineContract({
  method: 'DELETE',
  url: '/admin/organizations/:id/redirect_urls',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Remove the redirect URL list of one environment: sandbox then accepts the redirect_url given at connection creation, production none.',
  description: 'Answers 410 RESOURCE_NOT_FOUND when the environment has no list.',
  params: OrganizationIdParams,
  querystring: Type.Object({ environment: EnvironmentSchema }),
  success: { status: 200, schema: Type.Object({ deleted: Type.Literal(true) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  await removeRedirectUrls(request.server.services.pool, request.params.id, request.query.environment);
  return { deleted: true as const };
});

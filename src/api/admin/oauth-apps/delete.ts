import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { removeOAuthApp } from '../../../connections/oauth-apps.ts';
import { EnvironmentSchema } from '../organizations/schemas.ts';
import { OAuthAppParams } from './schemas.ts';

export const contract = defineContract({
  method: 'DELETE',
  url: '/admin/organizations/:id/oauth_apps/:platform',
  auth: 'admin',
  dashboard: { role: 'admin' },
  tags: ['Admin'],
  summary: "Remove the organisation's OAuth app of one platform and environment: new links of that platform stop until another is set.",
  description: 'Answers 410 RESOURCE_NOT_FOUND when there is no such app (nothing to remove).',
  params: OAuthAppParams,
  querystring: Type.Object({ environment: EnvironmentSchema }),
  success: { status: 200, schema: Type.Object({ deleted: Type.Literal(true) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  await removeOAuthApp(request.server.services.pool, request.params.id, request.params.platform, request.query.environment);
  return { deleted: true as const };
});

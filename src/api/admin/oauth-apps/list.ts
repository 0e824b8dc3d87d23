import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getOAuthApps } from '../../../connections/oauth-apps.ts';
import { OrganizationIdParams } from '../organizations/schemas.ts';
import { OAuthAppSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations/:id/oauth_apps',
  auth: 'admin',
  dashboard: { role: 'viewer' },
  tags: ['Admin'],
  summary: "The organisation's OAuth apps, by platform then environment (secrets are never shown).",
  params: OrganizationIdParams,
  success: { status: 200, schema: Type.Object({ oauth_apps: Type.Array(OAuthAppSchema) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => ({
  oauth_apps: await getOAuthApps(request.server.services.pool, request.params.id),
}));

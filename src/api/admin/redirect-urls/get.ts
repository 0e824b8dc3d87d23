import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getRedirectUrls } from '../../../connections/redirect-urls.ts';
import { OrganizationIdParams } from '../organizations/schemas.ts';
import { RedirectUrlsSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations/:id/redirect_urls',
  auth: 'admin',
  dashboard: { role: 'viewer' },
  tags: ['Admin'],
  summary: "The allowed redirect URLs of the organisation's environments that have a list.",
  params: OrganizationIdParams,
  success: { status: 200, schema: Type.Object({ redirect_urls: Type.Array(RedirectUrlsSchema) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => ({
  redirect_urls: await getRedirectUrls(request.server.services.pool, request.params.id),
}));

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { listOrganizations } from '../../../tenants/organizations.ts';
import { OrganizationSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations',
  auth: 'admin',
  tags: ['Admin'],
  summary: 'List organisations (secrets are never shown again).',
  success: { status: 200, schema: Type.Object({ organizations: Type.Array(OrganizationSchema) }) },
  errors: ['INVALID_ADMIN_TOKEN'],
});

export default defineEndpoint(contract, async (request) => ({
  organizations: await listOrganizations(request.server.services.pool),
}));

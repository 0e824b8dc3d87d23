import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { createOrganization } from '../../../tenants/organizations.ts';
import { ClientCredentialsSchema, OrganizationSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/admin/organizations',
  auth: 'admin',
  tags: ['Admin'],
  summary: 'Create an organisation with sandbox and production client credentials.',
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
  success: {
    status: 201,
    schema: Type.Object({
      organization: OrganizationSchema,
      credentials: Type.Object({ sandbox: ClientCredentialsSchema, production: ClientCredentialsSchema }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher } = request.server.services;
  return createOrganization(pool, cipher, request.body.name);
});

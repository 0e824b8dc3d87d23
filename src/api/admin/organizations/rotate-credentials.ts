import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { clientAuthCache } from '../../../http/auth-cache.ts';
import { rotateSecret } from '../../../tenants/organizations.ts';
import { EnvironmentSchema, OrganizationIdParams } from './schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/admin/organizations/:id/credentials/rotate',
  auth: 'admin',
  dashboard: { role: 'admin' },
  tags: ['Admin'],
  summary: 'Issue a new client secret; the previous one keeps working (and signing webhooks, second) until the grace period ends.',
  params: OrganizationIdParams,
  body: Type.Object(
    {
      environment: EnvironmentSchema,
      grace_period_seconds: Type.Integer({ minimum: 0, maximum: 30 * 24 * 3600, description: '0 revokes the old secret at once; at most 30 days.' }),
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      environment: EnvironmentSchema,
      client_id: Type.String(),
      client_secret: Type.String(),
      previous_secret_expires_at: Type.String({ format: 'date-time' }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher } = request.server.services;
  const rotated = await rotateSecret(pool, cipher, request.params.id, request.body.environment, request.body.grace_period_seconds);
  // The previous secret's new expiry applies here at once (other processes: within AUTH_CACHE_SECONDS).
  clientAuthCache.forgetOrganization(request.params.id);
  return rotated;
});

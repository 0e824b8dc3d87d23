import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { Nullable } from '../../../model/shared.ts';
import { credentialOverview } from '../../../tenants/credential-overview.ts';
import { EnvironmentSchema } from '../../admin/organizations/schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/credentials',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The session's organisation's client ids per environment and when their active secrets expire; never a secret.",
  success: {
    status: 200,
    schema: Type.Object({
      credentials: Type.Array(
        Type.Object({
          environment: EnvironmentSchema,
          client_id: Type.String(),
          created_at: Type.String({ format: 'date-time' }),
          active_secrets: Type.Array(
            Type.Object({
              created_at: Type.String({ format: 'date-time' }),
              expires_at: Nullable(Type.String({ format: 'date-time' }), 'When a rotated-out secret stops working; null: no expiry.'),
            }),
            { description: 'Newest first: two during a rotation grace period.' },
          ),
        }),
      ),
    }),
  },
  errors: [],
});

export default defineEndpoint(contract, async (request) => ({
  credentials: await credentialOverview(request.server.services.pool, requireDashboardUser(request).organizationId),
}));

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser, sessionEnvironment } from '../../../http/session-auth.ts';
import { EnvironmentSchema } from '../../admin/organizations/schemas.ts';
import { RoleSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/session',
  auth: 'session',
  tags: ['Dashboard'],
  summary: 'Who is signed in: the user, their organisation and role, and the environment the dashboard works in.',
  success: {
    status: 200,
    schema: Type.Object({
      user: Type.Object({ id: Type.String({ format: 'uuid' }), email: Type.String(), role: RoleSchema }),
      organization_id: Type.String({ format: 'uuid' }),
      environment: EnvironmentSchema,
    }),
  },
  errors: ['VALIDATION_ERROR'],
});

export default defineEndpoint(contract, (request) => {
  const user = requireDashboardUser(request);
  return Promise.resolve({
    user: { id: user.userId, email: user.email, role: user.role },
    organization_id: user.organizationId,
    environment: sessionEnvironment(request),
  });
});

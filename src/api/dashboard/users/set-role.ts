import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { changeRole } from '../../../users/users.ts';
import { DashboardUserSchema, RoleSchema, UserIdParams } from './schemas.ts';

export const contract = defineContract({
  method: 'PATCH',
  url: '/dashboard/api/users/:user_id',
  auth: 'session',
  dashboard: { role: 'admin' },
  tags: ['Dashboard'],
  summary: "Change a user's role. Their sessions end, so the new role applies at once; the last admin keeps the role.",
  params: UserIdParams,
  body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
  success: { status: 200, schema: Type.Object({ user: DashboardUserSchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  return { user: await changeRole(request.server.services.pool, user.organizationId, request.params.user_id, request.body.role) };
});

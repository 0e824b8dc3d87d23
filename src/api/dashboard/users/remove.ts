import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { removeUser } from '../../../users/users.ts';
import { UserIdParams } from './schemas.ts';

export const contract = defineContract({
  method: 'DELETE',
  url: '/dashboard/api/users/:user_id',
  auth: 'session',
  dashboard: { role: 'admin' },
  tags: ['Dashboard'],
  summary: 'Remove a user from the organisation (their sessions end with them). The last admin cannot be removed.',
  params: UserIdParams,
  success: { status: 204, schema: null },
  errors: ['VALIDATION_ERROR', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  await removeUser(request.server.services.pool, user.organizationId, request.params.user_id);
  return undefined;
});

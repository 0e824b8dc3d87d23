import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { listDashboardUsers } from '../../../sql/dashboard-users.ts';
import { userView } from '../../../users/users.ts';
import { DashboardUserSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/users',
  auth: 'session',
  tags: ['Dashboard'],
  summary: "The signed-in user's organisation's dashboard users, oldest first.",
  success: { status: 200, schema: Type.Object({ users: Type.Array(DashboardUserSchema) }) },
  errors: [],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const rows = await listDashboardUsers(request.server.services.pool, user.organizationId);
  return { users: rows.map(userView) };
});

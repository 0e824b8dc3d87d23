import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { requireDashboardUser } from '../../../http/session-auth.ts';
import { inviteUser, signInUrl } from '../../../users/users.ts';
import { InvitationSchema, InviteBodySchema } from './schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/dashboard/api/users',
  auth: 'session',
  dashboard: { role: 'admin' },
  tags: ['Dashboard'],
  summary: 'Invite a person to the organisation with a role: answers their one-time sign-in link.',
  body: InviteBodySchema,
  success: { status: 201, schema: InvitationSchema },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'DUPLICATE_VALUE_CONFLICT'],
});

export default defineEndpoint(contract, async (request) => {
  const user = requireDashboardUser(request);
  const { pool, config } = request.server.services;
  const invited = await inviteUser(pool, user.organizationId, request.body);
  return { user: invited.user, sign_in_url: signInUrl(config.publicUrl, invited.signInToken) };
});

import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getOrganization, organizationNotFound } from '../../../tenants/organizations.ts';
import { inviteUser, signInUrl } from '../../../users/users.ts';
import { OrganizationIdParams } from '../organizations/schemas.ts';
import { InvitationSchema, InviteBodySchema } from '../../dashboard/users/schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/admin/organizations/:id/dashboard_users',
  auth: 'admin',
  tags: ['Admin'],
  summary: "The operator invites a person to an organisation's dashboard (its first admin, typically): answers the one-time sign-in link.",
  params: OrganizationIdParams,
  body: InviteBodySchema,
  success: { status: 201, schema: InvitationSchema },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'RESOURCE_NOT_FOUND', 'DUPLICATE_VALUE_CONFLICT'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, config } = request.server.services;
  if ((await getOrganization(pool, request.params.id)) === null) throw organizationNotFound(request.params.id);
  const invited = await inviteUser(pool, request.params.id, request.body);
  return { user: invited.user, sign_in_url: signInUrl(config.publicUrl, invited.signInToken) };
});

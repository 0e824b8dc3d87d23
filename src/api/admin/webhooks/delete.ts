import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { removeWebhookUrl } from '../../../webhooks/admin.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';

export const contract = defineContract({
  method: 'DELETE',
  url: '/admin/organizations/:id/webhook',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Remove the webhook URL of one environment: no new deliveries; deliveries already created keep going.',
  description: 'Answers 410 RESOURCE_NOT_FOUND when the environment has no URL (nothing to remove).',
  params: OrganizationIdParams,
  querystring: Type.Object({ environment: EnvironmentSchema }),
  success: { status: 200, schema: Type.Object({ deleted: Type.Literal(true) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  await removeWebhookUrl(request.server.services.pool, request.params.id, request.query.environment);
  return { deleted: true as const };
});

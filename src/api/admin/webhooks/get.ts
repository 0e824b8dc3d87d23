import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getWebhookUrls } from '../../../webhooks/admin.ts';
import { OrganizationIdParams } from '../organizations/schemas.ts';
import { WebhookSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations/:id/webhook',
  auth: 'admin',
  dashboard: { role: 'viewer' },
  tags: ['Admin'],
  summary: "The webhook URLs of the organisation's configured environments.",
  params: OrganizationIdParams,
  success: { status: 200, schema: Type.Object({ webhooks: Type.Array(WebhookSchema) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => ({
  webhooks: await getWebhookUrls(request.server.services.pool, request.params.id),
}));

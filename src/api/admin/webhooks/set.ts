import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { setWebhookUrl } from '../../../webhooks/admin.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';
import { WebhookSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'PUT',
  url: '/admin/organizations/:id/webhook',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Set the webhook URL of one environment; its new events are delivered there, signed, retried for 15 minutes.',
  description:
    'http or https, no credentials, no #fragment. When WEBHOOK_ALLOW_PRIVATE=false (the default in production) ' +
    'loopback, private and link-local addresses are refused, here for literal addresses and at delivery time for names.',
  params: OrganizationIdParams,
  body: Type.Object(
    {
      environment: EnvironmentSchema,
      url: Type.String({ minLength: 1, maxLength: 2000, description: 'e.g. https://example.com/webhooks/ledgerport' }),
    },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Type.Object({ webhook: WebhookSchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, config } = request.server.services;
  const { environment, url } = request.body;
  return {
    webhook: await setWebhookUrl(pool, {
      organizationId: request.params.id,
      environment,
      url,
      allowPrivate: config.webhookAllowPrivate,
      location: 'body',
    }),
  };
});

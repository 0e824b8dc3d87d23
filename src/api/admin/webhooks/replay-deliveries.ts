import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { MAX_REPLAY_DAYS, replayFailedDeliveries, webhookWindowSeconds } from '../../../webhooks/admin.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/admin/organizations/:id/webhook/deliveries/replay',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Re-send every failed delivery created in [from, to) that was not re-sent before: one new delivery each, retried for 15 minutes.',
  description:
    `At most ${MAX_REPLAY_DAYS} days per call. Environments without a webhook URL are skipped; ` +
    'when none of the requested environments has one, 400 VALIDATION_ERROR. Calling again re-sends nothing twice.',
  params: OrganizationIdParams,
  body: Type.Object(
    {
      from: Type.String({ format: 'date-time', description: 'Inclusive, e.g. 2026-01-31T00:00:00Z.' }),
      to: Type.String({ format: 'date-time', description: 'Exclusive; after from, at most 31 days later.' }),
      environment: Type.Optional(EnvironmentSchema),
    },
    { additionalProperties: false },
  ),
  success: { status: 202, schema: Type.Object({ replayed: Type.Integer({ minimum: 0, description: 'New deliveries created.' }) }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, config } = request.server.services;
  const { from, to, environment } = request.body;
  return replayFailedDeliveries(pool, {
    organizationId: request.params.id,
    from,
    to,
    environment: environment ?? null,
    windowSeconds: webhookWindowSeconds(config),
    location: 'body',
  });
});

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { retryDelivery, webhookWindowSeconds } from '../../../webhooks/admin.ts';
import { DeliveryParams, DeliverySchema } from './schemas.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/admin/organizations/:id/webhook/deliveries/:deliveryId/retry',
  auth: 'admin',
  dashboard: { role: 'developer' },
  tags: ['Admin'],
  summary: 'Re-send one delivery, whatever its status: a new delivery of the same event (replay_of = this one), due now, retried for 15 minutes.',
  description: "Refused with 400 VALIDATION_ERROR when the delivery's environment has no webhook URL any more.",
  params: DeliveryParams,
  body: Type.Object({}, { additionalProperties: false, description: 'Empty: the delivery is named in the path.' }),
  success: { status: 202, schema: Type.Object({ delivery: DeliverySchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, config } = request.server.services;
  return { delivery: await retryDelivery(pool, request.params.id, request.params.deliveryId, webhookWindowSeconds(config)) };
});

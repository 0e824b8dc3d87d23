import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { getDelivery, webhookWindowSeconds } from '../../../webhooks/admin.ts';
import { AttemptSchema, DeliveryParams, DeliverySchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations/:id/webhook/deliveries/:deliveryId',
  auth: 'admin',
  dashboard: { role: 'viewer' },
  tags: ['Admin'],
  summary: 'One webhook delivery with every attempt: URL, start, duration, HTTP status, error and the start of the answer.',
  params: DeliveryParams,
  success: {
    status: 200,
    schema: Type.Object({
      delivery: Type.Object({ ...DeliverySchema.properties, attempts_log: Type.Array(AttemptSchema, { description: 'First attempt first.' }) }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => ({
  delivery: await getDelivery(
    request.server.services.pool,
    request.params.id,
    request.params.deliveryId,
    webhookWindowSeconds(request.server.services.config),
  ),
}));

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { decodeCursor, encodeCursor } from '../../../http/keyset-cursor.ts';
import { DEFAULT_DELIVERY_LIMIT, listDeliveries, MAX_DELIVERY_LIMIT, webhookWindowSeconds } from '../../../webhooks/admin.ts';
import { EnvironmentSchema, OrganizationIdParams } from '../organizations/schemas.ts';
import { DeliverySchema, DeliveryStatusSchema } from './schemas.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/admin/organizations/:id/webhook/deliveries',
  auth: 'admin',
  dashboard: { role: 'viewer' },
  tags: ['Admin'],
  summary: 'The webhook delivery log, newest first, keyset-paged: pass next_cursor back as cursor with the same filters.',
  params: OrganizationIdParams,
  querystring: Type.Object({
    environment: Type.Optional(EnvironmentSchema),
    status: Type.Optional(DeliveryStatusSchema),
    code: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 100, description: 'Event code, e.g. BILL_CREATED.' })),
    connection_id: Type.Optional(Type.String({ format: 'uuid' })),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: 'next_cursor of the previous page; omit for the first page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DELIVERY_LIMIT, description: `Default ${DEFAULT_DELIVERY_LIMIT}.` })),
  }),
  success: {
    status: 200,
    schema: Type.Object({
      deliveries: Type.Array(DeliverySchema),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page.' }),
    }),
  },
  errors: ['VALIDATION_ERROR', 'INVALID_CURSOR', 'INVALID_ADMIN_TOKEN', 'RESOURCE_NOT_FOUND'],
});

export default defineEndpoint(contract, async (request) => {
  const q = request.query;
  const page = await listDeliveries(
    request.server.services.pool,
    request.params.id,
    {
      environment: q.environment ?? null,
      status: q.status ?? null,
      code: q.code ?? null,
      connectionId: q.connection_id ?? null,
      from: q.cursor === undefined || q.cursor === '' ? null : decodeCursor(q.cursor),
      limit: q.limit ?? DEFAULT_DELIVERY_LIMIT,
    },
    webhookWindowSeconds(request.server.services.config),
  );
  return { deliveries: page.deliveries, next_cursor: page.next === null ? null : encodeCursor(page.next) };
});

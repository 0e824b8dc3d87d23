import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForId } from '../../connections/connections.ts';
import { ConnectionIdParams, ConnectionSchema, connectionView } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';
import { renameConnection } from '../../sql/rename-connection.ts';

export const contract = defineContract({
  method: 'PATCH',
  url: '/connections/:id',
  auth: 'client',
  tags: ['Connections'],
  summary: "Rename a connection (the label is private to the client's organisation).",
  params: ConnectionIdParams,
  body: Type.Object(
    { name: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'New label; null clears it.' }) },
    { additionalProperties: false },
  ),
  success: { status: 200, schema: Type.Object({ connection: ConnectionSchema }) },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_CREDENTIALS', 'RESOURCE_NOT_FOUND', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher, config } = request.server.services;
  const tenant = requireTenant(request);
  await connectionForId(pool, tenant, request.params.id);
  await renameConnection(pool, request.params.id, request.body.name);
  return { connection: connectionView(cipher, config.publicUrl, await connectionForId(pool, tenant, request.params.id)) };
});

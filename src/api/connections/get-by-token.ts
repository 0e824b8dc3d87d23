import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { AccessTokenQuery, ConnectionSchema, connectionView } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/connections/access_token',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Fetch the connection of an access_token.',
  querystring: AccessTokenQuery,
  success: { status: 200, schema: Type.Object({ connection: ConnectionSchema }) },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher, config } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  return { connection: connectionView(cipher, config.publicUrl, connection) };
});

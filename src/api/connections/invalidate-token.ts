import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { connectionForAccessToken, invalidateAccessToken } from '../../connections/connections.ts';
import { AccessTokenQuery } from './schemas.ts';
import { requireTenant } from '../../http/auth.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/connections/access_token/invalidate',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Issue a new access_token for the connection; the old one stops working at once.',
  querystring: AccessTokenQuery,
  body: Type.Object({}, { additionalProperties: false, description: 'Empty: the connection is named by the access_token query parameter.' }),
  success: {
    status: 200,
    schema: Type.Object({
      connection_id: Type.String({ format: 'uuid' }),
      access_token: Type.String({ description: 'The replacement token.' }),
      new_access_token: Type.String({ description: "The replacement token again, under the reference's name." }),
    }),
  },
  errors: ['MISSING_ACCESS_TOKEN', 'INVALID_CREDENTIALS', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED'],
});

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher } = request.server.services;
  const tenant = requireTenant(request);
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token);
  const replacement = await invalidateAccessToken(pool, cipher, connection, request.query.access_token ?? '');
  return { connection_id: connection.id, access_token: replacement, new_access_token: replacement };
});

import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { sha256 } from '../../../crypto/secrets.ts';
import { connectionOfPublicToken } from '../../../sql/dashboard-public-token-connection.ts';
import { sessionTenantOf } from './shared.ts';

export const contract = defineContract({
  method: 'GET',
  url: '/dashboard/api/connections/linked',
  auth: 'session',
  tags: ['Dashboard'],
  summary:
    "The connection a link flow just completed, from the public_token it returned with (without using the token up): where the dashboard's own link flow brings the user back.",
  querystring: Type.Object({ public_token: Type.String({ minLength: 1, maxLength: 200 }) }),
  success: { status: 200, schema: Type.Object({ connection_id: Type.String({ format: 'uuid' }) }) },
  errors: ['VALIDATION_ERROR', 'INVALID_PUBLIC_TOKEN'],
});

export default defineEndpoint(contract, async (request) => {
  const id = await connectionOfPublicToken(request.server.services.pool, sessionTenantOf(request), sha256(request.query.public_token));
  if (id === null) {
    throw new ServiceError(
      'INVALID_PUBLIC_TOKEN',
      'This public_token is unknown, expired or of another organisation or environment: find the connection in the list instead.',
      { source: 'service', field: 'public_token', location: 'query' },
    );
  }
  return { connection_id: id };
});

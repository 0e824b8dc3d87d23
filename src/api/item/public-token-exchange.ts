import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { accessTokenOf, exchangePublicToken } from '../../connections/connections.ts';
import { parseBasicAuthorization } from '../../http/auth.ts';
import { requireTenant } from '../../http/auth.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/item/public_token/exchange',
  auth: 'client',
  tags: ['Connections'],
  summary: 'Exchange the public_token from the link flow for the connection access_token. A public_token works once, within 30 minutes.',
  body: Type.Object(
    {
      client_id: Type.String({ minLength: 1, maxLength: 200, description: 'Your client_id (must match the Basic credentials).' }),
      public_token: Type.String({ minLength: 1, maxLength: 200 }),
      secret: Type.String({ minLength: 1, maxLength: 200, description: 'Your client secret (must match the Basic credentials).' }),
    },
    { additionalProperties: false },
  ),
  success: {
    status: 200,
    schema: Type.Object({
      connection_id: Type.String({ format: 'uuid' }),
      access_token: Type.String(),
      is_ready: Type.Boolean({ description: 'Whether all data is ready (initial sync finished).' }),
      platform: Type.String(),
      name: Type.Union([Type.String(), Type.Null()], {
        description: "The account's name on its platform (the store, company or organisation name), null until known.",
      }),
      store_unique_name: Type.Optional(
        Type.String({
          description: 'Unique identifier of the account on its platform (store_unique_id: the realm, tenant or shop id), when the platform has one.',
        }),
      ),
    }),
  },
  errors: ['VALIDATION_ERROR', 'MALFORMED_JSON', 'INVALID_CREDENTIALS', 'INVALID_PUBLIC_TOKEN', 'RATE_LIMIT_EXCEEDED'],
});

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export default defineEndpoint(contract, async (request) => {
  const { pool, cipher } = request.server.services;
  const tenant = requireTenant(request);
  const basic = parseBasicAuthorization(request.headers.authorization);
  if (!same(basic.clientId, request.body.client_id) || !same(basic.clientSecret, request.body.secret)) {
    throw new ServiceError('INVALID_CREDENTIALS', '`client_id` and `secret` in the body must be the same credentials as the Authorization header.', {
      source: 'service',
      field: 'client_id',
      location: 'body',
    });
  }
  const connection = await exchangePublicToken(pool, tenant, request.body.public_token);
  return {
    connection_id: connection.id,
    access_token: accessTokenOf(cipher, connection),
    is_ready: connection.readyAt !== null,
    platform: connection.platform ?? '',
    name: connection.storeName,
    // The spec: "unique store identifier". The display name (storeName) is not unique; the platform's id is.
    ...(connection.storeUniqueId !== null ? { store_unique_name: connection.storeUniqueId } : {}),
  };
});

/**
 * POST /accounting/bank_feeds/otp (reference: CreateBankFeedOtp): a one-time password the business types into its
 * accounting platform's bank-feed setup, where the platform lists the client as a bank (the reference's Sage and
 * Intuit bank feeds). No platform this service offers links a feed that way: SANDBOX's and the others' feeds are
 * linked through the mapping page (POST /accounting/bank_feeds/accounts/mapping_link), so every connection answers
 * 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM, after the usual credential and body checks (docs/reference.md).
 */
import { Type } from 'typebox';
import { connectionForAccessToken } from '../../../connections/connections.ts';
import { ServiceError } from '../../../errors/catalogue.ts';
import { requireTenant } from '../../../http/auth.ts';
import { defineContract, defineEndpoint } from '../../../http/contract.ts';
import { assertProductAllowed } from '../../../tenants/products.ts';
import { ConnectionRefSchema } from '../../shared/envelope.ts';
import { AccessTokenQuery } from '../../writes/submit.ts';

export const contract = defineContract({
  method: 'POST',
  url: '/accounting/bank_feeds/otp',
  auth: 'client',
  tags: ['bank feed accounts'],
  summary: 'Create a bank feed one-time password',
  description:
    'For platforms whose bank-feed setup asks the business for a one-time password from its bank (the reference: Sage and Intuit bank feeds). None of the platforms served needs one: every connection answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.',
  querystring: AccessTokenQuery,
  body: Type.Object({}, { additionalProperties: false, description: 'Empty, as in the reference.' }),
  success: {
    status: 200,
    schema: Type.Object({
      bank_feed_otp: Type.Object(
        {
          expires_at: Type.String({ format: 'date-time' }),
          otp: Type.String(),
          redirect_uri: Type.Union([Type.String(), Type.Null()]),
        },
        { additionalProperties: false },
      ),
      connection: ConnectionRefSchema,
    }),
  },
  errors: [
    'MISSING_ACCESS_TOKEN',
    'INVALID_CREDENTIALS',
    'VALIDATION_ERROR',
    'PRODUCT_NOT_ALLOWED',
    'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
    'RATE_LIMIT_EXCEEDED',
  ],
});

export default defineEndpoint(contract, async (request) => {
  const tenant = requireTenant(request);
  assertProductAllowed(tenant, 'bank_feed_account');
  const { pool, connectionCache } = request.server.services;
  const connection = await connectionForAccessToken(pool, tenant, request.query.access_token, connectionCache);
  throw new ServiceError(
    'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
    `Bank feed one-time passwords are not used on ${connection.platform ?? 'this connection'}: link a feed with POST /accounting/bank_feeds/accounts/mapping_link; see docs/reference.md.`,
    { source: 'service' },
  );
});

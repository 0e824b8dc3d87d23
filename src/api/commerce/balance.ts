/**
 * GET /commerce/balance (the reference's ListCommerceBalances, at /balance): what the payment platform holds for the
 * account now, one entry per currency, read live through the connector's `readBalance` (Stripe's GET /v1/balance) at
 * each request and never stored: a balance changes with every charge and has no history or id to keep, so a stored
 * copy would only ever be stale. Platforms without a balance answer 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.
 */
import { Type } from 'typebox';
import { defineContract, defineEndpoint } from '../../http/contract.ts';
import { requireTenant } from '../../http/auth.ts';
import { ServiceError } from '../../errors/catalogue.ts';
import { connectionForAccessToken } from '../../connections/connections.ts';
import { assertReadable } from '../../connections/readiness.ts';
import { assertLinked } from '../../connections/unlinked.ts';
import { assertProductAllowed } from '../../tenants/products.ts';
import { callPlatformLive } from '../../platforms/live-call.ts';
import { getConnector } from '../../platforms/index.ts';
import { ForceFetchSchema, READ_ERRORS } from '../data/read.ts';
import { ConnectionRefSchema, connectionRef } from '../shared/envelope.ts';

/** A live read waits no longer than this for the platform. */
const BALANCE_TIMEOUT_MS = 30_000;

const BalanceSchema = Type.Object(
  {
    amount: Type.Number({ description: 'Available to pay out, in major units.' }),
    iso_currency_code: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency of the amount.' }),
    platform_data: Type.Record(Type.String(), Type.Unknown(), {
      description: "The platform's own entries for this currency (Stripe: its available and pending amounts, in minor units).",
    }),
  },
  { additionalProperties: false },
);

export const contract = defineContract({
  method: 'GET',
  url: '/commerce/balance',
  auth: 'client',
  tags: ['balance'],
  summary: 'The balance held by the payment platform',
  description: 'Read live from the platform at each request (never stored), one entry per currency.',
  querystring: Type.Object({ access_token: Type.Optional(Type.String()), force_fetch: ForceFetchSchema }),
  success: { status: 200, schema: Type.Object({ balance: Type.Array(BalanceSchema), connection: ConnectionRefSchema }) },
  errors: [...READ_ERRORS, 'SERVICE_UNAVAILABLE', 'PLATFORM_UNAUTHORIZED', 'PLATFORM_BAD_REQUEST', 'PLATFORM_RATE_LIMITED', 'PLATFORM_ERROR'],
});

export default defineEndpoint(contract, async (request) => {
  const tenant = requireTenant(request);
  assertProductAllowed(tenant, 'payout');
  const services = request.server.services;
  const connection = await connectionForAccessToken(services.pool, tenant, request.query.access_token, services.connectionCache);
  await assertLinked(services.pool, connection);
  const connector = connection.platform === null ? undefined : getConnector(connection.platform);
  const readBalance = connector?.actions?.readBalance;
  if (connector === undefined || readBalance === undefined) {
    throw new ServiceError(
      'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM',
      `A balance is not available on ${connection.platform ?? 'SANDBOX'}; see docs/platforms.md.`,
      {
        source: 'service',
      },
    );
  }
  assertReadable(connection, request.query.force_fetch === 'true');
  return { balance: await callPlatformLive(services, connection, connector, BALANCE_TIMEOUT_MS, readBalance), connection: connectionRef(connection) };
});

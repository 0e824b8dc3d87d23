/**
 * Stripe Connect OAuth (https://docs.stripe.com/connect/oauth-reference), described for the kit (../oauth2.ts):
 * the consent page at connect.stripe.com/oauth/authorize, the code exchanged at connect.stripe.com/oauth/token with
 * the platform's secret key (the OAuth app's client secret) as `client_secret` in the form. The connected account's
 * id (`stripe_user_id`) is the connection's tenant and store_unique_id; its access_token is what later calls use
 * (./client.ts). Connect access tokens do not expire; a refresh_token grant renews one Stripe rolled.
 *
 * The same connector also takes a secret or restricted API key at POST /connections/create (`api_key`):
 * AuthSpec.credentials.
 */
import { oauth2 } from '../oauth2.ts';
import { stripeUrls } from './client.ts';

export const STRIPE_DEFAULT_SCOPE = 'read_only';

export const stripeAuth = oauth2({
  name: 'stripe',
  authorizeUrl: () => new URL('/oauth/authorize', stripeUrls().connect).href,
  tokenUrl: () => new URL('/oauth/token', stripeUrls().connect).href,
  clientAuth: 'post',
  scopes: [STRIPE_DEFAULT_SCOPE],
  tenantFromAnswer: 'stripe_user_id',
  refresh: { rotates: false },
  credentials: [{ field: 'api_key', label: 'Secret or restricted API key (sk_… or rk_…)', required: true, secret: true }],
});

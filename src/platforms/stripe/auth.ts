/**
 * Stripe Connect OAuth (https://docs.stripe.com/connect/oauth-reference): the consent page at
 * connect.stripe.com/oauth/authorize, the code exchanged at connect.stripe.com/oauth/token with the platform's secret
 * key (the OAuth app's client secret) through the library's `oauth.token`. The connected account's id
 * (`stripe_user_id`) is the connection's tenant and store_unique_id; its access_token is what later calls use
 * (./client.ts). Connect access tokens do not expire; a refresh_token grant renews one Stripe rolled.
 *
 * The same connector also takes a secret or restricted API key at POST /connections/create (`api_key`):
 * AuthSpec.credentials.
 */
import type { AuthContext, AuthSpec, OAuthAppCredentials, OAuthTokens } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { stripeClient, stripeUrls } from './client.ts';
import { sortStripeError } from './errors.ts';
import { isObject, text } from './mapping.ts';

export const STRIPE_DEFAULT_SCOPE = 'read_only';

async function token(
  ctx: AuthContext,
  app: OAuthAppCredentials,
  grant: { grant_type: 'authorization_code'; code: string } | { grant_type: 'refresh_token'; refresh_token: string },
): Promise<OAuthTokens> {
  const stripe = stripeClient(ctx.http, app.clientSecret, ctx.signal);
  let answer: unknown;
  try {
    answer = await stripe.oauth.token(grant);
  } catch (error) {
    throw sortStripeError(error);
  }
  const accessToken = isObject(answer) ? text(answer.access_token) : null;
  const account = isObject(answer) ? text(answer.stripe_user_id) : null;
  if (!isObject(answer) || accessToken === null || account === null) {
    throw new PlatformError({
      kind: 'server',
      message: 'Stripe answered the token request without access_token and stripe_user_id',
      requestSent: true,
    });
  }
  return { accessToken, refreshToken: text(answer.refresh_token), expiresAt: null, tenantId: account };
}

export const stripeAuth: AuthSpec = {
  type: 'oauth2',
  authorizeUrl(app, state, scope) {
    const url = new URL('/oauth/authorize', stripeUrls().connect);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('scope', scope ?? STRIPE_DEFAULT_SCOPE);
    url.searchParams.set('redirect_uri', app.redirectUri);
    url.searchParams.set('state', state);
    return url.href;
  },
  exchangeCode: (ctx, app, code) => token(ctx, app, { grant_type: 'authorization_code', code }),
  refresh: (ctx, app, refreshToken) => token(ctx, app, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  credentials: [{ field: 'api_key', label: 'Secret or restricted API key (sk_… or rk_…)', required: true, secret: true }],
};

/**
 * Shopify's OAuth (authorization code grant, shopify.dev/docs/apps/build/authentication-authorization/access-tokens/
 * authorization-code-grant), on the shop's own domain: the end user names the shop ({shop}.myshopify.com) before the
 * consent page at https://{shop}/admin/oauth/authorize; Shopify sends them back with code, hmac, host, shop, state
 * and timestamp; we check the hmac (hex HMAC-SHA256 of the other parameters sorted by name, joined as a query
 * string, under the app's client secret) and that `shop` is the shop asked for, then exchange the code at
 * https://{shop}/admin/oauth/access_token for an offline access token: it does not expire and there is no refresh
 * token, so a refused token means linking again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthSpec, OAuthCallbackParams } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { isRecord } from '../json.ts';
import { SHOP_DOMAIN, shopOf, shopUrl } from './client.ts';

/** Access scopes asked for when the organisation's app names none: read access to what the connector syncs. */
export const SHOPIFY_DEFAULT_SCOPES = 'read_orders,read_products,read_customers,read_shopify_payments_payouts,read_shopify_payments_disputes';
/** Callback parameters Shopify signs; the hmac covers every parameter but itself. */
export const SHOPIFY_CALLBACK_PARAMS = ['shop', 'hmac', 'host', 'timestamp', 'state'] as const;

/** Shopify's hmac of a callback's (or app proxy's) query parameters. */
export function callbackHmac(params: Readonly<Record<string, string>>, secret: string): string {
  const message = Object.keys(params)
    .filter((name) => name !== 'hmac')
    .sort()
    .map((name) => `${name}=${params[name] ?? ''}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

export function callbackHmacMatches(params: Readonly<Record<string, string>>, secret: string): boolean {
  const given = params.hmac;
  if (given === undefined || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = Buffer.from(callbackHmac(params, secret), 'hex');
  const received = Buffer.from(given, 'hex');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

const refused = (message: string): PlatformError => new PlatformError({ kind: 'forbidden', httpStatus: 403, message, requestSent: false });

export const shopifyAuth: AuthSpec = {
  type: 'oauth2',
  callbackParams: SHOPIFY_CALLBACK_PARAMS,
  authorizationInput: [
    {
      field: 'store_url',
      label: 'Shop domain',
      pattern: SHOP_DOMAIN,
      lowercase: true,
      hint: "Your shop's address, like my-shop.myshopify.com.",
      fromStoreName: (name) =>
        `${name
          .trim()
          .toLowerCase()
          .replace(/\.myshopify\.com$/, '')}.myshopify.com`,
    },
  ],
  authorizeUrl(app, state, scope, input) {
    const query = new URLSearchParams({ client_id: app.clientId, scope: scope ?? SHOPIFY_DEFAULT_SCOPES, redirect_uri: app.redirectUri, state });
    return `${shopUrl(shopOf(input))}/admin/oauth/authorize?${query.toString()}`;
  },
  async exchangeCode(ctx, app, code, callback: OAuthCallbackParams, input) {
    const shop = shopOf(input);
    // A callback from another shop than the one asked for, or one not signed by Shopify with our secret, is refused.
    if (callback.shop?.toLowerCase() !== shop) throw refused(`The sign-in came back from another shop than ${shop}`);
    if (!callbackHmacMatches({ ...callback, code }, app.clientSecret)) throw refused('The sign-in callback is not signed by Shopify (hmac)');
    const response = await ctx.http.request({
      method: 'POST',
      url: `${shopUrl(shop)}/admin/oauth/access_token`,
      body: { client_id: app.clientId, client_secret: app.clientSecret, code },
      idempotent: false,
      operation: 'exchange code',
      signal: ctx.signal,
    });
    const body = response.body;
    if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '')
      throw new PlatformError({ kind: 'server', httpStatus: response.status, message: 'No access_token in the answer', requestSent: true });
    // Offline tokens do not expire and come without a refresh token.
    return { accessToken: body.access_token, refreshToken: null, expiresAt: null, tenantId: null };
  },
  refresh: () =>
    Promise.reject(
      new PlatformError({
        kind: 'unauthorized',
        message: 'Shopify offline tokens are not refreshed: the shop must be linked again',
        requestSent: false,
      }),
    ),
};

/**
 * Shopify's OAuth (authorization code grant, shopify.dev/docs/apps/build/authentication-authorization/access-tokens/
 * authorization-code-grant), on the shop's own domain: the end user names the shop ({shop}.myshopify.com) before the
 * consent page at https://{shop}/admin/oauth/authorize; Shopify sends them back with code, hmac, host, shop, state
 * and timestamp; we check the hmac (hex HMAC-SHA256 of the other parameters sorted by name, joined as a query
 * string, under the app's client secret) and that `shop` is the shop asked for, then exchange the code at
 * https://{shop}/admin/oauth/access_token for an offline access token: it does not expire and there is no refresh
 * token, so a refused token means linking again. Described for the kit (../oauth2.ts); the hmac and shop
 * checks are the quirk (checkCallback).
 */
import { createHmac } from 'node:crypto';
import { sameToken } from '../../crypto/secrets.ts';
import { oauth2 } from '../oauth2.ts';
import { PlatformError } from '../errors.ts';
import { SHOP_DOMAIN, shopOf, shopUrl } from './client.ts';

/** Access scopes asked for when the organisation's app names none: read access to what the connector syncs, and write_products for the product writes. */
export const SHOPIFY_DEFAULT_SCOPES =
  'read_orders,read_products,write_products,read_customers,read_shopify_payments_payouts,read_shopify_payments_disputes';
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

/** Whether the parameters carry their hmac (hex, in either case), compared in constant time. */
export function callbackHmacMatches(params: Readonly<Record<string, string>>, secret: string): boolean {
  return params.hmac !== undefined && sameToken(params.hmac.toLowerCase(), callbackHmac(params, secret));
}

const refused = (message: string): PlatformError => new PlatformError({ kind: 'forbidden', httpStatus: 403, message, requestSent: false });

export const shopifyAuth = oauth2({
  name: 'shopify',
  authorizeUrl: (input) => `${shopUrl(shopOf(input))}/admin/oauth/authorize`,
  tokenUrl: (input) => `${shopUrl(shopOf(input))}/admin/oauth/access_token`,
  clientAuth: 'post',
  scopes: SHOPIFY_DEFAULT_SCOPES.split(','),
  scopeSeparator: ',',
  responseType: false,
  tokenTypeOmitted: true,
  callbackParams: SHOPIFY_CALLBACK_PARAMS,
  // Offline tokens do not expire and come without a refresh token: a refused one means linking again.
  refresh: 'none',
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
  // A callback from another shop than the one asked for, or one not signed by Shopify with our secret, is refused.
  checkCallback(app, code, callback, input) {
    const shop = shopOf(input);
    if (callback.shop?.toLowerCase() !== shop) throw refused(`The sign-in came back from another shop than ${shop}`);
    if (!callbackHmacMatches({ ...callback, code }, app.clientSecret)) throw refused('The sign-in callback is not signed by Shopify (hmac)');
  },
});

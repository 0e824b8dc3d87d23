/**
 * Shopify's webhooks (shopify.dev/docs/apps/build/webhooks): a POST of the resource (REST-shaped JSON: numeric `id`
 * and `admin_graphql_api_id`), with the topic in X-Shopify-Topic, the shop in X-Shopify-Shop-Domain and the body
 * signed in X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of the raw body under the app's client secret (registered as
 * the OAuth app's webhook_key). Shopify wants a 2xx within 5 seconds and retries otherwise.
 *
 * The account a change belongs to is the shop's domain: the engine matches it against the connection's
 * store_domain. app/uninstalled is a revocation: the connection needs re-linking at once.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { InboundChange, InboundHeaders, InboundRevocation, InboundWebhooks } from '../connector.ts';
import { isRecord } from '../json.ts';
import { signatureMatches } from '../webhook-signature.ts';
import { SHOP_DOMAIN } from './client.ts';

export const SHOPIFY_HMAC_HEADER = 'x-shopify-hmac-sha256';

/** Topics we read, by the unified types they change (an order's change may change its transactions too). */
export const TOPIC_TYPES: Readonly<Record<string, readonly UnifiedObjectType[]>> = {
  'orders/create': ['order', 'transaction'],
  'orders/updated': ['order', 'transaction'],
  'orders/paid': ['order', 'transaction'],
  'orders/cancelled': ['order', 'transaction'],
  'orders/fulfilled': ['order'],
  'orders/delete': ['order', 'transaction'],
  'refunds/create': ['order', 'transaction'],
  'products/create': ['product'],
  'products/update': ['product'],
  'products/delete': ['product'],
  'customers/create': ['commerce_customer'],
  'customers/update': ['commerce_customer'],
  'customers/delete': ['commerce_customer'],
  'shop/update': ['store'],
  'disputes/create': ['dispute'],
  'disputes/update': ['dispute'],
};

const GID_TYPES: Readonly<Partial<Record<UnifiedObjectType, string>>> = {
  order: 'Order',
  product: 'Product',
  commerce_customer: 'Customer',
  dispute: 'ShopifyPaymentsDispute',
};

const header = (headers: InboundHeaders, name: string): string | null => {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : null;
};

function shopOf(headers: InboundHeaders): string | null {
  const shop = header(headers, 'x-shopify-shop-domain')?.toLowerCase() ?? null;
  return shop !== null && SHOP_DOMAIN.test(shop) ? shop : null;
}

/** The GID of the resource the body is, for the type read: admin_graphql_api_id, else built from the numeric id. */
function platformIdOf(body: Record<string, unknown>, type: UnifiedObjectType, topicType: UnifiedObjectType): string | null {
  if (type !== topicType) return null;
  // refunds/create's body is the refund: the order it belongs to is order_id.
  const orderOfRefund = typeof body.order_id === 'number' || typeof body.order_id === 'string' ? String(body.order_id) : null;
  if (orderOfRefund !== null && type === 'order') return `gid://shopify/Order/${orderOfRefund}`;
  if (typeof body.admin_graphql_api_id === 'string') return body.admin_graphql_api_id;
  const gidType = GID_TYPES[type];
  const id = typeof body.id === 'number' || typeof body.id === 'string' ? String(body.id) : null;
  return gidType === undefined || id === null ? null : `gid://shopify/${gidType}/${id}`;
}

export function shopifyChanges(body: unknown, headers: InboundHeaders): InboundChange[] | null {
  const topic = header(headers, 'x-shopify-topic');
  const shop = shopOf(headers);
  if (topic === null || shop === null || !isRecord(body)) return null;
  if (topic === 'app/uninstalled') return [];
  const types = TOPIC_TYPES[topic];
  // A topic we never subscribe to (or one Shopify adds) changes nothing we store: acknowledged, not refused.
  if (types === undefined) return [];
  const named = types[0];
  if (named === undefined) return [];
  return types.map((type) => ({ account: shop, type, platformId: platformIdOf(body, type, named) }));
}

export function shopifyRevocations(body: unknown, headers: InboundHeaders): InboundRevocation[] {
  const shop = shopOf(headers);
  if (shop === null || header(headers, 'x-shopify-topic') !== 'app/uninstalled') return [];
  const name = isRecord(body) && typeof body.name === 'string' ? ` (${body.name})` : '';
  return [{ account: shop, reason: `The app was uninstalled from ${shop}${name}` }];
}

export const shopifyWebhooks: InboundWebhooks = {
  verify: (rawBody, headers, key) => signatureMatches(rawBody, key, headers[SHOPIFY_HMAC_HEADER]),
  changes: shopifyChanges,
  revocations: shopifyRevocations,
  acknowledgeWithinMs: 5_000,
};

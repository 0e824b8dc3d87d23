/**
 * SHOPIFY: Shopify's Admin GraphQL API, version 2026-10 (SHOPIFY_API_VERSION).
 *
 * - Auth (auth.ts): OAuth on the shop's own domain, asked for before consent (store_url = {shop}.myshopify.com; the
 *   link's store_name prefill gives it), the callback's hmac and shop checked, offline tokens (no refresh).
 * - Reads (objects.ts, read.ts, bulk.ts): orders, products, customers, order transactions, Shopify Payments payouts
 *   and disputes, the shop. Full reads of orders, products and customers go through a bulk operation; incremental
 *   ones page with `updated_at:>=` and find deletions in the shop's events.
 * - Writes (products.ts): products and their variants, through mutations that carry the write's key to be found again.
 * - Limits: Shopify's cost bucket per shop, as extensions.cost reports it (errors.ts settles it and sorts THROTTLED).
 * - Webhooks (webhooks.ts): X-Shopify-Hmac-Sha256 verified; topics to changes by shop domain; app/uninstalled revokes.
 */
import type { Connector } from '../connector.ts';
import { shopifyAuth } from './auth.ts';
import { SHOPIFY, SHOPIFY_API_VERSION, shopifyGraphql, shopOf } from './client.ts';
import { actualCostOf } from './errors.ts';
import { text } from './mapping.ts';
import { SHOPIFY_OBJECTS } from './objects.ts';
import { shopifyWebhooks } from './webhooks.ts';

/**
 * Shopify's GraphQL Admin API limits for a Standard plan shop (shopify.dev/docs/api/usage/limits, "GraphQL Admin
 * API"): a bucket of 2,000 points restoring 100 points a second (Advanced 200, Plus 1,000), a single query at most
 * 1,000 points. Shops on bigger plans restore faster; we keep to the smallest, and every answer's actual cost settles
 * the bucket. Bulk operations cost their mutation (10 points) and are otherwise not metered.
 */
export const SHOPIFY_LIMITS = { bucketSize: 2_000, restoreRate: 100, maxQueryCost: 1_000 } as const;

const GID_PATHS: Readonly<Record<string, string>> = { order: 'orders', product: 'products', commerce_customer: 'customers' };

export const shopifyConnector: Connector = {
  id: SHOPIFY,
  name: 'Shopify',
  kind: 'commerce',
  auth: shopifyAuth,
  async identify(ctx) {
    const { shop } = await shopifyGraphql(ctx, 'Shop', 'shop', {});
    const domain = text(shop?.myshopifyDomain)?.toLowerCase() ?? shopOf(ctx.credentials);
    return { storeUniqueId: text(shop?.id) ?? domain, storeName: text(shop?.name), storeDomain: domain };
  },
  objects: SHOPIFY_OBJECTS,
  limits: {
    requestsPerMinute: null,
    // Shopify does not cap concurrent GraphQL requests beyond the bucket; two keep one shop from hogging a worker's sockets.
    concurrentRequests: 2,
    costBucket: { size: SHOPIFY_LIMITS.bucketSize, refillPerSecond: SHOPIFY_LIMITS.restoreRate, defaultCost: 1, costOf: actualCostOf },
  },
  webhooks: shopifyWebhooks,
  platformUrl(type, platformId, ctx) {
    const path = GID_PATHS[type];
    const id = /\/(\d+)$/.exec(platformId)?.[1];
    if (path === undefined || id === undefined) return null;
    return `https://${shopOf(ctx.credentials)}/admin/${path}/${id}`;
  },
  documentation: {
    testedAgainst:
      `A stand-in (test/standins/shopify/) that validates every query and mutation against Shopify's published Admin GraphQL schema for API ${SHOPIFY_API_VERSION} ` +
      "(@shopify/dev-mcp's introspection result) and executes it with graphql-js against that schema (a mutation's variables checked against its input types, refusals answered as userErrors), with OAuth, cost throttling, bulk operations and signed webhooks as Shopify documents them.",
    settings: [
      { variable: 'SHOPIFY_API_URL', description: 'Routes every shop through this host as {url}/{shop} (a proxy, or the tests’ stand-in).' },
    ],
    notes: [
      `Admin GraphQL API version ${SHOPIFY_API_VERSION}, pinned; the shop domain ({shop}.myshopify.com) is asked before the consent page, or taken from the link's store_name prefill.`,
      'Register the app with the redirect URL {public url}/link/oauth/callback; set its client secret as the OAuth app webhook_key (Shopify signs webhooks with it) and subscribe the webhooks to /platform-webhooks/SHOPIFY/{organization id}/{environment}.',
      'Scopes asked for by default: read_orders, read_products, write_products, read_customers, read_shopify_payments_payouts, read_shopify_payments_disputes (read_all_orders for orders older than 60 days).',
      "Product writes (Admin API mutations productSet, productUpdate, productDelete, productVariantsBulkCreate/Update/Delete): Shopify's mutations take no idempotency key, so a created product carries the tag ledgerport-write-<job id> (left out of the served tags) and a created variant the metafield ledgerport.write_key; a create whose answer was lost is found by it and never sent twice. Stock (inventory_quantity) is refused: Shopify keeps it per location.",
      'Cost bucket: 2,000 points restoring 100 a second (Standard plan; shopify.dev/docs/api/usage/limits); THROTTLED answers wait for the bucket as extensions.cost.throttleStatus says.',
      'Full syncs of orders, products, customers and order transactions use bulk operations (one per object, one after another); an order read by a bulk operation has its fulfillments and refunds without their line items (Shopify forbids connections inside lists there), filled in by the next incremental read of that order.',
      "A bulk export's result link (a 7-day bearer URL to the shop's data) is kept sealed while its results are read and dropped with the last page (docs/upgrading.md, migration 0037).",
      "A variant's image is its first media's picture (ProductVariant.media: ProductVariant.image is deprecated, \"Use `media` instead\"); to keep a products page within a query's 1,000 points it holds 5 products of up to 20 variants, and further variants are read 50 at a time.",
      'Paged reads take an order’s 3 first fulfillments and refunds (10 lines each); line items past an order’s first 20 and variants past a product’s first 20 are fetched by the order or product (each query stays under Shopify’s 1,000-point ceiling).',
      'Deletions of orders, products and customers are found in the shop’s events (action destroy) at each incremental read; a delete webhook starts one.',
      'Offline access tokens do not expire and cannot be refreshed: a 401 or an app/uninstalled webhook moves the connection to needs re-linking.',
    ],
  },
};

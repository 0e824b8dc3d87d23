/**
 * SHOPIFY's pure parts: the callback and webhook signatures (with Shopify's own documented example), the sorting of
 * its failures, the webhook topics, the mapping of an order, the bulk result's JSONL put back together, the query
 * costs this connector declares against the stand-in's estimate of Shopify's rules, and the GraphQL call's handling
 * of THROTTLED. The end-to-end test is shopify.integration.test.ts.
 */
import { createHmac } from 'node:crypto';
import { Kind, NoDeprecatedCustomRule, parse, validate, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { requestedCost, shopifySchema } from '../../../test/standins/shopify/schema.ts';
import type { ConnectorContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import type { PlatformHttp, PlatformRequest } from '../http.ts';
import type { PlatformResponse } from '../limit-types.ts';
import { validateConnector } from '../registry.ts';
import { callbackHmac, callbackHmacMatches, shopifyAuth } from './auth.ts';
import { recordsFromLines, splitChunk, bulkQueryText } from './bulk.ts';
import { shopifyGraphql, THROTTLED_ATTEMPTS } from './client.ts';
import { actualCostOf, classifyShopifyStatus, graphqlError, throttleWaitMs, queryCostOf } from './errors.ts';
import { shopifyConnector } from './index.ts';
import { mapOrder, mapPayout, mapProduct } from './mapping.ts';
import * as queries from './queries.ts';
import { shopifyChanges, shopifyRevocations, shopifyWebhooks } from './webhooks.ts';

const SHOP = 'demo-shop.myshopify.com';

function context(http: PlatformHttp): ConnectorContext {
  return {
    http,
    signal: new AbortController().signal,
    environment: 'sandbox',
    connectionId: 'c1',
    credentials: { store_url: SHOP },
    tokens: { accessToken: 'shpat_x', refreshToken: null, expiresAt: null, tenantId: null },
    oauth: null,
    ref: (type, id) => (id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`),
    platformIdOf: () => Promise.resolve(null),
  };
}

describe('SHOPIFY signatures', () => {
  it("checks the OAuth callback's hmac as Shopify documents it (their example: secret 'hush')", () => {
    const params = {
      code: '0907a61c0c8d55e99db179b68161bc00',
      shop: 'some-shop.myshopify.com',
      state: '0.6784241404160823',
      timestamp: '1337178173',
      hmac: '700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf',
    };
    expect(callbackHmac(params, 'hush')).toBe(params.hmac);
    expect(callbackHmacMatches(params, 'hush')).toBe(true);
    expect(callbackHmacMatches(params, 'not hush')).toBe(false);
    expect(callbackHmacMatches({ ...params, timestamp: '1337178174' }, 'hush')).toBe(false);
    expect(callbackHmacMatches({ ...params, hmac: 'zz' }, 'hush')).toBe(false);
    const { hmac: _omitted, ...unsigned } = params;
    expect(callbackHmacMatches(unsigned, 'hush')).toBe(false);
  });

  it('refuses a callback from another shop, or with a bad hmac, before calling Shopify', async () => {
    const calls: PlatformRequest[] = [];
    const http: PlatformHttp = {
      request: (input) => {
        calls.push(input);
        return Promise.resolve({ status: 200, headers: {}, body: { access_token: 'shpat_new' } });
      },
    };
    const app = { clientId: 'id', clientSecret: 'secret', redirectUri: 'https://us.example/cb' };
    const signed = (params: Record<string, string>) => ({ ...params, hmac: callbackHmac({ ...params, code: 'c0de' }, 'secret') });
    const base = { shop: SHOP, host: 'aG9zdA', state: 's1', timestamp: '1700000000' };
    const ctx = { http, signal: new AbortController().signal, environment: 'sandbox' as const };
    await expect(shopifyAuth.exchangeCode(ctx, app, 'c0de', signed({ ...base, shop: 'evil.myshopify.com' }), { store_url: SHOP })).rejects.toThrow(
      /another shop/,
    );
    await expect(shopifyAuth.exchangeCode(ctx, app, 'c0de', { ...signed(base), state: 's2' }, { store_url: SHOP })).rejects.toThrow(/hmac/);
    expect(calls).toEqual([]);
    const tokens = await shopifyAuth.exchangeCode(ctx, app, 'c0de', signed(base), { store_url: SHOP });
    expect(tokens).toEqual({ accessToken: 'shpat_new', refreshToken: null, expiresAt: null, tenantId: null });
    expect(calls.map((c) => [c.method, c.url])).toEqual([['POST', `https://${SHOP}/admin/oauth/access_token`]]);
    await expect(shopifyAuth.refresh(ctx, app, 'x', { store_url: SHOP })).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(shopifyAuth.authorizeUrl(app, 'st', null, { store_url: SHOP })).toMatch(
      /^https:\/\/demo-shop\.myshopify\.com\/admin\/oauth\/authorize\?client_id=id&scope=read_orders%2C/,
    );
  });

  it("verifies webhooks by the base64 HMAC-SHA256 of the raw body under the app's secret", () => {
    const raw = Buffer.from('{"id":820982911946154508}');
    const good = createHmac('sha256', 'secret').update(raw).digest('base64');
    expect(shopifyWebhooks.verify(raw, { 'x-shopify-hmac-sha256': good }, 'secret')).toBe(true);
    expect(shopifyWebhooks.verify(raw, { 'x-shopify-hmac-sha256': good }, 'other')).toBe(false);
    expect(shopifyWebhooks.verify(Buffer.from('{"id":1}'), { 'x-shopify-hmac-sha256': good }, 'secret')).toBe(false);
    expect(shopifyWebhooks.verify(raw, {}, 'secret')).toBe(false);
  });
});

describe('SHOPIFY webhooks', () => {
  const headers = (topic: string, shop = SHOP) => ({ 'x-shopify-topic': topic, 'x-shopify-shop-domain': shop });

  it('names the shop domain and the changed object (its GID) per topic', () => {
    expect(shopifyChanges({ id: 450789469, admin_graphql_api_id: 'gid://shopify/Order/450789469' }, headers('orders/updated'))).toEqual([
      { account: SHOP, type: 'order', platformId: 'gid://shopify/Order/450789469' },
      { account: SHOP, type: 'transaction', platformId: null },
    ]);
    expect(shopifyChanges({ id: 42 }, headers('products/delete'))).toEqual([
      { account: SHOP, type: 'product', platformId: 'gid://shopify/Product/42' },
    ]);
    expect(shopifyChanges({ id: 7, order_id: 450789469 }, headers('refunds/create'))).toEqual([
      { account: SHOP, type: 'order', platformId: 'gid://shopify/Order/450789469' },
      { account: SHOP, type: 'transaction', platformId: null },
    ]);
    expect(shopifyChanges({ id: 1 }, headers('customers/delete'))?.map((c) => c.type)).toEqual(['commerce_customer']);
    // Acknowledged but nothing to read: a topic we do not read, and the uninstall (a revocation instead).
    expect(shopifyChanges({ id: 1 }, headers('themes/publish'))).toEqual([]);
    expect(shopifyChanges({ id: 1 }, headers('app/uninstalled'))).toEqual([]);
    // Not Shopify's shape: no topic, a shop that is not a myshopify domain, a body that is not an object.
    expect(shopifyChanges({ id: 1 }, { 'x-shopify-shop-domain': SHOP })).toBeNull();
    expect(shopifyChanges({ id: 1 }, headers('orders/create', 'evil.example.com'))).toBeNull();
    expect(shopifyChanges([1], headers('orders/create'))).toBeNull();
  });

  it('reads app/uninstalled as a revocation of that shop', () => {
    expect(shopifyRevocations({ id: 1, name: 'Demo' }, headers('app/uninstalled'))).toEqual([
      { account: SHOP, reason: `The app was uninstalled from ${SHOP} (Demo)` },
    ]);
    expect(shopifyRevocations({ id: 1 }, headers('orders/create'))).toEqual([]);
  });
});

describe('SHOPIFY errors', () => {
  const cost = {
    requestedQueryCost: 788,
    actualQueryCost: null,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 288, restoreRate: 100 },
  };

  it('sorts GraphQL errors inside a 200: THROTTLED retried after the refill the throttle status says, the rest final', () => {
    const throttled = graphqlError({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], extensions: { cost } }, 'list orders');
    expect(throttled).toMatchObject({ kind: 'rate_limited', retryAfterMs: 5000, platformCode: 'THROTTLED', httpStatus: 200 });
    expect(throttled?.retryable).toBe(true);
    expect(graphqlError({ errors: [{ message: 'Access denied', extensions: { code: 'ACCESS_DENIED' } }] }, 'x')?.kind).toBe('forbidden');
    expect(graphqlError({ errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }, 'x')?.kind).toBe('server');
    const invalid = graphqlError({ errors: [{ message: "Field 'nope' doesn't exist on type 'Shop'" }] }, 'shop');
    expect(invalid).toMatchObject({ kind: 'bad_request' });
    expect(invalid?.retryable).toBe(false);
    expect(graphqlError({ data: { shop: {} } }, 'shop')).toBeNull();
    expect(graphqlError({ errors: [] }, 'shop')).toBeNull();
  });

  it('reads the cost an answer reports; a throttled query cost nothing', () => {
    expect(queryCostOf({ extensions: { cost } })).toEqual(cost);
    expect(throttleWaitMs(queryCostOf({ extensions: { cost: { ...cost, throttleStatus: null } } }))).toBeNull();
    const answer = (body: unknown): PlatformResponse => ({ status: 200, headers: {}, body });
    expect(actualCostOf(answer({ data: {}, extensions: { cost: { ...cost, actualQueryCost: 12 } } }))).toBe(12);
    expect(actualCostOf(answer({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], extensions: { cost } }))).toBe(0);
    expect(actualCostOf(answer({ data: {} }))).toBeNull();
  });

  it("sorts Shopify's own statuses: a locked shop (423) is forbidden", () => {
    const base = new PlatformError({ kind: 'bad_request', httpStatus: 423, message: 'Locked' });
    expect(classifyShopifyStatus(base, { status: 423, headers: {}, body: {} }).kind).toBe('forbidden');
    const other = new PlatformError({ kind: 'server', httpStatus: 503, message: 'Unavailable' });
    expect(classifyShopifyStatus(other, { status: 503, headers: {}, body: {} })).toBe(other);
  });

  it('retries a THROTTLED query after the wait its answer gives, and gives up after a few', async () => {
    const throttledBody = {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
      extensions: { cost: { ...cost, requestedQueryCost: 290 } },
    };
    const answers = [
      throttledBody,
      throttledBody,
      { data: { shop: { id: 'gid://shopify/Shop/1' } }, extensions: { cost: { ...cost, actualQueryCost: 1 } } },
    ];
    const sent: PlatformRequest[] = [];
    const http: PlatformHttp = {
      request: (input) => {
        sent.push(input);
        return Promise.resolve({ status: 200, headers: {}, body: answers.shift() });
      },
    };
    const started = Date.now();
    expect(await shopifyGraphql(context(http), 'Shop', 'shop', {})).toEqual({ shop: { id: 'gid://shopify/Shop/1' } });
    expect(sent).toHaveLength(3);
    // (290 − 288) / 100 points a second: 20 ms per wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: `https://${SHOP}/admin/api/2026-10/graphql.json`,
      headers: { 'x-shopify-access-token': 'shpat_x' },
    });

    const always: PlatformHttp = { request: () => Promise.resolve({ status: 200, headers: {}, body: throttledBody }) };
    let calls = 0;
    const counting: PlatformHttp = { request: (input) => ((calls += 1), always.request(input)) };
    await expect(shopifyGraphql(context(counting), 'Shop', 'shop', {})).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(calls).toBe(THROTTLED_ATTEMPTS);
  });
});

describe('SHOPIFY mapping and bulk results', () => {
  const money = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });
  const order = {
    id: 'gid://shopify/Order/1',
    name: '#1001',
    displayFinancialStatus: 'PARTIALLY_REFUNDED',
    displayFulfillmentStatus: 'FULFILLED',
    cancelledAt: null,
    closed: false,
    createdAt: '2026-10-01T00:00:01Z',
    updatedAt: '2026-10-02T00:00:00Z',
    currencyCode: 'USD',
    totalPriceSet: money('50.59'),
    totalTaxSet: money('3.60'),
    totalShippingPriceSet: money('4.99'),
    totalDiscountsSet: money('3.00'),
    billingAddress: null,
    shippingAddress: {
      address1: '1 Main St',
      address2: null,
      city: 'Springfield',
      firstName: 'Ada',
      lastName: 'L',
      phone: null,
      zip: '12345',
      countryCodeV2: 'US',
      province: 'Oregon',
    },
    customer: {
      id: 'gid://shopify/Customer/9',
      firstName: 'Ada',
      lastName: 'L',
      createdAt: '2026-01-02T03:04:05Z',
      updatedAt: '2026-02-03T04:05:06Z',
      numberOfOrders: '3',
      verifiedEmail: true,
      defaultEmailAddress: { emailAddress: 'ada@example.com' },
      defaultPhoneNumber: null,
    },
    lineItems: {
      nodes: [
        {
          id: 'gid://shopify/LineItem/1',
          title: 'Mug',
          sku: 'M',
          quantity: 2,
          originalUnitPriceSet: money('12.50'),
          variant: { id: 'gid://shopify/ProductVariant/5' },
          product: { id: 'gid://shopify/Product/4' },
        },
        { id: 'gid://shopify/LineItem/2', title: 'Tea', sku: null, quantity: 1, originalUnitPriceSet: money('20.00'), variant: null, product: null },
      ],
    },
    fulfillments: [
      {
        id: 'f',
        trackingInfo: [{ company: 'UPS', number: '1Z', url: 'https://ups.example/1Z' }],
        service: { serviceName: 'Manual' },
        fulfillmentLineItems: { nodes: [{ quantity: 1, lineItem: { id: 'gid://shopify/LineItem/1' } }] },
      },
    ],
    refunds: [{ id: 'r', refundLineItems: { nodes: [{ quantity: 1, lineItem: { id: 'gid://shopify/LineItem/2' } }] } }],
  };

  it('maps an order: statuses, lines with product links, fulfilments, refunds, customer, totals', () => {
    const mapped = mapOrder({ platformId: order.id, raw: order }, context({ request: () => Promise.reject(new Error('no calls')) }));
    expect(mapped).toMatchObject({
      order_number: '#1001',
      status: 'open',
      payment_status: 'partially_refunded',
      fulfillment_status: 'fulfilled',
      total_price: 50.59,
      total_tax: 3.6,
      total_shipping: 4.99,
      total_discount: 3,
      iso_currency_code: 'USD',
      billing_address: null,
      shipping_address: { address1: '1 Main St', postal_code: '12345', country_code: 'US', region: 'Oregon' },
      customer: {
        id: 'commerce_customer:gid://shopify/Customer/9',
        email: 'ada@example.com',
        orders_count: 3,
        verified_email: true,
        phone: null,
        created_at: '2026-01-02T03:04:05Z',
        updated_at: '2026-02-03T04:05:06Z',
      },
      // Shopify's refund line items carry no status.
      refunds: [{ line_items: [{ line_item_id: 'gid://shopify/LineItem/2', quantity: 1, status: null }] }],
    });
    // Nor do its line items carry dates.
    expect(mapped.line_items.map((line) => [line.created_at, line.updated_at])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(mapped.line_items).toEqual([
      expect.objectContaining({
        id: 'gid://shopify/LineItem/1',
        product_id: 'product:gid://shopify/Product/4',
        variant_id: 'gid://shopify/ProductVariant/5',
        price: 12.5,
        quantity: 2,
      }),
      expect.objectContaining({
        id: 'gid://shopify/LineItem/2',
        product_id: null,
        variant_id: null,
        price: 20,
        quantity: 1,
        iso_currency_code: 'USD',
      }),
    ]);
    expect(mapped.fulfillments).toEqual([
      expect.objectContaining({
        id: 'f',
        carrier: 'UPS',
        service: 'Manual',
        tracking_number: '1Z',
        line_items: [expect.objectContaining({ id: 'gid://shopify/LineItem/1', quantity: 1 })],
      }),
    ]);
    // 2 × 12.50 + 20.00 + 3.60 + 4.99 − 3.00 = 50.59
    const lines = (mapped.line_items as { price: number; quantity: number }[]).reduce((sum, l) => sum + l.price * l.quantity, 0);
    expect(Math.round((lines + 3.6 + 4.99 - 3) * 100)).toBe(5059);
    expect(
      mapOrder(
        { platformId: 'x', raw: { ...order, cancelledAt: '2026-10-03T00:00:00Z' } },
        context({ request: () => Promise.reject(new Error('no')) }),
      ).status,
    ).toBe('cancelled');
  });

  it('reads blank text as null and a currency the model does not know as the shop currency (docs/upgrading.md, issue 34)', () => {
    const ctx = context({ request: () => Promise.reject(new Error('no calls')) });
    const odd = { ...order, currencyCode: 'ZZZ', shippingAddress: { ...order.shippingAddress, address2: '', phone: ' ' } };
    const mapped = mapOrder({ platformId: order.id, raw: odd }, ctx, 'CAD');
    // Before the kit's readers: '' and ' ' as sent, and the order's currency from its totals (USD) or else USD.
    expect(mapped.shipping_address).toMatchObject({ address2: null, phone: null });
    expect(mapped.iso_currency_code).toBe('CAD');
    const payout = mapPayout({ platformId: 'p', raw: { net: { amount: '5.00' }, status: 'PAID' } }, ctx, 'CAD');
    expect([payout.amount, payout.iso_currency_code]).toEqual([5, 'CAD']);
  });

  it('puts a bulk result back together: child lines under their parent, in the paged shape', () => {
    const lines = [
      JSON.stringify({ id: 'gid://shopify/Order/1', name: '#1' }),
      JSON.stringify({ id: 'gid://shopify/LineItem/1', quantity: 1, __parentId: 'gid://shopify/Order/1' }),
      JSON.stringify({ id: 'gid://shopify/LineItem/2', quantity: 2, __parentId: 'gid://shopify/Order/1' }),
      JSON.stringify({ id: 'gid://shopify/Order/2', name: '#2' }),
    ];
    const records = recordsFromLines(lines, { LineItem: 'lineItems' });
    expect(records.map((r) => r.platformId)).toEqual(['gid://shopify/Order/1', 'gid://shopify/Order/2']);
    expect(records[0]?.raw.lineItems).toEqual({
      nodes: [
        { id: 'gid://shopify/LineItem/1', quantity: 1 },
        { id: 'gid://shopify/LineItem/2', quantity: 2 },
      ],
    });
    expect(records[1]?.raw.lineItems).toBeUndefined();

    // A chunk that does not end the file stops before its last parent (whose children may go on), and at a whole line.
    const withChild = [...lines, JSON.stringify({ id: 'gid://shopify/LineItem/3', quantity: 3, __parentId: 'gid://shopify/Order/2' })];
    const file = Buffer.from(`${withChild.join('\n')}\n`);
    const cut = file.subarray(0, file.length - 5);
    const split = splitChunk(cut, false);
    expect(split?.lines).toEqual(lines.slice(0, 3));
    expect(split?.consumed).toBe(Buffer.byteLength(`${lines.slice(0, 3).join('\n')}\n`));
    expect(splitChunk(file, true)?.lines).toEqual(withChild);
    // One parent only and more to come: the chunk must grow.
    expect(splitChunk(Buffer.from(`${lines[0] ?? ''}\n${lines[1] ?? ''}\n`), false)).toBeNull();
  });

  it("reads a variant's image from its first media, in a paged read and in a bulk export's media lines under the variant", () => {
    const picture = (url: string) => ({ id: `gid://shopify/MediaImage/${url.length}`, preview: { image: { url } } });
    const variant = (id: number, media: unknown) => ({ id: `gid://shopify/ProductVariant/${id}`, title: 'S', price: '1.00', media });
    const paged = {
      platformId: 'gid://shopify/Product/1',
      raw: { id: 'gid://shopify/Product/1', variants: { nodes: [variant(1, { nodes: [picture('https://cdn/a.jpg')] }), variant(2, { nodes: [] })] } },
    };
    const images = (raw: Record<string, unknown>) =>
      (
        mapProduct({ platformId: 'gid://shopify/Product/1', raw }, context({ request: () => Promise.reject(new Error('no call')) })).variants as {
          images: unknown;
        }[]
      ).map((v) => v.images);
    expect(images(paged.raw)).toEqual([[{ src: 'https://cdn/a.jpg' }], []]);
    // A copy stored before media replaced the deprecated `image` still maps.
    expect(images({ variants: { nodes: [{ id: 'v', image: { url: 'https://cdn/old.jpg' } }] } })).toEqual([[{ src: 'https://cdn/old.jpg' }]]);

    const lines = [
      JSON.stringify({ id: 'gid://shopify/Product/1' }),
      JSON.stringify({ id: 'gid://shopify/ProductVariant/1', title: 'S', price: '1.00', __parentId: 'gid://shopify/Product/1' }),
      JSON.stringify({ ...picture('https://cdn/a.jpg'), __parentId: 'gid://shopify/ProductVariant/1' }),
      JSON.stringify({ ...picture('https://cdn/second.jpg'), __parentId: 'gid://shopify/ProductVariant/1' }),
      JSON.stringify({ id: 'gid://shopify/ProductVariant/2', title: 'S', price: '1.00', __parentId: 'gid://shopify/Product/1' }),
    ];
    const [bulk] = recordsFromLines(lines, { ProductVariant: 'variants', ...queries.VARIANT_MEDIA_CHILDREN });
    expect(images(bulk?.raw ?? {})).toEqual([[{ src: 'https://cdn/a.jpg' }], []]);
  });

  it('adopts a running export with its own query when Shopify says one is in progress, and waits for another', async () => {
    const busy = {
      data: { bulkOperationRunQuery: { bulkOperation: null, userErrors: [{ message: 'in progress', code: 'OPERATION_IN_PROGRESS' }] } },
    };
    const ours = bulkQueryText(queries.ORDERS_BULK_QUERY, null);
    const running = (query: string, status = 'CREATED') => ({
      data: { bulkOperations: { nodes: [{ id: 'gid://shopify/BulkOperation/9', status, query }] } },
    });
    const replying = (answers: unknown[]): PlatformHttp => ({ request: () => Promise.resolve({ status: 200, headers: {}, body: answers.shift() }) });
    const bulk = shopifyConnector.objects.order?.handler.bulk;
    if (bulk === undefined) throw new Error('orders are exported');
    expect(await bulk.startExport(context(replying([busy, running(ours)])), { since: null, window: null })).toBe('gid://shopify/BulkOperation/9');
    await expect(
      bulk.startExport(context(replying([busy, running('{ products { edges { node { id } } } }')])), { since: null, window: null }),
    ).rejects.toMatchObject({
      kind: 'rate_limited',
    });
    await expect(bulk.startExport(context(replying([busy, running(ours, 'COMPLETED')])), { since: null, window: null })).rejects.toMatchObject({
      kind: 'rate_limited',
    });
  });

  it('filters a bulk export by updated_at for an incremental one, and not at all for a full one', () => {
    expect(bulkQueryText(queries.CUSTOMERS_BULK_QUERY, null)).toMatch(/^\{ customers \{ edges/);
    expect(bulkQueryText(queries.CUSTOMERS_BULK_QUERY, '2026-10-01T00:00:00Z')).toContain(`customers(query: "updated_at:>='2026-10-01T00:00:00Z'")`);
  });
});

describe('SHOPIFY declarations', () => {
  it('selects no field or argument the published 2026-10 schema deprecates (ProductVariant.image: "Use `media` instead")', async () => {
    const schema = await shopifySchema();
    for (const [name, text] of Object.entries(queries)) {
      if (typeof text !== 'string') continue;
      const deprecated = validate(schema, parse(text.replace('$QUERY', '"x"')), [NoDeprecatedCustomRule]).map((e) => e.message);
      expect(deprecated, name).toEqual([]);
    }
  });

  it('registers cleanly, and the costs it takes from the bucket are the requested costs of its queries by Shopify’s rules', async () => {
    expect(validateConnector(shopifyConnector)).toEqual([]);
    const schema = await shopifySchema();
    const cases: [string, number, number][] = [
      [queries.ORDERS_QUERY, queries.PAGE_SIZES.order, queries.PAGE_COSTS.Orders],
      [queries.PRODUCTS_QUERY, queries.PAGE_SIZES.product, queries.PAGE_COSTS.Products],
      [queries.CUSTOMERS_QUERY, queries.PAGE_SIZES.customer, queries.PAGE_COSTS.Customers],
      [queries.TRANSACTIONS_QUERY, queries.PAGE_SIZES.transactionOrders, queries.PAGE_COSTS.OrderTransactions],
      [queries.PAYOUTS_QUERY, queries.PAGE_SIZES.payments, queries.PAGE_COSTS.Payouts],
      [queries.DISPUTES_QUERY, queries.PAGE_SIZES.payments, queries.PAGE_COSTS.Disputes],
      [queries.SEGMENTS_QUERY, queries.PAGE_SIZES.segments, queries.PAGE_COSTS.Segments],
      [queries.PAYOUT_TRANSACTIONS_QUERY, queries.PAGE_SIZES.moreItems, queries.PAGE_COSTS.PayoutTransactions],
      [queries.DELETIONS_QUERY, queries.PAGE_SIZES.deletions, queries.PAGE_COSTS.Deletions],
      [queries.SHOP_QUERY, 0, queries.PAGE_COSTS.Shop],
      [queries.ORDER_LINE_ITEMS_QUERY, 0, queries.PAGE_COSTS.OrderLineItems],
      [queries.PRODUCT_VARIANTS_QUERY, 0, queries.PAGE_COSTS.ProductVariants],
      [queries.BULK_POLL_QUERY, 0, queries.PAGE_COSTS.BulkPoll],
      [queries.BULK_RUNNING_QUERY, 0, queries.PAGE_COSTS.BulkRunning],
      [queries.BULK_RUN_MUTATION, 0, queries.PAGE_COSTS.BulkRun],
      [queries.PRODUCT_QUERY, 0, queries.PAGE_COSTS.Product],
      [queries.PRODUCT_BY_TAG_QUERY, 0, queries.PAGE_COSTS.ProductByTag],
      [queries.PRODUCT_OPTIONS_QUERY, 0, queries.PAGE_COSTS.ProductOptions],
      // A mutation costs 10 points, whatever it selects (Shopify's rule).
      [queries.PRODUCT_SET_MUTATION, 0, queries.PAGE_COSTS.ProductSet],
      [queries.PRODUCT_UPDATE_MUTATION, 0, queries.PAGE_COSTS.ProductUpdate],
      [queries.PRODUCT_DELETE_MUTATION, 0, queries.PAGE_COSTS.ProductDelete],
      [queries.VARIANTS_CREATE_MUTATION, 0, queries.PAGE_COSTS.VariantsCreate],
      [queries.VARIANTS_UPDATE_MUTATION, 0, queries.PAGE_COSTS.VariantsUpdate],
      [queries.VARIANTS_DELETE_MUTATION, 0, queries.PAGE_COSTS.VariantsDelete],
    ];
    for (const [query, first, declared] of cases) {
      const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      if (operation === undefined) throw new Error('no operation');
      const cost = requestedCost(schema, operation, new Map(), { first });
      expect(cost, operation.name?.value).toBe(declared);
      // Shopify refuses a single query over 1,000 points.
      expect(cost).toBeLessThanOrEqual(1000);
    }
  });
});

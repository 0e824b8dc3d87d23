/**
 * SHOPIFY's simulator through the kit, as the connector and the browser reach it: Shopify's consent on the shop's own
 * domain with a signed callback, the code exchanged once for an offline token, GraphQL answers shaped by Shopify's
 * published schema (the simulator's schema is part of it, field for field), paging by cursor, `updated_at` searches,
 * a bulk operation's JSONL result behind a signed link, and SANDBOX's shop reconciling: every order's total is its
 * lines plus tax and shipping less discounts, every payout is its charges and refunds less fees.
 */
import { createHmac } from 'node:crypto';
import { buildClientSchema, parse, validate, type GraphQLSchema, type IntrospectionQuery, isObjectType, isInterfaceType } from 'graphql';
import * as connectorQueries from '../../../../../src/platforms/shopify/queries.ts';
import { ORDER_LINE_ITEMS_QUERY, PAYOUT_TRANSACTIONS_QUERY, PAYOUTS_QUERY, SEGMENTS_QUERY } from '../../../../../src/platforms/shopify/queries.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPublishedJson, SHOPIFY_ADMIN_SCHEMA } from '../../../../../test/contracts/published.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { SandboxPlatform } from '../../platform.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from '../host.ts';
import { simulatorSchema } from './graph.ts';
import { shopifySimulator } from './simulator.ts';

type Json = Record<string, unknown>;
const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: '/link/oauth/callback' };
const SHOP = 'user-good.myshopify.com';
const API = `https://${SHOP}/admin/api/2026-10/graphql.json`;

let db: TestDatabase;
let host: SimulatorHost;
let token: string;
let published: GraphQLSchema;

async function consent(shop: string, username: string): Promise<Response> {
  const params = new URLSearchParams({ client_id: SIMULATOR_CLIENT_ID, redirect_uri: app.redirectUri, scope: 'read_orders', state: 'st-1', shop });
  params.set('username', username);
  params.set('password', 'pass_good');
  params.set('decision', 'allow');
  return host.fetch(`https://${shop}/admin/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
}

async function gql(query: string, variables: Json = {}, accessToken = token): Promise<Json> {
  const response = await host.fetch(API, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': accessToken },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

beforeAll(async () => {
  db = await createTestDatabase();
  host = simulatorHost(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), shopifySimulator, app);
  const raw = (await readPublishedJson(SHOPIFY_ADMIN_SCHEMA)) as { data: IntrospectionQuery };
  published = buildClientSchema(raw.data);
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('the SHOPIFY simulator', () => {
  it('has only fields of Shopify’s published schema, with their published types and arguments', () => {
    const mine = simulatorSchema();
    for (const type of Object.values(mine.getTypeMap())) {
      if (type.name.startsWith('__') || (!isObjectType(type) && !isInterfaceType(type))) continue;
      const theirs = published.getType(type.name);
      expect(theirs, type.name).toBeDefined();
      if (!isObjectType(theirs) && !isInterfaceType(theirs)) throw new Error(`${type.name} is not an object type at Shopify`);
      for (const field of Object.values(type.getFields())) {
        const their = theirs.getFields()[field.name];
        expect(String(their?.type), `${type.name}.${field.name}`).toBe(String(field.type));
        for (const arg of field.args)
          expect(String(their?.args.find((a) => a.name === arg.name)?.type), `${type.name}.${field.name}(${arg.name})`).toBe(String(arg.type));
      }
    }
  });

  it('signs the callback as Shopify does, for the shop asked, and exchanges the code once', async () => {
    const refused = await consent('someone-else.myshopify.com', 'user_good');
    expect(refused.status).toBe(403);
    const answer = await consent(SHOP, 'user_good');
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location') ?? '', 'http://service.invalid');
    const params = Object.fromEntries(back.searchParams);
    expect(params).toMatchObject({ shop: SHOP, state: 'st-1' });
    const message = Object.keys(params)
      .filter((k) => k !== 'hmac')
      .sort()
      .map((k) => `${k}=${params[k] ?? ''}`)
      .join('&');
    expect(params.hmac).toBe(createHmac('sha256', SIMULATOR_CLIENT_SECRET).update(message).digest('hex'));
    const exchange = (code: string) =>
      host.fetch(`https://${SHOP}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: SIMULATOR_CLIENT_ID, client_secret: SIMULATOR_CLIENT_SECRET, code }),
      });
    const issued = await exchange(params.code ?? '');
    expect(issued.status).toBe(200);
    const body = (await issued.json()) as Json;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'scope']);
    expect(body.scope).toBe('read_orders');
    expect(typeof body.access_token).toBe('string');
    token = String(body.access_token);
    expect((await exchange(params.code ?? '')).status).toBe(400);
    const wrong = await host.fetch(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': 'nope' },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
  });

  it('answers the shop and pages orders by cursor, each once, with totals that add up', async () => {
    const shop = (await gql('{ shop { id name myshopifyDomain currencyCode } }')).data as Json;
    expect(shop.shop).toMatchObject({ myshopifyDomain: SHOP });
    expect(String((shop.shop as Json).id)).toMatch(/^gid:\/\/shopify\/Shop\/\d+$/);
    const query = `query ($after: String) { orders(first: 7, after: $after, sortKey: UPDATED_AT) { nodes { id updatedAt
      totalPriceSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } } totalShippingPriceSet { shopMoney { amount } }
      totalDiscountsSet { shopMoney { amount } } lineItems(first: 20) { nodes { quantity originalUnitPriceSet { shopMoney { amount } } } } }
      pageInfo { hasNextPage endCursor } } }`;
    const seen = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const answer = await gql(query, { after });
      expect(answer.errors).toBeUndefined();
      expect(answer.extensions).toMatchObject({ cost: { throttleStatus: { maximumAvailable: 2000, restoreRate: 100 } } });
      const orders = (answer.data as { orders: { nodes: Json[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }).orders;
      for (const order of orders.nodes) {
        expect(seen.has(String(order.id))).toBe(false);
        seen.add(String(order.id));
        const lines = (order.lineItems as { nodes: { quantity: number; originalUnitPriceSet: { shopMoney: { amount: string } } }[] }).nodes;
        const sum = lines.reduce((s, l) => s + l.quantity * cents(l.originalUnitPriceSet.shopMoney.amount), 0);
        const money = (key: string) => cents((order[key] as { shopMoney: { amount: string } }).shopMoney.amount);
        expect(money('totalPriceSet'), String(order.id)).toBe(
          sum + money('totalTaxSet') + money('totalShippingPriceSet') - money('totalDiscountsSet'),
        );
      }
      if (!orders.pageInfo.hasNextPage) break;
      after = orders.pageInfo.endCursor;
    }
    expect(seen.size).toBeGreaterThan(10);
    const later = await gql(`{ orders(first: 250, query: "updated_at:>='2999-01-01'") { nodes { id } } }`);
    expect((later.data as { orders: { nodes: unknown[] } }).orders.nodes).toEqual([]);
    const unknown = await gql('{ orders(first: 1) { nodes { id notAField } } }');
    expect(JSON.stringify(unknown.errors)).toContain('Cannot query field \\"notAField\\"');
  });

  it('runs a bulk operation whose JSONL result is behind a signed link, children after their parents', async () => {
    const run = await gql(
      `mutation ($query: String!) { bulkOperationRunQuery(query: $query, groupObjects: true) { bulkOperation { id status } userErrors { message } } }`,
      { query: '{ orders { edges { node { id lineItems { edges { node { id quantity } } } } } } }' },
    );
    const started = (run.data as { bulkOperationRunQuery: { bulkOperation: { id: string }; userErrors: unknown[] } }).bulkOperationRunQuery;
    expect(started.userErrors).toEqual([]);
    const polled = await gql('query ($id: ID!) { bulkOperation(id: $id) { status objectCount url } }', { id: started.bulkOperation.id });
    const operation = (polled.data as { bulkOperation: { status: string; objectCount: string; url: string } }).bulkOperation;
    expect(operation.status).toBe('COMPLETED');
    const unsigned = new URL(operation.url);
    unsigned.searchParams.delete('X-Goog-Signature');
    expect((await host.fetch(unsigned.toString(), {})).status).toBe(401);
    const file = await host.fetch(operation.url, {});
    expect(file.status).toBe(200);
    const lines = (await file.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(lines.length).toBe(Number(operation.objectCount));
    const parents = new Set<string>();
    for (const line of lines) {
      const parent = line.__parentId;
      if (parent === undefined) parents.add(String(line.id));
      else expect(typeof parent === 'string' && parents.has(parent)).toBe(true);
    }
    const invalid = await gql(
      `mutation { bulkOperationRunQuery(query: "{ orders { edges { node { nope } } } }", groupObjects: true) { userErrors { message code } } }`,
    );
    const userErrors = (invalid.data as { bulkOperationRunQuery: { userErrors: Json[] } }).bulkOperationRunQuery.userErrors;
    expect(userErrors.map((e) => e.code)).toEqual(['INVALID']);
  });

  it('charges each paid order its total through Shopify Payments, and lists the payouts', async () => {
    const answer = await gql(`{ shopifyPaymentsAccount { payouts(first: 250) { nodes { id net { amount } status } } }
      orders(first: 250) { nodes { id displayFinancialStatus totalPriceSet { shopMoney { amount } }
        transactions { kind amountSet { shopMoney { amount } } fees { amount { amount } } } } } }`);
    type Order = { displayFinancialStatus: string; totalPriceSet: { shopMoney: { amount: string } }; transactions: Json[] };
    const data = answer.data as { shopifyPaymentsAccount: { payouts: { nodes: Json[] } }; orders: { nodes: Order[] } };
    expect(data.shopifyPaymentsAccount.payouts.nodes.length).toBeGreaterThan(0);
    let charged = 0;
    for (const order of data.orders.nodes) {
      const sales = order.transactions.filter((t) => t.kind === 'SALE');
      expect(sales.length).toBe(order.displayFinancialStatus === 'PENDING' ? 0 : 1);
      for (const sale of sales) {
        charged += 1;
        expect(cents((sale.amountSet as { shopMoney: { amount: string } }).shopMoney.amount)).toBe(cents(order.totalPriceSet.shopMoney.amount));
      }
    }
    expect(charged).toBeGreaterThan(0);
  });

  it('takes every query the SHOPIFY connector sends, as schema.graphql is written from them', () => {
    for (const [name, text] of Object.entries(connectorQueries)) {
      if (typeof text !== 'string') continue;
      const errors = validate(simulatorSchema(), parse(text.replace('$QUERY', '"x"')));
      expect(
        errors.map((e) => e.message),
        name,
      ).toEqual([]);
    }
  });

  it("serves SANDBOX's customer groups as the shop's segments, paged in id order, each rule holding its members", async () => {
    const firstPage = await gql(SEGMENTS_QUERY, { first: 2, after: null });
    const page = (firstPage.data as { segments: { nodes: Json[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }).segments;
    expect(page.nodes.map((s) => s.name)).toEqual(['Repeat customers', 'One-time customers']);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const rest = (await gql(SEGMENTS_QUERY, { first: 2, after: page.pageInfo.endCursor })).data as { segments: { nodes: Json[] } };
    expect(rest.segments.nodes.map((s) => s.name)).toEqual(['Top spenders']);
    const segments = [...page.nodes, ...rest.segments.nodes];
    expect(segments.map((s) => s.id)).toEqual(['gid://shopify/Segment/1', 'gid://shopify/Segment/2', 'gid://shopify/Segment/3']);
    expect(segments[0]).toMatchObject({ query: 'number_of_orders > 1' });
    expect(String(segments[2]?.query)).toMatch(/^amount_spent >= \d+$/);
    for (const segment of segments) expect(Date.parse(String(segment.lastEditDate))).toBeGreaterThanOrEqual(Date.parse(String(segment.creationDate)));
    // The repeat customers' rule holds: each member's numberOfOrders, as the customers query serves it, is over 1.
    const customers = (await gql('{ customers(first: 250) { nodes { id numberOfOrders } } }')).data as { customers: { nodes: Json[] } };
    const repeat = customers.customers.nodes.filter((c) => Number(c.numberOfOrders) > 1);
    expect(repeat.length).toBeGreaterThan(0);
  });

  it("pays out the balance transactions filed under the payout's number, which add up to it", async () => {
    const payouts = (await gql(PAYOUTS_QUERY, { first: 250 })).data as { shopifyPaymentsAccount: { payouts: { nodes: Json[] } } };
    const paid = payouts.shopifyPaymentsAccount.payouts.nodes;
    expect(paid.length).toBeGreaterThan(0);
    for (const payout of paid) {
      const answer = await gql(PAYOUT_TRANSACTIONS_QUERY, { first: 100, query: `payments_transfer_id:${String(payout.legacyResourceId)}` });
      const nodes = (answer.data as { shopifyPaymentsAccount: { balanceTransactions: { nodes: Json[] } } }).shopifyPaymentsAccount.balanceTransactions
        .nodes;
      const charges = nodes.filter((t) => t.type !== 'TRANSFER');
      expect(charges.length).toBeGreaterThan(0);
      const net = charges.reduce((sum, t) => sum + cents((t.amount as Json).amount) - cents((t.fee as Json).amount), 0);
      expect(net).toBe(cents((payout.net as Json).amount));
    }
    // An order by its id, with its lines, as the connector reads the lines past an order's first page.
    const first = ((await gql('{ orders(first: 1) { nodes { id lineItems(first: 250) { nodes { id } } } } }')).data as { orders: { nodes: Json[] } })
      .orders.nodes[0];
    const one = await gql(ORDER_LINE_ITEMS_QUERY, { id: first?.id, after: null });
    const lines = (one.data as { order: { lineItems: { nodes: Json[] } } }).order.lineItems.nodes;
    expect(lines.map((line) => line.id)).toEqual(((first?.lineItems as Json).nodes as Json[]).map((line) => line.id));
  });
});

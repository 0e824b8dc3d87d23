/**
 * The commerce objects through the real server against SANDBOX's web shop: products with variants, commerce
 * customers, transactions (the gateway's balance history) and disputes (none at SANDBOX), their envelopes and
 * schemas, links that resolve, and the reconciliation a lender runs on a synced store: every payout is the sum of the
 * transactions naming it (and of its own transactions[]), its own movement out is its amount, and every order's total
 * is its lines plus tax and shipping less discounts. Also: missing auth, another tenant's ids, malformed input.
 */
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { MODEL } from '../../model/index.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let c: SyncedConnection;
let other: CreatedOrganization;
let theirs: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } }, sandbox: { asOf: '2025-06-02' } });
  c = await syncedSandboxConnection(t, 'user_commerce_size_1500');
  other = await t.newOrg();
  theirs = await syncedSandboxConnection(t, 'user_commerce_other_size_300', other);
}, 180_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });
const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function all(path: string, key: string, query = ''): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(`${path}?access_token=${c.token}&limit=500${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const body = json(response);
    out.push(...(body[key] as Json[]));
    cursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
  } while (cursor !== null);
  return out;
}

describe('the commerce objects of a synced store', () => {
  it('serves products, customers and transactions of their schemas, whose links resolve', async () => {
    const products = await all('/commerce/products', 'products');
    const customers = await all('/commerce/customers', 'customers');
    const transactions = await all('/commerce/transactions', 'transactions');
    const orders = await all('/commerce/orders', 'orders');
    expect(products.length).toBeGreaterThan(3);
    expect(customers.length).toBeGreaterThan(3);
    expect(transactions.length).toBeGreaterThan(orders.length / 2);
    for (const [type, list] of [
      ['product', products],
      ['commerce_customer', customers],
      ['transaction', transactions],
    ] as const) {
      for (const record of list) expect(Value.Check(MODEL[type].schema, record), `${type} ${JSON.stringify(record).slice(0, 300)}`).toBe(true);
    }
    const productIds = new Set(products.map((p) => p.id));
    const customerIds = new Set(customers.map((x) => x.id));
    const orderIds = new Set(orders.map((o) => o.id));
    for (const order of orders) {
      for (const line of order.line_items as Json[]) expect(productIds.has(line.product_id), String(line.product_id)).toBe(true);
      expect(customerIds.has((order.customer as Json).id)).toBe(true);
    }
    for (const product of products) for (const variant of product.variants as Json[]) expect(variant.product_id).toBe(product.id);
    for (const customer of customers) for (const order of customer.orders as Json[]) expect(orderIds.has(order.id)).toBe(true);
    for (const transaction of transactions) if (transaction.order_id !== null) expect(orderIds.has(transaction.order_id)).toBe(true);
    const one = await get(`/commerce/products/${String(products[0]?.id)}?access_token=${c.token}`);
    expect(one.statusCode).toBe(200);
    expect(json(one).product).toEqual(products[0]);
  });

  it("names each fulfilment, dates each line by its order's creation and marks cancelled orders' refunds completed (issue 35)", async () => {
    const orders = await all('/commerce/orders', 'orders');
    const fulfilled = orders.filter((order) => (order.fulfillments as Json[]).length > 0);
    expect(fulfilled.length).toBeGreaterThan(0);
    expect(orders.some((order) => (order.refunds as Json[]).length > 0)).toBe(true);
    for (const order of orders) {
      // Lines are made with the order and never change after.
      for (const line of order.line_items as Json[]) expect([line.created_at, line.updated_at]).toEqual([order.created_at, order.created_at]);
      const fulfillments = order.fulfillments as Json[];
      expect(fulfillments.map((fulfillment) => fulfillment.id)).toEqual(fulfillments.map((_, index) => `${String(order.platform_id)}-F${index + 1}`));
      for (const refund of order.refunds as Json[]) for (const line of refund.line_items as Json[]) expect(line.status).toBe('completed');
      // The order names its buyer without the shopper's dates: those are on the commerce customer.
      expect(order.customer).toMatchObject({ created_at: null, updated_at: null });
    }
  });

  it("says on the connection how many orders it holds and over which dates, as the reference's connection by access token does", async () => {
    const orders = await all('/commerce/orders', 'orders');
    const dates = (await t.db.pool.query<{ oldest: Date; newest: Date }>(
      `SELECT min(business_date) AS oldest, max(business_date) AS newest FROM records WHERE connection_id = $1 AND object_type = 'order' AND deleted_at IS NULL`,
      [c.connection.id],
    )).rows[0];
    const connection = json(await get(`/connections/access_token?access_token=${c.token}`)).connection as Json;
    expect(connection).toMatchObject({
      initial_orders_synced_count: orders.length,
      oldest_order_date: dates?.oldest.toISOString(),
      newest_order_date: dates?.newest.toISOString(),
    });
    // A run queued since, not started yet, changes neither: the latest start and completion of any run.
    await t.db.pool.query(`INSERT INTO sync_runs (connection_id, kind, trigger, status) VALUES ($1, 'incremental', 'api', 'queued')`, [
      c.connection.id,
    ]);
    const again = json(await get(`/connections/access_token?access_token=${c.token}`)).connection as Json;
    const completed = await t.db.pool.query<{ started_at: Date; finished_at: Date }>(
      `SELECT max(started_at) AS started_at, max(finished_at) FILTER (WHERE status = 'completed') AS finished_at FROM sync_runs WHERE connection_id = $1`,
      [c.connection.id],
    );
    await t.db.pool.query(`DELETE FROM sync_runs WHERE connection_id = $1 AND status = 'queued'`, [c.connection.id]);
    expect([again.last_sync_started_at, again.last_sync_completed_at]).toEqual([connection.last_sync_started_at, connection.last_sync_completed_at]);
    expect([connection.last_sync_started_at, connection.last_sync_completed_at]).toEqual([
      completed.rows[0]?.started_at.toISOString(),
      completed.rows[0]?.finished_at.toISOString(),
    ]);
    expect(connection.oldest_order_date).not.toBe(connection.newest_order_date);
    expect(connection.unavailable_objects).not.toContain('order');
  });

  it('reconciles: each payout is its transactions net of fees, found from either side; each order adds up', async () => {
    const payouts = await all('/payouts', 'payouts');
    expect(payouts.length).toBeGreaterThan(3);
    for (const payout of payouts) {
      const embedded = payout.transactions as Json[];
      expect(embedded.reduce((sum, x) => sum + cents(x.amount) - cents(x.fee), 0)).toBe(cents(payout.amount));
      const named = await all('/commerce/transactions', 'transactions', `&filter=${encodeURIComponent(`payout_id = "${String(payout.id)}"`)}`);
      const paid = named.filter((x) => x.type !== 'payout');
      const out = named.filter((x) => x.type === 'payout');
      expect(paid.reduce((sum, x) => sum + cents(x.amount) - cents(x.fee), 0), String(payout.id)).toBe(cents(payout.amount));
      expect(out.map((x) => cents(x.amount))).toEqual([-cents(payout.amount)]);
      expect(paid.map((x) => x.platform_id).sort()).toEqual(embedded.map((x) => x.id).sort());
    }
    for (const order of await all('/commerce/orders', 'orders')) {
      const lines = (order.line_items as Json[]).reduce((sum, l) => sum + cents(l.price) * Number(l.quantity), 0);
      expect(cents(order.total_price), String(order.id)).toBe(lines + cents(order.total_tax) + cents(order.total_shipping) - cents(order.total_discount));
    }
  });

  it('filters and sorts on the F fields, and refuses the others with the list of them', async () => {
    const refunds = await all('/commerce/transactions', 'transactions', `&filter=${encodeURIComponent('type = "refund"')}&sort=amount%20ASC`);
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((x) => x.type === 'refund' && Number(x.amount) < 0)).toBe(true);
    const bad = await get(`/commerce/transactions?access_token=${c.token}&filter=${encodeURIComponent('gateway = "x"')}`);
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).error_message).toContain('type');
  });

  it.each(['disputes', 'subscriptions'])('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM for %s, which SANDBOX keeps none of', async (list) => {
    for (const path of [`/commerce/${list}`, `/commerce/${list}/any-id`]) {
      const response = await get(`${path}?access_token=${c.token}`);
      expect(response.statusCode, path).toBe(404);
      expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    }
  });

  it('refuses a request without credentials, another tenant’s ids, and malformed input, changing nothing', async () => {
    const bare = await t.app.inject({ method: 'GET', url: `/versioned/commerce/products?access_token=${c.token}`, headers: { 'x-service-version': clientHeaders(t.org)['x-service-version'] ?? '' } });
    expect(bare.statusCode).toBe(401);
    // The other organisation's connection token, with our credentials: no such connection for us.
    const crossToken = await get(`/commerce/transactions?access_token=${theirs.token}`);
    expect(crossToken.statusCode).toBe(401);
    const [mine] = await all('/commerce/transactions', 'transactions');
    const crossId = await get(`/commerce/transactions/${String(mine?.id)}?access_token=${theirs.token}`, clientHeaders(other));
    expect(crossId.statusCode).toBe(410);
    expect(errorBody(crossId).error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await get(`/commerce/products?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/commerce/customers?access_token=${c.token}&sort=nope`)).statusCode).toBe(400);
    expect((await get(`/commerce/products?access_token=${c.token}&expand=everything`)).statusCode).toBe(400);
    expect((await get(`/commerce/products/not-an-id?access_token=${c.token}`)).statusCode).toBe(410);
  });
});

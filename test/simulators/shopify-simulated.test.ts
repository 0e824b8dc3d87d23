/**
 * SHOPIFY in the sandbox environment, end to end on the real server: the hosted link flow with the store-name prefill
 * (`?store_name=user-sim-shop` gives the shop domain) goes to the simulator's consent page, the callback's hmac is
 * checked by the real connector, and the initial sync reads SANDBOX's web shop through the simulator with the real
 * connector: bulk operations (their JSONL behind the simulator's signed link) for orders, products, customers and
 * transactions, paged reads for payouts (with their balance transactions) and the shop. What is stored adds up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findConnectionForService } from '../../src/sql/connections.ts';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { LinkBrowser } from '../support/link-browser.ts';
import { expectSynced } from '../support/oauth-connection.ts';

type Json = Record<string, unknown>;
const USERNAME = 'user_sim_shop_size_200';
const SHOP = 'user-sim-shop-size-200.myshopify.com';

let t: TestApp;
let connectionId = '';

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
}, 120_000);
afterAll(async () => {
  await t.close();
});

const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function stored(type: string): Promise<Json[]> {
  const result = await t.db.pool.query<{ data: Json }>(
    'SELECT data FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL',
    [connectionId, type],
  );
  return result.rows.map((row) => row.data);
}

describe('SHOPIFY through its simulator', () => {
  it('links with the store-name prefill through the simulator, and syncs a web shop that adds up', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(t.org), payload: {} });
    expect(created.statusCode, created.body).toBe(200);
    const { connection } = created.json<{ connection: { id: string; link_url: string } }>();
    connectionId = connection.id;
    const browser = new LinkBrowser(t.app);
    const start = await browser.get(`${new URL(connection.link_url).pathname}/SHOPIFY?store_name=${SHOP.replace('.myshopify.com', '')}`);
    expect(start.statusCode, start.body).toBe(302);
    const consent = String(start.headers.location);
    expect(consent).toContain('/simulators/shopify/');
    expect(new URL(consent, 'http://service.test').searchParams.get('shop')).toBe(SHOP);
    const page = await browser.get(consent);
    expect(page.statusCode, page.body).toBe(200);
    const consentPath = new URL(consent, 'http://service.test').pathname;
    const params = Object.fromEntries(new URL(consent, 'http://service.test').searchParams);
    const allowed = await browser.post(consentPath, { ...params, username: USERNAME, password: 'pass_good', decision: 'allow' });
    expect(allowed.statusCode, allowed.body).toBe(302);
    const callback = String(allowed.headers.location);
    expect(new URL(callback, 'http://service.test').searchParams.get('hmac')).toMatch(/^[0-9a-f]{64}$/);
    const done = await browser.get(callback);
    expect(done.statusCode, done.body).toBeLessThan(400);
    const linked = await findConnectionForService(t.db.pool, connectionId);
    expect(linked).toMatchObject({ platform: 'SHOPIFY', simulated: true });

    await expectSynced(t, connectionId, 'initial');
    const orders = await stored('order');
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      const lines = (order.line_items as Json[]).reduce((sum, line) => sum + cents(line.price) * Number(line.quantity), 0);
      expect(lines + cents(order.total_tax) + cents(order.total_shipping) - cents(order.total_discount), String(order.order_number)).toBe(
        cents(order.total_price),
      );
    }
    expect((await stored('product')).length).toBeGreaterThan(0);
    expect((await stored('commerce_customer')).length).toBeGreaterThan(0);
    expect((await stored('transaction')).length).toBeGreaterThan(0);
    expect((await stored('store')).map((s) => s.store_name)).toHaveLength(1);
    const payouts = await stored('payout');
    expect(payouts.length).toBeGreaterThan(0);
    for (const payout of payouts) {
      const transactions = (payout.transactions as Json[]).filter((tx) => tx.type !== 'payout');
      expect(transactions.length).toBeGreaterThan(0);
      expect(transactions.reduce((sum, tx) => sum + cents(tx.amount) - cents(tx.fee), 0)).toBe(cents(payout.amount));
    }
  }, 180_000);
});

/**
 * The commerce reads computed from stored records, through the real server. GET /commerce/metrics/:metricName:
 * SANDBOX's stored orders give each metric month by month and currency (checked against the orders the API lists).
 * GET /commerce/products/categories: the product types of the stored products. A platform without orders or products
 * refused (QuickBooks Online, its stand-in); auth, other organisations, unknown metric names and malformed ids refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import { startReadApp, type ReadApp } from '../../../test/support/read-app.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;
const get = (url: string, token: string, headers?: Record<string, string>) => r.get(url, token, headers);
const ok = (url: string, token?: string) => r.ok(url, token);

beforeAll(async () => {
  r = await startReadApp('user_commerce_reads_size_400');
  ({ t, c } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

async function orders(): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  do {
    const body = await ok(`/commerce/orders?limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    out.push(...(body.orders as Json[]));
    cursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
  } while (cursor !== null);
  return out;
}

/** The orders of each month (YYYY-MM) in one currency, as the test counts them. */
function byMonth(list: Json[]): Map<string, Json[]> {
  const months = new Map<string, Json[]>();
  for (const order of list) {
    const key = `${String(order.created_at).slice(0, 7)} ${String(order.iso_currency_code)}`;
    months.set(key, [...(months.get(key) ?? []), order]);
  }
  return months;
}

const keyOf = (value: Json) => `${String(value.start_date).slice(0, 7)} ${String(value.currency)}`;

describe('GET /commerce/metrics/:metricName', () => {
  it('answers the metric under its own name, a value per month and currency of the stored orders', async () => {
    const list = await orders();
    expect(list.length).toBeGreaterThan(20);
    const months = byMonth(list);
    const body = await ok('/commerce/metrics/total_orders');
    expect(Object.keys(body).sort()).toEqual(['checkpoint', 'connection', 'total_orders']);
    expect(body.connection).toMatchObject({ id: c.connection.id, platform: 'SANDBOX' });
    const counts = body.total_orders as Json[];
    // Every month from the first order on has a value, zero where nothing was ordered.
    expect(counts.reduce((sum, v) => sum + Number(v.value), 0)).toBe(list.length);
    for (const value of counts) expect(Number(value.value), keyOf(value)).toBe(months.get(keyOf(value))?.length ?? 0);
    const first = counts[0] ?? {};
    expect(String(first.start_date)).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
    expect(new Date(String(first.end_date)).getUTCMonth()).toBe(new Date(String(first.start_date)).getUTCMonth());
    expect(new Date(Date.parse(String(first.end_date)) + 86_400_000).getUTCDate()).toBe(1);

    const revenue = (await ok('/commerce/metrics/total_revenue')).total_revenue as Json[];
    for (const value of revenue) {
      const cents = (months.get(keyOf(value)) ?? []).reduce((sum, o) => sum + Math.round(Number(o.total_price) * 100), 0);
      expect(value.value, keyOf(value)).toBe((cents / 100).toFixed(4));
    }
    expect(revenue.some((v) => Number(v.value) > 0)).toBe(true);

    const customers = (await ok('/commerce/metrics/active_customers')).active_customers as Json[];
    for (const value of customers) {
      const distinct = new Set((months.get(keyOf(value)) ?? []).flatMap((o) => (o.customer === null ? [] : [(o.customer as Json).id])));
      expect(Number(value.value), keyOf(value)).toBe(distinct.size);
    }

    const rates = (await ok('/commerce/metrics/refund_rate')).refund_rate as Json[];
    const withOrders = counts.filter((v) => Number(v.value) > 0);
    expect(rates.map(keyOf)).toEqual(withOrders.map(keyOf));
    for (const value of rates) {
      const month = months.get(keyOf(value)) ?? [];
      const refunded = month.filter((o) => (o.refunds as Json[]).length > 0).length;
      expect(value.value, keyOf(value)).toBe((refunded / month.length).toFixed(4));
    }
    expect(rates.some((v) => Number(v.value) > 0)).toBe(true);
    const synced = await t.db.pool.query<{ latest: Date }>(
      `SELECT max(last_synced_at) AS latest FROM records WHERE connection_id = $1 AND object_type = 'order' AND deleted_at IS NULL`,
      [c.connection.id],
    );
    expect(body.checkpoint).toBe(synced.rows[0]?.latest.toISOString());
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on a platform without orders', async () => {
    const { token } = await r.quickbooks();
    const response = await get('/commerce/metrics/total_revenue', token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it('refuses missing auth, another organisation and metric names it does not compute', async () => {
    expect((await get('/commerce/metrics/total_orders', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Commerce metrics other');
    expect(errorBody(await get('/commerce/metrics/total_orders', c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    for (const name of ['net_income', 'average_order_value', 'constructor']) {
      const response = await get(`/commerce/metrics/${name}`, c.token);
      expect(response.statusCode, name).toBe(400);
      expect(errorBody(response)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'metricName' } });
      expect(errorBody(response).error_message).toContain('refund_rate');
    }
    expect((await get('/commerce/metrics/total_orders?force_fetch=maybe', c.token)).statusCode).toBe(400);
  });
});

describe('GET /commerce/products/categories', () => {
  it('lists the product types of the stored products as categories without children; id picks one', async () => {
    const products = (await ok('/commerce/products?limit=500')).products as Json[];
    const types = [...new Set(products.map((p) => String(p.type)).filter((type) => type !== ''))].sort();
    expect(types.length).toBeGreaterThan(0);
    const body = await ok('/commerce/products/categories');
    expect(Object.keys(body).sort()).toEqual(['categories', 'connection']);
    const categories = body.categories as Json[];
    expect(categories.map((category) => category.name)).toEqual(types);
    for (const category of categories) {
      expect(category.children).toEqual([]);
      expect(String(category.id)).toMatch(/^[0-9a-f-]{36}$/);
    }
    const first = categories[0] ?? {};
    expect((await ok(`/commerce/products/categories?id=${String(first.id)}`)).categories).toEqual([first]);
    // The same ids on the next read: they name the category, not the answer.
    expect((await ok('/commerce/products/categories')).categories).toEqual(categories);
  });

  it("answers an unknown id and another organisation's id alike: no category", async () => {
    const other = await t.newOrg('Categories other');
    const theirs = await syncedSandboxConnection(t, 'user_categories_other_size_300', other);
    const response = await get('/commerce/products/categories', theirs.token, clientHeaders(other));
    const theirFirst = ((JSON.parse(response.body) as Json).categories as Json[])[0] ?? {};
    expect((await ok(`/commerce/products/categories?id=${String(theirFirst.id)}`)).categories).toEqual([]);
    expect((await ok('/commerce/products/categories?id=00000000-0000-4000-8000-000000000000')).categories).toEqual([]);
  }, 120_000);

  it('refuses missing auth, another organisation, a malformed id, and platforms without products', async () => {
    expect((await get('/commerce/products/categories', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Categories auth other');
    expect(errorBody(await get('/commerce/products/categories', c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    const malformed = await get('/commerce/products/categories?id=not-an-id', c.token);
    expect(malformed.statusCode).toBe(400);
    expect(errorBody(malformed)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'id' } });
    const { token } = await r.quickbooks();
    const response = await get('/commerce/products/categories', token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });
});

describe('GET /commerce/balance', () => {
  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on SANDBOX and QuickBooks Online (no payment balance), 401 without auth', async () => {
    const { token } = await r.quickbooks();
    for (const each of [c.token, token]) {
      const response = await get('/commerce/balance', each);
      expect(response.statusCode).toBe(404);
      expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    }
    expect((await get('/commerce/balance', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
  });
});

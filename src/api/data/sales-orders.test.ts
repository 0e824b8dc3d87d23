/**
 * Sales orders through the real server against SANDBOX: the reference's path, envelope and fields, closed orders
 * carrying the lines of the invoices made from them, the F fields, platform_data, refusals, the status counts and
 * SALES_ORDER_* webhooks as later days take and invoice orders. Reads only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, incrementalSync, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

const USER = 'user_sales_orders_size_1500';
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function salesOrders(query = ''): Promise<Json[]> {
  const response = await get(`/accounting/sales_orders?access_token=${c.token}&limit=500${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).sales_orders as Json[];
}

/** An invoice line as an order line: the fields the two have in common. */
const asOrderLine = (line: Json) => ({
  platform_id: line.platform_id, tax_rate_id: line.tax_rate_id, description: line.description, total_amount: line.total_amount, item: line.item,
});

describe('GET /accounting/sales_orders', () => {
  it('lists the business\'s orders in the reference\'s envelope, each of the schema, closed, open and awaiting approval', async () => {
    const response = await get(`/accounting/sales_orders?access_token=${c.token}&limit=5`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'next_cursor', 'sales_orders']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(body.sales_orders).toHaveLength(5);
    const all = await salesOrders();
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (const order of all) expect(Value.Check(MODEL.sales_order.schema, order), JSON.stringify(order)).toBe(true);
    expect(new Set(all.map((o) => o.status))).toEqual(new Set(['closed', 'open', 'pending_approval']));
    expect(all.every((o) => 'platform_data' in o)).toBe(false);
  });

  it('fetches one order; expand=platform_data shows the invoice a closed order became, whose lines and total are the order\'s', async () => {
    const closed = (await salesOrders()).filter((o) => o.status === 'closed');
    expect(closed.length).toBeGreaterThan(0);
    for (const order of closed.slice(0, 3)) {
      const fetched = await get(`/accounting/sales_orders/${String(order.id)}?access_token=${c.token}&expand=platform_data`);
      expect(fetched.statusCode, fetched.body.slice(0, 300)).toBe(200);
      expect(Object.keys(json(fetched)).sort()).toEqual(['connection', 'sales_order']);
      const withData = json(fetched).sales_order as Json;
      expect({ ...withData, platform_data: undefined }).toEqual({ ...order, platform_data: undefined });
      const [invoicePlatformId] = (withData.platform_data as { InvoiceIds: string[] }).InvoiceIds;
      const listed = await get(`/accounting/invoices?access_token=${c.token}&filter=${encodeURIComponent(`customer_id = "${String(order.customer_id)}"`)}&limit=500`);
      const invoice = (json(listed).invoices as Json[]).find((i) => i.platform_id === invoicePlatformId);
      expect(invoice, String(order.id)).toBeDefined();
      expect(String(invoice?.issue_date) >= String(order.issue_date)).toBe(true);
      expect(invoice?.total_amount).toBe(order.total_amount);
      expect(order.line_items).toEqual((invoice?.line_items as Json[]).map(asOrderLine));
    }
    const customer = await get(`/accounting/customers/${String(closed[0]?.customer_id)}?access_token=${c.token}`);
    expect(customer.statusCode).toBe(200);
  });

  it('filters and sorts on its F fields: customer_id and the sync times', async () => {
    const all = await salesOrders();
    const customerId = String(all[0]?.customer_id);
    const theirs = await salesOrders(`&filter=${encodeURIComponent(`customer_id = "${customerId}"`)}`);
    expect(theirs.map((o) => o.id).sort()).toEqual(all.filter((o) => o.customer_id === customerId).map((o) => o.id).sort());
    const pivot = [...all].map((o) => String(o.created_at)).sort()[Math.floor(all.length / 2)] ?? '';
    const later = await salesOrders(`&filter=${encodeURIComponent(`created_at >= ${pivot}`)}`);
    expect(later.map((o) => o.id).sort()).toEqual(all.filter((o) => String(o.created_at) >= pivot).map((o) => o.id).sort());
    const byCreation = (await salesOrders('&sort=created_at%20ASC')).map((o) => String(o.created_at));
    expect(byCreation).toEqual([...byCreation].sort());
    const byUpdate = (await salesOrders()).map((o) => String(o.updated_at));
    expect(byUpdate).toEqual([...byUpdate].sort().reverse());
  });

  it('refuses missing auth, another organisation\'s credentials, other connections\' ids, malformed input and writes', async () => {
    expect((await get(`/accounting/sales_orders?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/sales_orders')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/sales_orders?access_token=${c.token}`, clientHeaders(otherOrg));
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    // Their own connection to other books: our order ids are not theirs.
    const theirs = await syncedSandboxConnection(t, 'user_sales_orders_other_size_300', otherOrg);
    const [ours] = await salesOrders();
    const crossed = await get(`/accounting/sales_orders/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect(crossed.statusCode).toBe(410);
    expect(errorBody(crossed).error_code).toBe('RESOURCE_NOT_FOUND');
    for (const filter of ['status = "closed"', 'issue_date > 2024-01-01', 'customer_id ~ "cus"', 'created_at > 2024-02-30', 'total_amount > 10']) {
      const response = await get(`/accounting/sales_orders?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode, filter).toBe(400);
      expect(errorBody(response).error_code, filter).toBe('INVALID_FILTER');
    }
    expect((await get(`/accounting/sales_orders?access_token=${c.token}&sort=issue_date`)).statusCode).toBe(400);
    expect((await get(`/accounting/sales_orders?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/sales_orders?access_token=${c.token}&expand=line_items`)).statusCode).toBe(400);
    // Writes are served (src/api/writes/writes.test.ts); an empty one is a 400 naming what it lacks, nothing queued.
    for (const [method, url] of [['POST', '/accounting/sales_orders'], ['PATCH', `/accounting/sales_orders/${String(ours?.id)}`]] as const) {
      const write = await t.app.inject({ method, url: `/versioned${url}?access_token=${c.token}`, headers: clientHeaders(t.org), payload: { sales_order: {} } });
      expect(write.statusCode, `${method} ${url}`).toBe(400);
      expect(write.headers['x-service-job-id'], `${method} ${url}`).toBeUndefined();
    }
  });

  it('belongs to the accounting product', async () => {
    const org = await t.newOrg('Commerce only');
    const set = await t.app.inject({
      method: 'PUT', url: `/admin/organizations/${org.organization.id}/products`, headers: { authorization: `Bearer ${t.adminToken}` }, payload: { products: ['commerce'] },
    });
    expect(set.statusCode, set.body).toBe(200);
    const refused = await get('/accounting/sales_orders?access_token=bogus', clientHeaders(org));
    expect(refused.statusCode).toBe(404);
    expect(errorBody(refused)).toMatchObject({ error_code: 'PRODUCT_NOT_ALLOWED', error_metadata: { product: 'accounting' } });
  });

  it('counts them in the connection status', async () => {
    const all = await salesOrders();
    const status = json(await get(`/connections/status?access_token=${c.token}`)).status as { historical_sync_status: { total: Json }; objects: Json[] };
    expect(status.historical_sync_status.total.SALES_ORDER).toMatchObject({ ready: true, synced_count: all.length });
    expect(status.objects.find((o) => o.entity === 'SALES_ORDER')).toMatchObject({ status: 'completed', synced_count: all.length });
  });

  it('announces orders taken and invoiced on later days as SALES_ORDER_CREATED and SALES_ORDER_UPDATED', async () => {
    const before = new Map((await salesOrders()).map((o) => [o.id, o]));
    await t.sandbox.platform.advance(USER, 40);
    await incrementalSync(t, c.connection.id);
    const events = (await eventsOf(t, c.connection.id)).filter((e) => e.code.startsWith('SALES_ORDER_'));
    const created = events.filter((e) => e.code === 'SALES_ORDER_CREATED');
    const updated = events.filter((e) => e.code === 'SALES_ORDER_UPDATED');
    expect(created.length).toBeGreaterThan(0);
    expect(updated.length).toBeGreaterThan(0);
    for (const event of [...created, ...updated]) {
      expect(event.payload).toMatchObject({ type: 'SALES_ORDER', connection_id: c.connection.id, access_token: c.token });
      expect(Value.Check(MODEL.sales_order.schema, event.payload.sales_order)).toBe(true);
    }
    for (const event of created) expect(before.has((event.payload.sales_order as Json).id)).toBe(false);
    // An order invoiced on a later day closes, and its new invoice carries its lines.
    const invoiced = updated.map((e) => e.payload.sales_order as Json).filter((o) => o.status === 'closed' && before.get(o.id)?.status !== 'closed');
    expect(invoiced.length).toBeGreaterThan(0);
    const invoices = json(await get(`/accounting/invoices?access_token=${c.token}&limit=500&sort=created_at%20DESC`)).invoices as Json[];
    for (const order of invoiced) {
      const fetched = json(await get(`/accounting/sales_orders/${String(order.id)}?access_token=${c.token}&expand=platform_data`)).sales_order as Json;
      const [invoicePlatformId] = (fetched.platform_data as { InvoiceIds: string[] }).InvoiceIds;
      const invoice = invoices.find((i) => i.platform_id === invoicePlatformId);
      expect(invoice, String(order.id)).toBeDefined();
      expect(order.line_items).toEqual((invoice?.line_items as Json[]).map(asOrderLine));
    }
  });
});

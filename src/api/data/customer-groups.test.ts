/**
 * Customer groups through the real server against SANDBOX: the reference's commerce path under /commerce (its root
 * path answers ROUTE_NOT_FOUND), envelope and fields, the members and rule in platform_data, fetch by service and
 * platform id, name and sync-time filters, the status endpoint's count, and refusals (missing auth, another
 * organisation's credentials and ids, malformed filters and parameters). Shopify's segments are read in its
 * integration test; QuickBooks Online's, Xero's and Stripe's 404s are in theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, 'user_customer_groups_size_300');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function groups(query = ''): Promise<Json[]> {
  const response = await get(`/commerce/customer_groups?access_token=${c.token}&limit=100${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).customer_groups as Json[];
}

describe('GET /commerce/customer_groups', () => {
  it("lists the shop's customer groups in the reference's envelope, each of the schema, at /commerce only", async () => {
    const response = await get(`/commerce/customer_groups?access_token=${c.token}&limit=2`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'customer_groups', 'next_cursor']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(typeof body.next_cursor).toBe('string');
    const all = await groups();
    expect(all.map((g) => g.name).sort()).toEqual(['One-time customers', 'Repeat customers', 'Top spenders']);
    for (const group of all) {
      expect(Value.Check(MODEL.customer_group.schema, group), JSON.stringify(group)).toBe(true);
      expect(Object.keys(group).sort()).toEqual(['created_at', 'id', 'last_synced_at', 'name', 'platform_id', 'updated_at']);
    }
    const root = await get(`/customer_groups?access_token=${c.token}`);
    expect([root.statusCode, errorBody(root).error_code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it('fetches one by id and by platform id; expand=platform_data gives its rule and its members, customers the shop serves', async () => {
    const repeat = (await groups()).find((g) => g.name === 'Repeat customers');
    const plain = await get(`/commerce/customer_groups/${String(repeat?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'customer_group']);
    expect(json(plain).customer_group).toEqual(repeat);
    const expanded = await get(`/commerce/customer_groups/${String(repeat?.id)}?access_token=${c.token}&expand=platform_data`);
    const data = (json(expanded).customer_group as Json).platform_data as { Id: string; Query: string; ShopperIds: string[] };
    expect(data).toMatchObject({ Id: repeat?.platform_id, Name: 'Repeat customers', Query: 'number_of_orders > 1' });
    expect(data.ShopperIds.length).toBeGreaterThan(0);
    for (const shopperId of data.ShopperIds.slice(0, 3)) {
      const customer = await get(`/commerce/customers/${shopperId}?access_token=${c.token}&id_type=platform`);
      expect(customer.statusCode, shopperId).toBe(200);
      expect(((json(customer).customer as Json).orders as Json[]).length).toBeGreaterThan(1);
    }
    const byPlatformId = await get(`/commerce/customer_groups/${String(repeat?.platform_id)}?access_token=${c.token}&id_type=platform`);
    expect(byPlatformId.statusCode).toBe(200);
    expect((json(byPlatformId).customer_group as Json).id).toBe(repeat?.id);
  });

  it('filters on the name and the sync times', async () => {
    expect((await groups(`&filter=${encodeURIComponent('name = "Top spenders"')}`)).map((g) => g.name)).toEqual(['Top spenders']);
    expect(await groups(`&filter=${encodeURIComponent('name = "Nobody"')}`)).toEqual([]);
    expect(await groups(`&filter=${encodeURIComponent('created_at >= 9000-01-01')}`)).toEqual([]);
  });

  it('counts them in the connection status', async () => {
    const all = await groups();
    const response = await get(`/connections/status?access_token=${c.token}`);
    const total = ((json(response).status as Json).historical_sync_status as Json).total as Record<string, Json>;
    expect(total.CUSTOMER_GROUP).toMatchObject({ ready: true, synced_count: all.length });
  });

  it("refuses missing auth, another organisation's credentials and ids, and malformed input", async () => {
    expect((await get(`/commerce/customer_groups?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/commerce/customer_groups')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/commerce/customer_groups?access_token=${c.token}`, clientHeaders(otherOrg));
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const theirs = await syncedSandboxConnection(t, 'user_customer_groups_other_size_300', otherOrg);
    const [ours] = await groups();
    const crossed = await get(`/commerce/customer_groups/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect([crossed.statusCode, errorBody(crossed).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    expect((await get(`/commerce/customer_groups/not-a-group?access_token=${c.token}`)).statusCode).toBe(410);
    for (const filter of ['query = "x"', 'name > 3', 'created_at >= 2025-02-30']) {
      const response = await get(`/commerce/customer_groups?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect([response.statusCode, errorBody(response).error_code], filter).toEqual([400, 'INVALID_FILTER']);
    }
    expect((await get(`/commerce/customer_groups?access_token=${c.token}&sort=platform_id`)).statusCode).toBe(400);
    expect((await get(`/commerce/customer_groups?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/commerce/customer_groups?access_token=${c.token}&cursor=nonsense`)).statusCode).toBe(400);
  });
});

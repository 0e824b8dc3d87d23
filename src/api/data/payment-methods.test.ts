/**
 * Payment methods through the real server against SANDBOX: the reference's path, envelope and fields, platform_data on
 * request, fetch by service and platform id, name and sync-time filters, the status endpoint's count, and refusals
 * (missing auth, another organisation's credentials and ids, malformed filters and parameters).
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
  c = await syncedSandboxConnection(t, 'user_payment_methods_size_300');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function methods(query = ''): Promise<Json[]> {
  const response = await get(`/accounting/payment_methods?access_token=${c.token}&limit=100${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).payment_methods as Json[];
}

describe('GET /accounting/payment_methods', () => {
  it("lists the business's payment methods in the reference's envelope, each of the schema", async () => {
    const response = await get(`/accounting/payment_methods?access_token=${c.token}&limit=3`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'next_cursor', 'payment_methods']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(typeof body.next_cursor).toBe('string');
    const all = await methods();
    expect(all.map((m) => m.name).sort()).toEqual(
      ['American Express', 'Bank Transfer', 'Cash', 'Check', 'Direct Debit', 'Discover', 'MasterCard', 'Visa'].sort(),
    );
    for (const method of all) {
      expect(Value.Check(MODEL.payment_method.schema, method), JSON.stringify(method)).toBe(true);
      expect(Object.keys(method).sort()).toEqual(['created_at', 'id', 'last_synced_at', 'name', 'platform_id', 'updated_at']);
      expect(typeof method.created_at).toBe('string');
    }
  });

  it('fetches one by id and by platform id, with the platform record under expand=platform_data', async () => {
    const [first] = await methods();
    const plain = await get(`/accounting/payment_methods/${String(first?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'payment_method']);
    expect(json(plain).payment_method).toEqual(first);
    const expanded = await get(`/accounting/payment_methods/${String(first?.id)}?access_token=${c.token}&expand=platform_data`);
    expect(((json(expanded).payment_method as Json).platform_data as Json)).toMatchObject({ Id: first?.platform_id, Name: first?.name, Status: 'Active' });
    const byPlatformId = await get(`/accounting/payment_methods/${String(first?.platform_id)}?access_token=${c.token}&id_type=platform`);
    expect(byPlatformId.statusCode).toBe(200);
    expect((json(byPlatformId).payment_method as Json).id).toBe(first?.id);
  });

  it('filters on name and the sync times, and sorts by name', async () => {
    expect((await methods(`&filter=${encodeURIComponent('name = "Visa"')}`)).map((m) => m.name)).toEqual(['Visa']);
    expect((await methods(`&filter=${encodeURIComponent('name ~ "Di"')}`)).map((m) => m.name).sort()).toEqual(['Direct Debit', 'Discover']);
    const names = (await methods('&sort=name%20ASC')).map((m) => String(m.name));
    expect(names).toEqual([...names].sort());
    expect(await methods(`&filter=${encodeURIComponent('created_at >= 9000-01-01')}`)).toEqual([]);
  });

  it('counts them in the connection status', async () => {
    const response = await get(`/connections/status?access_token=${c.token}`);
    const total = ((json(response).status as Json).historical_sync_status as Json).total as Record<string, Json>;
    expect(total.PAYMENT_METHOD).toMatchObject({ ready: true, synced_count: 8 });
  });

  it("refuses missing auth, another organisation's credentials and ids, and malformed input", async () => {
    expect((await get(`/accounting/payment_methods?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/payment_methods')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/payment_methods?access_token=${c.token}`, clientHeaders(otherOrg));
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const theirs = await syncedSandboxConnection(t, 'user_payment_methods_other_size_300', otherOrg);
    const [ours] = await methods();
    const crossed = await get(`/accounting/payment_methods/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect([crossed.statusCode, errorBody(crossed).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    expect((await get(`/accounting/payment_methods/not-a-method?access_token=${c.token}`)).statusCode).toBe(410);
    for (const filter of ['type = "card"', 'name > 3', 'created_at >= 2025-02-30']) {
      const response = await get(`/accounting/payment_methods?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect([response.statusCode, errorBody(response).error_code], filter).toEqual([400, 'INVALID_FILTER']);
    }
    expect((await get(`/accounting/payment_methods?access_token=${c.token}&sort=platform_id`)).statusCode).toBe(400);
    expect((await get(`/accounting/payment_methods?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/payment_methods?access_token=${c.token}&cursor=nonsense`)).statusCode).toBe(400);
  });
});

/**
 * Tax areas through the real server against SANDBOX: the reference's path, envelope and fields, platform_data on
 * request, fetch by service and platform id, country and sync-time filters, the status endpoint's count, and refusals
 * (missing auth, another organisation's credentials and ids, malformed filters and parameters). QuickBooks Online's
 * and Xero's 404s are in their integration tests.
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
  c = await syncedSandboxConnection(t, 'user_tax_areas_size_300');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function areas(query = ''): Promise<Json[]> {
  const response = await get(`/accounting/tax_areas?access_token=${c.token}&limit=100${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).tax_areas as Json[];
}

describe('GET /accounting/tax_areas', () => {
  it("lists the business's tax areas, one per city of its country, in the reference's envelope, each of the schema", async () => {
    const response = await get(`/accounting/tax_areas?access_token=${c.token}&limit=2`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'next_cursor', 'tax_areas']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(typeof body.next_cursor).toBe('string');
    const all = await areas();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const countries = new Set(all.map((a) => a.country));
    expect(countries.size).toBe(1);
    expect([...countries][0]).toMatch(/^[A-Z]{2}$/);
    for (const area of all) {
      expect(Value.Check(MODEL.tax_area.schema, area), JSON.stringify(area)).toBe(true);
      expect(Object.keys(area).sort()).toEqual(['country', 'created_at', 'description', 'id', 'last_synced_at', 'platform_id', 'updated_at']);
      expect(area.description).toMatch(/^[^,]+, [^,]+$/);
    }
  });

  it('fetches one by id and by platform id, with the platform record under expand=platform_data', async () => {
    const [first] = await areas();
    const plain = await get(`/accounting/tax_areas/${String(first?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'tax_area']);
    expect(json(plain).tax_area).toEqual(first);
    const expanded = await get(`/accounting/tax_areas/${String(first?.id)}?access_token=${c.token}&expand=platform_data`);
    expect((json(expanded).tax_area as Json).platform_data as Json).toMatchObject({
      Id: first?.platform_id,
      Description: first?.description,
      Country: first?.country,
      Status: 'Active',
    });
    const byPlatformId = await get(`/accounting/tax_areas/${String(first?.platform_id)}?access_token=${c.token}&id_type=platform`);
    expect(byPlatformId.statusCode).toBe(200);
    expect((json(byPlatformId).tax_area as Json).id).toBe(first?.id);
  });

  it('filters on country and the sync times', async () => {
    const all = await areas();
    const country = String(all[0]?.country);
    expect(await areas(`&filter=${encodeURIComponent(`country = "${country}"`)}`)).toHaveLength(all.length);
    expect(await areas(`&filter=${encodeURIComponent('country = "ZZ"')}`)).toEqual([]);
    expect(await areas(`&filter=${encodeURIComponent('created_at >= 9000-01-01')}`)).toEqual([]);
  });

  it('counts them in the connection status', async () => {
    const all = await areas();
    const response = await get(`/connections/status?access_token=${c.token}`);
    const total = ((json(response).status as Json).historical_sync_status as Json).total as Record<string, Json>;
    expect(total.TAX_AREA).toMatchObject({ ready: true, synced_count: all.length });
  });

  it("refuses missing auth, another organisation's credentials and ids, and malformed input", async () => {
    expect((await get(`/accounting/tax_areas?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/tax_areas')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/tax_areas?access_token=${c.token}`, clientHeaders(otherOrg));
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const theirs = await syncedSandboxConnection(t, 'user_tax_areas_other_size_300', otherOrg);
    const [ours] = await areas();
    const crossed = await get(`/accounting/tax_areas/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect([crossed.statusCode, errorBody(crossed).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    expect((await get(`/accounting/tax_areas/not-an-area?access_token=${c.token}`)).statusCode).toBe(410);
    for (const filter of ['region = "CA"', 'country > 3', 'created_at >= 2025-02-30']) {
      const response = await get(`/accounting/tax_areas?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect([response.statusCode, errorBody(response).error_code], filter).toEqual([400, 'INVALID_FILTER']);
    }
    expect((await get(`/accounting/tax_areas?access_token=${c.token}&sort=platform_id`)).statusCode).toBe(400);
    expect((await get(`/accounting/tax_areas?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/tax_areas?access_token=${c.token}&cursor=nonsense`)).statusCode).toBe(400);
  });
});

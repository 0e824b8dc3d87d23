/**
 * Customer refunds through the real server against SANDBOX: the reference's path, envelope and fields, links that
 * resolve (the customer, the bank account paid from, the lines' income accounts and items), platform_data on request,
 * fetch by service and platform id, filters, the status endpoint's count, and refusals (missing auth, another
 * organisation's credentials and ids, malformed filters and parameters).
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
  c = await syncedSandboxConnection(t, 'user_refunds_size_1500');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });
const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function refunds(query = ''): Promise<Json[]> {
  const response = await get(`/accounting/customer_refunds?access_token=${c.token}&limit=100${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).customer_refunds as Json[];
}

async function fetched(path: string): Promise<Json> {
  const response = await get(`${path}?access_token=${c.token}`);
  expect(response.statusCode, path).toBe(200);
  return json(response);
}

describe('GET /accounting/customer_refunds', () => {
  it("lists refunds in the reference's envelope, each of the schema, its lines adding up to its total", async () => {
    const response = await get(`/accounting/customer_refunds?access_token=${c.token}&limit=2`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'customer_refunds', 'next_cursor']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(typeof body.next_cursor).toBe('string');
    const all = await refunds();
    expect(all.length).toBe(5);
    for (const refund of all) {
      expect(Value.Check(MODEL.customer_refund.schema, refund), JSON.stringify(refund)).toBe(true);
      expect(refund.platform_data).toBeUndefined();
      const lines = refund.line_items as Json[];
      expect(lines.length).toBe(1);
      expect(lines.reduce((sum, l) => sum + cents(l.total_amount), 0)).toBe(cents(refund.total_amount));
      expect(refund.total_amount as number).toBeGreaterThan(0);
      expect(typeof refund.customer_id).toBe('string');
      expect([refund.class_id, refund.department_id, refund.tax_rate_id]).toEqual([null, null, null]);
      expect(String(refund.document_number)).toMatch(/^RF-\d+$/);
      expect(refund.additional_fields).toEqual({ shipping_amount: expect.any(Number) as number });
    }
  });

  it("links the customer, the bank account paid from and the lines' income accounts and items, which resolve", async () => {
    const all = await refunds();
    for (const refund of all) expect((await fetched(`/accounting/customers/${String(refund.customer_id)}`)).customer).toMatchObject({ id: refund.customer_id });
    for (const accountId of new Set(all.map((r) => String(r.account_id)))) {
      expect((await fetched(`/accounting/accounts/${accountId}`)).account).toMatchObject({ account_type: 'bank', category: 'asset' });
    }
    for (const line of all.flatMap((r) => r.line_items as Json[])) {
      expect(((await fetched(`/accounting/accounts/${String(line.account_id)}`)).account as Json).category).toBe('income');
      if (line.item !== null) expect((await fetched(`/accounting/items/${String((line.item as Json).id)}`)).item).toBeDefined();
    }
  });

  it('fetches one by id and by platform id, with the platform record under expand=platform_data', async () => {
    const [first] = await refunds();
    const plain = await get(`/accounting/customer_refunds/${String(first?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'customer_refund']);
    expect(json(plain).customer_refund).toEqual(first);
    const expanded = await get(`/accounting/customer_refunds/${String(first?.id)}?access_token=${c.token}&expand=platform_data`);
    const data = (json(expanded).customer_refund as Json).platform_data as Json;
    expect(data).toMatchObject({ Id: first?.platform_id, DocNumber: first?.document_number, Total: Number(first?.total_amount).toFixed(2) });
    expect(typeof data.RefundFromAccountId).toBe('string');
    const byPlatformId = await get(`/accounting/customer_refunds/${String(first?.platform_id)}?access_token=${c.token}&id_type=platform`);
    expect(byPlatformId.statusCode).toBe(200);
    expect((json(byPlatformId).customer_refund as Json).id).toBe(first?.id);
  });

  it('filters on the customer, the number and the dates, and sorts by number', async () => {
    const all = await refunds();
    const one = all[2];
    const theirs = await refunds(`&filter=${encodeURIComponent(`customer_id = "${String(one?.customer_id)}"`)}`);
    expect(theirs.map((r) => r.id).sort()).toEqual(all.filter((r) => r.customer_id === one?.customer_id).map((r) => r.id).sort());
    expect((await refunds(`&filter=${encodeURIComponent(`document_number = "${String(one?.document_number)}"`)}`)).map((r) => r.id)).toEqual([one?.id]);
    const day = String(one?.transaction_date).slice(0, 10);
    const since = await refunds(`&filter=${encodeURIComponent(`transaction_date >= ${day}`)}`);
    expect(since.map((r) => r.id).sort()).toEqual(all.filter((r) => String(r.transaction_date) >= String(one?.transaction_date)).map((r) => r.id).sort());
    const numbers = (await refunds('&sort=document_number%20ASC')).map((r) => String(r.document_number));
    expect(numbers).toEqual([...numbers].sort());
  });

  it('counts them in the connection status', async () => {
    const response = await get(`/connections/status?access_token=${c.token}`);
    const total = ((json(response).status as Json).historical_sync_status as Json).total as Record<string, Json>;
    expect(total.CUSTOMER_REFUND).toMatchObject({ ready: true, synced_count: 5 });
  });

  it("refuses missing auth, another organisation's credentials and ids, and malformed input", async () => {
    expect((await get(`/accounting/customer_refunds?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/customer_refunds')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/customer_refunds?access_token=${c.token}`, clientHeaders(otherOrg));
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const theirs = await syncedSandboxConnection(t, 'user_refunds_other_size_300', otherOrg);
    const [ours] = await refunds();
    const crossed = await get(`/accounting/customer_refunds/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect([crossed.statusCode, errorBody(crossed).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    const unknown = await get(`/accounting/customer_refunds/not-a-refund?access_token=${c.token}`);
    expect([unknown.statusCode, errorBody(unknown).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    for (const filter of ['memo = "x"', 'total_amount > 10', 'customer_id > 3', 'transaction_date >= 2025-02-30']) {
      const response = await get(`/accounting/customer_refunds?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect([response.statusCode, errorBody(response).error_code], filter).toEqual([400, 'INVALID_FILTER']);
    }
    expect((await get(`/accounting/customer_refunds?access_token=${c.token}&sort=total_amount`)).statusCode).toBe(400);
    expect((await get(`/accounting/customer_refunds?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/customer_refunds?access_token=${c.token}&expand=everything`)).statusCode).toBe(400);
  });
});

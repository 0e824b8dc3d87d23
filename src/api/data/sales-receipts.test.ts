/**
 * Sales receipts through the real server against SANDBOX: the reference's path and envelope, lines of the standard
 * shape, links that resolve (the customer, the bank account deposited to, the lines' income accounts and items),
 * platform_data on request, the F fields, the status endpoint's count, refusals, and SALES_RECEIPT_CREATED webhooks
 * as the sandbox's days bring cash sales.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, incrementalSync, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

const USER = 'user_receipts_size_1500';
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });
const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function receipts(query = ''): Promise<Json[]> {
  const response = await get(`/accounting/sales_receipts?access_token=${c.token}&limit=500${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).sales_receipts as Json[];
}

describe('GET /accounting/sales_receipts', () => {
  it('lists cash sales in the reference\'s envelope, each of the schema, paid in full and adding up', async () => {
    const response = await get(`/accounting/sales_receipts?access_token=${c.token}&limit=5`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'next_cursor', 'sales_receipts']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    expect(typeof body.next_cursor).toBe('string');
    const all = await receipts();
    expect(all.length).toBe(15);
    for (const receipt of all) {
      expect(Value.Check(MODEL.sales_receipt.schema, receipt), JSON.stringify(receipt)).toBe(true);
      expect(receipt.platform_data).toBeUndefined();
      expect(receipt.amount_due).toBe(0);
      const lines = receipt.line_items as Json[];
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.reduce((sum, l) => sum + cents(l.total_amount), 0)).toBe(cents(receipt.total_amount));
      expect(lines.reduce((sum, l) => sum + cents(l.tax_amount), 0)).toBe(cents((receipt.additional_fields as Json).tax_amount));
    }
    // Sales to a named customer and walk-in sales alike.
    expect(all.some((r) => r.customer_id === null)).toBe(true);
    expect(all.some((r) => typeof r.customer_id === 'string')).toBe(true);
  });

  it('links the customer, the bank account deposited to and the lines\' income accounts and items, which resolve', async () => {
    const all = await receipts();
    const fetchJson = async (path: string): Promise<Json> => {
      const response = await get(`${path}?access_token=${c.token}`);
      expect(response.statusCode, path).toBe(200);
      return json(response);
    };
    const named = all.find((r) => typeof r.customer_id === 'string');
    expect((await fetchJson(`/accounting/customers/${String(named?.customer_id)}`)).customer).toMatchObject({ id: named?.customer_id });
    for (const accountId of new Set(all.map((r) => String(r.account_id)))) {
      expect((await fetchJson(`/accounting/accounts/${accountId}`)).account).toMatchObject({ account_type: 'bank', category: 'asset' });
    }
    const lineAccounts = new Set(all.flatMap((r) => (r.line_items as Json[]).map((l) => String(l.account_id))));
    for (const accountId of lineAccounts) expect(((await fetchJson(`/accounting/accounts/${accountId}`)).account as Json).category).toBe('income');
    const withItem = all.flatMap((r) => r.line_items as Json[]).find((l) => l.item !== null);
    expect(withItem).toBeDefined();
    expect((await fetchJson(`/accounting/items/${String((withItem?.item as Json).id)}`)).item).toBeDefined();
  });

  it('fetches one by id, with the platform\'s record under expand=platform_data', async () => {
    const [first] = await receipts();
    const plain = await get(`/accounting/sales_receipts/${String(first?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'sales_receipt']);
    expect(json(plain).sales_receipt).toEqual(first);
    const expanded = await get(`/accounting/sales_receipts/${String(first?.id)}?access_token=${c.token}&expand=platform_data`);
    expect(expanded.statusCode).toBe(200);
    const data = (json(expanded).sales_receipt as Json).platform_data as Json;
    expect(data).toMatchObject({ Id: first?.platform_id, DocNumber: first?.document_number, Total: (Number(first?.total_amount)).toFixed(2) });
    expect(typeof data.DepositToAccountId).toBe('string');
    const listed = await receipts('&expand=platform_data');
    expect(listed.every((r) => typeof (r.platform_data as Json | undefined)?.DepositToAccountId === 'string')).toBe(true);
    const byPlatformId = await get(`/accounting/sales_receipts/${String(first?.platform_id)}?access_token=${c.token}&id_type=platform`);
    expect(byPlatformId.statusCode).toBe(200);
    expect((json(byPlatformId).sales_receipt as Json).id).toBe(first?.id);
  });

  it('filters and sorts on the reference\'s F fields', async () => {
    const all = await receipts();
    const named = all.find((r) => typeof r.customer_id === 'string');
    const theirs = await receipts(`&filter=${encodeURIComponent(`customer_id = "${String(named?.customer_id)}"`)}`);
    expect(theirs.map((r) => r.id).sort()).toEqual(all.filter((r) => r.customer_id === named?.customer_id).map((r) => r.id).sort());
    const one = all[3];
    expect((await receipts(`&filter=${encodeURIComponent(`document_number = "${String(one?.document_number)}"`)}`)).map((r) => r.id)).toEqual([one?.id]);
    const referenced = all.find((r) => typeof r.reference === 'string');
    const byReference = await receipts(`&filter=${encodeURIComponent(`reference = "${String(referenced?.reference)}"`)}`);
    expect(byReference.map((r) => r.id)).toContain(referenced?.id);
    const numbers = (await receipts('&sort=document_number%20ASC')).map((r) => String(r.document_number));
    expect(numbers).toEqual([...numbers].sort());
    const recent = await receipts(`&filter=${encodeURIComponent('created_at >= 2025-01-01')}`);
    expect(recent.map((r) => r.id).sort()).toEqual(all.filter((r) => String(r.created_at) >= '2025-01-01').map((r) => r.id).sort());
  });

  it('counts them in the connection status', async () => {
    const response = await get(`/connections/status?access_token=${c.token}`);
    expect(response.statusCode).toBe(200);
    const status = json(response).status as Json;
    const total = (status.historical_sync_status as Json).total as Record<string, Json>;
    expect(total.SALES_RECEIPT).toMatchObject({ ready: true, synced_count: 15 });
  });

  it('refuses missing auth, another organisation\'s credentials, other connections\' ids and malformed input', async () => {
    expect((await get(`/accounting/sales_receipts?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/sales_receipts')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/sales_receipts?access_token=${c.token}`, clientHeaders(otherOrg));
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    // Their own connection to other books: our receipt ids are not theirs.
    const theirs = await syncedSandboxConnection(t, 'user_receipts_other_size_300', otherOrg);
    const [ours] = await receipts();
    const crossed = await get(`/accounting/sales_receipts/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect(crossed.statusCode).toBe(410);
    expect(errorBody(crossed).error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await get(`/accounting/sales_receipts/not-a-receipt?access_token=${c.token}`)).statusCode).toBe(410);
    for (const filter of ['memo = "x"', 'total_amount > 10', 'customer_id > 3', 'created_at >= 2025-02-30']) {
      const response = await get(`/accounting/sales_receipts?access_token=${c.token}&filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode, filter).toBe(400);
      expect(errorBody(response).error_code, filter).toBe('INVALID_FILTER');
    }
    expect((await get(`/accounting/sales_receipts?access_token=${c.token}&sort=total_amount`)).statusCode).toBe(400);
    expect((await get(`/accounting/sales_receipts?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/sales_receipts?access_token=${c.token}&expand=everything`)).statusCode).toBe(400);
  });

  it('announces the cash sales of later days as SALES_RECEIPT_CREATED, in the books\' currency', async () => {
    const before = new Set((await receipts()).map((r) => r.id));
    await t.sandbox.platform.advance(USER, 20);
    await incrementalSync(t, c.connection.id);
    const created = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'SALES_RECEIPT_CREATED');
    expect(created.length).toBeGreaterThan(0);
    const currency = (await receipts())[0]?.currency_code;
    for (const event of created) {
      expect(event.payload).toMatchObject({ type: 'SALES_RECEIPT', connection_id: c.connection.id, access_token: c.token });
      const receipt = event.payload.sales_receipt as Json;
      expect(Value.Check(MODEL.sales_receipt.schema, receipt)).toBe(true);
      expect(before.has(receipt.id)).toBe(false);
      expect(receipt.currency_code).toBe(currency);
    }
    expect((await receipts()).length).toBe(15 + created.length);
  });
});

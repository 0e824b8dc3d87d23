/**
 * Payouts and the store through the real server against SANDBOX: the reference's paths (`/payouts`, `/store`) and
 * envelopes, payouts that pay their transactions less fees and name orders that resolve, the reference's arrival and
 * creation bounds, filters, the status counts, refusals, and PAYOUT_UPDATED when a payout in transit arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, incrementalSync, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

const USER = 'user_payouts_size_1500';
// Books as of the day after the June payout was made: it is in transit until 2025-06-03.
const AS_OF = '2025-06-02';
let now = Date.parse('2025-06-02T12:00:00Z');
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } }, sandbox: { asOf: AS_OF, now: () => now } });
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });
const cents = (value: unknown): number => Math.round(Number(value) * 100);

async function payouts(query = ''): Promise<Json[]> {
  const response = await get(`/payouts?access_token=${c.token}&limit=500${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response).payouts as Json[];
}

describe('GET /payouts', () => {
  it('lists payouts in the reference\'s envelope, each of the schema, paying its transactions less their fees', async () => {
    const response = await get(`/payouts?access_token=${c.token}&limit=5`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'next_cursor', 'payouts']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    const all = await payouts();
    expect(all.length).toBeGreaterThan(12);
    for (const payout of all) {
      expect(Value.Check(MODEL.payout.schema, payout), JSON.stringify(payout).slice(0, 500)).toBe(true);
      const transactions = payout.transactions as Json[];
      expect(transactions.length).toBeGreaterThan(0);
      expect(transactions.reduce((sum, x) => sum + cents(x.amount) - cents(x.fee), 0)).toBe(cents(payout.amount));
      expect(payout).toMatchObject({ schedule: 'automatic', type: 'bank_account', gateway: 'sandbox_payments' });
    }
    expect(all.filter((p) => p.status === 'in_transit').map((p) => p.arrival_at)).toEqual(['2025-06-03T00:00:00.000Z']);
    expect(all.filter((p) => p.status !== 'in_transit').every((p) => p.status === 'paid')).toBe(true);
  });

  it('names the orders it paid out, which resolve to charged orders of the same total', async () => {
    const all = await payouts();
    const sales = all.flatMap((p) => (p.transactions as Json[]).filter((x) => x.type === 'sale'));
    expect(new Set(sales.map((x) => x.order_id)).size).toBe(sales.length);
    for (const sale of sales.slice(0, 10)) {
      const order = await get(`/commerce/orders/${String(sale.order_id)}?access_token=${c.token}`);
      expect(order.statusCode).toBe(200);
      const found = json(order).order as Json;
      expect(found.payment_status).not.toBe('pending');
      expect(cents(found.total_price)).toBe(cents(sale.amount));
    }
  });

  it('fetches one by id, with the platform\'s record under expand=platform_data', async () => {
    const [first] = await payouts();
    const plain = await get(`/payouts/${String(first?.id)}?access_token=${c.token}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(json(plain)).sort()).toEqual(['connection', 'payout']);
    expect(json(plain).payout).toEqual(first);
    const expanded = await get(`/payouts/${String(first?.id)}?access_token=${c.token}&expand=platform_data`);
    expect((json(expanded).payout as Json).platform_data).toMatchObject({ Id: first?.platform_id, Amount: Number(first?.amount).toFixed(2) });
  });

  it('takes the reference\'s arrival_at and created_at bounds (Unix milliseconds, inclusive), and filters on status', async () => {
    const all = await payouts();
    const from = Date.parse('2024-06-01T00:00:00Z');
    const to = Date.parse('2024-12-31T23:59:59Z');
    const arrived = await payouts(`&arrival_at_min=${from}&arrival_at_max=${to}`);
    const expected = all.filter((p) => Date.parse(String(p.arrival_at)) >= from && Date.parse(String(p.arrival_at)) <= to);
    expect(expected.length).toBeGreaterThan(0);
    expect(arrived.map((p) => p.id).sort()).toEqual(expected.map((p) => p.id).sort());
    const created = await payouts(`&created_at_min=${from}`);
    expect(created.map((p) => p.id).sort()).toEqual(all.filter((p) => Date.parse(String(p.created_at)) >= from).map((p) => p.id).sort());
    const moving = await payouts(`&filter=${encodeURIComponent('status = "in_transit"')}`);
    expect(moving.length).toBe(1);
    const dates = (await payouts('&sort=arrival_at%20ASC')).map((p) => String(p.arrival_at));
    expect(dates).toEqual([...dates].sort());
  });

  it('counts them in the connection status', async () => {
    const status = json(await get(`/connections/status?access_token=${c.token}`)).status as Json;
    const total = (status.historical_sync_status as Json).total as Record<string, Json>;
    expect(total.PAYOUT).toMatchObject({ ready: true, synced_count: (await payouts()).length });
    expect(total.STORE).toMatchObject({ ready: true, synced_count: 1 });
  });

  it('refuses missing auth, another organisation\'s credentials, other connections\' ids and malformed input', async () => {
    expect((await get(`/payouts?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/payouts')).error_code).toBe('MISSING_ACCESS_TOKEN');
    expect(errorBody(await get('/store')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    for (const path of ['/payouts', '/store']) {
      const foreign = await get(`${path}?access_token=${c.token}`, clientHeaders(otherOrg));
      expect([foreign.statusCode, errorBody(foreign).error_code], path).toEqual([401, 'INVALID_CREDENTIALS']);
    }
    const theirs = await syncedSandboxConnection(t, 'user_payouts_other_size_300', otherOrg);
    const [ours] = await payouts();
    const crossed = await get(`/payouts/${String(ours?.id)}?access_token=${theirs.token}`, clientHeaders(otherOrg));
    expect([crossed.statusCode, errorBody(crossed).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
    const theirStore = json(await get(`/store?access_token=${theirs.token}`, clientHeaders(otherOrg))).store as Json;
    const ourStore = json(await get(`/store?access_token=${c.token}`)).store as Json;
    expect(theirStore.id).not.toBe(ourStore.id);
    for (const query of ['arrival_at_min=yesterday', 'created_at_max=-1', 'limit=0', 'expand=everything', 'sort=amount']) {
      const response = await get(`/payouts?access_token=${c.token}&${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    const badFilter = await get(`/payouts?access_token=${c.token}&filter=${encodeURIComponent('status = "sent"')}`);
    expect([badFilter.statusCode, errorBody(badFilter).error_code]).toEqual([400, 'INVALID_FILTER']);
    expect((await get(`/store?access_token=${c.token}&expand=everything`)).statusCode).toBe(400);
  });

  it('announces a payout that arrives as PAYOUT_UPDATED, paid, with the journal entry that posts it', async () => {
    const [moving] = await payouts(`&filter=${encodeURIComponent('status = "in_transit"')}`);
    now = Date.parse('2025-06-03T12:00:00Z');
    await t.sandbox.platform.advance(USER, 1);
    await incrementalSync(t, c.connection.id);
    const events = await eventsOf(t, c.connection.id);
    const updated = events.filter((e) => e.code === 'PAYOUT_UPDATED');
    expect(updated.map((e) => (e.payload.payout as Json).id)).toEqual([moving?.id]);
    expect(updated[0]?.payload).toMatchObject({ type: 'PAYOUT', connection_id: c.connection.id, payout: { status: 'paid', amount: moving?.amount } });
    const journals = events.filter((e) => e.code === 'JOURNAL_ENTRY_CREATED').map((e) => e.payload.journal_entry as Json);
    const posting = journals.find((j) => j.memo === `Web shop payout ${String(moving?.platform_id)}`);
    expect(posting).toBeDefined();
    expect((posting?.line_items as Json[]).some((l) => cents(l.total_amount) === cents(moving?.amount))).toBe(true);
  });
});

describe('GET /store', () => {
  it('answers the connection\'s one store in the reference\'s envelope, the business\'s web shop', async () => {
    const response = await get(`/store?access_token=${c.token}`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'store']);
    const store = body.store as Json;
    expect(Value.Check(MODEL.store.schema, store)).toBe(true);
    const company = json(await get(`/accounting/company_info?access_token=${c.token}`)).company_info as Json;
    expect(store).toMatchObject({ store_name: company.name, default_currency: company.currency_code });
    expect(String(store.url)).toMatch(/^https:\/\/shop\./);
    const expanded = json(await get(`/store?access_token=${c.token}&expand=platform_data`)).store as Json;
    expect(expanded.platform_data).toMatchObject({ Id: store.platform_id, Currency: store.default_currency });
  });
});

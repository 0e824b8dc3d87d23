/**
 * Currencies and exchange rates through the real server against SANDBOX: the reference's currencies (list and fetch)
 * and our exchange rates (docs/reference.md, "Exchange rates") in the shared list conventions — envelope, keyset
 * paging, F fields, expand=platform_data, the status counts — refusals, and CURRENCY_* and EXCHANGE_RATE_* webhooks
 * as the sandbox revises its rates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { eventsOf, incrementalSync, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

type Json = Record<string, unknown>;

const USER = 'user_rates_size_1500';
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  c = await syncedSandboxConnection(t, USER);
}, 120_000);
afterAll(async () => { await t.close(); });

const get = (url: string, headers = clientHeaders(t.org)) => t.app.inject({ method: 'GET', url: `/versioned${url}`, headers });

async function list(path: string, key: string, query = ''): Promise<Json[]> {
  const response = await get(`${path}?access_token=${c.token}&limit=500${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return json(response)[key] as Json[];
}
const rates = (query = '') => list('/accounting/exchange_rates', 'exchange_rates', query);
const currencies = (query = '') => list('/accounting/currencies', 'currencies', query);
const filter = (expression: string) => `&filter=${encodeURIComponent(expression)}`;

async function home(): Promise<string> {
  const response = await get(`/accounting/company_info?access_token=${c.token}`);
  return String((json(response).company_info as Json).currency_code);
}

describe('GET /accounting/currencies', () => {
  it('lists the business\'s currencies in the reference\'s envelope, each of the schema, and fetches one by id', async () => {
    const response = await get(`/accounting/currencies?access_token=${c.token}&limit=2`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['connection', 'currencies', 'next_cursor']);
    expect(body.connection).toEqual({ id: c.connection.id, platform: 'SANDBOX', orgId: t.org.organization.id });
    const all = await currencies();
    expect(all.map((x) => x.currency_code).sort()).toEqual(['AUD', 'CAD', 'EUR', 'GBP', 'JPY', 'USD']);
    expect(all.map((x) => x.currency_code)).toContain(await home());
    for (const currency of all) expect(Value.Check(MODEL.currency.schema, currency), JSON.stringify(currency)).toBe(true);
    const euro = all.find((x) => x.currency_code === 'EUR');
    const one = await get(`/accounting/currencies/${String(euro?.id)}?access_token=${c.token}`);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toEqual({ currency: euro, connection: body.connection });
    const filtered = await currencies(filter('currency_code = "EUR"'));
    expect(filtered).toEqual([euro]);
  });
});

describe('GET /accounting/exchange_rates', () => {
  it('lists a rate of each foreign currency into the home currency per quarter, each of the schema, paged by cursor', async () => {
    const currency = await home();
    const first = await get(`/accounting/exchange_rates?access_token=${c.token}&limit=7`);
    expect(first.statusCode).toBe(200);
    const page = json(first);
    expect(Object.keys(page).sort()).toEqual(['connection', 'exchange_rates', 'next_cursor']);
    expect(page.exchange_rates as Json[]).toHaveLength(7);
    const all = await rates();
    for (const rate of all) expect(Value.Check(MODEL.exchange_rate.schema, rate), JSON.stringify(rate)).toBe(true);
    expect(new Set(all.map((r) => r.target_currency_code))).toEqual(new Set([currency]));
    const sources = new Set(all.map((r) => String(r.source_currency_code)));
    expect([...sources].sort()).toEqual(['AUD', 'CAD', 'EUR', 'GBP', 'JPY', 'USD'].filter((code) => code !== currency));
    const perCurrency = all.length / sources.size;
    expect(Number.isInteger(perCurrency) && perCurrency >= 8).toBe(true);
    expect(all.every((r) => typeof r.rate === 'number' && r.rate > 0 && r.created_at !== null)).toBe(true);
    // The default order (updated_at DESC), page after page by next_cursor: every rate once.
    const seen: unknown[] = [];
    let cursor: unknown = null;
    do {
      const response = await get(`/accounting/exchange_rates?access_token=${c.token}&limit=7${typeof cursor === 'string' ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.statusCode).toBe(200);
      seen.push(...(json(response).exchange_rates as Json[]).map((r) => r.id));
      cursor = json(response).next_cursor;
    } while (typeof cursor === 'string');
    expect(seen.sort()).toEqual(all.map((r) => r.id).sort());
  });

  it('filters and sorts on its F fields, expands platform_data, fetches by id, and counts in the connection status', async () => {
    const all = await rates();
    const euros = await rates(`${filter('source_currency_code = "EUR" AND as_of_date >= 2000-01-01')}&sort=as_of_date%20ASC`);
    const expected = all.filter((r) => r.source_currency_code === 'EUR').map((r) => String(r.as_of_date)).sort();
    expect(euros.map((r) => r.as_of_date)).toEqual(expected);
    const latest = euros.at(-1);
    const recent = await rates(filter(`as_of_date >= ${String(latest?.as_of_date).slice(0, 10)}`));
    expect(recent.length).toBe(all.filter((r) => String(r.as_of_date) >= String(latest?.as_of_date)).length);
    const expanded = await rates(`${filter('source_currency_code = "EUR"')}&expand=platform_data`);
    expect(expanded.every((r) => (r.platform_data as Json).SourceCurrencyCode === 'EUR' && typeof (r.platform_data as Json).Rate === 'string')).toBe(true);
    const one = await get(`/accounting/exchange_rates/${String(latest?.id)}?access_token=${c.token}`);
    expect(one.statusCode).toBe(200);
    expect(Object.keys(json(one)).sort()).toEqual(['connection', 'exchange_rate']);
    expect(json(one).exchange_rate).toEqual(latest);
    // The latest euro rate is what the currency list shows, inverted.
    const euro = (await currencies(`${filter('currency_code = "EUR"')}&expand=platform_data`))[0];
    expect(Number((euro?.platform_data as Json).ExchangeRate) * Number(latest?.rate)).toBeCloseTo(1, 5);
    const status = json(await get(`/connections/status?access_token=${c.token}`)).status as { historical_sync_status: { total: Record<string, Json> } };
    expect(status.historical_sync_status.total.EXCHANGE_RATE).toMatchObject({ synced_count: all.length, ready: true });
    expect(status.historical_sync_status.total.CURRENCY).toMatchObject({ synced_count: 6 });
  });

  it('refuses missing auth, another organisation\'s credentials, other connections\' ids and malformed input', async () => {
    expect((await get(`/accounting/exchange_rates?access_token=${c.token}`, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    expect(errorBody(await get('/accounting/exchange_rates')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg();
    const foreign = await get(`/accounting/exchange_rates?access_token=${c.token}`, clientHeaders(otherOrg));
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    // Their own connection to other books: our rate and currency ids are not theirs.
    const theirs = await syncedSandboxConnection(t, 'user_rates_other_size_300', otherOrg);
    const [ourRate] = await rates();
    const [ourCurrency] = await currencies();
    for (const path of [`/accounting/exchange_rates/${String(ourRate?.id)}`, `/accounting/currencies/${String(ourCurrency?.id)}`]) {
      const crossed = await get(`${path}?access_token=${theirs.token}`, clientHeaders(otherOrg));
      expect(crossed.statusCode, path).toBe(410);
      expect(errorBody(crossed).error_code, path).toBe('RESOURCE_NOT_FOUND');
    }
    for (const expression of ['rate > 1', 'source_currency_code = "XYZ"', 'as_of_date > 2024-02-30', 'target_currency_code ~ "US"']) {
      const response = await get(`/accounting/exchange_rates?access_token=${c.token}${filter(expression)}`);
      expect(response.statusCode, expression).toBe(400);
      expect(errorBody(response).error_code, expression).toBe('INVALID_FILTER');
    }
    const currencyFilter = await get(`/accounting/currencies?access_token=${c.token}${filter('currency_name = "Euro"')}`);
    expect([currencyFilter.statusCode, errorBody(currencyFilter).error_code]).toEqual([400, 'INVALID_FILTER']);
    expect((await get(`/accounting/exchange_rates?access_token=${c.token}&sort=rate`)).statusCode).toBe(400);
    expect((await get(`/accounting/exchange_rates?access_token=${c.token}&limit=0`)).statusCode).toBe(400);
    expect((await get(`/accounting/exchange_rates?access_token=${c.token}&expand=lines`)).statusCode).toBe(400);
  });

  it('belongs to the accounting product', async () => {
    const org = await t.newOrg('Commerce only');
    const set = await t.app.inject({
      method: 'PUT', url: `/admin/organizations/${org.organization.id}/products`, headers: { authorization: `Bearer ${t.adminToken}` }, payload: { products: ['commerce'] },
    });
    expect(set.statusCode, set.body).toBe(200);
    const refused = await get('/accounting/exchange_rates?access_token=bogus', clientHeaders(org));
    expect(refused.statusCode).toBe(404);
    expect(errorBody(refused)).toMatchObject({ error_code: 'PRODUCT_NOT_ALLOWED', error_metadata: { product: 'accounting' } });
  });

  it('announces the sandbox\'s revised rates as EXCHANGE_RATE_* and the currencies showing them as CURRENCY_UPDATED', async () => {
    const before = new Set((await rates()).map((r) => r.id));
    await t.sandbox.platform.advance(USER, 40);
    await incrementalSync(t, c.connection.id);
    const events = await eventsOf(t, c.connection.id);
    const rateEvents = events.filter((e) => e.code.startsWith('EXCHANGE_RATE_'));
    const currencyEvents = events.filter((e) => e.code.startsWith('CURRENCY_'));
    expect(rateEvents.length).toBeGreaterThan(0);
    expect(currencyEvents.length).toBeGreaterThan(0);
    expect(new Set(currencyEvents.map((e) => e.code))).toEqual(new Set(['CURRENCY_UPDATED']));
    // Entity events carry the stored platform_id beside the object's fields, on every type (src/sync/store-page.ts).
    const served = (object: unknown): Json => Object.fromEntries(Object.entries(object as Json).filter(([key]) => key !== 'platform_id'));
    for (const event of rateEvents) {
      expect(event.payload).toMatchObject({ type: 'EXCHANGE_RATE', connection_id: c.connection.id, access_token: c.token });
      const rate = served(event.payload.exchange_rate);
      expect(Value.Check(MODEL.exchange_rate.schema, rate), JSON.stringify(rate)).toBe(true);
      expect(before.has(rate.id)).toBe(event.code === 'EXCHANGE_RATE_UPDATED');
    }
    for (const event of currencyEvents) expect(Value.Check(MODEL.currency.schema, served(event.payload.currency))).toBe(true);
    // Each currency announced lists its latest rate.
    const now = await rates();
    for (const event of currencyEvents) {
      const code = (event.payload.currency as Json).currency_code;
      const latest = now.filter((r) => r.source_currency_code === code).reduce((a, b) => (String(b.as_of_date) > String(a.as_of_date) ? b : a));
      const listed = (await currencies(`${filter(`currency_code = "${String(code)}"`)}&expand=platform_data`))[0];
      expect(Number((listed?.platform_data as Json).ExchangeRate) * Number(latest.rate)).toBeCloseTo(1, 5);
    }
  });
});

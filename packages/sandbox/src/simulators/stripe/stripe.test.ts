/**
 * The STRIPE simulator, through the stripe library the Stripe connector calls it with: Connect OAuth through the kit,
 * every answer checked against Stripe's published OpenAPI description, the gateway's books reconciled through the
 * answers alone (payouts against their balance transactions, charges against their orders), and Stripe's paging.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { gatewayFeeCents } from '../../generator/payouts.ts';
import { parseCents } from '../../money.ts';
import { SandboxPlatform } from '../../platform.ts';
import { simulatorBooks } from '../books.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from '../host.ts';
import type { SimulatorBooks } from '../kit.ts';
import { SIMULATORS } from '../index.ts';
import { booksFetch } from '../testing.ts';
import { accountIdOf, sandboxIdOf, stripeId } from './ids.ts';
import { stripeSimulator } from './index.ts';
import { stripeOpenApi, type StripeOpenApi } from '../../../../../test/contracts/stripe-openapi-check.ts';

const USERNAME = 'user_good_size_1500';
const KEY = `stripe:${USERNAME}`;
const TODAY = new Date().toISOString().slice(0, 10);
const clock = Date.parse(`${TODAY}T12:00:00Z`);
const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: '/link/oauth/callback' };

type Json = Record<string, unknown>;
interface Exchange {
  path: string;
  query: string;
  status: number;
  body: unknown;
}

let db: TestDatabase;
let books: SimulatorBooks;
let host: SimulatorHost;
let openapi: StripeOpenApi;
let accessToken = '';
const exchanges: Exchange[] = [];

/** The kit's fetch, recording every API answer for the contract checks. */
async function recorded(url: string, init: RequestInit): Promise<Response> {
  const response = await host.fetch(url, init);
  const parsed = new URL(url);
  if (parsed.pathname.startsWith('/v1/')) {
    const text = await response.clone().text();
    exchanges.push({ path: parsed.pathname, query: parsed.search, status: response.status, body: JSON.parse(text) as unknown });
  }
  return response;
}

/** A stripe library client over the simulator, as the connector builds one (its own retries off). */
const client = (key: string): Stripe =>
  new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient((input, init) =>
      recorded(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, init ?? {}),
    ),
    maxNetworkRetries: 0,
    telemetry: false,
  });

/** A raw GET with the access token, for what the library does not send (paging backwards, unknown parameters). */
async function get(path: string, authorization = `Bearer ${accessToken}`): Promise<{ status: number; body: Json }> {
  const response = await recorded(`https://api.stripe.com${path}`, { headers: { authorization } });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Every object of a list, 100 a page with starting_after. */
async function walk(path: string, limit = 100): Promise<Json[]> {
  const all: Json[] = [];
  let after: string | null = null;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await get(`${path}${sep}limit=${limit}${after === null ? '' : `&starting_after=${after}`}`);
    expect(page.status, path).toBe(200);
    const data = page.body.data as Json[];
    all.push(...data);
    const last = data.at(-1);
    if (page.body.has_more !== true || last === undefined) return all;
    after = String(last.id);
  }
}

async function consentCode(username: string, password = 'pass_good'): Promise<Response> {
  const fields = {
    response_type: 'code',
    client_id: SIMULATOR_CLIENT_ID,
    redirect_uri: app.redirectUri,
    scope: 'read_only',
    state: 'st-stripe',
    username,
    password,
    decision: 'allow',
  };
  return host.fetch('https://connect.stripe.com/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

const codeOf = (answer: Response): string => new URL(answer.headers.get('location') ?? '', 'http://service.test').searchParams.get('code') ?? '';

beforeAll(async () => {
  db = await createTestDatabase();
  const platform = new SandboxPlatform(db.pool, { asOf: TODAY, tickIntervalMs: 0, now: () => clock });
  host = simulatorHost(platform, stripeSimulator, app);
  books = await simulatorBooks(platform, KEY);
  openapi = await stripeOpenApi();
  // Connect OAuth as the connector does it: the library's oauth.token with the app's secret key.
  const token = await client(SIMULATOR_CLIENT_SECRET).oauth.token({ grant_type: 'authorization_code', code: codeOf(await consentCode(USERNAME)) });
  accessToken = token.access_token ?? '';
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('STRIPE simulator: Connect OAuth through the kit', () => {
  it('is registered for STRIPE', () => {
    expect(SIMULATORS.filter((s) => s.platform === 'STRIPE')).toEqual([stripeSimulator]);
  });

  it("answers consent → code → token in Connect's shape, and the token reads the account as the library sends it", async () => {
    const consent = await consentCode(USERNAME);
    expect(consent.status).toBe(302);
    const location = new URL(consent.headers.get('location') ?? '', 'http://service.test');
    expect(location.pathname).toBe('/link/oauth/callback');
    expect(location.searchParams.get('state')).toBe('st-stripe');
    expect(location.searchParams.get('scope')).toBe('read_only');
    const answer = await host.fetch('https://connect.stripe.com/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${SIMULATOR_CLIENT_SECRET}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: codeOf(consent) }).toString(),
    });
    expect(answer.status).toBe(200);
    const token = (await answer.json()) as Json;
    expect(Object.keys(token).sort()).toEqual(
      ['access_token', 'livemode', 'refresh_token', 'scope', 'stripe_publishable_key', 'stripe_user_id', 'token_type'].sort(),
    );
    expect(token).toMatchObject({ token_type: 'bearer', stripe_user_id: accountIdOf(KEY), scope: 'read_only', livemode: false });
    expect(String(token.access_token)).toMatch(/^sim_access_/);
    expect(String(token.refresh_token)).toMatch(/^sim_refresh_/);
    expect(String(token.stripe_publishable_key)).toMatch(/^pk_test_[A-Za-z0-9]{16}$/);
    // The code is spent.
    const again = await host.fetch('https://connect.stripe.com/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: codeOf(consent), client_secret: SIMULATOR_CLIENT_SECRET }).toString(),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });

    const account = await client(String(token.access_token)).accounts.retrieveCurrent();
    expect(account.id).toBe(token.stripe_user_id);
    expect(account.business_profile?.name).toBe((await books.all('store'))[0]?.Name);
    // As HTTP Basic user, empty password (curl -u key:).
    const basic = await get('/v1/account', `Basic ${Buffer.from(`${String(token.access_token)}:`).toString('base64')}`);
    expect(basic.status).toBe(200);
    expect(basic.body.id).toBe(token.stripe_user_id);
  });

  it("refuses a wrong secret at the token endpoint and a wrong key at the API with Stripe's 401", async () => {
    const code = codeOf(await consentCode(USERNAME));
    await expect(client('sk_test_wrong').oauth.token({ grant_type: 'authorization_code', code })).rejects.toMatchObject({ statusCode: 401 });
    const wrong = await get('/v1/charges', 'Bearer sk_test_not_a_simulator_token');
    expect(wrong.status).toBe(401);
    await expect(client('sk_test_not_a_simulator_token').accounts.retrieveCurrent()).rejects.toMatchObject({ statusCode: 401 });
    expect(openapi.component('error', wrong.body)).toEqual([]);
    expect(wrong.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'api_key_invalid' } });
    await expect(client('sk_test_not_a_simulator_token').charges.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const none = await get('/v1/charges', '');
    expect(none.status).toBe(401);
    // The code was not burnt by the refused exchange.
    const token = await client(SIMULATOR_CLIENT_SECRET).oauth.token({ grant_type: 'authorization_code', code });
    expect(token.stripe_user_id).toBe(accountIdOf(KEY));
  });

  it('refuses another account named by Stripe-Account', async () => {
    const other = await recorded('https://api.stripe.com/v1/charges', {
      headers: { authorization: `Bearer ${accessToken}`, 'stripe-account': accountIdOf('stripe:someone_else') },
    });
    expect(other.status).toBe(403);
  });
});

const LISTS = {
  '/v1/charges': 'charge',
  '/v1/refunds': 'refund',
  '/v1/customers': 'customer',
  '/v1/balance_transactions': 'balance_transaction',
  '/v1/payouts': 'payout',
  '/v1/disputes': 'dispute',
  '/v1/subscriptions': 'subscription',
  '/v1/events': 'event',
} as const;

describe("STRIPE simulator: Stripe's published contract", () => {
  it('answers every list, every object and the account within the OpenAPI description', async () => {
    const counts: Record<string, number> = {};
    for (const [path, component] of Object.entries(LISTS)) {
      const items = await walk(path);
      counts[path] = items.length;
      for (const item of items.slice(0, 400)) expect(item.object, path).toBe(component);
      // One by id per list (disputes and subscriptions have none).
      const first = items[0];
      if (first !== undefined) {
        const one = await get(`${path}/${String(first.id)}`);
        expect(one.body).toEqual(first);
      }
    }
    expect(counts['/v1/charges']).toBeGreaterThan(100);
    expect(counts['/v1/refunds']).toBeGreaterThan(0);
    expect(counts['/v1/payouts']).toBeGreaterThan(1);
    expect(counts['/v1/customers']).toBeGreaterThan(10);
    expect(counts['/v1/events']).toBeGreaterThan(0);
    expect(counts['/v1/disputes']).toBe(0);
    expect(counts['/v1/subscriptions']).toBe(0);
    await get('/v1/account');

    const problems: string[] = [];
    let checked = 0;
    for (const exchange of exchanges.filter((e) => e.status === 200)) {
      const listTemplate = exchange.path in LISTS ? exchange.path : null;
      const byId = /^(\/v1\/[a-z_]+)\/[^/]+$/.exec(exchange.path)?.[1];
      const template =
        exchange.path === '/v1/account' ? '/v1/account' : (listTemplate ?? (byId === undefined ? null : `${byId}/{${byIdParam(byId)}}`));
      if (template === null) {
        problems.push(`${exchange.path}: not a path of the description`);
        continue;
      }
      const found = openapi.answer(template, exchange.body);
      problems.push(...found.map((p) => `${exchange.path}${exchange.query} ${p}`));
      checked++;
      // Each event's object against its own component (the description types data.object only as an object).
      const items = listTemplate === null ? [exchange.body] : ((exchange.body as Json).data as unknown[]);
      for (const item of items as Json[]) {
        if (item.object !== 'event') continue;
        const inner = (item.data as Json).object as Json;
        problems.push(...openapi.component(String(inner.object), inner).map((p) => `${String(item.id)} data.object ${p}`));
      }
    }
    expect([...new Set(problems)].slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  });

  it('refuses what it does not serve in Stripe error shapes: unknown ids, parameters and paths', async () => {
    const missing = await get(`/v1/charges/${stripeId('charge', 'ORD-999999')}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id' } });
    const foreign = await get('/v1/payouts/po_1NotOurs');
    expect(foreign.status).toBe(404);
    const unknown = await get('/v1/charges?expand[]=data.customer');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: 'parameter_unknown', param: 'expand[]' } });
    const tooMany = await get('/v1/charges?limit=101');
    expect(tooMany.status).toBe(400);
    const nowhere = await get('/v1/invoices');
    expect(nowhere.status).toBe(404);
    const write = await recorded('https://api.stripe.com/v1/charges', {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=100&currency=usd',
    });
    expect(write.status).toBe(400);
    for (const answer of [missing, foreign, unknown, tooMany, nowhere]) expect(openapi.component('error', answer.body)).toEqual([]);
    await expect(client(accessToken).charges.retrieve('ch_nope')).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('the checker is able to fail: a broken charge, an invented field and a wrong enum are reported', async () => {
    const charge = (await get('/v1/charges?limit=1')).body.data as Json[];
    const good = charge[0] ?? {};
    expect(openapi.component('charge', good)).toEqual([]);
    expect(openapi.component('charge', { ...good, amount: '12.00' }).join()).toContain('amount');
    expect(openapi.component('charge', { ...good, invented: 1 }).join()).toContain('invented');
    expect(openapi.component('charge', { ...good, status: 'paid' }).join()).toContain('status');
    const { amount: _amount, ...noAmount } = good;
    expect(openapi.component('charge', noAmount).join()).toContain('amount: required');
    expect(openapi.answer('/v1/charges', { object: 'list', data: [good], has_more: false, url: '/v1/payouts' }).join()).toContain('url');
  });
});

const byIdParam = (list: string): string =>
  ({
    '/v1/charges': 'charge',
    '/v1/refunds': 'refund',
    '/v1/customers': 'customer',
    '/v1/balance_transactions': 'id',
    '/v1/payouts': 'payout',
    '/v1/disputes': 'dispute',
    '/v1/subscriptions': 'subscription_exposed_id',
    '/v1/events': 'id',
  })[list] ?? 'id';

describe("STRIPE simulator: the gateway's books through its answers", () => {
  it('pays out, per payout, the net of the balance transactions listed with ?payout=, its own one being -amount', async () => {
    const payouts = await walk('/v1/payouts');
    const native = await books.all('payout');
    expect(payouts.length).toBe(native.length);
    for (const payout of payouts) {
      const transactions = await walk(`/v1/balance_transactions?payout=${String(payout.id)}`);
      const own = transactions.filter((t) => t.type === 'payout');
      expect(own, String(payout.id)).toEqual([
        expect.objectContaining({
          id: payout.balance_transaction,
          source: payout.id,
          amount: -Number(payout.amount),
          net: -Number(payout.amount),
          fee: 0,
        }),
      ]);
      const paid = transactions.filter((t) => t.type !== 'payout');
      expect(paid.length).toBeGreaterThan(0);
      expect(
        paid.reduce((sum, t) => sum + Number(t.net), 0),
        String(payout.id),
      ).toBe(payout.amount);
      for (const t of paid) {
        expect(Number(t.net)).toBe(Number(t.amount) - Number(t.fee));
        expect(t.status).toBe('available');
        expect(Number(t.available_on)).toBeLessThanOrEqual(Number(payout.created));
      }
    }
    // One of them through the library, as the connector asks.
    const first = payouts[0];
    if (first === undefined) throw new Error('no payout');
    const listed = await client(accessToken).balanceTransactions.list({ payout: String(first.id), limit: 100 });
    expect(listed.data.length).toBeGreaterThan(0);
  });

  it("charges every charged order its total, with the gateway's fee on its balance transaction", async () => {
    const charges = await walk('/v1/charges');
    const orders = new Map((await books.all('order')).map((o) => [o.Id, o]));
    const charged = [...orders.values()].filter((o) => o.FinancialStatus !== 'Pending');
    expect(charges.length).toBe(charged.length);
    const transactions = new Map((await walk('/v1/balance_transactions')).map((t) => [t.id, t]));
    for (const charge of charges) {
      const orderId = (charge.metadata as Json).order_id;
      const order = orders.get(String(orderId));
      if (order === undefined) throw new Error(`charge ${String(charge.id)} names no order`);
      expect(sandboxIdOf('charge', String(charge.id))).toBe(order.Id);
      expect(charge.amount).toBe(parseCents(order.Total));
      expect(charge.currency).toBe(order.CurrencyCode.toLowerCase());
      expect(charge.customer).toBe(stripeId('customer', order.Buyer.Id));
      expect((charge.metadata as Json).order_number).toBe(order.OrderNumber);
      expect(charge.refunded).toBe(order.FinancialStatus === 'Refunded');
      expect(charge.amount_refunded).toBe(order.FinancialStatus === 'Refunded' ? charge.amount : 0);
      const bt = transactions.get(charge.balance_transaction);
      expect(bt).toMatchObject({ type: 'charge', source: charge.id, amount: charge.amount, fee: gatewayFeeCents(Number(charge.amount)) });
    }
    const refunds = await walk('/v1/refunds');
    expect(refunds.length).toBe(charged.filter((o) => o.FinancialStatus === 'Refunded').length);
    for (const refund of refunds)
      expect(transactions.get(refund.balance_transaction)).toMatchObject({ type: 'refund', amount: -Number(refund.amount), fee: 0 });
    const customers = await walk('/v1/customers');
    expect(customers.length).toBe((await books.all('commerce_customer')).length);
  });
});

describe("STRIPE simulator: Stripe's paging and filters", () => {
  it('walks every object exactly once with limit and starting_after, and back with ending_before', async () => {
    const all = await walk('/v1/balance_transactions');
    const small = await walk('/v1/balance_transactions', 7);
    expect(small.map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect(new Set(small.map((t) => t.id)).size).toBe(small.length);
    const created = all.map((t) => Number(t.created));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    // Backwards from the oldest, 9 at a time: the same objects, newest first within each page.
    const back: Json[] = [];
    let before = String(all.at(-1)?.id);
    back.unshift(...all.slice(-1));
    for (;;) {
      const page = await get(`/v1/balance_transactions?limit=9&ending_before=${before}`);
      const data = page.body.data as Json[];
      back.unshift(...data);
      const newest = data[0];
      if (page.body.has_more !== true || newest === undefined) break;
      before = String(newest.id);
    }
    expect(back.map((t) => t.id)).toEqual(all.map((t) => t.id));
    const defaults = await get('/v1/charges');
    expect((defaults.body.data as unknown[]).length).toBe(10);
    expect(defaults.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/charges' });
  });

  it('narrows by created[gte], created[lt] and created', async () => {
    const all = await walk('/v1/charges');
    const middle = Number(all[Math.floor(all.length / 2)]?.created);
    const since = await walk(`/v1/charges?created[gte]=${middle}`);
    expect(since.length).toBe(all.filter((c) => Number(c.created) >= middle).length);
    expect(since.length).toBeLessThan(all.length);
    const until = await walk(`/v1/charges?created[lt]=${middle}`);
    expect(since.length + until.length).toBe(all.length);
    const exactly = await walk(`/v1/charges?created=${middle}`);
    expect(exactly.every((c) => c.created === middle) && exactly.length > 0).toBe(true);
    // As the library encodes it.
    const viaLibrary = await client(accessToken).charges.list({ created: { gte: middle }, limit: 100 });
    expect(viaLibrary.data.every((c) => c.created >= middle)).toBe(true);
  });

  it('serves events of the last 30 days, by type and created, each object as it was then', async () => {
    const events = await walk('/v1/events');
    const oldest = Math.floor(clock / 1000) - 30 * 86_400;
    expect(events.every((e) => Number(e.created) >= oldest)).toBe(true);
    const types = new Set(events.map((e) => e.type));
    // Which kinds the window holds depends on the calendar (a monthly payout made on the 1st is 30 days and a few hours
    // old on the 31st), so what is expected is read from the books: a kind is listed exactly when the books have one.
    const inWindow = (iso: string): boolean => Date.parse(iso) >= oldest * 1000 && Date.parse(iso) <= clock;
    const gateway = await books.all('transaction');
    expect(types.has('charge.succeeded')).toBe(gateway.some((t) => t.Kind === 'Charge' && inWindow(t.CreatedAt)));
    expect(types.has('payout.created')).toBe((await books.all('payout')).some((p) => inWindow(p.CreatedAt)));
    expect(types.size).toBeGreaterThan(0);
    const known = ['charge.succeeded', 'charge.refunded', 'payout.created', 'payout.paid', 'customer.created'];
    expect([...types].filter((t) => !known.includes(String(t)))).toEqual([]);
    const library = await client(accessToken).events.list({ types: ['charge.succeeded', 'charge.refunded'], limit: 100 });
    expect(library.data.length > 0).toBe(types.has('charge.succeeded') || types.has('charge.refunded'));
    expect(library.data.every((e) => e.type === 'charge.succeeded' || e.type === 'charge.refunded')).toBe(true);
    for (const event of library.data.filter((e) => e.type === 'charge.succeeded'))
      expect((event.data.object as { refunded?: boolean }).refunded).toBe(false);
    const wildcard = await walk('/v1/events?type=payout.*');
    expect(wildcard.length).toBe(events.filter((e) => String(e.type).startsWith('payout.')).length);
    const middle = Number(events[Math.floor(events.length / 2)]?.created);
    const after = await walk(`/v1/events?created[gt]=${middle}`);
    expect(after.length).toBe(events.filter((e) => Number(e.created) > middle).length);
  });
});

describe("STRIPE simulator: SANDBOX's clock", () => {
  it('shows nothing stamped after its now: an earlier clock sees the gateway as it was then', async () => {
    const then = clock - 20 * 86_400_000;
    const earlier = booksFetch(stripeSimulator, { ...books, now: () => then });
    const all = async (path: string): Promise<Json[]> => {
      const out: Json[] = [];
      let after = '';
      for (;;) {
        const sep = path.includes('?') ? '&' : '?';
        const page = (await (await earlier(`https://api.stripe.com${path}${sep}limit=100${after}`, {})).json()) as Json;
        const data = page.data as Json[];
        out.push(...data);
        const last = data.at(-1);
        if (page.has_more !== true || last === undefined) return out;
        after = `&starting_after=${String(last.id)}`;
      }
    };
    const due = (iso: string): boolean => Date.parse(iso) <= then;
    const gateway = await books.all('transaction');
    const charges = await all('/v1/charges');
    expect(charges.length).toBe(gateway.filter((t) => t.Kind === 'Charge' && due(t.CreatedAt)).length);
    expect(charges.length).toBeLessThan((await walk('/v1/charges')).length);
    expect(charges.every((c) => Number(c.created) * 1000 <= then)).toBe(true);
    const refunded = new Set(gateway.filter((t) => t.Kind === 'Refund' && due(t.CreatedAt)).map((t) => stripeId('charge', t.OrderId ?? '')));
    for (const charge of charges) expect(charge.refunded).toBe(refunded.has(String(charge.id)));
    const payouts = await all('/v1/payouts');
    const native = (await books.all('payout')).filter((p) => due(p.CreatedAt));
    expect(payouts.length).toBe(native.length);
    for (const payout of payouts) {
      const record = native.find((p) => stripeId('payout', p.Id) === payout.id);
      expect(payout.status).toBe(record?.Status === 'Paid' && due(record.UpdatedAt) ? 'paid' : 'in_transit');
      const paid = (await all(`/v1/balance_transactions?payout=${String(payout.id)}`)).filter((t) => t.type !== 'payout');
      expect(paid.reduce((sum, t) => sum + Number(t.net), 0)).toBe(payout.amount);
    }
    const events = await all('/v1/events');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => Number(e.created) * 1000 <= then && Number(e.created) * 1000 >= then - 30 * 86_400_000)).toBe(true);
  });
});

/**
 * STRIPE end to end, through the real service on a real PostgreSQL with the sync workers and the webhook dispatcher
 * running, against the Stripe stand-in built from Stripe's published OpenAPI description (test/standins/stripe): a
 * connection made with an API key at POST /connections/create and one through Stripe Connect OAuth in the link flow;
 * the initial sync (with 429s and 5xx on the way, retried) and its payouts reconciled against their balance
 * transactions; an incremental sync through Stripe's events (a new charge, a refund, a deleted customer reported
 * COMMERCE_CUSTOMER_DELETED, a canceled subscription); subscriptions served at /commerce/subscriptions; a signed Connect webhook turned into our ORDER_CREATED and TRANSACTION_CREATED; a revoked
 * key and a deauthorized account moved to needs_reauth with CONNECTION_NEEDS_UPDATE. No request or answer breaks the
 * contract.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders as orgHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { setEnv } from '../../../test/support/env.ts';
import { LinkBrowser } from '../../../test/support/link-browser.ts';
import { linkProblems } from '../../../test/support/links.ts';
import { registerOAuthApp } from '../../../test/support/oauth-connection.ts';
import { eventsOf } from '../../../test/support/sandbox-connection.ts';
import { customerRefundAnswers, invoiceWriteAnswers, orderWriteAnswers, productWriteAnswers, sender } from '../../../test/support/writes.ts';
import { WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import type { StripeAccount } from '../../../test/standins/stripe/data.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../test/standins/stripe/server.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { requestSync } from '../../sync/requests.ts';
import { startSyncWorkers } from '../../sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../webhooks/dispatcher.ts';

const PLATFORM = 'STRIPE';
const WEBHOOK_SECRET = 'whsec_standin_0123456789abcdef';
const KEYED = 'acct_1KeyedStandIn01';
const CONNECTED = 'acct_1ConnectStandIn';

let t: TestApp;
let standin: StripeStandIn;
let restore: () => void;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
let keyed: StripeAccount;
let connected: StripeAccount;
let key: string;
const connections: { keyed?: string; connected?: string; keyedToken?: string } = {};

type Json = Record<string, unknown>;

beforeAll(async () => {
  standin = await startStripeStandIn();
  restore = setEnv({ STRIPE_API_URL: standin.url });
  keyed = standin.addAccount({ id: KEYED, name: 'Keyed Coffee Co', charges: 40, customers: 4, payouts: 3, subscriptions: 5 });
  connected = standin.addAccount({ id: CONNECTED, name: 'Connected Tea Ltd', currency: 'jpy', charges: 12, customers: 2, payouts: 2 });
  key = standin.issueKey(KEYED);
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true } });
  await registerOAuthApp(t, PLATFORM, {
    clientId: standin.platform.clientId,
    clientSecret: standin.platform.secretKey,
    redirectUri: `${t.services.config.publicUrl}/link/oauth/callback`,
    webhookKey: WEBHOOK_SECRET,
  });
  receiver = new WebhookReceiver();
  const url = await receiver.listen(t.org.credentials.sandbox.client_secret);
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    url,
  ]);
  await startSyncWorkers(t.boss, t.services, { concurrency: 1 });
  dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
}, 120_000);
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await t.close();
  await standin.close();
  restore();
});
afterEach(() => {
  expect(standin.violations).toEqual([]);
});

const clientHeaders = () => ({
  authorization: `Basic ${Buffer.from(`${t.org.credentials.sandbox.client_id}:${t.org.credentials.sandbox.client_secret}`).toString('base64')}`,
  'x-service-version': '2024-08-31',
});
const create = (body: Json) => t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(), payload: body });
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function until<T>(find: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function ready(connectionId: string): Promise<void> {
  await until(
    async () => {
      const row = await t.db.pool.query<{ ready: boolean }>('SELECT ready_at IS NOT NULL AS ready FROM connections WHERE id = $1', [connectionId]);
      return row.rows[0]?.ready === true ? true : undefined;
    },
    60_000,
    'initial sync',
  );
}

/** Asks for a sync and waits for the workers to finish it. */
async function synced(connectionId: string, kind: 'incremental' | 'initial' = 'incremental'): Promise<string> {
  const run = await requestSync(t.db.pool, t.services.jobs, connectionId, { kind, trigger: 'api', details: {} });
  return until(
    async () => {
      const row = await t.db.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE id = $1', [run.id]);
      const status = row.rows[0]?.status;
      return status === 'completed' || status === 'failed' ? status : undefined;
    },
    60_000,
    `sync run ${run.id}`,
  );
}

async function stored(connectionId: string, type: UnifiedObjectType): Promise<{ platform_id: string; data: Json }[]> {
  const result = await t.db.pool.query<{ platform_id: string; data: Json }>(
    'SELECT platform_id, data FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL ORDER BY platform_id',
    [connectionId, type],
  );
  return result.rows;
}

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id).sort();
const storedIds = async (connectionId: string, type: UnifiedObjectType) => (await stored(connectionId, type)).map((r) => r.platform_id).sort();

async function statusOf(connectionId: string): Promise<string | undefined> {
  return (await t.db.pool.query<{ status: string }>('SELECT status FROM connections WHERE id = $1', [connectionId])).rows[0]?.status;
}

function postWebhook(event: Json, secret = WEBHOOK_SECRET, timestamp?: number) {
  const signed = standin.signedWebhook(event, secret, timestamp);
  return t.app.inject({
    method: 'POST',
    url: `/platform-webhooks/${PLATFORM}/${t.org.organization.id}/sandbox`,
    payload: signed.body,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
  });
}

/** Every synced payout's transactions (amount less fee) add up to its amount. */
async function expectPayoutsReconcile(connectionId: string, account: StripeAccount | null): Promise<void> {
  const payouts = await stored(connectionId, 'payout');
  if (account !== null) expect(payouts.map((p) => p.platform_id).sort()).toEqual(ids(account.payouts));
  expect(payouts.length).toBeGreaterThan(0);
  for (const payout of payouts) {
    const transactions = payout.data.transactions as { amount: number; fee: number }[];
    expect(transactions.length).toBeGreaterThan(0);
    const sum = transactions.reduce((total, tx) => total + tx.amount - tx.fee, 0);
    expect(Math.round(sum * 1000) / 1000, payout.platform_id).toBe(payout.data.amount);
  }
}

describe('STRIPE end to end', () => {
  it('connects with an API key, syncs through 429s and 5xx, and every payout reconciles with its balance transactions', async () => {
    // A Stripe connection offers its own entities only.
    const refused = await create({ platform: PLATFORM, api_key: key, syncConfig: { entities: ['BILL'] } });
    expect([refused.statusCode, errorBody(refused).error_code]).toEqual([400, 'VALIDATION_ERROR']);
    const callsBefore = {
      total: standin.calls.total,
      account: standin.calls.byPath.get('/v1/account') ?? 0,
      events: standin.calls.byPath.get('/v1/events') ?? 0,
    };
    standin.fail({ status: 429, times: 2, path: /^\/v1\/charges$/, retryAfterSeconds: 1 });
    standin.fail({ status: 503, times: 2, path: /^\/v1\/balance_transactions$/ });
    const created = await create({
      platform: PLATFORM,
      api_key: key,
      syncConfig: { entities: ['ORDER', 'TRANSACTION', 'PAYOUT', 'DISPUTE', 'COMMERCE_CUSTOMER', 'CUSTOMER', 'STORE', 'SUBSCRIPTION'] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (json(created).connection as { id: string }).id;
    connections.keyed = id;
    connections.keyedToken = (json(created).connection as { access_token: string }).access_token;
    const row = await t.db.pool.query<{ store_unique_id: string; store_name: string }>(
      'SELECT store_unique_id, store_name FROM connections WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ store_unique_id: KEYED, store_name: 'Keyed Coffee Co' });
    await ready(id);

    expect(await storedIds(id, 'order')).toEqual(ids(keyed.charges));
    expect(await storedIds(id, 'transaction')).toEqual(ids(keyed.balanceTransactions));
    expect(await storedIds(id, 'dispute')).toEqual(ids(keyed.disputes));
    expect(await storedIds(id, 'commerce_customer')).toEqual(ids(keyed.customers));
    expect(await storedIds(id, 'customer')).toEqual(ids(keyed.customers));
    expect(await storedIds(id, 'store')).toEqual([KEYED]);
    // Canceled subscriptions too (read with status=all): the seed cancels the 4th.
    expect(await storedIds(id, 'subscription')).toEqual(ids(keyed.subscriptions));
    await expectPayoutsReconcile(id, keyed);
    const token = (json(created).connection as { access_token: string }).access_token;
    // Nor customer groups: Stripe keeps no named groups of customers (docs/reference.md).
    for (const path of ['/commerce/customer_groups', '/commerce/customer_groups/anything']) {
      const groups = await sender(t, token)('GET', path);
      expect([groups.statusCode, errorBody(groups).error_code], path).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    }
    // Nor accounting refunds: a gateway's refunds are commerce transactions.
    for (const [route, status, code] of await customerRefundAnswers(sender(t, token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // A payment gateway keeps no receivables: no invoice payments, credit memos or credit applications to write.
    for (const [route, status, code] of await invoiceWriteAnswers(sender(t, token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // Nor order writes (create, update, fulfil): SANDBOX takes them; this platform's connector does not write orders.
    for (const [route, status, code] of await orderWriteAnswers(sender(t, token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // Nor commerce product and variant writes (docs/reference.md, Product writes).
    for (const [route, status, code] of await productWriteAnswers(sender(t, token)))
      expect([status, code], route).toEqual([404, 'ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM']);
    // The faults were met and retried by our HTTP layer, not the library's.
    expect([standin.calls.throttled, standin.calls.failed]).toEqual([2, 2]);
    // The account is read once when the key is checked and once by the run (the store, and every payout's account);
    // the newest event once by the run, before its first full read (an initial sync lists no events otherwise).
    const account = (standin.calls.byPath.get('/v1/account') ?? 0) - callsBefore.account;
    const events = (standin.calls.byPath.get('/v1/events') ?? 0) - callsBefore.events;
    expect({ account, events }).toEqual({ account: 2, events: 1 });
    const [order] = await stored(id, 'order');
    expect(order?.data).toMatchObject({ iso_currency_code: 'USD', line_items: [{ quantity: 1 }] });
  }, 120_000);

  it("serves subscriptions at /commerce/subscriptions in the reference's shape: statuses, items and amounts in major units", async () => {
    const token = connections.keyedToken ?? '';
    const list = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/subscriptions?access_token=${token}&limit=10`,
      headers: clientHeaders(),
    });
    expect(list.statusCode, list.body).toBe(200);
    const subscriptions = json(list).subscriptions as Json[];
    expect(subscriptions.map((s) => s.platform_id).sort()).toEqual(ids(keyed.subscriptions));
    const first = keyed.subscriptions[0];
    const served = subscriptions.find((s) => s.platform_id === first?.id);
    // The first seeded: 15.00 a month, one unit, of the first customer, linked by service id.
    expect(served).toMatchObject({
      platform_customer_id: first?.customer,
      iso_currency_code: 'USD',
      status: 'active',
      items: [{ interval: 'month', interval_count: 1, quantity: 1, unit_amount: 15, amount: 15 }],
    });
    const customers = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/customers/${String(served?.customer_id)}?access_token=${token}`,
      headers: clientHeaders(),
    });
    expect((json(customers).customer as Json | undefined)?.platform_id).toBe(first?.customer);
    const third = subscriptions.find((s) => s.platform_id === keyed.subscriptions[2]?.id);
    expect(third).toMatchObject({ items: [{ interval: 'month', quantity: 3, unit_amount: 17, amount: 51 }] });
    const canceled = subscriptions.find((s) => s.platform_id === keyed.subscriptions[3]?.id);
    expect(canceled?.status).toBe('canceled');
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/subscriptions?access_token=${token}&filter=${encodeURIComponent('status = "canceled"')}`,
      headers: clientHeaders(),
    });
    expect((json(filtered).subscriptions as Json[]).map((s) => s.platform_id)).toEqual([keyed.subscriptions[3]?.id]);
    const one = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/subscriptions/${String(served?.id)}?access_token=${token}`,
      headers: clientHeaders(),
    });
    expect([one.statusCode, (json(one).subscription as Json | undefined)?.platform_id]).toEqual([200, first?.id]);
  }, 60_000);

  it("refuses subscriptions without credentials, with another tenant's credentials, and on malformed input", async () => {
    const token = connections.keyedToken ?? '';
    const url = `/versioned/commerce/subscriptions?access_token=${token}`;
    const bare = await t.app.inject({ method: 'GET', url, headers: { 'x-service-version': '2024-08-31' } });
    expect(bare.statusCode).toBe(401);
    const mine = (json(await t.app.inject({ method: 'GET', url, headers: clientHeaders() })).subscriptions as Json[])[0];
    const other = await t.newOrg('Subscriptions elsewhere');
    const theirs = await t.app.inject({ method: 'GET', url, headers: orgHeaders(other) });
    expect([theirs.statusCode, errorBody(theirs).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const theirsOne = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/subscriptions/${String(mine?.id)}?access_token=${token}`,
      headers: orgHeaders(other),
    });
    expect(theirsOne.statusCode).toBe(401);
    for (const query of ['&limit=0', '&sort=nope', `&filter=${encodeURIComponent('items = "x"')}`, '&expand=everything']) {
      const bad = await t.app.inject({ method: 'GET', url: `${url}${query}`, headers: clientHeaders() });
      expect(bad.statusCode, query).toBe(400);
    }
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/subscriptions/sub_nope?access_token=${token}`,
      headers: clientHeaders(),
    });
    expect([unknown.statusCode, errorBody(unknown).error_code]).toEqual([410, 'RESOURCE_NOT_FOUND']);
  }, 60_000);

  it('reads the balance live from GET /v1/balance: what is available per currency, in major units, never stored', async () => {
    const token = connections.keyedToken ?? '';
    const url = `/versioned/commerce/balance?access_token=${token}`;
    const before = standin.calls.byPath.get('/v1/balance') ?? 0;
    const answer = await t.app.inject({ method: 'GET', url, headers: clientHeaders() });
    expect(answer.statusCode, answer.body).toBe(200);
    const net = keyed.balanceTransactions.filter((bt) => bt.status === 'available').reduce((sum, bt) => sum + Number(bt.net), 0);
    expect(json(answer).balance).toEqual([
      {
        amount: net / 100,
        iso_currency_code: 'USD',
        platform_data: {
          currency: 'usd',
          available: [{ amount: net, currency: 'usd', source_types: { card: net } }],
          pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
        },
      },
    ]);
    expect(json(answer).connection).toMatchObject({ id: connections.keyed, platform: PLATFORM });
    // Live: a new charge shows at the next read, without a sync.
    keyed.addCharge(1_000, null, 'Balance charge');
    const again = json(await t.app.inject({ method: 'GET', url, headers: clientHeaders() })).balance as Json[];
    expect(again[0]?.amount).toBeGreaterThan(net / 100);
    expect(standin.calls.byPath.get('/v1/balance')).toBe(before + 2);
    const stored = await t.db.pool.query('SELECT 1 FROM records WHERE connection_id = $1 AND object_type = $2', [connections.keyed, 'balance']);
    expect(stored.rowCount).toBe(0);
    expect((await t.app.inject({ method: 'GET', url, headers: { 'x-service-version': '2024-08-31' } })).statusCode).toBe(401);
    const other = await t.newOrg('Balance elsewhere');
    const theirs = await t.app.inject({ method: 'GET', url, headers: orgHeaders(other) });
    expect([theirs.statusCode, errorBody(theirs).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const bad = await t.app.inject({ method: 'GET', url: `${url}&force_fetch=maybe`, headers: clientHeaders() });
    expect([bad.statusCode, errorBody(bad).error_metadata?.field]).toEqual([400, 'force_fetch']);
    expect(standin.calls.byPath.get('/v1/balance')).toBe(before + 2);
  }, 60_000);

  it('stores links as service ids that their endpoints serve (test/support/links.ts)', async () => {
    expect(await linkProblems(t, connections.keyed ?? '')).toEqual([]);
  }, 120_000);

  it('syncs changes incrementally through Stripe events: a new charge, a refund, and a deleted customer reported deleted', async () => {
    const id = connections.keyed ?? '';
    const before = { charges: standin.calls.byPath.get('/v1/charges') ?? 0, events: standin.calls.byPath.get('/v1/events') ?? 0 };
    const fresh = keyed.addCharge(4_200, keyed.customers[1]?.id ?? null, 'Incremental charge');
    const refundedCharge = keyed.charges[0]?.id ?? '';
    keyed.refund(refundedCharge, Number(keyed.charges[0]?.amount) - Number(keyed.charges[0]?.amount_refunded));
    const gone = keyed.customers[0]?.id ?? '';
    keyed.deleteCustomer(gone);
    const ended = keyed.cancelSubscription(keyed.subscriptions[0]?.id ?? '');
    expect(await synced(id)).toBe('completed');

    expect(await storedIds(id, 'order')).toContain(fresh.id);
    const refunded = (await stored(id, 'order')).find((o) => o.platform_id === refundedCharge);
    expect(refunded?.data.payment_status).toBe('refunded');
    // The fully refunded charge's one line, refunded and completed (issue 35); the line dated by the charge.
    expect(refunded?.data.refunds).toEqual([{ line_items: [{ line_item_id: `${refundedCharge}:amount`, quantity: 1, status: 'completed' }] }]);
    const [line] = refunded?.data.line_items as Json[];
    expect([line?.created_at, line?.updated_at]).toEqual([refunded?.data.created_at, refunded?.data.created_at]);
    expect(await storedIds(id, 'commerce_customer')).toEqual(ids(keyed.customers));
    expect(await storedIds(id, 'commerce_customer')).not.toContain(gone);
    expect(await storedIds(id, 'transaction')).toEqual(ids(keyed.balanceTransactions));
    // customer.subscription.deleted is a cancellation: the subscription stays, canceled.
    expect((await stored(id, 'subscription')).find((s) => s.platform_id === ended.id)?.data.status).toBe('canceled');
    // Read through events: the charge list itself was not read again.
    expect(standin.calls.byPath.get('/v1/charges') ?? 0).toBe(before.charges);
    expect(standin.calls.byPath.get('/v1/events') ?? 0).toBeGreaterThan(before.events);
    const events = await eventsOf(t, id);
    const deleted = events.find((e) => e.code === 'COMMERCE_CUSTOMER_DELETED');
    expect(deleted, JSON.stringify(events.map((e) => e.code))).toBeDefined();
    expect(JSON.stringify(deleted?.payload)).toContain(gone);
  }, 120_000);

  it('links an account through Stripe Connect and turns its signed webhook into our webhooks', async () => {
    const created = await create({ platform: PLATFORM });
    expect(created.statusCode).toBe(200);
    const connection = json(created).connection as { id: string; link_url: string };
    connections.connected = connection.id;
    standin.consentAs(CONNECTED);
    const browser = new LinkBrowser(t.app);
    const toConsent = await browser.get(`${pathOf(connection.link_url)}/${PLATFORM}`);
    expect(toConsent.statusCode, toConsent.body).toBe(302);
    const consentUrl = String(toConsent.headers.location);
    expect(consentUrl.startsWith(`${standin.url}/oauth/authorize?`)).toBe(true);
    expect(new URL(consentUrl).searchParams.get('client_id')).toBe(standin.platform.clientId);
    const consent = await fetch(consentUrl, { redirect: 'manual' });
    const callback = consent.headers.get('location') ?? '';
    const done = await browser.get(pathOf(callback));
    expect(done.statusCode, done.body).toBe(303);
    expect(standin.tokenCalls.authorization_code).toBe(1);
    const row = await t.db.pool.query<{ store_unique_id: string; store_name: string }>(
      'SELECT store_unique_id, store_name FROM connections WHERE id = $1',
      [connection.id],
    );
    expect(row.rows[0]).toEqual({ store_unique_id: CONNECTED, store_name: 'Connected Tea Ltd' });
    await ready(connection.id);
    expect(await storedIds(connection.id, 'order')).toEqual(ids(connected.charges));
    await expectPayoutsReconcile(connection.id, connected);
    // Zero-decimal: JPY amounts are stored as Stripe sends them.
    const charge = connected.charges[0];
    const order = (await stored(connection.id, 'order')).find((o) => o.platform_id === charge?.id);
    expect(order?.data).toMatchObject({ iso_currency_code: 'JPY', total_price: charge?.amount });

    // A forged signature and a stale one are refused; the real one syncs the change and is sent on as our webhooks.
    const sale = connected.addCharge(7_700, null, 'Webhook charge');
    const event = connected.lastEvent();
    expect(event).toMatchObject({ type: 'charge.succeeded', account: CONNECTED });
    expect((await postWebhook(event, 'whsec_wrong')).statusCode).toBe(401);
    expect((await postWebhook(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301)).statusCode).toBe(401);
    const hook = await postWebhook(event);
    expect([hook.statusCode, json(hook)]).toEqual([200, { changes: 2, sync_runs: 1, duplicate: false, revoked: 0 }]);
    const delivered = await until(
      () => receiver.bodies.find((b) => b.code === 'ORDER_CREATED' && (b.order as Json | undefined)?.platform_id === sale.id),
      30_000,
      'ORDER_CREATED',
    );
    expect(delivered).toMatchObject({ type: 'ORDER', connection_id: connection.id });
    const saleTransaction = connected.balanceTransactions.find((bt) => bt.source === sale.id);
    await until(
      () => receiver.bodies.find((b) => b.code === 'TRANSACTION_CREATED' && (b.transaction as Json | undefined)?.platform_id === saleTransaction?.id),
      30_000,
      'TRANSACTION_CREATED',
    );
    // Timing is the bench's (bench/stripe-100k.ts); here only that it came.
    expect(receiver.bodies.length).toBeGreaterThan(0);
  }, 120_000);

  it("links through the STRIPE simulator in the sandbox environment when the organisation has no Stripe app: SANDBOX's shop gateway", async () => {
    const org = await t.newOrg('Stripe simulated');
    const created = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: orgHeaders(org), payload: {} });
    expect(created.statusCode, created.body).toBe(200);
    const connection = json(created).connection as { id: string; link_url: string };
    const browser = new LinkBrowser(t.app);
    const start = await browser.get(`${pathOf(connection.link_url)}/${PLATFORM}`);
    expect(start.statusCode, start.body).toBe(302);
    const consent = String(start.headers.location);
    expect(consent.startsWith('/simulators/stripe/oauth/authorize?'), consent).toBe(true);
    const params = Object.fromEntries(new URL(consent, 'http://service.test').searchParams);
    const allowed = await browser.post('/simulators/stripe/oauth/authorize', {
      ...params,
      username: 'user_good',
      password: 'pass_good',
      decision: 'allow',
    });
    expect(allowed.statusCode, allowed.body).toBe(302);
    const done = await browser.get(String(allowed.headers.location));
    expect(done.statusCode, done.body).toBeLessThan(400);
    const row = await t.db.pool.query<{ simulated: boolean; store_unique_id: string }>(
      'SELECT simulated, store_unique_id FROM connections WHERE id = $1',
      [connection.id],
    );
    expect(row.rows[0]?.simulated).toBe(true);
    expect(row.rows[0]?.store_unique_id).toMatch(/^acct_[0-9A-Za-z]{16}$/);
    await ready(connection.id);
    expect((await stored(connection.id, 'order')).length).toBeGreaterThan(0);
    expect((await stored(connection.id, 'commerce_customer')).length).toBeGreaterThan(0);
    await expectPayoutsReconcile(connection.id, null);
    // The balance, read live from the simulator: what the gateway's movements left, available or pending.
    const balance = await t.app.inject({
      method: 'GET',
      url: `/versioned/commerce/balance?access_token=${(json(created).connection as { access_token: string }).access_token}`,
      headers: orgHeaders(org),
    });
    expect(balance.statusCode, balance.body).toBe(200);
    const entries = json(balance).balance as { amount: number; iso_currency_code: string; platform_data: { pending: { amount: number }[] } }[];
    expect(entries.length).toBeGreaterThan(0);
    const movements = (await stored(connection.id, 'transaction')).map((row) => row.data);
    for (const entry of entries) {
      const cents = movements
        .filter((m) => m.iso_currency_code === entry.iso_currency_code)
        .reduce((sum, m) => sum + Math.round(Number(m.amount) * 100) - Math.round(Number(m.fee) * 100), 0);
      const pending = entry.platform_data.pending.reduce((sum, p) => sum + p.amount, 0);
      expect(Math.round(entry.amount * 100) + pending, entry.iso_currency_code).toBe(cents);
    }
  }, 120_000);

  it('moves a connection whose key was revoked to needs_reauth with CONNECTION_NEEDS_UPDATE', async () => {
    const id = connections.keyed ?? '';
    standin.revokeKey(key);
    expect(await synced(id)).toBe('failed');
    expect(await statusOf(id)).toBe('needs_reauth');
    expect((await eventsOf(t, id)).filter((e) => e.code === 'CONNECTION_NEEDS_UPDATE')).toHaveLength(1);
  }, 60_000);

  it('moves a Connect account that deauthorized the application to needs_reauth at once (account.application.deauthorized)', async () => {
    const id = connections.connected ?? '';
    const event = standin.deauthorize(CONNECTED);
    const hook = await postWebhook(event);
    expect([hook.statusCode, json(hook)]).toEqual([200, { changes: 0, sync_runs: 0, duplicate: false, revoked: 1 }]);
    // The engine moves the account's connections at once (InboundWebhooks.revocations), without waiting for a sync.
    await until(async () => ((await statusOf(id)) === 'needs_reauth' ? true : undefined), 10_000, 'needs_reauth after deauthorization');
    expect((await eventsOf(t, id)).filter((e) => e.code === 'CONNECTION_NEEDS_UPDATE')).toHaveLength(1);
  }, 60_000);
});

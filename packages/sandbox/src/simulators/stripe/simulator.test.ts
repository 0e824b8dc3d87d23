/**
 * STRIPE's simulator through the kit, as the connector reaches it: Stripe Connect's consent and token exchange (the
 * app's secret key as a bearer token, the connected account as stripe_user_id), then the real STRIPE connector (its
 * library calls over our PlatformHttp) reading SANDBOX's web shop gateway. Every request and answer is checked against
 * Stripe's published OpenAPI description (the stand-in's validator), and SANDBOX's gateway reconciles in Stripe's
 * terms: every payout's balance transactions add up to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeContract, type StripeContract } from '../../../../../test/standins/stripe/contract.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import type { ConnectorContext, ReadPage } from '../../../../../src/platforms/connector.ts';
import { createPlatformHttp, type FetchLike } from '../../../../../src/platforms/http.ts';
import { stripeConnector } from '../../../../../src/platforms/stripe/index.ts';
import { mapPayout } from '../../../../../src/platforms/stripe/mapping.ts';
import { readList, type StripeList } from '../../../../../src/platforms/stripe/read.ts';
import { SandboxPlatform } from '../../platform.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from '../host.ts';
import { stripeSimulator } from './simulator.ts';

const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: '/link/oauth/callback' };

let db: TestDatabase;
let host: SimulatorHost;
let contract: StripeContract;
const violations: string[] = [];
/** Answers checked against the description. */
let checked = 0;
let accessToken = '';
let account = '';

/** The kit's fetch, with every /v1 request and answer checked against Stripe's description. */
const checkedFetch: FetchLike = async (url, init) => {
  const response = await host.fetch(url, init);
  const parsed = new URL(url);
  if (!parsed.pathname.startsWith('/v1/')) return response;
  const operation = contract.operation(init.method ?? 'GET', parsed.pathname);
  if (operation === null) {
    violations.push(`${parsed.pathname}: no such operation`);
    return response;
  }
  violations.push(...contract.checkQuery(operation, parsed.searchParams).map((p) => `${parsed.pathname} request: ${p}`));
  const text = await response.text();
  if (response.status === 200) checked += 1;
  if (response.status === 200) violations.push(...contract.checkAnswer(operation, JSON.parse(text)).map((p) => `${parsed.pathname} answer: ${p}`));
  return new Response(text, { status: response.status, headers: response.headers });
};

function context(): ConnectorContext {
  const tokens = { accessToken, refreshToken: null, expiresAt: null, tenantId: account };
  return {
    http: createPlatformHttp({ fetch: checkedFetch, maxAttempts: 1 }),
    signal: new AbortController().signal,
    environment: 'sandbox',
    connectionId: 'simulated',
    credentials: {},
    tokens,
    oauth: null,
    ref: (type, id) => (id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`),
    platformIdOf: () => Promise.resolve(null),
  };
}

async function readAll(list: StripeList, since: string | null = null) {
  const records: ReadPage['records'] = [];
  let pageToken: string | null = null;
  let nextSince: string | null = null;
  do {
    const page: ReadPage = await readList(context(), list, { since, window: null, pageToken });
    records.push(...page.records);
    pageToken = page.nextPageToken;
    nextSince = page.nextSince ?? nextSince;
  } while (pageToken !== null);
  return { records, nextSince };
}

beforeAll(async () => {
  db = await createTestDatabase();
  host = simulatorHost(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), stripeSimulator, app);
  contract = await stripeContract();
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('the STRIPE simulator', () => {
  it("grants a Connect account at consent and exchanges the code with the app's secret key as the connector does", async () => {
    const url = new URL(stripeConnector.auth.type === 'oauth2' ? stripeConnector.auth.authorizeUrl(app, 'st-1', null) : '');
    expect(url.pathname).toBe('/oauth/authorize');
    const form = new URLSearchParams(url.searchParams);
    form.set('username', 'user_good');
    form.set('password', 'pass_good');
    form.set('decision', 'allow');
    const consent = await host.fetch(url.href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(consent.status).toBe(302);
    const code = new URL(consent.headers.get('location') ?? '', 'http://service.invalid').searchParams.get('code') ?? '';
    if (stripeConnector.auth.type !== 'oauth2') throw new Error('STRIPE signs in with OAuth');
    const authContext = {
      http: createPlatformHttp({ fetch: host.fetch, maxAttempts: 1 }),
      signal: new AbortController().signal,
      environment: 'sandbox' as const,
    };
    const wrongSecret = stripeConnector.auth.exchangeCode(authContext, { ...app, clientSecret: 'sk_test_wrong' }, code, {});
    await expect(wrongSecret).rejects.toThrow();
    const tokens = await stripeConnector.auth.exchangeCode(authContext, app, code, {});
    expect(tokens.tenantId).toBe(stripeSimulator.tenantId('stripe:user_good'));
    accessToken = tokens.accessToken;
    account = tokens.tenantId ?? '';
    const identity = await stripeConnector.identify(context());
    expect(identity.storeUniqueId).toBe(account);
    expect(identity.storeName).not.toBeNull();
  });

  it("serves SANDBOX's gateway in Stripe's shapes, and every payout is the sum of what it paid", async () => {
    const charges = await readAll('charges');
    const transactions = await readAll('balance_transactions');
    const payouts = await readAll('payouts');
    const customers = await readAll('customers');
    expect(charges.records.length).toBeGreaterThan(0);
    expect(payouts.records.length).toBeGreaterThan(0);
    expect(customers.records.length).toBeGreaterThan(0);
    expect(new Set(charges.records.map((r) => r.platformId)).size).toBe(charges.records.length);
    expect(transactions.records.filter((r) => r.raw.type === 'charge')).toHaveLength(charges.records.length);
    for (const record of payouts.records) {
      const payout = mapPayout(record, context());
      expect(payout.transactions.length, record.platformId).toBeGreaterThan(0);
      const sum = payout.transactions.reduce((total, t) => total + (t.amount ?? 0) - t.fee, 0);
      expect(Math.round(sum * 100), record.platformId).toBe(Math.round(payout.amount * 100));
    }
    expect(checked).toBeGreaterThan(payouts.records.length);
    expect(violations).toEqual([]);
  });

  it("renders SANDBOX's changes as events, so an incremental read finds what changed since", async () => {
    const full = await readAll('charges');
    expect(full.nextSince).not.toBeNull();
    const again = await readAll('charges', full.nextSince);
    // Nothing moved in SANDBOX in between (no ticks): at most the newest second's charges are read again.
    expect(again.records.length).toBeLessThan(full.records.length);
    expect(violations).toEqual([]);
  });
});

/**
 * Shopfront's simulator (simulator.ts), as the sandbox environment would reach it: the consent for a SANDBOX test
 * account on its own shop, the code exchanged once, every answer fitting the platform's published contract, and the
 * example connector reading SANDBOX's customers through it — paged and by an export — into the same customers
 * SANDBOX's books hold.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorBooks } from '../../../packages/sandbox/src/simulators/books.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from '../../../packages/sandbox/src/simulators/host.ts';
import { SandboxPlatform } from '../../../packages/sandbox/src/platform.ts';
import type { ConnectorContext, ObjectHandler, PlatformRecord } from '../../../src/platforms/connector.ts';
import { connectorContext } from '../../../src/platforms/context.ts';
import { registerSimulator } from '../../../src/platforms/simulators.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { SHOPFRONT, SHOPFRONT_TOKEN_HEADER, shopfrontConnector } from './connector.ts';
import { shopfrontSimulator } from './simulator.ts';
import { contractProblems } from './standin.ts';

const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: '/link/oauth/callback' };
const SHOP = 'user-good.myshopify.com';
let db: TestDatabase;
let host: SimulatorHost;
let platform: SandboxPlatform;
const problems: string[] = [];

/** host.fetch, every API answer checked against the published contract. */
async function checkedFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await host.fetch(url, init);
  const text = await response.clone().text();
  const { pathname, search } = new URL(url);
  const body: unknown = text === '' || !text.startsWith('{') ? undefined : JSON.parse(text);
  problems.push(...contractProblems(init.method ?? 'GET', `${pathname.replace(`/${SHOP}`, '')}${search}`, response.status, body));
  return response;
}

async function accessToken(shop: string): Promise<Response> {
  const consent = new URLSearchParams({ client_id: SIMULATOR_CLIENT_ID, redirect_uri: app.redirectUri, scope: 'read_customers', state: 'st', shop });
  for (const [name, value] of Object.entries({ username: 'user_good', password: 'pass_good', decision: 'allow' })) consent.set(name, value);
  const allowed = await host.fetch(`https://${shop}/admin/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: consent.toString(),
  });
  if (allowed.status !== 302) return allowed;
  const callback = new URL(allowed.headers.get('location') ?? '', 'http://service.invalid');
  expect(callback.searchParams.get('shop')).toBe(shop);
  // Signed as the platform documents it (and the connector checks it): hex HMAC-SHA256 of code, host and shop, sorted.
  const message = `code=${callback.searchParams.get('code') ?? ''}&host=${callback.searchParams.get('host') ?? ''}&shop=${shop}`;
  expect(callback.searchParams.get('hmac')).toBe(createHmac('sha256', app.clientSecret).update(message).digest('hex'));
  const form = new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, code: callback.searchParams.get('code') ?? '' });
  return checkedFetch(`https://${shop}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

function contextFor(token: string): ConnectorContext {
  return connectorContext({
    connector: shopfrontConnector,
    connectionId: 'probe',
    credentials: { store_url: SHOP },
    tokens: { accessToken: token, refreshToken: null, expiresAt: null, tenantId: null },
    environment: 'sandbox',
    db: db.pool,
    simulated: true,
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { tickIntervalMs: 0 });
  host = simulatorHost(platform, shopfrontSimulator, app);
  registerSimulator({ platform: SHOPFRONT, fetch: checkedFetch, app, consentUrl: (url) => url });
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe("Shopfront's simulator", () => {
  it('signs a SANDBOX account in on its own shop only, and exchanges the code once', async () => {
    const refused = await accessToken('another-shop.myshopify.com');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(`its shop is ${SHOP}`);
    const token = await accessToken(SHOP);
    expect(token.status).toBe(200);
    const answer = (await token.json()) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(['access_token', 'scope']);
    expect([typeof answer.access_token, answer.scope]).toEqual(['string', 'read_customers']);
    const unauthorized = await host.fetch(`https://${SHOP}/admin/api/shop.json`, { method: 'GET', headers: { [SHOPFRONT_TOKEN_HEADER]: 'made-up' } });
    expect(unauthorized.status).toBe(401);
    expect(problems).toEqual([]);
  });

  it("serves SANDBOX's customers to the connector, paged and exported, as SANDBOX's books hold them", async () => {
    const token = await accessToken(SHOP);
    const { access_token } = (await token.json()) as { access_token: string };
    const ctx = contextFor(access_token);
    const books = await simulatorBooks(platform, `${SHOPFRONT.toLowerCase()}:user_good`);
    expect(await shopfrontConnector.identify(ctx)).toEqual({ storeUniqueId: SHOP, storeName: books.company.name });
    const handler: ObjectHandler | undefined = shopfrontConnector.objects.customer?.handler;
    if (handler?.bulk === undefined) throw new Error('the customer object reads by export');

    const paged: PlatformRecord[] = [];
    let since: string | null | undefined;
    for (let pageToken: string | null = null, first = true; first || pageToken !== null; first = false) {
      const page = await handler.read(ctx, { since: null, window: null, pageToken });
      paged.push(...page.records);
      ({ nextPageToken: pageToken } = page);
      since = page.nextSince;
    }
    const exportId = await handler.bulk.startExport(ctx, { since: null, window: null });
    expect(await handler.bulk.pollExport(ctx, exportId)).toEqual({ status: 'ready', resultCursor: '0' });
    const exported: PlatformRecord[] = [];
    for (let cursor: string | null = '0'; cursor !== null;) {
      const page = await handler.bulk.readExportPage(ctx, exportId, cursor);
      exported.push(...page.records);
      cursor = page.nextCursor;
    }

    const held = (await books.all('customer')).map((c) => ({ name: c.DisplayName, email: c.Email ?? null, updated_at: c.UpdatedAt }));
    expect(held.length).toBeGreaterThan(3);
    const mapped = (records: PlatformRecord[]) =>
      records.map((record) => handler.map(record, ctx)).map((c) => ({ name: c.customer_name, email: c.email, updated_at: c.updated_at }));
    const byName = (a: { name: unknown }, b: { name: unknown }) => String(a.name).localeCompare(String(b.name));
    expect(mapped(paged).sort(byName)).toEqual(held.sort(byName));
    expect(mapped(exported).sort(byName)).toEqual(held.sort(byName));
    expect(new Set(paged.map((r) => r.platformId)).size).toBe(held.length);
    // Nothing changed since the last page's as_of: the next incremental read is empty.
    expect((await handler.read(ctx, { since: since ?? null, window: null, pageToken: null })).records).toEqual([]);
    expect(problems).toEqual([]);
  });
});

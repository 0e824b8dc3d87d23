/**
 * The connector interface v2 end to end with SHOPFRONT (connector.ts beside this file), through the real service on a
 * real PostgreSQL, with the sync workers and the webhook dispatcher running: a shop linked through the link flow with
 * its shop domain (per-connection authorisation input) and OAuth against the stand-in, the initial sync read through
 * a bulk export the runner waits for without holding a worker, the cost bucket and the daily budget kept, the shop's
 * signed webhook turned into our CUSTOMER_UPDATED. Also: bad shop domains refused with nothing stored, a run that
 * restarts polls the same export, and nothing outside this folder knows the connector (one line registers it).
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../../src/connections/connections.ts';
import { sealJson } from '../../../src/platforms/context.ts';
import { renderPlatformsMarkdown } from '../../../src/platforms/docs.ts';
import { CONNECTION_SCOPE } from '../../../src/platforms/shared-limits.ts';
import { getConnector, registerConnector } from '../../../src/platforms/registry.ts';
import { requestSync } from '../../../src/sync/requests.ts';
import { runSync } from '../../../src/sync/runner.ts';
import { startSyncWorkers } from '../../../src/sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../../src/webhooks/dispatcher.ts';
import { errorBody, json, startTestApp, type TestApp } from '../../support/app.ts';
import { csrfOf, LinkBrowser } from '../../support/link-browser.ts';
import { registerOAuthApp } from '../../support/oauth-connection.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { generate, TARGET } from '../../../scripts/gen-shopfront-contract.ts';
import { SHOPFRONT, SHOPFRONT_LIMITS, SHOPFRONT_WEBHOOK_HEADER, shopfrontConnector } from './connector.ts';
import { startShopfrontStandIn, type ShopfrontStandIn } from './standin.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const SHOP = 'demo-shop.myshopify.com';
const CRASH_SHOP = 'crash-shop.myshopify.com';
const WEBHOOK_KEY = 'shopfront-webhook-key-0123456789';

let t: TestApp;
let standin: ShopfrontStandIn;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher | null = null;

beforeAll(async () => {
  standin = await startShopfrontStandIn({ pollsBeforeReady: 2, retryAfterMs: 1_000 });
  process.env.SHOPFRONT_API_URL = standin.url;
  if (getConnector(SHOPFRONT) === undefined) registerConnector(shopfrontConnector);
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true } });
  await registerOAuthApp(t, SHOPFRONT, {
    clientId: standin.app.clientId,
    clientSecret: standin.app.clientSecret,
    redirectUri: `${t.services.config.publicUrl}/link/oauth/callback`,
    webhookKey: WEBHOOK_KEY,
  });
  standin.addShop(SHOP, 13);
  standin.addShop(CRASH_SHOP, 4);
  receiver = new WebhookReceiver();
  const url = await receiver.listen(t.org.credentials.sandbox.client_secret);
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    url,
  ]);
}, 120_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver.close();
  await t.close();
  await standin.close();
  delete process.env.SHOPFRONT_API_URL;
});

const clientHeaders = () => ({
  authorization: `Basic ${Buffer.from(`${t.org.credentials.sandbox.client_id}:${t.org.credentials.sandbox.client_secret}`).toString('base64')}`,
  'x-service-version': '2024-08-31',
});
const createBody = async (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(), payload: body });
const count = async (sql: string, params: unknown[] = []) => Number((await t.db.pool.query<{ n: string }>(sql, params)).rows[0]?.n);
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function until<T>(find: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not in time');
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** A new connection of the platform, and the link page's address. */
async function newConnection(): Promise<{ id: string; linkPath: string }> {
  const created = await createBody({ platform: SHOPFRONT });
  expect(created.statusCode, created.body).toBe(200);
  const connection = json(created).connection as { id: string; link_url: string };
  return { id: connection.id, linkPath: `${pathOf(connection.link_url)}/${SHOPFRONT}` };
}

function signedWebhook(body: Record<string, unknown>, key = WEBHOOK_KEY) {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: `/platform-webhooks/${SHOPFRONT}/${t.org.organization.id}/sandbox`,
    payload: raw,
    headers: { 'content-type': 'application/json', [SHOPFRONT_WEBHOOK_HEADER]: createHmac('sha256', key).update(raw).digest('base64') },
  });
}

describe('connector interface v2: SHOPFRONT', () => {
  it('refuses a bad shop domain with a 400 form and stores nothing, in the link flow and at creation', async () => {
    const { id, linkPath } = await newConnection();
    const browser = new LinkBrowser(t.app);
    const form = await browser.get(linkPath);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="store_url"');
    for (const bad of ['evil.example.com', 'evil.example.com/?x=.myshopify.com', '-shop.myshopify.com', '']) {
      const refused = await browser.post(linkPath, { csrf: csrfOf(form.body), store_url: bad });
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.body).toContain('like my-shop.myshopify.com');
      expect(refused.body).toContain('aria-invalid="true"');
    }
    // Without the form's token nothing is even checked.
    expect((await browser.post(linkPath, { csrf: 'forged', store_url: SHOP })).statusCode).toBe(403);
    expect(await count('SELECT count(*) AS n FROM oauth_states WHERE connection_id = $1', [id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM connections WHERE id = $1 AND credentials_ciphertext IS NULL AND linked_at IS NULL', [id])).toBe(1);

    const before = await count('SELECT count(*) AS n FROM connections');
    const badCreate = await createBody({ platform: SHOPFRONT, store_url: 'shop.example.com', redirect_url: 'https://app.example.com/done' });
    expect([badCreate.statusCode, errorBody(badCreate).error_code]).toEqual([400, 'VALIDATION_ERROR']);
    const otherField = await createBody({ platform: SHOPFRONT, api_key: 'x', redirect_url: 'https://app.example.com/done' });
    expect(otherField.statusCode).toBe(400);
    expect(await count('SELECT count(*) AS n FROM connections')).toBe(before);

    // A good one at creation: the platform_auth_url goes straight to the shop's own consent page.
    const good = await createBody({ platform: SHOPFRONT, store_url: 'Good-Shop.myshopify.com', redirect_url: 'https://app.example.com/done' });
    expect(good.statusCode, good.body).toBe(200);
    const authUrl = (json(good).connection as { platform_auth_url: string }).platform_auth_url;
    const consent = await new LinkBrowser(t.app).get(pathOf(authUrl));
    expect(consent.statusCode).toBe(302);
    expect(consent.headers.location).toMatch(new RegExp(`^${standin.url}/good-shop\\.myshopify\\.com/admin/oauth/authorize\\?`));
  });

  it('resumes polling the same export when a run starts again, instead of starting another', async () => {
    const { connection } = await createConnection(
      t.db.pool,
      t.services.cipher,
      { organizationId: t.org.organization.id, environment: 'sandbox' },
      {
        platform: SHOPFRONT,
        name: null,
        credentials: { store_url: CRASH_SHOP },
        identity: { storeUniqueId: CRASH_SHOP, storeName: null },
        syncConfig: null,
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    const tokens = { accessToken: standin.issueToken(CRASH_SHOP), refreshToken: null, expiresAt: null, tenantId: null };
    await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [connection.id, sealJson(t.services.cipher, tokens)]);
    const run = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
    // Each delivery is what a worker that died after the previous one would do: the export is found, not started.
    const outcomes = [];
    for (let delivery = 0; delivery < 5; delivery++) {
      const outcome = await runSync(t.services, run.id, new AbortController().signal);
      outcomes.push(outcome);
      if (outcome !== 'waiting') break;
    }
    expect(outcomes).toEqual(['waiting', 'waiting', 'completed']);
    expect(standin.shop(CRASH_SHOP)).toMatchObject({ exportsStarted: 1, polls: 3 });
    expect(await count(`SELECT count(*) AS n FROM records WHERE connection_id = $1 AND object_type = 'customer'`, [connection.id])).toBe(4);
    const attempts = await t.db.pool.query<{ attempts: number }>('SELECT attempts FROM sync_runs WHERE id = $1', [run.id]);
    expect(attempts.rows[0]?.attempts).toBe(1);

    // An export the platform gives up on fails the attempt like any platform error; the retry starts a new export.
    standin.failNextExport(CRASH_SHOP);
    const again = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'backfill', trigger: 'api', details: { entity: 'CUSTOMER' } });
    expect(await runSync(t.services, again.id, new AbortController().signal)).toBe('retry');
    expect(await count('SELECT count(*) AS n FROM sync_exports WHERE connection_id = $1', [connection.id])).toBe(0);
    const retried = [];
    for (let delivery = 0; delivery < 5; delivery++) {
      const outcome = await runSync(t.services, again.id, new AbortController().signal);
      retried.push(outcome);
      if (outcome !== 'waiting') break;
    }
    expect(retried).toEqual(['waiting', 'waiting', 'completed']);
    expect(standin.shop(CRASH_SHOP).exportsStarted).toBe(3);
  });

  it('links a shop through the link flow, syncs it through a bulk export within its limits, and turns its webhook into ours', async () => {
    await startSyncWorkers(t.boss, t.services, { concurrency: 1 });
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
    const { id, linkPath } = await newConnection();
    const browser = new LinkBrowser(t.app);
    const form = await browser.get(linkPath);
    // Typed as people do: capitals and a stray space are the same shop.
    const toConsent = await browser.post(linkPath, { csrf: csrfOf(form.body), store_url: ' Demo-Shop.myshopify.com ' });
    expect(toConsent.statusCode).toBe(302);
    const consentUrl = String(toConsent.headers.location);
    expect(consentUrl.startsWith(`${standin.url}/${SHOP}/admin/oauth/authorize?`)).toBe(true);
    const consent = await fetch(consentUrl, { redirect: 'manual' });
    const callback = consent.headers.get('location') ?? '';
    expect(new URL(callback).searchParams.get('shop')).toBe(SHOP);
    const done = await browser.get(pathOf(callback));
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toContain('public_token=');
    const linked = await t.db.pool.query<{ platform: string; store_unique_id: string; credentials_ciphertext: Buffer }>(
      'SELECT platform, store_unique_id, credentials_ciphertext FROM connections WHERE id = $1',
      [id],
    );
    expect(linked.rows[0]).toMatchObject({ platform: SHOPFRONT, store_unique_id: SHOP });
    // The shop domain is kept sealed with the connection: later calls find the shop's host in ctx.credentials.
    expect(JSON.parse(t.services.cipher.decrypt(linked.rows[0]?.credentials_ciphertext ?? Buffer.alloc(0)))).toEqual({ store_url: SHOP });

    // Re-authentication stays on the same shop: the link page goes straight to that shop's consent, without the form.
    const relink = await new LinkBrowser(t.app).get(linkPath);
    expect(relink.statusCode).toBe(302);
    expect(String(relink.headers.location).startsWith(`${standin.url}/${SHOP}/admin/oauth/authorize?`)).toBe(true);

    // The initial sync: one export, polled until ready (the run queued again in between), its results stored.
    await until(
      async () => (await count('SELECT count(*) AS n FROM connections WHERE id = $1 AND ready_at IS NOT NULL', [id])) === 1 || undefined,
      60_000,
    );
    expect(await count(`SELECT count(*) AS n FROM records WHERE connection_id = $1 AND object_type = 'customer'`, [id])).toBe(13);
    const shop = standin.shop(SHOP);
    expect(shop).toMatchObject({ exportsStarted: 1, polls: 3 });
    // Each export read is dropped with its last page, and the link to its results with it (migration 0037).
    expect(await count(`SELECT count(*) AS n FROM sync_exports WHERE connection_id = $1`, [id])).toBe(0);
    // The cost bucket: more points were spent than the bucket holds, so calls waited for it to refill, and none was refused.
    expect(shop.costCharged).toBeGreaterThan(SHOPFRONT_LIMITS.bucketSize);
    expect(shop.throttled).toBe(0);
    // The daily budget counts every call of the connection: the shop's, plus the code exchange the stand-in does not meter.
    const dayCalls = async () =>
      count(`SELECT COALESCE(sum(day_calls), 0) AS n FROM platform_call_meters WHERE connection_id = $1 AND scope = $2`, [id, CONNECTION_SCOPE]);
    expect(await dayCalls()).toBe(shop.calls + 1);

    // The shop's own webhook, signed: verified, mapped to the changed customer, synced, and sent on as CUSTOMER_UPDATED.
    standin.rename(SHOP, '1002', 'Renamed in the shop');
    const unsigned = await signedWebhook({ shop_domain: SHOP, topic: 'customers/update', id: 1002 }, 'wrong key');
    expect(unsigned.statusCode).toBe(401);
    const hook = await signedWebhook({ shop_domain: SHOP, topic: 'customers/update', id: 1002 });
    expect([hook.statusCode, json(hook)]).toEqual([200, { changes: 1, sync_runs: 1, revoked: 0, duplicate: false }]);
    const delivered = await until(
      () => receiver.bodies.find((b) => b.code === 'CUSTOMER_UPDATED' && (b.customer as Record<string, unknown> | undefined)?.platform_id === '1002'),
      30_000,
    );
    expect(delivered).toMatchObject({ type: 'CUSTOMER', connection_id: id });
    // Incremental reads are paged, not exported.
    expect(standin.shop(SHOP).exportsStarted).toBe(1);

    // The day's budget spent (by other calls of the day): the next webhook's run pauses instead of calling the shop.
    await t.db.pool.query(`UPDATE platform_call_meters SET day_calls = $2 WHERE connection_id = $1`, [id, SHOPFRONT_LIMITS.dailyRequests]);
    const callsBefore = standin.shop(SHOP).calls;
    standin.rename(SHOP, '1003', 'Renamed again');
    expect((await signedWebhook({ shop_domain: SHOP, topic: 'customers/update', id: 1003 })).statusCode).toBe(200);
    await until(
      async () =>
        (await count('SELECT count(*) AS n FROM platform_pauses WHERE connection_id = $1 AND paused_until > now()', [id])) === 1 || undefined,
      30_000,
    );
    expect(standin.shop(SHOP).calls).toBe(callsBefore);
    expect(standin.shop(SHOP).throttled).toBe(0);
    // Every request the service sent and every answer it read fit the platform's published contract.
    expect(standin.problems).toEqual([]);
  }, 120_000);

  it("is built from the platform's published contract: the schemas are current, and the stand-in refuses what the contract does not say", async () => {
    expect(readFileSync(TARGET, 'utf8'), 'run node scripts/gen-shopfront-contract.ts').toBe(generate());
    const offContract = await fetch(`${standin.url}/${SHOP}/admin/api/customers.json?limit=5`, {
      headers: { 'x-shopfront-access-token': standin.issueToken(SHOP) },
    });
    expect(offContract.status).toBe(400);
    expect(standin.problems.splice(0)).toEqual(['listCustomers: query parameter limit is not in the contract of GET /admin/api/customers.json']);
    const noToken = await fetch(`${standin.url}/${SHOP}/admin/api/customers.json`);
    expect(noToken.status).toBe(401);
    expect(standin.problems).toEqual([]);
  });

  it('needs no file outside its folder: it imports only the connector kit, product code never names it, one line registers it', () => {
    const files = readdirSync(HERE).filter((name) => name.endsWith('.ts'));
    const outside = new Set<string>();
    for (const file of files) {
      const source = readFileSync(join(HERE, file), 'utf8');
      for (const match of source.matchAll(/^import[^;]*?from '([^']+)';/gms)) {
        const specifier = match[1] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = relative(ROOT, resolve(HERE, specifier));
        if (!target.startsWith(relative(ROOT, HERE))) outside.add(`${file} → ${target}`);
      }
    }
    const importsOf = (file: string) => [...outside].filter((line) => line.startsWith(`${file} → `)).map((line) => line.split(' → ')[1]);
    // The connector: the kit (level 4 of docs/architecture.md), nothing else of ours.
    const connectorKit =
      /^src\/platforms\/(addresses|connector|contract-check|errors|http|oauth2|oauth-request|objects|readers|webhook-signature)\.ts$/;
    for (const target of importsOf('connector.ts')) expect(target, target).toMatch(connectorKit);
    // The stand-in: the stand-in kit; the simulator: the simulator kit and SANDBOX's records it renders.
    for (const target of importsOf('standin.ts')) expect(target, target).toMatch(/^test\/standins\/kit\/(server|oauth|openapi)\.ts$/);
    for (const target of importsOf('simulator.ts')) expect(target, target).toMatch(/^packages\/sandbox\/src\/(simulators\/kit|native)\.ts$/);
    const mentions: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/shopfront/i.test(readFileSync(path, 'utf8'))) mentions.push(relative(ROOT, path));
      }
    };
    walk(join(ROOT, 'src'));
    expect(mentions).toEqual([]);
    const registrations = readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trimEnd().endsWith('registerConnector(shopfrontConnector);'));
    expect(registrations).toHaveLength(1);
    // Its page of docs/platforms.md comes from its declarations too: the shop domain asked before consent.
    expect(renderPlatformsMarkdown([shopfrontConnector])).toContain('`store_url`: Shop domain, asked before the consent page');
  });
});

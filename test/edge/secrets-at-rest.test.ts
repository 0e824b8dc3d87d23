/**
 * No secret in clear at rest (issue 19, item 3). A real service on a real
 * database runs what stores things: an organisation created through the admin
 * API, its OAuth app and webhook URL, SANDBOX and Xero (OAuth, through the Xero
 * stand-in, with an expired token refreshed) connections created, synced and
 * written to, a public token exchanged, idempotent requests replayed (their
 * answers carry access tokens), an access token invalidated, client secrets
 * (the webhook signing keys) rotated, an OAuth consent started (its state is
 * stored), a link error announced (its update_url holds the link token), and
 * webhooks delivered to a receiver that echoes every body back into the
 * attempt log. Link tokens (in link_url) are secrets too: they open the link page. A SHOPIFY shop is read whole
 * through bulk exports, whose result links (7-day bearer URLs to the shop's data) are sealed while a read waits for
 * them and dropped once read (migration 0037). Then the whole database is
 * dumped (pg_dump, or COPY of every table: test/support/database-dump.ts) and
 * none of the secrets the test knows may be in it, in clear or encoded.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../support/loopback-server.ts';
import { completeLink, connectionForId, createConnection, recordLinkError } from '../../src/connections/connections.ts';
import { getConnector, registerConnector } from '../../src/platforms/registry.ts';
import { xeroConnector } from '../../src/platforms/xero/index.ts';
import { sealJson } from '../../src/platforms/context.ts';
import { SHOPIFY } from '../../src/platforms/shopify/client.ts';
import { ensureInitialSync, requestSync } from '../../src/sync/requests.ts';
import { runSync, type RunOutcome } from '../../src/sync/runner.ts';
import { startShopifyStandIn, type ShopifyStandIn } from '../standins/shopify/standin.ts';
import { registerOAuthApp } from '../support/oauth-connection.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';
import { startXeroStandIn, useStandIn, type XeroStandIn } from '../standins/xero/server.ts';
import { clientHeaders, json, startTestApp, type Json, type TestApp } from '../support/app.ts';
import { dumpDatabase, type DatabaseDump } from '../support/database-dump.ts';
import { testServers, type TestServer } from '../support/database.ts';

const XERO = 'XERO_SECRETS_TEST';
const APP = {
  clientId: 'ledgerport-secrets-app',
  clientSecret: 'xero-app-secret-Kq8vN2pL7wR4tY6u',
  redirectUri: 'http://127.0.0.1:9/link/oauth/callback',
};

/** A webhook receiver that answers 200 with the body it got: the worst a receiver can do to our attempt log. */
class EchoReceiver {
  readonly bodies: Json[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      this.bodies.push(JSON.parse(body.toString('utf8')) as Json);
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });

  listen(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/** Every form a secret could take in a dump: as is, base64 (and URL-safe), hex (a bytea), percent-encoded. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    ...new Set([secret, encodeURIComponent(secret), bytes.toString('hex'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url')]),
  ];
}

/** The link token: the last segment of a link_url. */
function linkTokenOf(linkUrl: string): string {
  return new URL(linkUrl).pathname.split('/').pop() ?? '';
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

let standin: XeroStandIn;
let restore: () => void;
let shopify: ShopifyStandIn;
const SHOP = 'secrets-shop.myshopify.com';

beforeAll(async () => {
  shopify = await startShopifyStandIn();
  process.env.SHOPIFY_API_URL = shopify.url;
  standin = await startXeroStandIn();
  restore = useStandIn(standin);
  standin.registerClient(APP);
  if (getConnector(XERO) === undefined) {
    registerConnector({ ...xeroConnector, id: XERO, name: 'Xero (secrets test)', limits: { requestsPerMinute: null, concurrentRequests: 5 } });
  }
}, 60_000);
afterAll(async () => {
  await standin.close();
  await shopify.close();
  delete process.env.SHOPIFY_API_URL;
  restore();
});

describe.each(testServers())('secrets at rest on the %s server', (server: TestServer) => {
  let t: TestApp;
  let receiver: EchoReceiver;
  let dispatcher: WebhookDispatcher;
  const secrets = new Map<string, string>();
  const known = (label: string, value: string): string => {
    secrets.set(label, value);
    return value;
  };

  beforeAll(async () => {
    t = await startTestApp({
      server,
      config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true },
      sandbox: { defaultSize: 60 },
    });
    await startWriteWorkers(t.boss, t.services, { concurrency: 2 });
    receiver = new EchoReceiver();
    dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
  }, 120_000);
  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
    await t.close();
  });

  const admin = (method: 'POST' | 'PUT', url: string, payload: Json): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${t.adminToken}` }, payload });

  it('keeps none of the secrets it handled in a dump of the database', async () => {
    known('admin token', t.adminToken);
    // The organisation, its client secrets in the admin answer.
    const created = await admin('POST', '/admin/organizations', { name: 'Secrets at rest' });
    expect(created.statusCode, created.body).toBe(201);
    const org = JSON.parse(created.body) as CreatedOrganization;
    for (const env of ['sandbox', 'production'] as const) {
      known(`${env} client secret`, org.credentials[env].client_secret);
      known(`${env} Basic credentials`, Buffer.from(`${org.credentials[env].client_id}:${org.credentials[env].client_secret}`).toString('base64'));
    }
    const orgId = org.organization.id;
    expect((await admin('PUT', `/admin/organizations/${orgId}/webhook`, { environment: 'sandbox', url: await receiver.listen() })).statusCode).toBe(
      200,
    );
    known('OAuth app client secret', APP.clientSecret);
    const oauthApp = await admin('PUT', `/admin/organizations/${orgId}/oauth_apps/${XERO}`, {
      environment: 'sandbox',
      client_id: APP.clientId,
      client_secret: APP.clientSecret,
      redirect_uri: APP.redirectUri,
    });
    expect(oauthApp.statusCode, oauthApp.body).toBe(200);

    let credentials = org;
    const call = (method: 'GET' | 'POST', url: string, payload?: Json, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      t.app.inject({
        method,
        url: `/versioned${url}`,
        headers: { ...clientHeaders(credentials), ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
    /** An idempotent request and its replay: the same answer twice. */
    const twice = async (method: 'POST', url: string, payload: Json, key: string): Promise<Json> => {
      const first = await call(method, url, payload, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBeLessThan(300);
      const again = await call(method, url, payload, { 'idempotency-key': key });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
      return json(first);
    };
    const runQueuedSync = async (connectionId: string): Promise<void> => {
      const run = await t.db.pool.query<{ id: string }>(
        `SELECT id FROM sync_runs WHERE connection_id = $1 AND status = 'queued' ORDER BY created_at LIMIT 1`,
        [connectionId],
      );
      const runId = run.rows[0]?.id;
      if (runId === undefined) throw new Error('no queued sync');
      let outcome = await runSync(t.services, runId, new AbortController().signal);
      for (let n = 0; outcome === 'retry' && n < 5; n++) outcome = await runSync(t.services, runId, new AbortController().signal);
      expect(outcome).toBe('completed');
    };

    // A SANDBOX connection created with credentials (idempotently: the answer holds its access token), synced, written to.
    const sandbox = (
      await twice('POST', '/connections/create', { platform: 'SANDBOX', basic_username: 'user_ann', basic_password: 'pass_good' }, 'create-1')
    ).connection as { id: string; access_token: string; link_url: string };
    const firstToken = known('SANDBOX access token', sandbox.access_token);
    known('SANDBOX link token', linkTokenOf(sandbox.link_url));
    await runQueuedSync(sandbox.id);
    await twice('POST', `/accounting/vendors?access_token=${firstToken}`, { vendor: { vendor_name: 'Secret Keeper Ltd' } }, 'vendor-1');
    // Invalidated (idempotently): the old token and the new one are both secrets.
    const invalidated = await twice('POST', `/connections/access_token/invalidate?access_token=${firstToken}`, {}, 'invalidate-1');
    const sandboxToken = known('SANDBOX access token after invalidation', String(invalidated.access_token));
    await twice('POST', `/accounting/vendors?access_token=${sandboxToken}`, { vendor: { vendor_name: 'Secret Keeper II' } }, 'vendor-2');

    // A connection linked through the link flow and its public token exchanged (idempotently).
    const placeholder = json(await call('POST', '/connections/create', {})).connection as { id: string; access_token: string; link_url: string };
    known('linked connection access token', placeholder.access_token);
    known('linked connection link token', linkTokenOf(placeholder.link_url));
    const record = await connectionForId(t.db.pool, { organizationId: orgId, environment: 'sandbox' }, placeholder.id);
    const link = await completeLink(t.db.pool, t.services.cipher, record, {
      platform: 'SANDBOX',
      credentials: { basic_username: 'user_bea', basic_password: 'pass_good' },
      tokens: null,
      identity: { storeUniqueId: 'bea', storeName: 'Books of bea' },
    });
    known('public token', link.publicToken);
    const exchanged = await twice(
      'POST',
      '/item/public_token/exchange',
      { client_id: org.credentials.sandbox.client_id, secret: org.credentials.sandbox.client_secret, public_token: link.publicToken },
      'exchange-1',
    );
    expect(exchanged.access_token).toBe(placeholder.access_token);

    // Client secrets rotated: webhooks are signed with both during the grace period; production's old one revoked at once.
    const rotated = await admin('POST', `/admin/organizations/${orgId}/credentials/rotate`, { environment: 'sandbox', grace_period_seconds: 3600 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newSecret = known('rotated sandbox client secret', String(json(rotated).client_secret));
    credentials = {
      ...org,
      credentials: { ...org.credentials, sandbox: { client_id: org.credentials.sandbox.client_id, client_secret: newSecret } },
    };
    known('rotated Basic credentials', Buffer.from(`${org.credentials.sandbox.client_id}:${newSecret}`).toString('base64'));
    const revoked = await admin('POST', `/admin/organizations/${orgId}/credentials/rotate`, { environment: 'production', grace_period_seconds: 0 });
    known('rotated production client secret', String(json(revoked).client_secret));

    // A Xero connection (OAuth): its access token expired, so the sync refreshes it; then a write through it.
    const xeroCreated = (await twice('POST', '/connections/create', { platform: XERO, syncConfig: { historical_months: 0 } }, 'create-xero'))
      .connection as { id: string; access_token: string; link_url: string };
    const xeroToken = known('Xero connection access token', xeroCreated.access_token);
    const xeroLinkToken = known('Xero link token', linkTokenOf(xeroCreated.link_url));
    const issued = standin.issueTokens(APP.clientId);
    const xeroRecord = await connectionForId(t.db.pool, { organizationId: orgId, environment: 'sandbox' }, xeroCreated.id);
    await completeLink(t.db.pool, t.services.cipher, xeroRecord, {
      platform: XERO,
      credentials: null,
      tokens: { accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: issued.expiresAt, tenantId: issued.tenantId },
      identity: { storeUniqueId: issued.tenantId, storeName: 'Demo Company (NZ)' },
    });
    await ensureInitialSync(t.db.pool, t.services.jobs, xeroCreated.id, 'link');
    standin.expireAccessTokens();
    await runQueuedSync(xeroCreated.id);
    expect(standin.tokenCalls.refresh_token).toBeGreaterThan(0);
    const reference = async (type: string, where: string, value: string): Promise<string> => {
      const found = await t.db.pool.query<{ id: string }>(
        `SELECT id FROM records WHERE connection_id = $1 AND object_type = $2 AND data->>'${where}' = $3 AND deleted_at IS NULL`,
        [xeroCreated.id, type, value],
      );
      return found.rows[0]?.id ?? '';
    };
    const bill = await twice(
      'POST',
      `/accounting/bills?access_token=${xeroToken}`,
      {
        bill: {
          vendor_id: await reference('vendor', 'vendor_name', 'PowerDirect'),
          issue_date: '2025-04-01T00:00:00.000Z',
          line_items: [{ account_id: await reference('account', 'nominal_code', '429'), total_amount: 20, description: 'Meter fee' }],
        },
      },
      'xero-bill-1',
    );
    expect(bill.bill).toBeDefined();
    standin.issuedTokens().forEach((token, n) => known(`Xero stand-in token ${n}`, token));

    // The end user opens the link page and is sent to the consent page: the OAuth state is stored until they come back.
    const consent = await t.app.inject({ method: 'GET', url: `/link/${xeroLinkToken}/${XERO}` });
    expect(consent.statusCode, consent.body).toBe(302);
    known('OAuth state', new URL(String(consent.headers.location)).searchParams.get('state') ?? '');
    expect(secrets.get('OAuth state')).not.toBe('');
    // A failed link is announced with the connection's update_url (its link token) in the webhook.
    await recordLinkError(
      t.db.pool,
      t.services.cipher,
      await connectionForId(t.db.pool, { organizationId: orgId, environment: 'sandbox' }, xeroCreated.id),
      t.services.config.publicUrl,
      XERO,
      'The end user declined.',
    );
    expect(standin.violations).toEqual([]);

    // Every webhook delivered (each body went back into the attempt log through the echo) and carrying its token.
    await until('every webhook delivered', async () => {
      const open = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`);
      return open.rows[0]?.n === 0;
    });
    const deliveries = await t.db.pool.query<{ n: number; excerpts: number }>(
      `SELECT count(DISTINCT d.id)::int AS n, count(a.response_excerpt)::int AS excerpts FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id`,
    );
    expect(deliveries.rows[0]?.n).toBeGreaterThanOrEqual(8);
    expect(deliveries.rows[0]?.excerpts).toBe(deliveries.rows[0]?.n);
    const tokensSent = new Set(receiver.bodies.map((b) => b.access_token));
    for (const token of [firstToken, sandboxToken, placeholder.access_token, xeroToken]) expect(tokensSent).toContain(token);
    const linkError = receiver.bodies.find((b) => b.code === 'CONNECTION_LINK_ERROR');
    expect(linkError?.update_url).toBe(xeroCreated.link_url);
    expect(Object.keys(linkError ?? {})).toEqual(['type', 'code', 'connection_id', 'access_token', 'update_url', 'message', 'platform']);
    const jobCompleted = receiver.bodies.find((b) => b.code === 'JOB_COMPLETED');
    expect(Object.keys(jobCompleted ?? {})).toEqual(['type', 'code', 'connection_id', 'access_token', 'job']);

    // A SHOPIFY shop read whole through bulk exports. While the storage holding an export's results is down, the ready
    // export's result link (a bearer URL to the shop's data) waits sealed; once read, it is gone.
    shopify.addShop(SHOP, { orders: 6 });
    const shopifyApp = { clientId: shopify.app.clientId, clientSecret: shopify.app.clientSecret, redirectUri: APP.redirectUri };
    await registerOAuthApp(t, SHOPIFY, shopifyApp, org);
    known('Shopify app client secret', shopify.app.clientSecret);
    const { connection: shop } = await createConnection(
      t.db.pool,
      t.services.cipher,
      { organizationId: orgId, environment: 'sandbox' },
      {
        platform: SHOPIFY,
        name: null,
        credentials: { store_url: SHOP },
        identity: { storeUniqueId: SHOP, storeName: null },
        syncConfig: { historical_months: 0 },
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    const shopToken = known('Shopify access token', shopify.issueToken(SHOP));
    await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
      shop.id,
      sealJson(t.services.cipher, { accessToken: shopToken, refreshToken: null, expiresAt: null, tenantId: null }),
    ]);
    const resultLinks = known('Shopify bulk result links', `${shopify.url}/_bulk/`);
    const shopRun = await requestSync(t.db.pool, t.services.jobs, shop.id, { kind: 'initial', trigger: 'api', details: {} });
    const runShop = async (until: RunOutcome): Promise<RunOutcome> => {
      let outcome = await runSync(t.services, shopRun.id, new AbortController().signal);
      for (let n = 0; outcome !== until && (outcome === 'waiting' || outcome === 'retry') && n < 20; n++)
        outcome = await runSync(t.services, shopRun.id, new AbortController().signal);
      return outcome;
    };
    shopify.shop(SHOP).failedResultDownloads = 1_000;
    expect(await runShop('retry')).toBe('retry');
    const waiting = await t.db.pool.query<{ sealed: Buffer | null }>(
      `SELECT result_cursor_ciphertext AS sealed FROM sync_exports WHERE connection_id = $1 AND status = 'ready'`,
      [shop.id],
    );
    const sealed = waiting.rows[0]?.sealed ?? null;
    if (sealed === null) throw new Error('no ready export is waiting to be read');
    expect(t.services.cipher.decrypt(sealed)).toContain(resultLinks);
    const midRead = await dumpDatabase(t.db.url);
    expect(encodings(resultLinks).filter((form) => midRead.text.includes(form))).toEqual([]);
    shopify.shop(SHOP).failedResultDownloads = 0;
    expect(await runShop('completed')).toBe('completed');
    expect((await t.db.pool.query('SELECT 1 FROM sync_exports WHERE connection_id = $1', [shop.id])).rowCount).toBe(0);
    expect((await t.db.pool.query(`SELECT 1 FROM records WHERE connection_id = $1 AND object_type = 'order'`, [shop.id])).rowCount).toBeGreaterThan(
      0,
    );

    const dump: DatabaseDump = await dumpDatabase(t.db.url);
    // The dump holds the data (a vacuous dump would find nothing either).
    for (const marker of [orgId, sandbox.id, xeroCreated.id, 'Secret Keeper II', 'PowerDirect']) expect(dump.text).toContain(marker);
    const found: string[] = [];
    for (const [label, secret] of secrets) {
      for (const form of encodings(secret))
        if (dump.text.includes(form)) found.push(`${label} (${form === secret ? 'in clear' : `as ${form.slice(0, 12)}…`})`);
    }
    expect(found, `secrets found in the ${dump.method} dump`).toEqual([]);
  }, 180_000);
});

/**
 * The hosted link flow end to end through the real app (fresh database):
 * picker, credential form, CSRF, completion and redirects, de-duplication,
 * re-authentication, and OAuth against a fake consent/token server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Script } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { csrfOf, LinkBrowser } from '../../test/support/link-browser.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../../test/support/app.ts';
import { deliveredBody, type SealedSlots } from '../events/access-token-slot.ts';
import type { Connector, OAuthCallbackParams, ObjectHandler } from '../platforms/connector.ts';
import { openTokens } from '../platforms/context.ts';
import { PlatformError } from '../platforms/errors.ts';
import { getConnector, registerConnector } from '../platforms/registry.ts';

const CRED = 'LINKBOOKS';
const SHOP = 'LINKSHOP';
const OAUTH = 'FAKEOAUTH';

const noObjects = {
  account: {
    capabilities: {
      read: true,
      incremental: 'none',
      deletions: 'none',
      filter: false,
      fetchByPlatformId: false,
      create: false,
      update: false,
      delete: false,
    },
    handler: {
      read: () => Promise.resolve({ records: [], nextPageToken: null }),
      map: (record) => ({ platform_id: record.platformId }),
    } satisfies ObjectHandler,
  },
} satisfies Connector['objects'];

/** Username → account; password "secret" is right; "down" makes the platform fail. */
const credentialConnector: Connector = {
  id: CRED,
  name: 'Link Books',
  kind: 'accounting',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'basic_username', label: 'Username', required: true, secret: false },
      { field: 'basic_password', label: 'Password', required: true, secret: true },
    ],
  },
  identify(ctx) {
    if (ctx.credentials.basic_password === 'down')
      return Promise.reject(new PlatformError({ kind: 'server', httpStatus: 503, message: 'maintenance' }));
    if (ctx.credentials.basic_password !== 'secret')
      return Promise.reject(new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'bad login' }));
    const user = ctx.credentials.basic_username ?? '';
    return Promise.resolve({ storeUniqueId: `acct-${user}`, storeName: `Books of ${user}` });
  },
  objects: noObjects,
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

/** A commerce platform with a store_name field (the prefill parameter). */
const shopConnector: Connector = {
  ...credentialConnector,
  id: SHOP,
  name: 'Link Shop',
  kind: 'commerce',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'store_name', label: 'Store name', required: true, secret: false },
      { field: 'api_key', label: 'API key', required: true, secret: true },
    ],
  },
  identify: (ctx) => Promise.resolve({ storeUniqueId: ctx.credentials.store_name ?? '', storeName: ctx.credentials.store_name ?? null }),
};

// ---- fake OAuth platform ---------------------------------------------------

let fake: Server;
let fakeBase = '';
let tenantCount = 2;
const issuedCodes = new Set<string>();

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function fakePlatform(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', fakeBase);
  const bearer = req.headers.authorization === 'Bearer at-1';
  if (url.pathname === '/authorize') {
    // The end user "consents": back to the redirect URI with a code and the state.
    const code = `code-${issuedCodes.size + 1}`;
    issuedCodes.add(code);
    const back = new URL(url.searchParams.get('redirect_uri') ?? '');
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    // Parameters of the platform's own on the callback: two the connector declares, one it does not.
    back.searchParams.set('shop', 'fake-shop.example');
    back.searchParams.set('hmac', 'f00d');
    back.searchParams.set('stray', 'not asked for');
    res.writeHead(302, { location: back.href }).end();
  } else if (url.pathname === '/token' && req.method === 'POST') {
    const form = new URLSearchParams(await readBody(req));
    if (!issuedCodes.delete(form.get('code') ?? '') || form.get('client_secret') !== 'app-secret') sendJson(res, 400, { error: 'invalid_grant' });
    else sendJson(res, 200, { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 1800 });
  } else if (url.pathname === '/tenants' && bearer) {
    sendJson(
      res,
      200,
      [
        { id: 't-1', name: 'First <Org>' },
        { id: 't-2', name: 'Second Org' },
      ].slice(0, tenantCount),
    );
  } else if (url.pathname === '/whoami' && bearer) {
    sendJson(res, 200, { org: url.searchParams.get('tenant'), name: `Org ${url.searchParams.get('tenant') ?? ''}` });
  } else {
    sendJson(res, 401, { error: 'unauthorized' });
  }
}

/** What exchangeCode was given besides the code, per exchange. */
const callbacks: OAuthCallbackParams[] = [];

const oauthConnector: Connector = {
  id: OAUTH,
  name: 'Fake Ledger',
  kind: 'accounting',
  auth: {
    type: 'oauth2',
    callbackParams: ['shop', 'hmac'],
    authorizeUrl: (app, state, scope) =>
      `${fakeBase}/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        state,
        scope: scope ?? 'accounting',
      }).toString()}`,
    async exchangeCode(ctx, app, code, callback) {
      callbacks.push(callback);
      const response = await ctx.http.request({
        method: 'POST',
        url: `${fakeBase}/token`,
        idempotent: false,
        form: { grant_type: 'authorization_code', code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: app.redirectUri },
      });
      const body = response.body as { access_token: string; refresh_token: string };
      return { accessToken: body.access_token, refreshToken: body.refresh_token, expiresAt: null, tenantId: null };
    },
    refresh: () => Promise.reject(new Error('not used')),
    async listTenants(ctx, tokens) {
      const response = await ctx.http.request({
        method: 'GET',
        url: `${fakeBase}/tenants`,
        idempotent: true,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      return response.body as { id: string; name: string }[];
    },
  },
  async identify(ctx) {
    const response = await ctx.http.request({
      method: 'GET',
      url: `${fakeBase}/whoami`,
      idempotent: true,
      query: { tenant: ctx.tokens?.tenantId },
      headers: { authorization: `Bearer ${ctx.tokens?.accessToken ?? ''}` },
    });
    const body = response.body as { org: string; name: string };
    return { storeUniqueId: body.org, storeName: body.name };
  },
  objects: noObjects,
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

/**
 * The same platform behind a consent address that depends on the account's region (Amazon's): the region is asked
 * before consent (authorizationInput) and must reach authorizeUrl, exchangeCode, identify and the stored credentials.
 */
const REGIONAL = 'FAKEREGIONAL';
const regionInputs: (Record<string, string> | undefined)[] = [];
function regionalConnector(): Connector {
  const base = oauthConnector.auth;
  if (base.type !== 'oauth2') throw new Error('the fake OAuth platform signs in with OAuth');
  return {
    ...oauthConnector,
    id: REGIONAL,
    name: 'Regional Ledger',
    auth: {
      ...base,
      authorizationInput: [
        // The store-name prefill gives the region here (Shopify's gives {name}.myshopify.com), to test the derivation.
        {
          field: 'region',
          label: 'Region',
          pattern: /^(eu|na|fe)$/,
          hint: 'One of eu, na or fe.',
          lowercase: true,
          fromStoreName: (name) => name.toLowerCase(),
        },
      ],
      authorizeUrl: (app, state, scope, input) => `${base.authorizeUrl(app, state, scope)}&region=${input?.region ?? ''}`,
      exchangeCode(ctx, app, code, callback, input) {
        regionInputs.push(input);
        return base.exchangeCode(ctx, app, code, callback);
      },
    },
    identify: async (ctx) => ({ ...(await oauthConnector.identify(ctx)), storeName: `Org in ${ctx.credentials.region ?? '?'}` }),
  };
}

// ---- harness -----------------------------------------------------------------

let t: TestApp;

beforeAll(async () => {
  for (const connector of [credentialConnector, shopConnector, oauthConnector, regionalConnector()]) {
    if (getConnector(connector.id) === undefined) registerConnector(connector);
  }
  fake = createServer((req, res) => {
    fakePlatform(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakeBase = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await startTestApp();
  // The redirect URLs these tests send end users to (the rules themselves: src/link/redirect.test.ts).
  const allowed = [
    'https://a.example/',
    'https://client.example/cb',
    'https://client.example/done',
    'https://client.example/stored',
    'https://client.example/oauth-done',
    'https://host.example:8443/',
    'https://host.example/',
  ];
  const response = await t.app.inject({
    method: 'PUT',
    url: `/admin/organizations/${t.org.organization.id}/redirect_urls`,
    headers: { authorization: `Bearer ${t.adminToken}` },
    payload: { environment: 'sandbox', urls: allowed },
  });
  expect(response.statusCode, response.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => fake.close(resolve));
});

interface Created {
  id: string;
  access_token: string;
  link_url: string;
}

async function create(body: Record<string, unknown> = {}): Promise<Created & { path: string }> {
  const response = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(t.org), payload: body });
  expect(response.statusCode, response.body).toBe(200);
  const { connection } = json(response) as { connection: Created };
  return { ...connection, path: new URL(connection.link_url).pathname };
}

/** Opens the form, fills it in and submits it, as a person would (prefilled and hidden values included). */
async function submitForm(browser: LinkBrowser, formUrl: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  const form = await browser.get(formUrl);
  expect(form.statusCode, form.body).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const present: Record<string, string> = {};
  for (const [input] of form.body.matchAll(/<input [^>]*>/g)) {
    const name = / name="([^"]*)"/.exec(input)?.[1];
    if (name !== undefined) present[name] = decodeEntities(/ value="([^"]*)"/.exec(input)?.[1] ?? '');
  }
  return browser.post(decodeEntities(action), { ...present, ...fields });
}

function decodeEntities(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#96;', '`')
    .replaceAll('&amp;', '&');
}

function publicTokenOf(location: string): string {
  const token = new URL(location, 'http://x').searchParams.get('public_token');
  if (token === null) throw new Error(`no public_token in ${location}`);
  return token;
}

async function exchange(publicToken: string): Promise<{ connection_id: string; access_token: string; platform: string; store_unique_name?: string }> {
  const { client_id, client_secret } = t.org.credentials.sandbox;
  const response = await t.app.inject({
    method: 'POST',
    url: '/versioned/item/public_token/exchange',
    headers: clientHeaders(t.org),
    payload: { client_id, secret: client_secret, public_token: publicToken },
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response) as { connection_id: string; access_token: string; platform: string; store_unique_name?: string };
}

/** The webhook bodies as delivered (the sealed access token put back in its slot). */
async function eventsOf(connectionId: string, code: string): Promise<Record<string, unknown>[]> {
  const result = await t.db.pool.query<{ payload: Record<string, unknown> } & SealedSlots>(
    `SELECT payload, access_token_ciphertext, update_url_ciphertext FROM events
      WHERE connection_id = $1 AND code = $2 ORDER BY created_at`,
    [connectionId, code],
  );
  // As delivered: the sealed access token and update_url back in their slots (src/events/access-token-slot.ts).
  return result.rows.map((r) => deliveredBody(t.services.cipher, r.payload, r).body as Record<string, unknown>);
}

function expectHtml(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
}

// ---- tests -------------------------------------------------------------------

describe('picker and forms', () => {
  it('lists the platforms with their kind; unknown link tokens get a plain 404 page', async () => {
    const c = await create();
    const page = await new LinkBrowser(t.app).get(c.path);
    expectHtml(page, 200);
    expect(page.body).toContain('Choose the platform');
    for (const [id, name, kind] of [
      [CRED, 'Link Books', 'Accounting'],
      [SHOP, 'Link Shop', 'Commerce'],
      [OAUTH, 'Fake Ledger', 'Accounting'],
    ]) {
      expect(page.body).toContain(`href="${c.path}/${id ?? ''}"`);
      expect(page.body).toContain(`<span class="platform-name">${name ?? ''}</span><span class="platform-kind">${kind ?? ''}</span>`);
    }
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    const missing = await new LinkBrowser(t.app).get('/link/lk_doesnotexist');
    expectHtml(missing, 404);
    expect(missing.body).toContain('Link not found');
    expectHtml(await new LinkBrowser(t.app).get('/link/lk_doesnotexist/LINKBOOKS'), 404);
    expectHtml(await new LinkBrowser(t.app).get('/link/a/b/c'), 404);
  });

  it('?platform= skips the picker; labels are bound to inputs and secrets are password fields', async () => {
    const c = await create();
    const page = await new LinkBrowser(t.app).get(`${c.path}?platform=${CRED}`);
    expectHtml(page, 200);
    expect(page.body).toContain('Connect Link Books');
    expect(page.body).toContain('<label for="f-basic_username">Username</label>');
    expect(page.body).toMatch(/<input id="f-basic_username" name="basic_username" type="text" autocomplete="username"/);
    expect(page.body).toMatch(/<input id="f-basic_password" name="basic_password" type="password" autocomplete="current-password"/);
    expect(page.body).toContain('role="alert" aria-live="assertive"');
    expect(page.body).toContain('Choose a different platform');
    // The same attributes in @fastify/cookie's order.
    const [linkCookie, ...attributes] = String(page.headers['set-cookie']).split('; ');
    expect(linkCookie).toMatch(/^lp_link=[\w-]{43}$/);
    expect(attributes.map((attribute) => attribute.replace(/^Max-Age=\d+$/, 'Max-Age=N')).sort()).toEqual([
      'HttpOnly',
      'Max-Age=N',
      'Path=/link',
      'SameSite=Lax',
    ]);

    const lower = await new LinkBrowser(t.app).get(`${c.path}?platform=linkbooks`);
    expect(lower.body).toContain('Connect Link Books');
    const unknown = await new LinkBrowser(t.app).get(`${c.path}?platform=NOPE`);
    expectHtml(unknown, 404);
    expect(unknown.body).toContain('&quot;NOPE&quot; is not a platform we can connect');
  });

  it('a connection created with a platform goes straight to it, and to no other', async () => {
    const c = await create({ platform: CRED });
    const page = await new LinkBrowser(t.app).get(c.path);
    expect(page.body).toContain('Connect Link Books');
    expect(page.body).not.toContain('Choose a different platform');
    const other = await new LinkBrowser(t.app).get(`${c.path}/${SHOP}?redirect_url=https%3A%2F%2Fa.example%2F`);
    expect(other.statusCode).toBe(302);
    expect(other.headers.location).toBe(`${c.path}/${CRED}?redirect_url=https%3A%2F%2Fa.example%2F`);
  });

  it('prefills store_name and escapes every value it echoes', async () => {
    const c = await create({ name: '<script>alert("name")</script>' });
    const redirect = 'https://client.example/cb?x="><script>alert(1)</script>';
    const store = '"><img src=x onerror=alert(2)>';
    const page = await new LinkBrowser(t.app).get(
      `${c.path}/${SHOP}?${new URLSearchParams({ redirect_url: redirect, store_name: store }).toString()}`,
    );
    expectHtml(page, 200);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
    expect(page.body).toContain(`name="redirect_url" value="https://client.example/cb?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`);
    const picker = await new LinkBrowser(t.app).get(`${c.path}?${new URLSearchParams({ redirect_url: redirect }).toString()}`);
    expect(picker.body).not.toContain('<script>alert');
  });

  it('the store-name prefill: the field is filled in, sent once, and names the account', async () => {
    const c = await create();
    const form = await new LinkBrowser(t.app).get(`${c.path}/${SHOP}?store_name=corner-shop`);
    expect(form.body).toMatch(/<input id="f-store_name" name="store_name" type="text"[^>]*value="corner-shop">/);
    expect(form.body).not.toContain('type="hidden" name="store_name"');
    const response = await submitForm(new LinkBrowser(t.app), `${c.path}/${SHOP}?store_name=corner-shop`, { api_key: 'k' });
    expect(response.statusCode, response.body).toBe(303);
    expect(await exchange(publicTokenOf(String(response.headers.location)))).toMatchObject({
      connection_id: c.id,
      platform: SHOP,
      store_unique_name: 'corner-shop',
    });
  });

  it('refuses a redirect_url that is not http(s) and a malformed origin, with a page', async () => {
    const c = await create();
    for (const query of ['redirect_url=javascript%3Aalert(1)', 'redirect_url=https%3A%2F%2F', 'mode=popup&origin=https%3A%2F%2Fa.example%2Fpath']) {
      const page = await new LinkBrowser(t.app).get(`${c.path}?${query}`);
      expectHtml(page, 400);
      expect(page.body).toContain('This link is not valid');
    }
  });

  it('serves /link.js; the flow stays out of the OpenAPI document', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/link.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.body).toContain('event.origin !== url.origin');
    expect(script.body).toContain("'ledgerport:success'");
    expect(() => new Script(script.body)).not.toThrow();
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/link'))).toEqual([]);
  });
});

describe('credential platforms', () => {
  it('wrong credentials: the form again with a plain message, and CONNECTION_LINK_ERROR', async () => {
    const c = await create();
    const browser = new LinkBrowser(t.app);
    const response = await submitForm(browser, `${c.path}/${CRED}`, { basic_username: 'ann', basic_password: 'wrong' });
    expectHtml(response, 422);
    expect(response.body).toContain('Those credentials were not accepted by Link Books. Check the username and password.');
    expect(response.body).toContain('value="ann"');
    expect(response.body).not.toContain('value="wrong"');
    expect(response.body).toContain('aria-invalid="true"');
    const events = await eventsOf(c.id, 'CONNECTION_LINK_ERROR');
    expect(events).toEqual([
      {
        type: 'CONNECTION',
        code: 'CONNECTION_LINK_ERROR',
        connection_id: c.id,
        access_token: c.access_token,
        update_url: c.link_url,
        message: 'Those credentials were not accepted by Link Books. Check the username and password.',
        platform: CRED,
      },
    ]);

    const down = await browser.post(`${c.path}/${CRED}`, { csrf: csrfOf(response.body), basic_username: 'ann', basic_password: 'down' });
    expectHtml(down, 503);
    expect(down.body).toContain('Link Books could not be reached just now');
    expect(down.body).not.toContain('aria-invalid="true"');

    const missing = await browser.post(`${c.path}/${CRED}`, { csrf: csrfOf(response.body), basic_username: 'ann' });
    expectHtml(missing, 422);
    expect(missing.body).toContain('Enter your password.');
    expect(await eventsOf(c.id, 'CONNECTION_LINK_ERROR')).toHaveLength(2);
  });

  it('the SANDBOX test user user_link_error: a 503 page saying the platform could not be reached, and CONNECTION_LINK_ERROR', async () => {
    const c = await create();
    const browser = new LinkBrowser(t.app);
    const response = await submitForm(browser, `${c.path}/SANDBOX`, { basic_username: 'user_link_error', basic_password: 'pass_good' });
    expectHtml(response, 503);
    expect(response.body).toContain('could not be reached just now');
    const events = await eventsOf(c.id, 'CONNECTION_LINK_ERROR');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ code: 'CONNECTION_LINK_ERROR', connection_id: c.id, platform: 'SANDBOX' });
    const linked = await t.db.pool.query('SELECT 1 FROM connections WHERE id = $1 AND linked_at IS NOT NULL', [c.id]);
    expect(linked.rowCount).toBe(0);
  });

  it('a missing, forged or borrowed CSRF token gets a 403 page and changes nothing', async () => {
    const c = await create();
    const other = await create();
    const browser = new LinkBrowser(t.app);
    const form = await browser.get(`${c.path}/${CRED}`);
    const good = { basic_username: 'csrf', basic_password: 'secret' };
    const attempts: [LinkBrowser, Record<string, string>, string][] = [
      [browser, good, c.path],
      [browser, { ...good, csrf: 'forged' }, c.path],
      [browser, { ...good, csrf: csrfOf(form.body) }, other.path],
      [new LinkBrowser(t.app), { ...good, csrf: csrfOf(form.body) }, c.path],
    ];
    for (const [who, fields, path] of attempts) {
      const response = await who.post(`${path}/${CRED}`, fields);
      expectHtml(response, 403);
      expect(response.body).toContain('This form has expired or was not sent from this page');
    }
    const linked = await t.db.pool.query('SELECT 1 FROM connections WHERE id = ANY($1) AND linked_at IS NOT NULL', [[c.id, other.id]]);
    expect(linked.rowCount).toBe(0);
  });

  it('success: 303 to redirect_url with public_token (its query kept), initial sync queued, exchange works', async () => {
    const c = await create();
    const response = await submitForm(
      new LinkBrowser(t.app),
      `${c.path}/${CRED}?redirect_url=${encodeURIComponent('https://client.example/done?state=abc')}`,
      { basic_username: 'dora', basic_password: 'secret' },
    );
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://client.example/done');
    expect(location.searchParams.get('state')).toBe('abc');
    const exchanged = await exchange(publicTokenOf(location.href));
    expect(exchanged).toMatchObject({ connection_id: c.id, access_token: c.access_token, platform: CRED, store_unique_name: 'acct-dora' });
    const runs = await t.db.pool.query('SELECT kind, trigger, status FROM sync_runs WHERE connection_id = $1', [c.id]);
    expect(runs.rows).toEqual([{ kind: 'initial', trigger: 'link', status: 'queued' }]);
    expect(await eventsOf(c.id, 'CONNECTION_UPDATED')).toHaveLength(1);
  });

  it('uses the stored redirect_url, else the completion page', async () => {
    const stored = await create({ redirect_url: 'https://client.example/stored' });
    const response = await submitForm(new LinkBrowser(t.app), `${stored.path}/${CRED}`, { basic_username: 'ed', basic_password: 'secret' });
    expect(String(response.headers.location)).toMatch(/^https:\/\/client\.example\/stored\?public_token=lppt_/);

    const plain = await create();
    const done = await submitForm(new LinkBrowser(t.app), `${plain.path}/${CRED}`, { basic_username: 'flo', basic_password: 'secret' });
    expect(done.statusCode).toBe(303);
    expect(String(done.headers.location)).toMatch(/^\/link\/done\?platform=LINKBOOKS&public_token=lppt_/);
    const page = await new LinkBrowser(t.app).get(String(done.headers.location));
    expectHtml(page, 200);
    expect(page.body).toContain('Your Link Books account is now connected');
    expect(page.body).not.toContain('data-token');
    expect(page.body).not.toContain('<script');
  });

  it('popup mode: the completion page posts the token to the given origin only', async () => {
    const c = await create({ redirect_url: 'https://client.example/stored' });
    const response = await submitForm(
      new LinkBrowser(t.app),
      `${c.path}/${CRED}?mode=popup&origin=${encodeURIComponent('https://Host.example:8443')}`,
      { basic_username: 'gus', basic_password: 'secret' },
    );
    expect(response.statusCode).toBe(303);
    const location = String(response.headers.location);
    expect(location).toMatch(/^\/link\/done\?platform=LINKBOOKS&mode=popup&origin=https%3A%2F%2Fhost\.example%3A8443&public_token=lppt_/);
    const page = await new LinkBrowser(t.app).get(location);
    expectHtml(page, 200);
    expect(page.body).toContain(`data-origin="https://host.example:8443" data-token="${publicTokenOf(location)}"`);
    expect(page.body).toContain("window.opener.postMessage({ type: 'ledgerport:success', public_token: data.token }, data.origin)");
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    expect(page.body).toContain(`<script nonce="${nonce ?? 'missing'}">`);
  });

  it('de-duplicates: linking the same account from a new connection returns the existing one', async () => {
    const first = await create();
    const one = await submitForm(new LinkBrowser(t.app), `${first.path}/${CRED}`, { basic_username: 'hal', basic_password: 'secret' });
    expect((await exchange(publicTokenOf(String(one.headers.location)))).connection_id).toBe(first.id);

    const second = await create();
    const two = await submitForm(new LinkBrowser(t.app), `${second.path}/${CRED}`, { basic_username: 'hal', basic_password: 'secret' });
    expect(two.statusCode).toBe(303);
    const exchanged = await exchange(publicTokenOf(String(two.headers.location)));
    expect(exchanged).toMatchObject({ connection_id: first.id, access_token: first.access_token });
    // The second connection stays, pointing at the first: its access token answers IS_DUPLICATE naming the holder.
    const read = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/accounts?access_token=${second.access_token}`,
      headers: clientHeaders(t.org),
    });
    expect(read.statusCode, read.body).toBe(409);
    expect(json(read)).toMatchObject({ error_type: 'CONNECTION_ERROR', error_code: 'IS_DUPLICATE', error_metadata: { connection_id: first.id } });
    expect(String(json(read).error_message)).toContain(first.id);
    const runs = await t.db.pool.query('SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1', [first.id]);
    expect(runs.rows[0]).toEqual({ n: 1 });
  });

  it('re-authentication keeps the access_token and sends CONNECTION_UPDATED; another account is refused', async () => {
    const c = await create();
    const browser = new LinkBrowser(t.app);
    await submitForm(browser, `${c.path}/${CRED}`, { basic_username: 'ivy', basic_password: 'secret' });
    const again = await browser.get(c.path);
    expect(again.body).toContain('Reconnect Link Books');
    const response = await submitForm(browser, c.path, { basic_username: 'ivy', basic_password: 'secret' });
    expect(response.statusCode).toBe(303);
    expect(await exchange(publicTokenOf(String(response.headers.location)))).toMatchObject({ connection_id: c.id, access_token: c.access_token });
    const updates = await eventsOf(c.id, 'CONNECTION_UPDATED');
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({ connection_id: c.id, access_token: c.access_token, store_unique_id: 'acct-ivy' });
    const runs = await t.db.pool.query('SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1', [c.id]);
    expect(runs.rows[0]).toEqual({ n: 1 });

    const swapped = await submitForm(browser, c.path, { basic_username: 'jim', basic_password: 'secret' });
    expectHtml(swapped, 422);
    expect(swapped.body).toContain('You signed in to a different Link Books account. To reconnect, sign in to &quot;Books of ivy&quot;.');
    expect(await eventsOf(c.id, 'CONNECTION_LINK_ERROR')).toHaveLength(1);
    const row = await t.db.pool.query('SELECT store_unique_id FROM connections WHERE id = $1', [c.id]);
    expect(row.rows[0]).toEqual({ store_unique_id: 'acct-ivy' });
  });
});

describe('OAuth platforms', () => {
  const callbackUrl = 'http://localhost:8080/link/oauth/callback';

  beforeEach(() => {
    tenantCount = 2;
  });

  async function registerApp(): Promise<void> {
    await t.db.pool.query(
      `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri)
       VALUES ($1, 'sandbox', $2, 'app-id', $3, $4) ON CONFLICT DO NOTHING`,
      [t.org.organization.id, OAUTH, t.services.cipher.encrypt('app-secret'), callbackUrl],
    );
  }

  /** Starts the flow; returns the consent page address. */
  async function consent(browser: LinkBrowser, path: string): Promise<URL> {
    const start = await browser.get(path);
    expect(start.statusCode, start.body).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fakeBase}/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe('app-id');
    expect(authorize.searchParams.get('redirect_uri')).toBe(callbackUrl);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
    return authorize;
  }

  /** The fake platform's consent answer: where it sends the browser back to. */
  async function consentAnswer(authorize: URL): Promise<string> {
    const answer = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location') ?? '');
    return `${back.pathname}${back.search}`;
  }

  it('without a registered OAuth app: a plain page and CONNECTION_LINK_ERROR', async () => {
    const c = await create();
    const page = await new LinkBrowser(t.app).get(`${c.path}/${OAUTH}`);
    expectHtml(page, 503);
    expect(page.body).toContain('Fake Ledger is not set up for this app yet');
    expect(page.body).toContain('register your Fake Ledger OAuth app for the sandbox environment');
    expect(await eventsOf(c.id, 'CONNECTION_LINK_ERROR')).toMatchObject([{ platform: OAUTH, update_url: c.link_url }]);
  });

  it('consent → callback → organisation picker → linked, with the tenant in the stored tokens', async () => {
    await registerApp();
    const c = await create({ redirect_url: 'https://client.example/oauth-done' });
    const browser = new LinkBrowser(t.app);
    const authorize = await consent(browser, `${c.path}?platform=${OAUTH}`);
    const picker = await browser.get(await consentAnswer(authorize));
    expectHtml(picker, 200);
    expect(picker.body).toContain('Choose an organisation');
    expect(picker.body).toContain('value="t-1" required autofocus> First &lt;Org&gt;</label>');
    expect(picker.body).toContain('value="t-2" required> Second Org</label>');
    const state = /name="state" value="([^"]+)"/.exec(picker.body)?.[1] ?? '';
    expect(state).not.toBe(authorize.searchParams.get('state'));

    const forged = await browser.post('/link/oauth/tenant', { csrf: 'nope', state, tenant: 't-2' });
    expectHtml(forged, 403);
    const none = await browser.post('/link/oauth/tenant', { csrf: csrfOf(picker.body), state });
    expectHtml(none, 422);
    expect(none.body).toContain('Choose an organisation to continue.');
    const nextState = /name="state" value="([^"]+)"/.exec(none.body)?.[1] ?? '';
    const chosen = await browser.post('/link/oauth/tenant', { csrf: csrfOf(none.body), state: nextState, tenant: 't-2' });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(String(chosen.headers.location)).toMatch(/^https:\/\/client\.example\/oauth-done\?public_token=lppt_/);
    expect(await exchange(publicTokenOf(String(chosen.headers.location)))).toMatchObject({
      connection_id: c.id,
      platform: OAUTH,
      store_unique_name: 't-2',
    });
    const row = await t.db.pool.query<{ oauth_tokens_ciphertext: Buffer; store_unique_id: string }>(
      'SELECT oauth_tokens_ciphertext, store_unique_id FROM connections WHERE id = $1',
      [c.id],
    );
    expect(row.rows[0]?.store_unique_id).toBe('t-2');
    expect(openTokens(t.services.cipher, row.rows[0]?.oauth_tokens_ciphertext ?? null)).toEqual({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      expiresAt: null,
      tenantId: 't-2',
    });

    // Both states were single use.
    const reused = await browser.post('/link/oauth/tenant', { csrf: csrfOf(none.body), state: nextState, tenant: 't-2' });
    expectHtml(reused, 400);
    expect(reused.body).toContain('already been used');
  });

  it('asks for the authorisation input before consent: a bad value is a 400 form, a good one reaches consent, exchange, picker and credentials', async () => {
    await t.db.pool.query(
      `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri)
       VALUES ($1, 'sandbox', $2, 'app-id', $3, $4) ON CONFLICT DO NOTHING`,
      [t.org.organization.id, REGIONAL, t.services.cipher.encrypt('app-secret'), callbackUrl],
    );
    const c = await create({ redirect_url: 'https://client.example/oauth-done' });
    const browser = new LinkBrowser(t.app);
    const formUrl = `${c.path}/${REGIONAL}?redirect_url=${encodeURIComponent('https://client.example/oauth-done')}`;
    const form = await browser.get(formUrl);
    expectHtml(form, 200);
    expect(form.body).toContain('name="region"');
    const refused = await submitForm(browser, formUrl, { region: 'mars' });
    expectHtml(refused, 400);
    expect(refused.body).toContain('Region: One of eu, na or fe.');
    expect(refused.body).toContain('value="mars"');
    expect(Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM oauth_states WHERE connection_id = $1', [c.id])).rows[0]?.n)).toBe(
      0,
    );

    const start = await submitForm(browser, formUrl, { region: ' EU ' });
    expect(start.statusCode, start.body).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.searchParams.get('region')).toBe('eu');
    const picker = await browser.get(await consentAnswer(authorize));
    expectHtml(picker, 200);
    const state = /name="state" value="([^"]+)"/.exec(picker.body)?.[1] ?? '';
    const chosen = await browser.post('/link/oauth/tenant', { csrf: csrfOf(picker.body), state, tenant: 't-1' });
    expect(chosen.statusCode, chosen.body).toBe(303);
    expect(String(chosen.headers.location)).toMatch(/^https:\/\/client\.example\/oauth-done\?public_token=lppt_/);
    expect(regionInputs.at(-1)).toEqual({ region: 'eu' });
    const row = await t.db.pool.query<{ credentials_ciphertext: Buffer; store_name: string }>(
      'SELECT credentials_ciphertext, store_name FROM connections WHERE id = $1',
      [c.id],
    );
    // Kept through the organisation picker, seen by identify, stored sealed as the connection's credentials.
    expect(row.rows[0]?.store_name).toBe('Org in eu');
    expect(JSON.parse(t.services.cipher.decrypt(row.rows[0]?.credentials_ciphertext ?? Buffer.alloc(0)))).toEqual({ region: 'eu' });
  });

  it('the store-name prefill gives an authorisation input field its value: a good one starts at consent, a bad one fills the form', async () => {
    const c = await create({ redirect_url: 'https://client.example/oauth-done' });
    const started = await new LinkBrowser(t.app).get(`${c.path}/${REGIONAL}?store_name=NA`);
    expect(started.statusCode, started.body).toBe(302);
    expect(new URL(String(started.headers.location)).searchParams.get('region')).toBe('na');
    const d = await create({ redirect_url: 'https://client.example/oauth-done' });
    const form = await new LinkBrowser(t.app).get(`${d.path}/${REGIONAL}?store_name=Mars`);
    expectHtml(form, 200);
    expect(form.body).toMatch(/name="region"[^>]*value="mars"/);
    expect(Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM oauth_states WHERE connection_id = $1', [d.id])).rows[0]?.n)).toBe(
      0,
    );
  });

  it('one tenant: no picker; popup mode survives the round trip', async () => {
    await registerApp();
    tenantCount = 1;
    const c = await create();
    const browser = new LinkBrowser(t.app);
    const authorize = await consent(browser, `${c.path}/${OAUTH}?mode=popup&origin=${encodeURIComponent('https://host.example')}`);
    const exchanges = callbacks.length;
    const done = await browser.get(await consentAnswer(authorize));
    // The callback's parameters the connector declared reach its code exchange as sent; nothing else does.
    expect(callbacks.slice(exchanges)).toEqual([{ shop: 'fake-shop.example', hmac: 'f00d' }]);
    expect(done.statusCode, done.body).toBe(303);
    expect(String(done.headers.location)).toMatch(
      /^\/link\/done\?platform=FAKEOAUTH&mode=popup&origin=https%3A%2F%2Fhost\.example&public_token=lppt_/,
    );
    expect((await exchange(publicTokenOf(String(done.headers.location)))).connection_id).toBe(c.id);
  });

  it('access_denied: a plain page and CONNECTION_LINK_ERROR; a reused state is refused', async () => {
    await registerApp();
    const c = await create();
    const browser = new LinkBrowser(t.app);
    const authorize = await consent(browser, `${c.path}/${OAUTH}`);
    const state = authorize.searchParams.get('state') ?? '';
    const denied = await browser.get(`/link/oauth/callback?${new URLSearchParams({ error: 'access_denied', state }).toString()}`);
    expectHtml(denied, 400);
    expect(denied.body).toContain('Access was declined on Fake Ledger, so nothing was connected.');
    expect(denied.body).toContain(`href="${c.path}"`);
    expect(await eventsOf(c.id, 'CONNECTION_LINK_ERROR')).toMatchObject([
      {
        platform: OAUTH,
        update_url: c.link_url,
        message: 'Access was declined on Fake Ledger, so nothing was connected. Start again if you meant to allow it.',
      },
    ]);
    const reused = await browser.get(`/link/oauth/callback?${new URLSearchParams({ code: 'code-x', state }).toString()}`);
    expectHtml(reused, 400);
    expect(reused.body).toContain('already been used');
  });

  it('refuses a callback from another browser, without a state, or after 15 minutes', async () => {
    await registerApp();
    const c = await create();
    const browser = new LinkBrowser(t.app);
    const back = await consentAnswer(await consent(browser, `${c.path}/${OAUTH}`));
    expectHtml(await new LinkBrowser(t.app).get(back), 403);
    expectHtml(await browser.get('/link/oauth/callback?code=abc'), 400);
    await t.db.pool.query(`UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE connection_id = $1`, [c.id]);
    const late = await browser.get(back);
    expectHtml(late, 400);
    expect(late.body).toContain('took longer than 15 minutes');
    expect(await eventsOf(c.id, 'CONNECTION_LINK_ERROR')).toHaveLength(1);
  });
});

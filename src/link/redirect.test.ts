/**
 * No open redirect in the link flow (issue 19, item 4): a redirect_url, from
 * connection creation or from the link's query string, is used only when the
 * organisation allows it for the environment (admin API and CLI), or, with no
 * list in sandbox, when it is the one given at creation. Everything else is a
 * page (link flow) or a 400 naming redirect_url (creation), and nothing links.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf, LinkBrowser } from '../../test/support/link-browser.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../test/support/app.ts';
import { ROOT } from '../../test/support/process.ts';
import type { Connector } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { getConnector, registerConnector } from '../platforms/registry.ts';
import type { CreatedOrganization } from '../tenants/organizations.ts';
import type { Environment } from '../tenants/types.ts';

const CRED = 'REDIRBOOKS';
const OAUTH = 'REDIROAUTH';
const EVIL = 'https://evil.example/steal';

const objects: Connector['objects'] = {
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
    handler: { read: () => Promise.resolve({ records: [], nextPageToken: null }), map: (record) => ({ platform_id: record.platformId }) },
  },
};

const credentialConnector: Connector = {
  id: CRED,
  name: 'Redirect Books',
  kind: 'accounting',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'basic_username', label: 'Username', required: true, secret: false },
      { field: 'basic_password', label: 'Password', required: true, secret: true },
    ],
  },
  identify: (ctx) =>
    ctx.credentials.basic_password === 'secret'
      ? Promise.resolve({ storeUniqueId: `acct-${ctx.credentials.basic_username ?? ''}`, storeName: null })
      : Promise.reject(new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'bad login' })),
  objects,
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

const oauthConnector: Connector = {
  ...credentialConnector,
  id: OAUTH,
  name: 'Redirect OAuth',
  auth: {
    type: 'oauth2',
    authorizeUrl: (_app, state) => `https://login.example/authorize?state=${state}`,
    exchangeCode: () => Promise.reject(new Error('not used')),
    refresh: () => Promise.reject(new Error('not used')),
  },
};

let t: TestApp;
beforeAll(async () => {
  for (const connector of [credentialConnector, oauthConnector]) if (getConnector(connector.id) === undefined) registerConnector(connector);
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const admin = () => ({ authorization: `Bearer ${t.adminToken}` });

function putList(org: CreatedOrganization, environment: Environment, urls: unknown[]): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PUT',
    url: `/admin/organizations/${org.organization.id}/redirect_urls`,
    headers: admin(),
    payload: { environment, urls },
  });
}

async function allow(org: CreatedOrganization, environment: Environment, urls: string[]): Promise<void> {
  const response = await putList(org, environment, urls);
  expect(response.statusCode, response.body).toBe(200);
}

function createRaw(org: CreatedOrganization, environment: Environment, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(org, environment), payload: body });
}

async function create(org: CreatedOrganization, environment: Environment, body: Record<string, unknown> = {}): Promise<{ id: string; path: string }> {
  const response = await createRaw(org, environment, body);
  expect(response.statusCode, response.body).toBe(200);
  const { connection } = json(response) as { connection: { id: string; link_url: string } };
  return { id: connection.id, path: new URL(connection.link_url).pathname };
}

async function linkedAt(connectionId: string): Promise<Date | null> {
  const row = await t.db.pool.query<{ linked_at: Date | null }>('SELECT linked_at FROM connections WHERE id = $1', [connectionId]);
  return row.rows[0]?.linked_at ?? null;
}

function expectRefusedPage(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers.location).toBeUndefined();
  expect(response.body).toContain('that address is not allowed here');
  expect(response.body).not.toContain('public_token');
}

const query = (redirect: string): string => `?${new URLSearchParams({ redirect_url: redirect }).toString()}`;

describe("the reviewer's exploit: a redirect_url in the link address", () => {
  it('sandbox without a list: refused on every page, the form post included, and nothing is linked', async () => {
    const org = await t.newOrg('Exploit sandbox');
    const c = await create(org, 'sandbox', { redirect_url: 'https://client.example/stored' });
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}${query(EVIL)}`));
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${CRED}${query(EVIL)}`));

    // A form opened without the parameter, posted with it as a hidden field: refused before the platform is asked.
    const browser = new LinkBrowser(t.app);
    const form = await browser.get(`${c.path}/${CRED}`);
    expect(form.statusCode, form.body).toBe(200);
    const posted = await browser.post(`${c.path}/${CRED}`, {
      csrf: csrfOf(form.body),
      basic_username: 'ann',
      basic_password: 'secret',
      redirect_url: EVIL,
    });
    expectRefusedPage(posted);
    expect(await linkedAt(c.id)).toBeNull();
  });

  it('an OAuth platform: refused before the consent page, no sign-in state is kept', async () => {
    const org = await t.newOrg('Exploit OAuth');
    await t.db.pool.query(
      `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri)
       VALUES ($1, 'sandbox', $2, 'app', $3, 'http://localhost/link/oauth/callback')`,
      [org.organization.id, OAUTH, t.services.cipher.encrypt('app-secret')],
    );
    const c = await create(org, 'sandbox');
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${OAUTH}${query(EVIL)}`));
    const states = await t.db.pool.query('SELECT 1 FROM oauth_states WHERE connection_id = $1', [c.id]);
    expect(states.rowCount).toBe(0);
    // Without it the flow goes to the consent page as before.
    const start = await new LinkBrowser(t.app).get(`${c.path}/${OAUTH}`);
    expect(start.statusCode, start.body).toBe(302);
    expect(String(start.headers.location)).toMatch(/^https:\/\/login\.example\/authorize\?state=/);
  });
});

describe('sandbox without a list (the README walk-through)', () => {
  it('the redirect_url given at creation is used, also when the link repeats it', async () => {
    const org = await t.newOrg('Sandbox default');
    const stored = 'https://client.example/stored?state=1';
    const c = await create(org, 'sandbox', { redirect_url: stored });
    for (const path of [`${c.path}/${CRED}`, `${c.path}/${CRED}${query(stored)}`]) {
      const browser = new LinkBrowser(t.app);
      const form = await browser.get(path);
      expect(form.statusCode, form.body).toBe(200);
      const done = await browser.post(`${c.path}/${CRED}`, {
        csrf: csrfOf(form.body),
        basic_username: 'bo',
        basic_password: 'secret',
        ...(path.includes('?') ? { redirect_url: stored } : {}),
      });
      expect(done.statusCode, done.body).toBe(303);
      expect(String(done.headers.location)).toMatch(/^https:\/\/client\.example\/stored\?state=1&public_token=lppt_/);
    }
    // Without any redirect the completion page is used.
    const plain = await create(org, 'sandbox');
    expect((await new LinkBrowser(t.app).get(`${plain.path}/${CRED}`)).statusCode).toBe(200);
  });
});

describe('production', () => {
  it('without a list: creation with redirect_url is a 400 naming it and saying how to allow it; nothing is created', async () => {
    const org = await t.newOrg('Production default');
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM connections WHERE organization_id = $1', [org.organization.id]);
    const response = await createRaw(org, 'production', { redirect_url: 'https://app.example.com/connected' });
    expect(response.statusCode).toBe(400);
    const body = errorBody(response);
    expect(body).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'redirect_url', location: 'body' } });
    expect(body.error_message).toContain('the production environment has no allowed redirect URLs');
    expect(body.error_message).toContain(`PUT /admin/organizations/${org.organization.id}/redirect_urls`);
    expect(body.error_message).toContain('ledgerport redirect-url set');
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM connections WHERE organization_id = $1', [org.organization.id]);
    expect(after.rows).toEqual(before.rows);

    // A link address with a redirect_url is refused too; without one the flow works.
    const c = await create(org, 'production');
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${CRED}${query('https://app.example.com/connected')}`));
    expect((await new LinkBrowser(t.app).get(`${c.path}/${CRED}`)).statusCode).toBe(200);
  });

  it('with a list: a listed URL (any query string) is used; other schemes, hosts, ports, paths and user info are refused', async () => {
    const org = await t.newOrg('Production listed');
    await allow(org, 'production', ['https://App.Example.com:443/connected']);
    const c = await create(org, 'production', { redirect_url: 'https://app.example.com/connected?from=create' });

    const browser = new LinkBrowser(t.app);
    const form = await browser.get(`${c.path}/${CRED}${query('https://app.example.com/connected?user=42')}`);
    expect(form.statusCode, form.body).toBe(200);
    const done = await browser.post(`${c.path}/${CRED}`, {
      csrf: csrfOf(form.body),
      basic_username: 'cy',
      basic_password: 'secret',
      redirect_url: 'https://app.example.com/connected?user=42',
    });
    expect(done.statusCode, done.body).toBe(303);
    expect(String(done.headers.location)).toMatch(/^https:\/\/app\.example\.com\/connected\?user=42&public_token=lppt_/);

    for (const other of [
      'http://app.example.com/connected',
      'https://app.example.com:8443/connected',
      'https://app.example.com/connected/',
      'https://app.example.com/other',
      'https://evil.example/connected',
      'https://app.example.com.evil.example/connected',
      'https://user@app.example.com/connected',
      'https://app.example.com/connected#x',
    ]) {
      expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${CRED}${query(other)}`));
      const created = await createRaw(org, 'production', { redirect_url: other });
      expect(created.statusCode, other).toBe(400);
      expect(errorBody(created).error_metadata).toMatchObject({ field: 'redirect_url' });
    }
  });

  it('a stored redirect_url the list no longer holds is refused when the end user arrives', async () => {
    const org = await t.newOrg('Production changed');
    await allow(org, 'production', ['https://app.example.com/old']);
    const c = await create(org, 'production', { redirect_url: 'https://app.example.com/old' });
    await allow(org, 'production', ['https://app.example.com/new']);
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${CRED}`));
  });
});

describe('a list in sandbox', () => {
  it('replaces the creation default: the creation redirect_url must be listed; an empty list allows none', async () => {
    const org = await t.newOrg('Sandbox listed');
    await allow(org, 'sandbox', ['https://app.example.com/connected']);
    expect((await createRaw(org, 'sandbox', { redirect_url: 'https://app.example.com/elsewhere' })).statusCode).toBe(400);
    const c = await create(org, 'sandbox', { redirect_url: 'https://app.example.com/connected' });
    expect((await new LinkBrowser(t.app).get(`${c.path}/${CRED}`)).statusCode).toBe(200);

    await allow(org, 'sandbox', []);
    expectRefusedPage(await new LinkBrowser(t.app).get(`${c.path}/${CRED}`));
    const refused = await createRaw(org, 'sandbox', { redirect_url: 'https://app.example.com/connected' });
    expect(errorBody(refused).error_message).toContain("is not on the sandbox environment's allowed redirect URLs");

    // Removing the list goes back to the sandbox default.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/admin/organizations/${org.organization.id}/redirect_urls?environment=sandbox`,
      headers: admin(),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await new LinkBrowser(t.app).get(`${c.path}/${CRED}`)).statusCode).toBe(200);
  });
});

describe("popup mode: the token goes to the opener's origin, under the same rule", () => {
  const popup = (origin: string): string => `?${new URLSearchParams({ mode: 'popup', origin }).toString()}`;

  it('a list is set: only the origin of a listed URL; without a list, sandbox accepts it and production refuses it', async () => {
    const org = await t.newOrg('Popup origins');
    const sandbox = await create(org, 'sandbox');
    expect((await new LinkBrowser(t.app).get(`${sandbox.path}/${CRED}${popup('https://evil.example')}`)).statusCode).toBe(200);
    await allow(org, 'sandbox', ['https://app.example.com/connected']);
    expect((await new LinkBrowser(t.app).get(`${sandbox.path}/${CRED}${popup('https://app.example.com')}`)).statusCode).toBe(200);
    for (const origin of ['https://evil.example', 'http://app.example.com', 'https://app.example.com:8443']) {
      expectRefusedPage(await new LinkBrowser(t.app).get(`${sandbox.path}/${CRED}${popup(origin)}`));
    }

    const production = await create(org, 'production');
    expectRefusedPage(await new LinkBrowser(t.app).get(`${production.path}/${CRED}${popup('https://app.example.com')}`));
  });

  it('the completion reached through an allowed popup origin carries the token to that origin only', async () => {
    const org = await t.newOrg('Popup completion');
    await allow(org, 'production', ['https://app.example.com/connected']);
    const c = await create(org, 'production');
    const browser = new LinkBrowser(t.app);
    const form = await browser.get(`${c.path}/${CRED}${popup('https://app.example.com')}`);
    expect(form.statusCode, form.body).toBe(200);
    const done = await browser.post(`${c.path}/${CRED}`, {
      csrf: csrfOf(form.body),
      basic_username: 'di',
      basic_password: 'secret',
      mode: 'popup',
      origin: 'https://app.example.com',
    });
    expect(done.statusCode, done.body).toBe(303);
    expect(String(done.headers.location)).toMatch(
      /^\/link\/done\?platform=REDIRBOOKS&mode=popup&origin=https%3A%2F%2Fapp\.example\.com&public_token=lppt_/,
    );
    // A forged post with another origin is refused before the platform is asked.
    const forged = await browser.post(`${c.path}/${CRED}`, {
      csrf: csrfOf(form.body),
      basic_username: 'di',
      basic_password: 'secret',
      mode: 'popup',
      origin: 'https://evil.example',
    });
    expectRefusedPage(forged);
  });
});

describe('admin API', () => {
  it('sets, normalises, lists and removes the list of each environment', async () => {
    const org = await t.newOrg('Admin lists');
    const set = await putList(org, 'production', [
      'HTTPS://App.Example.com:443/a/../connected',
      'https://app.example.com/connected',
      'http://localhost:3000/cb',
    ]);
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set)).toMatchObject({
      redirect_urls: { environment: 'production', urls: ['https://app.example.com/connected', 'http://localhost:3000/cb'] },
    });
    await allow(org, 'sandbox', ['http://dev.example.test:8080/cb']);
    const listed = await t.app.inject({ method: 'GET', url: `/admin/organizations/${org.organization.id}/redirect_urls`, headers: admin() });
    expect((json(listed) as { redirect_urls: { environment: string; urls: string[] }[] }).redirect_urls.map((l) => [l.environment, l.urls])).toEqual([
      ['sandbox', ['http://dev.example.test:8080/cb']],
      ['production', ['https://app.example.com/connected', 'http://localhost:3000/cb']],
    ]);
    const url = `/admin/organizations/${org.organization.id}/redirect_urls?environment=production`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: admin() })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url, headers: admin() })).statusCode).toBe(410);
  });

  it('refuses entries it could never match safely, naming the entry, and changes nothing', async () => {
    const org = await t.newOrg('Admin refusals');
    await allow(org, 'production', ['https://app.example.com/kept']);
    const cases: [Environment, unknown[], string][] = [
      ['production', ['http://app.example.com/cb'], 'must use https in production'],
      ['production', ['https://app.example.com/ok', 'https://app.example.com/cb?x=1'], 'must not contain a query string'],
      ['sandbox', ['https://app.example.com/cb#frag'], 'must not contain a #fragment'],
      ['sandbox', ['https://user:pw@app.example.com/cb'], 'must not contain credentials'],
      ['sandbox', ['javascript:alert(1)'], 'must be an absolute http or https URL'],
      ['sandbox', ['/relative'], 'must be an absolute http or https URL'],
    ];
    for (const [environment, urls, message] of cases) {
      const response = await putList(org, environment, urls);
      expect(response.statusCode, JSON.stringify(urls)).toBe(400);
      const body = errorBody(response);
      expect(body.error_message).toContain(message);
      expect(body.error_metadata).toMatchObject({ field: `urls/${urls.length - 1}`, location: 'body' });
    }
    const tooMany = await putList(
      org,
      'sandbox',
      Array.from({ length: 51 }, (_, i) => `https://app.example.com/${i}`),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(errorBody(tooMany).error_metadata).toMatchObject({ field: 'urls' });
    const lists = await t.db.pool.query('SELECT environment, urls FROM redirect_url_lists WHERE organization_id = $1', [org.organization.id]);
    expect(lists.rows).toEqual([{ environment: 'production', urls: ['https://app.example.com/kept'] }]);

    expect(
      (await putList({ ...org, organization: { ...org.organization, id: '00000000-0000-4000-8000-000000000000' } }, 'sandbox', [])).statusCode,
    ).toBe(410);
    const noToken = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${org.organization.id}/redirect_urls`,
      payload: { environment: 'sandbox', urls: [] },
    });
    expect(noToken.statusCode).toBe(401);
  });
});

describe('ledgerport redirect-url (CLI)', () => {
  const run = promisify(execFile);
  const fixed = { ADMIN_TOKEN: `cli-test-${randomBytes(8).toString('hex')}`, ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['bin/ledgerport.js', 'redirect-url', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: t.db.url, ...fixed, DATA_DIR: '/tmp/ledgerport-test-data', LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('sets, gets and deletes over the same functions as the API; usage errors cost no database', async () => {
    const org = await t.newOrg('CLI lists');
    const id = org.organization.id;
    const set = await cli([
      'set',
      '--id',
      id,
      '--environment',
      'production',
      '--url',
      'https://app.example.com/a',
      '--url',
      'https://app.example.com/b',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect((JSON.parse(set.stdout) as { redirect_urls: { urls: string[] } }).redirect_urls.urls).toEqual([
      'https://app.example.com/a',
      'https://app.example.com/b',
    ]);
    expect((await create(org, 'production', { redirect_url: 'https://app.example.com/b' })).id).toMatch(/^[0-9a-f-]{36}$/);

    const got = await cli(['get', '--id', id]);
    expect(got.code, got.stderr).toBe(0);
    expect((JSON.parse(got.stdout) as { redirect_urls: { environment: string }[] }).redirect_urls.map((l) => l.environment)).toEqual(['production']);

    const bad = await cli(['set', '--id', id, '--environment', 'production', '--url', 'http://app.example.com/a']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must use https in production');

    const none = await cli(['set', '--id', id, '--environment', 'sandbox', '--none']);
    expect(none.code, none.stderr).toBe(0);
    expect((await createRaw(org, 'sandbox', { redirect_url: 'https://app.example.com/a' })).statusCode).toBe(400);

    const deleted = await cli(['delete', '--id', id, '--environment', 'sandbox']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: true });

    expect((await cli(['set', '--id', id, '--environment', 'sandbox'])).code).toBe(2);
    expect((await cli(['set', '--id', id, '--environment', 'staging', '--url', 'https://a.example/'])).code).toBe(2);
    expect((await cli(['get', '--id', 'nope'])).code).toBe(2);
  }, 180_000);
});

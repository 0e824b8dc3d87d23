import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { SandboxPlatform } from '../platform.ts';
import { MAX_SIZE } from '../scenarios.ts';
import { simulatorBooks } from './books.ts';
import { simulatorHost, SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET, type SimulatorHost } from './host.ts';
import type { PlatformSimulator, SimulatorGrant } from './kit.ts';

// A platform of one endpoint, to test what the kit does for every simulator: consent, codes, tokens, bearer checks.
const seen: SimulatorGrant[] = [];
const fake: PlatformSimulator = {
  platform: 'FAKEPLAT',
  name: 'Fake Platform',
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    accessTokenSeconds: 1800,
    callbackParams: (tenantId) => ({ realm: tenantId }),
  },
  tenantId: (accountKey) => `tenant-of-${accountKey}`,
  links: { tokenParam: 'link', pathPrefix: '/file' },
  async handle(request, grant) {
    seen.push(grant);
    if (request.path === '/api/link') return { status: 200, body: { url: `https://files.fake.example/file?link=${await grant.linkToken(60)}` } };
    if (request.path === '/file') return { status: 200, body: `file of ${grant.accountKey}` };
    if (request.path !== '/api/company') return { status: 404, body: { message: 'no such path' } };
    const accounts = await grant.books.all('account');
    return { status: 200, body: { name: grant.books.company.name, accounts: accounts.length, tenant: grant.tenantId } };
  },
};

const app = { clientId: SIMULATOR_CLIENT_ID, clientSecret: SIMULATOR_CLIENT_SECRET, redirectUri: '/link/oauth/callback' };
const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(SIMULATOR_CLIENT_ID, SIMULATOR_CLIENT_SECRET) },
  body: new URLSearchParams(fields).toString(),
});
const consentQuery = (overrides: Record<string, string> = {}): URLSearchParams =>
  new URLSearchParams({
    response_type: 'code',
    client_id: SIMULATOR_CLIENT_ID,
    redirect_uri: app.redirectUri,
    scope: 'read write',
    state: 'st-1',
    ...overrides,
  });

let db: TestDatabase;
let host: SimulatorHost;
let otherProcess: SimulatorHost;

beforeAll(async () => {
  db = await createTestDatabase();
  host = simulatorHost(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), fake, app);
  // A second process of the service: its own host over the same database.
  otherProcess = simulatorHost(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), fake, app);
});
afterAll(async () => {
  await db.close();
});

async function consent(fields: Record<string, string>): Promise<Response> {
  return host.fetch(`https://fake.example/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...Object.fromEntries(consentQuery()), ...fields }).toString(),
  });
}

async function codeFor(username = 'user_good'): Promise<string> {
  const answer = await consent({ username, password: 'pass_good', decision: 'allow' });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '', 'http://service.test');
  expect(location.pathname).toBe('/link/oauth/callback');
  expect(location.searchParams.get('state')).toBe('st-1');
  expect(location.searchParams.get('realm')).toBe(`tenant-of-fakeplat:${username}`);
  return location.searchParams.get('code') ?? '';
}

async function tokensFor(code: string): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
  const answer = await host.fetch(
    'https://fake.example/oauth/token',
    form({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }),
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

describe('simulator kit: OAuth', () => {
  it('shows the consent page to the registered app only, naming the test account to use', async () => {
    const page = await host.fetch(`https://fake.example/oauth/authorize?${consentQuery().toString()}`, { method: 'GET' });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Fake Platform');
    expect(text).toContain('user_good');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const stranger = await host.fetch(`https://fake.example/oauth/authorize?${consentQuery({ client_id: 'someone' }).toString()}`, {});
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('Unknown client_id');
    const elsewhere = await host.fetch(
      `https://fake.example/oauth/authorize?${consentQuery({ redirect_uri: 'https://evil.example/cb' }).toString()}`,
      {},
    );
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('Invalid redirect_uri');
  });

  it('refuses a password that is not a SANDBOX test account, and sends a denial back as access_denied', async () => {
    const wrong = await consent({ username: 'user_good', password: 'nope', decision: 'allow' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('not a SANDBOX test account');
    const denied = await consent({ username: 'user_good', password: 'pass_good', decision: 'deny' });
    expect(denied.status).toBe(302);
    const location = new URL(denied.headers.get('location') ?? '', 'http://service.test');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('exchanges a code once, in whichever process, and only with the redirect URI it was issued for', async () => {
    const code = await codeFor();
    const wrongUri = await host.fetch(
      'https://fake.example/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: '/elsewhere' }),
    );
    expect(wrongUri.status).toBe(400);
    const fresh = await codeFor();
    const exchanged = await otherProcess.fetch(
      'https://fake.example/oauth/token',
      form({ grant_type: 'authorization_code', code: fresh, redirect_uri: app.redirectUri }),
    );
    expect(exchanged.status).toBe(200);
    const again = await host.fetch(
      'https://fake.example/oauth/token',
      form({ grant_type: 'authorization_code', code: fresh, redirect_uri: app.redirectUri }),
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a client with the wrong secret', async () => {
    const code = await codeFor();
    const answer = await host.fetch('https://fake.example/oauth/token', {
      ...form({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(SIMULATOR_CLIENT_ID, 'guess') },
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rotates refresh tokens: the old one is dead once used', async () => {
    const first = await tokensFor(await codeFor());
    const refreshed = await host.fetch('https://fake.example/oauth/token', form({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const replay = await host.fetch('https://fake.example/oauth/token', form({ grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(replay.status).toBe(400);
    // Tokens are kept by hash only.
    const count = async (value: string): Promise<number> =>
      Number(
        (await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM sandbox_platform.simulator_tokens WHERE token_sha256 = $1', [value])).rows[0]
          ?.n,
      );
    expect(await count(second.access_token)).toBe(0);
    expect(await count(createHash('sha256').update(second.access_token).digest('hex'))).toBe(1);
  });
});

describe('simulator kit: the API behind bearer tokens', () => {
  it('hands the simulator the account the token was granted for, in any process', async () => {
    const tokens = await tokensFor(await codeFor('user_kit_size_300'));
    const answer = await otherProcess.fetch('https://api.fake.example/api/company', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { name: string; accounts: number; tenant: string };
    expect(body.tenant).toBe('tenant-of-fakeplat:user_kit_size_300');
    expect(body.accounts).toBeGreaterThan(0);
    expect(seen.at(-1)?.accountKey).toBe('fakeplat:user_kit_size_300');
  });

  it('answers 401 without a token, with an unknown one, and with a refresh token used as an access token', async () => {
    const tokens = await tokensFor(await codeFor());
    const before = seen.length;
    for (const authorization of [undefined, 'Bearer sim_access_unknown', `Bearer ${tokens.refresh_token}`]) {
      const answer = await host.fetch('https://api.fake.example/api/company', { headers: authorization === undefined ? {} : { authorization } });
      expect(answer.status).toBe(401);
    }
    expect(seen.length).toBe(before);
  });

  it("takes Stripe's ways of passing keys only from a simulator that asks for them", async () => {
    const tokens = await tokensFor(await codeFor());
    // The access token as HTTP Basic user: Stripe's simulator takes it (basicAccessToken), this one does not.
    const basic = `Basic ${Buffer.from(`${tokens.access_token}:`).toString('base64')}`;
    const answer = await host.fetch('https://api.fake.example/api/company', { headers: { authorization: basic } });
    expect(answer.status).toBe(401);
    // The secret alone at the token endpoint (clientAuth: 'secret'), and an exchange without redirect_uri: refused here.
    const code = await codeFor();
    const secretOnly = await host.fetch('https://fake.example/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${SIMULATOR_CLIENT_SECRET}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }).toString(),
    });
    expect(secretOnly.status).toBe(401);
    const noRedirect = await host.fetch('https://fake.example/oauth/token', form({ grant_type: 'authorization_code', code }));
    expect(noRedirect.status).toBe(400);
  });
});

describe('simulator kit: links fetched without the bearer token', () => {
  it("opens a link the simulator made, as the grant's account, and nothing with a made-up or access token", async () => {
    const tokens = await tokensFor(await codeFor('user_links_size_200'));
    const made = await host.fetch('https://api.fake.example/api/link', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const { url } = (await made.json()) as { url: string };
    const file = await otherProcess.fetch(url, {});
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('file of fakeplat:user_links_size_200');
    for (const link of ['sim_link_made_up', tokens.access_token]) {
      const refused = await host.fetch(`https://files.fake.example/file?link=${link}`, {});
      expect(refused.status).toBe(401);
    }
  });
  it('takes a link token only for a GET under the links path, never for the API', async () => {
    const tokens = await tokensFor(await codeFor('user_links_size_200'));
    const made = await host.fetch('https://api.fake.example/api/link', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const { url } = (await made.json()) as { url: string };
    const link = new URL(url).searchParams.get('link') ?? '';
    const api = await host.fetch(`https://api.fake.example/api/company?link=${link}`, {});
    expect(api.status).toBe(401);
    const post = await host.fetch(url, { method: 'POST' });
    expect(post.status).toBe(401);
  });

  it("caps a simulated business at SANDBOX's size limit", async () => {
    await simulatorBooks(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), 'fakeplat:user_huge_size_9999999');
    const row = await db.pool.query<{ size: number }>(
      "SELECT size FROM sandbox_platform.accounts_state WHERE account_key = 'fakeplat:user_huge_size_9999999'",
    );
    expect(row.rows[0]?.size).toBe(MAX_SIZE);
  });
});

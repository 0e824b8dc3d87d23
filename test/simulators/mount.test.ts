/**
 * The simulators' HTTP mount (/simulators/<platform>/…) on the real server: what a browser or a developer reaches.
 * Missing or foreign credentials and malformed input are refused the way the platform would refuse them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const CLIENT = `Basic ${Buffer.from('ledgerport-simulator:simulator-secret').toString('base64')}`;

/** A code and tokens for `username` on the Xero simulator, through the mounted consent page and token endpoint. */
async function xeroTokens(username: string): Promise<{ access_token: string; tenant: string }> {
  const consent = new URLSearchParams({ response_type: 'code', client_id: 'ledgerport-simulator', redirect_uri: '/link/oauth/callback', state: 's' });
  const allowed = await t.app.inject({
    method: 'POST',
    url: '/simulators/xero/identity/connect/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...Object.fromEntries(consent), username, password: 'pass_good', decision: 'allow' }).toString(),
  });
  expect(allowed.statusCode, allowed.body).toBe(302);
  const code = new URL(String(allowed.headers.location), 'http://x').searchParams.get('code') ?? '';
  const token = await t.app.inject({
    method: 'POST',
    url: '/simulators/xero/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: CLIENT },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: '/link/oauth/callback' }).toString(),
  });
  expect(token.statusCode, token.body).toBe(200);
  const { access_token } = token.json<{ access_token: string }>();
  const connections = await t.app.inject({
    method: 'GET',
    url: '/simulators/xero/connections',
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(connections.statusCode, connections.body).toBe(200);
  const [tenant] = connections.json<{ tenantId: string }[]>();
  return { access_token, tenant: tenant?.tenantId ?? '' };
}

describe('the simulators over HTTP', () => {
  it('serves the consent page, without scripts', async () => {
    const query = new URLSearchParams({ response_type: 'code', client_id: 'ledgerport-simulator', redirect_uri: '/link/oauth/callback', state: 's' });
    const page = await t.app.inject({ method: 'GET', url: `/simulators/xero/identity/connect/authorize?${query.toString()}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Xero');
    expect(page.body).not.toContain('<script');
  });

  it('answers the API with a token, and 401 without one or with a made-up one', async () => {
    const { access_token, tenant } = await xeroTokens('user_mount_size_200');
    const ok = await t.app.inject({
      method: 'GET',
      url: '/simulators/xero/api.xro/2.0/Organisation',
      headers: { authorization: `Bearer ${access_token}`, 'xero-tenant-id': tenant },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ Organisations: unknown[] }>().Organisations).toHaveLength(1);
    for (const authorization of [undefined, 'Bearer sim_access_made_up']) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/simulators/xero/api.xro/2.0/Organisation',
        headers: { 'xero-tenant-id': tenant, ...(authorization === undefined ? {} : { authorization }) },
      });
      expect(refused.statusCode).toBe(401);
    }
  });

  it("refuses another account's tenant with a token of this one", async () => {
    const mine = await xeroTokens('user_mount_a_size_200');
    const theirs = await xeroTokens('user_mount_b_size_200');
    expect(theirs.tenant).not.toBe(mine.tenant);
    const crossed = await t.app.inject({
      method: 'GET',
      url: '/simulators/xero/api.xro/2.0/Invoices',
      headers: { authorization: `Bearer ${mine.access_token}`, 'xero-tenant-id': theirs.tenant },
    });
    expect(crossed.statusCode).toBe(403);
  });

  it('answers malformed token requests and bodies with 400, changing nothing', async () => {
    const grant = await t.app.inject({
      method: 'POST',
      url: '/simulators/xero/connect/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: CLIENT },
      payload: 'grant_type=password&username=x',
    });
    expect(grant.statusCode).toBe(400);
    expect(grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const { access_token, tenant } = await xeroTokens('user_mount_size_200');
    const before = await t.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM sandbox_platform.records WHERE object_type = 'vendor'");
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/simulators/xero/api.xro/2.0/Contacts',
      headers: { authorization: `Bearer ${access_token}`, 'xero-tenant-id': tenant, 'content-type': 'application/json' },
      payload: '{"Contacts": [{"Name": ',
    });
    expect(malformed.statusCode).toBe(400);
    const after = await t.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM sandbox_platform.records WHERE object_type = 'vendor'");
    expect(after.rows[0]?.n).toEqual(before.rows[0]?.n);
  });

  it('has no simulator for a platform it does not simulate', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/simulators/netsuite/anything' });
    expect(response.statusCode).toBe(404);
  });
});

describe('the STRIPE simulator over HTTP', () => {
  it('links through Connect OAuth on the mount and answers /v1 with the access token, Stripe-shaped 401 without', async () => {
    const consent = new URLSearchParams({
      response_type: 'code',
      client_id: 'ledgerport-simulator',
      redirect_uri: '/link/oauth/callback',
      scope: 'read_only',
      state: 's',
    });
    const page = await t.app.inject({ method: 'GET', url: `/simulators/stripe/oauth/authorize?${consent.toString()}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stripe');
    const allowed = await t.app.inject({
      method: 'POST',
      url: '/simulators/stripe/oauth/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...Object.fromEntries(consent),
        username: 'user_mount_size_200',
        password: 'pass_good',
        decision: 'allow',
      }).toString(),
    });
    expect(allowed.statusCode, allowed.body).toBe(302);
    const code = new URL(String(allowed.headers.location), 'http://x').searchParams.get('code') ?? '';
    // Connect's token endpoint: the secret key alone (curl -u simulator-secret:), no client id, no redirect_uri.
    const token = await t.app.inject({
      method: 'POST',
      url: '/simulators/stripe/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('simulator-secret:').toString('base64')}` },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const { access_token, stripe_user_id } = token.json<{ access_token: string; stripe_user_id: string }>();
    const account = await t.app.inject({ method: 'GET', url: '/simulators/stripe/v1/account', headers: { authorization: `Bearer ${access_token}` } });
    expect(account.statusCode, account.body).toBe(200);
    expect(account.json<{ id: string }>().id).toBe(stripe_user_id);
    const refused = await t.app.inject({ method: 'GET', url: '/simulators/stripe/v1/charges', headers: { authorization: 'Bearer sk_test_nope' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ error: { type: string } }>().error.type).toBe('invalid_request_error');
  });
});

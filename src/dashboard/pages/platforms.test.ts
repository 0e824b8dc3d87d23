import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';
import { sandboxConnection } from '../../../test/support/sandbox-connection.ts';
import { accessTokenOf } from '../../connections/connections.ts';
import { effectiveSyncConfig } from '../../connections/sync-defaults.ts';

let t: TestApp;
let admin: DashboardSession;
let developer: DashboardSession;
let viewer: DashboardSession;

beforeAll(async () => {
  t = await startTestApp();
  const org = t.org.organization.id;
  admin = await signedInUser(t.app, t.db.pool, org, 'admin');
  developer = await signedInUser(t.app, t.db.pool, org, 'developer');
  viewer = await signedInUser(t.app, t.db.pool, org, 'viewer');
});
afterAll(async () => {
  await t.close();
});

const orgId = () => t.org.organization.id;
const PAGE = '/dashboard/platforms';

function form(session: DashboardSession, url: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: session.csrfToken, ...fields }).toString(),
  });
}

const page = (session: DashboardSession) => t.app.inject({ method: 'GET', url: PAGE, headers: { cookie: session.cookie } });
const problemOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('problem');
const noticeOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('notice');

async function orgColumns(): Promise<{ data_batching: unknown; sync_config: unknown; products: unknown }> {
  const row = await t.db.pool.query<{ data_batching: unknown; sync_config: unknown; products: unknown }>(
    'SELECT data_batching, sync_config, products FROM organizations WHERE id = $1',
    [orgId()],
  );
  return row.rows[0] ?? { data_batching: null, sync_config: null, products: null };
}

const XERO_APP = {
  platform: 'XERO',
  environment: 'sandbox',
  client_id: 'xero-client-id-123',
  client_secret: 'xero-client-secret-never-shown',
  redirect_uri: 'https://api.example.com/link/oauth/callback',
  scope: 'openid offline_access accounting.transactions',
};

describe('the Platforms page', () => {
  it('sends a visitor without a session to sign in; its session endpoints answer 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: PAGE })).statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: '/dashboard/api/platform-settings' })).statusCode).toBe(401);
    const put = await t.app.inject({ method: 'PUT', url: '/dashboard/api/sync-defaults', payload: { historical_months: 6 } });
    expect(put.statusCode).toBe(401);
    expect((await orgColumns()).sync_config).toBeNull();
  });

  it('shows the products read-only, and a session may not change them, even forged', async () => {
    const shown = await page(viewer);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('data-testid="products"');
    expect(shown.body).toContain('Enabled by your operator');
    const before = (await orgColumns()).products;
    for (const session of [admin, developer]) {
      const forged = await t.app.inject({
        method: 'PUT',
        url: `/admin/organizations/${orgId()}/products`,
        headers: session.headers,
        payload: { products: ['accounting', 'commerce', 'payments', 'bank_feeds'] },
      });
      expect(forged.statusCode).toBe(403);
      expect(errorBody(forged).error_code).toBe('ROLE_NOT_ALLOWED');
    }
    const listOrgs = await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: { cookie: admin.cookie } });
    expect(listOrgs.statusCode).toBe(403);
    expect((await orgColumns()).products).toEqual(before);
  });

  it('sets an OAuth app (admin only), never shows its secret, and removes it', async () => {
    const refused = await form(developer, `${PAGE}/oauth-apps`, XERO_APP);
    expect(problemOf(refused.headers.location)).toMatch(/developer/);
    const forged = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${orgId()}/oauth_apps/XERO`,
      headers: developer.headers,
      payload: { environment: 'sandbox', client_id: 'x', client_secret: 'y', redirect_uri: 'https://a.example/cb' },
    });
    expect(forged.statusCode).toBe(403);
    const none = await t.db.pool.query('SELECT 1 FROM oauth_apps WHERE organization_id = $1', [orgId()]);
    expect(none.rowCount).toBe(0);

    const bad = await form(admin, `${PAGE}/oauth-apps`, { ...XERO_APP, redirect_uri: 'http://public.example.com/cb' });
    expect(problemOf(bad.headers.location)).toMatch(/https/);
    const saved = await form(admin, `${PAGE}/oauth-apps`, XERO_APP);
    expect(noticeOf(saved.headers.location)).toContain('XERO');
    const shown = await page(viewer);
    expect(shown.body).toContain('xero-client-id-123');
    expect(shown.body).toContain('accounting.transactions');
    expect(shown.body).not.toContain('xero-client-secret-never-shown');
    expect(shown.body).not.toContain('data-testid="oauth-app-form"');

    const removed = await form(admin, `${PAGE}/oauth-apps/delete`, { platform: 'XERO', environment: 'sandbox' });
    expect(noticeOf(removed.headers.location)).toContain('removed');
    const after = await t.db.pool.query('SELECT 1 FROM oauth_apps WHERE organization_id = $1', [orgId()]);
    expect(after.rowCount).toBe(0);
  });

  it('sets the redirect URLs and data batching (developer), with the API’s 400s; a viewer may not', async () => {
    const refused = await form(viewer, `${PAGE}/redirect-urls`, { environment: 'production', urls: 'https://app.example.com/done' });
    expect(problemOf(refused.headers.location)).toMatch(/viewer/);
    const bad = await form(developer, `${PAGE}/redirect-urls`, { environment: 'production', urls: 'http://app.example.com/done' });
    expect(problemOf(bad.headers.location)).toMatch(/https/);
    const set = await form(developer, `${PAGE}/redirect-urls`, {
      environment: 'production',
      urls: 'https://app.example.com/done\r\nhttps://app.example.com/other',
    });
    expect(noticeOf(set.headers.location)).toContain('(2)');
    expect((await page(viewer)).body).toContain('https://app.example.com/other');

    const batchingRefused = await form(viewer, `${PAGE}/data-batching`, { months: '1, 6' });
    expect(problemOf(batchingRefused.headers.location)).toMatch(/viewer/);
    const descending = await form(developer, `${PAGE}/data-batching`, { months: '6, 1' });
    expect(problemOf(descending.headers.location)).toMatch(/ascending/);
    expect((await orgColumns()).data_batching).toBeNull();
    const on = await form(developer, `${PAGE}/data-batching`, { months: '1, 6, 12' });
    expect(noticeOf(on.headers.location)).toContain('1, 6, 12');
    expect((await orgColumns()).data_batching).toEqual({ months: [1, 6, 12] });
    expect((await page(viewer)).body).toContain('On: batches at 1, 6, 12 months back');
  });

  it('sets the organisation’s sync configuration: followed by connections without their own, overrides listed', async () => {
    const own = await sandboxConnection(t, 'user_platforms_override');
    const following = { ...(await sandboxConnection(t, 'user_platforms_default')), syncConfig: null };
    await t.db.pool.query('UPDATE connections SET sync_config = NULL WHERE id = $1', [following.id]);

    const refused = await form(viewer, `${PAGE}/sync-defaults`, { entities: 'ACCOUNT', historical_months: '6' });
    expect(problemOf(refused.headers.location)).toMatch(/viewer/);
    const unknown = await form(developer, `${PAGE}/sync-defaults`, { entities: 'NOT_AN_ENTITY' });
    expect(problemOf(unknown.headers.location)).toMatch(/NOT_AN_ENTITY/);
    const tooOften = await form(developer, `${PAGE}/sync-defaults`, { incremental_sync_frequency_minutes: '5' });
    expect(problemOf(tooOften.headers.location)).toBeTruthy();
    const malformed = await t.app.inject({
      method: 'PUT',
      url: '/dashboard/api/sync-defaults',
      headers: developer.headers,
      payload: { historical: 3 },
    });
    expect(malformed.statusCode).toBe(400);
    expect((await orgColumns()).sync_config).toBeNull();

    const saved = await form(developer, `${PAGE}/sync-defaults`, {
      entities: 'account, invoice',
      historical_months: '6',
      entity_historical_months: 'INVOICE=3',
      incremental_sync_frequency_minutes: '120',
    });
    expect(noticeOf(saved.headers.location)).toContain('saved');
    expect((await orgColumns()).sync_config).toEqual({
      entities: ['ACCOUNT', 'INVOICE'],
      historical_months: 6,
      entity_historical_months: { INVOICE: 3 },
      incremental_sync_frequency_minutes: 120,
    });
    expect(await effectiveSyncConfig(t.db.pool, following)).toEqual({
      entities: ['ACCOUNT', 'INVOICE'],
      historical_months: 6,
      entity_historical_months: { INVOICE: 3 },
      incremental_sync_frequency_minutes: 120,
    });
    expect(await effectiveSyncConfig(t.db.pool, own)).toEqual({ historical_months: 0 });

    // The status of the connection that follows it syncs only the default's entities.
    const status = await t.app.inject({
      method: 'GET',
      url: `/versioned/connections/status?access_token=${accessTokenOf(t.services.cipher, following)}`,
      headers: clientHeaders(t.org),
    });
    expect(status.statusCode).toBe(200);
    const entities = [...status.body.matchAll(/"entity":"([A-Z_]+)"/g)].map((m) => m[1]);
    expect(new Set(entities)).toEqual(new Set(['ACCOUNT', 'INVOICE']));

    const shown = await page(viewer);
    expect(shown.body).toContain('every 120 minutes');
    expect(shown.body).toContain(own.id);
    expect(shown.body).not.toContain(following.id);
    const api = await t.app.inject({ method: 'GET', url: '/dashboard/api/platform-settings', headers: { cookie: viewer.cookie } });
    const overrides = (json(api) as { overrides: { connection_id: string }[] }).overrides.map((o) => o.connection_id);
    expect(overrides).toContain(own.id);
    expect(overrides).not.toContain(following.id);

    const cleared = await form(developer, `${PAGE}/sync-defaults`, {});
    expect(noticeOf(cleared.headers.location)).toContain('defaults');
    expect((await orgColumns()).sync_config).toBeNull();
  });

  it('the admin API answers a session as it answers the operator', async () => {
    for (const path of ['/oauth_apps', '/redirect_urls', '/webhook', '/webhook/deliveries']) {
      const url = `/admin/organizations/${orgId()}${path}`;
      const asOperator = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.adminToken}` } });
      const asSession = await t.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie } });
      expect(asSession.statusCode, path).toBe(200);
      expect(json(asSession), path).toEqual(json(asOperator));
    }
  });

  it('shows nothing of another organisation: its settings stay its own, its ids answer not-found', async () => {
    const other = await t.newOrg('Other platforms org');
    const stranger = await signedInUser(t.app, t.db.pool, other.organization.id, 'admin');
    const theirConnection = await sandboxConnection(t, 'user_platforms_stranger', other);
    const mine = await t.app.inject({ method: 'GET', url: '/dashboard/api/platform-settings', headers: { cookie: admin.cookie } });
    expect(mine.body).not.toContain(theirConnection.id);
    const theirs = await t.app.inject({ method: 'GET', url: PAGE, headers: { cookie: stranger.cookie } });
    expect(theirs.body).not.toContain('https://app.example.com/other');
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${other.organization.id}/redirect_urls`,
      headers: admin.headers,
      payload: { environment: 'sandbox', urls: ['https://evil.example/x'] },
    });
    expect(errorBody(foreign).error_code).toBe('RESOURCE_NOT_FOUND');
    const rows = await t.db.pool.query('SELECT 1 FROM redirect_url_lists WHERE organization_id = $1', [other.organization.id]);
    expect(rows.rowCount).toBe(0);
  });
});

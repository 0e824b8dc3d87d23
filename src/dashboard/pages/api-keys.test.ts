import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, startTestApp, VERSION, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';

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

function rotateForm(session: DashboardSession, fields: Record<string, string>, csrf = session.csrfToken) {
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/api-keys/rotate',
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
  });
}

async function secretCount(): Promise<number> {
  const rows = await t.db.pool.query('SELECT 1 FROM api_secrets s JOIN api_credentials c ON c.id = s.credential_id WHERE c.organization_id = $1', [
    orgId(),
  ]);
  return rows.rowCount ?? 0;
}

function basic(clientId: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'x-service-version': VERSION };
}

describe('the API keys page', () => {
  it('sends a visitor without a session to sign in; the credentials endpoint answers 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dashboard/api-keys' })).statusCode).toBe(303);
    const api = await t.app.inject({ method: 'GET', url: '/dashboard/api/credentials' });
    expect(api.statusCode).toBe(401);
    const rotate = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api-keys/rotate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'environment=sandbox&grace_period_seconds=0',
    });
    expect(rotate.statusCode).toBe(303);
  });

  it('shows both client ids and never a secret', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/api-keys', headers: { cookie: viewer.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(t.org.credentials.sandbox.client_id);
    expect(page.body).toContain(t.org.credentials.production.client_id);
    expect(page.body).not.toContain(t.org.credentials.sandbox.client_secret);
    expect(page.body).not.toContain('action="/dashboard/api-keys/rotate"');
    const api = await t.app.inject({ method: 'GET', url: '/dashboard/api/credentials', headers: { cookie: viewer.cookie } });
    expect(api.statusCode).toBe(200);
    expect(api.body).not.toContain(t.org.credentials.sandbox.client_secret);
    const listed = (json(api) as { credentials: { environment: string; client_id: string }[] }).credentials;
    expect(listed.map((c) => c.environment).sort()).toEqual(['production', 'sandbox']);
  });

  it('refuses a developer and a viewer, also forged straight to the admin API, and changes nothing', async () => {
    const before = await secretCount();
    const fromPage = await rotateForm(developer, { environment: 'sandbox', grace_period_seconds: '0' });
    expect(fromPage.statusCode).toBe(403);
    expect(fromPage.body).toContain('developer');
    for (const session of [developer, viewer]) {
      const forged = await t.app.inject({
        method: 'POST',
        url: `/admin/organizations/${orgId()}/credentials/rotate`,
        headers: session.headers,
        payload: { environment: 'sandbox', grace_period_seconds: 0 },
      });
      expect(forged.statusCode).toBe(403);
      expect(errorBody(forged).error_code).toBe('ROLE_NOT_ALLOWED');
    }
    const wrongCsrf = await rotateForm(admin, { environment: 'sandbox', grace_period_seconds: '0' }, 'forged');
    expect(wrongCsrf.statusCode).toBe(403);
    expect(await secretCount()).toBe(before);
    const stillWorks = await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: clientHeaders(t.org) });
    expect(stillWorks.statusCode).toBe(200);
  });

  it('refuses malformed input with 400 and another organisation with not-found', async () => {
    const before = await secretCount();
    const malformed = await rotateForm(admin, { environment: 'staging', grace_period_seconds: '0' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('class="problem"');
    const tooLong = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${orgId()}/credentials/rotate`,
      headers: admin.headers,
      payload: { environment: 'sandbox', grace_period_seconds: 99 * 24 * 3600 },
    });
    expect(tooLong.statusCode).toBe(400);
    const other = await t.newOrg('Other keys org');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${other.organization.id}/credentials/rotate`,
      headers: admin.headers,
      payload: { environment: 'sandbox', grace_period_seconds: 0 },
    });
    expect(errorBody(foreign).error_code).toBe('RESOURCE_NOT_FOUND');
    expect(await secretCount()).toBe(before);
    const otherStill = await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: clientHeaders(other) });
    expect(otherStill.statusCode).toBe(200);
  });

  it('an admin rotates: the new secret is shown once, works on /versioned, and the old one keeps its grace period', async () => {
    const answer = await rotateForm(admin, { environment: 'sandbox', grace_period_seconds: '3600' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const secret = /<code id="new-secret">([^<]+)<\/code>/.exec(answer.body)?.[1] ?? '';
    expect(secret.length).toBeGreaterThan(20);
    expect(answer.body).toContain('data-copy="new-secret"');
    const clientId = t.org.credentials.sandbox.client_id;
    const withNew = await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: basic(clientId, secret) });
    expect(withNew.statusCode).toBe(200);
    const withOld = await t.app.inject({
      method: 'GET',
      url: '/versioned/connections',
      headers: basic(clientId, t.org.credentials.sandbox.client_secret),
    });
    expect(withOld.statusCode).toBe(200);
    // Shown once: the page afterwards lists the expiry, not the secret.
    const later = await t.app.inject({ method: 'GET', url: '/dashboard/api-keys', headers: { cookie: admin.cookie } });
    expect(later.body).not.toContain(secret);
    expect(later.body).toContain('stops working');
    const listed = await t.app.inject({ method: 'GET', url: '/dashboard/api/credentials', headers: { cookie: admin.cookie } });
    expect(listed.body).not.toContain(secret);
    const audit = await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM dashboard_audit_log WHERE organization_id = $1', [orgId()]);
    expect(Number(audit.rows[0]?.n)).toBeGreaterThan(0);
  });
});

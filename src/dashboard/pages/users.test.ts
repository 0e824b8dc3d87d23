import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';
import { createOrganization } from '../../tenants/organizations.ts';

let t: TestApp;
let admin: DashboardSession;
let viewer: DashboardSession;
let stranger: DashboardSession;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'admin');
  viewer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
  const other = await createOrganization(t.db.pool, t.services.cipher, 'Elsewhere');
  stranger = await signedInUser(t.app, t.db.pool, other.organization.id, 'admin');
});
afterAll(async () => {
  await t.close();
});

function form(session: DashboardSession, fields: Record<string, string>) {
  return {
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: session.csrfToken, ...fields }).toString(),
  };
}

describe('users page', () => {
  it('sends a visitor without a session to sign in', async () => {
    for (const url of ['/dashboard/users', '/dashboard/audit', '/dashboard/account']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toMatch(/^\/dashboard\/login/);
    }
  });

  it('shows the organisation’s users, and the invite form to admins only', async () => {
    const asAdmin = await t.app.inject({ method: 'GET', url: '/dashboard/users', headers: { cookie: admin.cookie } });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.body).toContain(viewer.email);
    expect(asAdmin.body).not.toContain(stranger.email);
    expect(asAdmin.body).toContain('data-testid="invite-form"');
    const asViewer = await t.app.inject({ method: 'GET', url: '/dashboard/users', headers: { cookie: viewer.cookie } });
    expect(asViewer.body).not.toContain('data-testid="invite-form"');
  });

  it('shows an invitation’s link once, on the answer page', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/dashboard/users/invite',
      ...form(admin, { email: 'page.invite@example.com', role: 'developer' }),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(/\/dashboard\/sign-in\/lplnk_[A-Za-z0-9_-]{43}/);
    const list = await t.app.inject({ method: 'GET', url: '/dashboard/users', headers: { cookie: admin.cookie } });
    expect(list.body).toContain('page.invite@example.com');
    expect(list.body).not.toMatch(/lplnk_/);
  });

  it('refuses a viewer’s forged invitation through the page, and a form without its CSRF token', async () => {
    const forged = await t.app.inject({
      method: 'POST',
      url: '/dashboard/users/invite',
      ...form(viewer, { email: 'forged@example.com', role: 'admin' }),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('ROLE_NOT_ALLOWED');
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: '/dashboard/users/invite',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=nocsrf%40example.com&role=viewer',
    });
    expect(noCsrf.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/dashboard/users', headers: { cookie: admin.cookie } });
    expect(list.body).not.toContain('forged@example.com');
    expect(list.body).not.toContain('nocsrf@example.com');
  });

  it('shows what an action did only through its own redirect: a crafted ?notice= or ?problem= says nothing', async () => {
    const target = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const changed = await t.app.inject({ method: 'POST', url: `/dashboard/users/${target.userId}/role`, ...form(admin, { role: 'developer' }) });
    expect(changed.statusCode).toBe(303);
    const location = String(changed.headers.location);
    const shown = await t.app.inject({ method: 'GET', url: location, headers: { cookie: admin.cookie } });
    expect(shown.body).toContain('<p class="notice" role="status">Role changed;');
    const altered = new URL(location, 'http://x');
    altered.searchParams.set('notice', 'Your account is locked: call +1 555 0100.');
    const spoofed = [
      `${altered.pathname}${altered.search}`,
      `/dashboard/users?problem=${encodeURIComponent('Your account is locked: call +1 555 0100.')}`,
      `/dashboard/users?notice=${encodeURIComponent('Your account is locked: call +1 555 0100.')}&sig=x`,
    ];
    for (const url of spoofed) {
      const page = await t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain('locked');
    }
    // Another session (here, another organisation's admin) is not shown the admin's message either.
    const elsewhere = await t.app.inject({ method: 'GET', url: location, headers: { cookie: stranger.cookie } });
    expect(elsewhere.body).not.toContain('Role changed');
  });

  it('shows the audit log of the organisation only', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/audit', headers: { cookie: admin.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('POST /dashboard/api/users');
    expect(page.body).toContain(viewer.email);
    const theirs = await t.app.inject({ method: 'GET', url: '/dashboard/audit', headers: { cookie: stranger.cookie } });
    expect(theirs.body).not.toContain('POST /dashboard/api/users');
  });

  it('signs out everywhere', async () => {
    const other = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'developer');
    const out = await t.app.inject({ method: 'POST', url: '/dashboard/account/logout-everywhere', ...form(other, {}) });
    expect(out.statusCode).toBe(303);
    const after = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: other.headers });
    expect(after.statusCode).toBe(401);
  });
});

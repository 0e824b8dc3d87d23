import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import { signedInUser, TEST_PASSWORD } from '../../test/support/dashboard.ts';
import { inviteUser } from '../users/users.ts';
import { createOrganization } from '../tenants/organizations.ts';

let t: TestApp;
beforeAll(async () => {
  // A low failed-sign-in limit, so the throttle shows within a few attempts (the service's default is higher).
  t = await startTestApp({ config: { authFailures: { perAddress: 8, perTarget: 8, windowSeconds: 60, webhookRefusalDelayMs: 0 } } });
});
afterAll(async () => {
  await t.close();
});

function loginForm(body: string, cookie: string | undefined): { token: string; cookie: string } {
  const token = /name="_login" value="([^"]+)"/.exec(body)?.[1] ?? '';
  return { token, cookie: cookie ?? '' };
}

async function signIn(email: string, password: string, address = '10.0.0.1', extra: Record<string, string> = {}) {
  const page = await t.app.inject({ method: 'GET', url: '/dashboard/login' });
  const setCookie = String(page.headers['set-cookie']);
  const form = loginForm(page.body, /lp_login=([^;]+)/.exec(setCookie)?.[1]);
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/login',
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `lp_login=${form.cookie}` },
    payload: new URLSearchParams({ _login: form.token, email, password, next: '/dashboard/connections', ...extra }).toString(),
  });
}

describe('dashboard sign-in', () => {
  it('sends a visitor without a session to the sign-in page', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dashboard/account' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Faccount');
  });

  it('signs in with email and password into an HttpOnly, SameSite session cookie, and out again', async () => {
    const user = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const answer = await signIn(user.email, TEST_PASSWORD);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/connections');
    const cookie = [answer.headers['set-cookie']].flat().find((c) => String(c).startsWith('lp_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    const session = /lp_session=([^;]+)/.exec(String(cookie))?.[1] ?? '';
    const api = await t.app.inject({
      method: 'GET',
      url: '/versioned/connections',
      headers: { cookie: `lp_session=${session}`, 'x-service-version': '2024-08-31' },
    });
    expect(api.statusCode).toBe(200);
  });

  it('refuses a wrong password, then throttles the address', async () => {
    const user = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const wrong = await signIn(user.email, 'not the password', '10.9.9.9');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong email or password.');
    let last = wrong.statusCode;
    for (let i = 0; i < 10 && last !== 429; i++) last = (await signIn(user.email, `wrong ${i}`, '10.9.9.9')).statusCode;
    expect(last).toBe(429);
  });

  it('refuses a double-submit of two empty values (no cookie token, no form token)', async () => {
    const user = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/dashboard/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'lp_login=' },
      payload: new URLSearchParams({ _login: '', email: user.email, password: TEST_PASSWORD }).toString(),
    });
    expect(answer.statusCode).toBe(403);
    expect(String(answer.headers['set-cookie'])).not.toContain('lp_session=lpses_');
  });

  it('shows only the sign-in page’s own messages, by code: free text in the URL shows nothing', async () => {
    const coded = await t.app.inject({ method: 'GET', url: '/dashboard/login?notice=signed-out' });
    expect(coded.body).toContain('<p class="notice" role="status">Signed out.</p>');
    const spoofed = await t.app.inject({
      method: 'GET',
      url: `/dashboard/login?notice=${encodeURIComponent('Your account is locked: call +1 555 0100')}&problem=${encodeURIComponent('Enter your password at evil.example')}`,
    });
    expect(spoofed.statusCode).toBe(200);
    expect(spoofed.body).not.toContain('locked');
    expect(spoofed.body).not.toContain('evil.example');
    expect(spoofed.body).not.toContain('class="problem"');
  });

  it('forbids framing beside the CSP (X-Frame-Options: DENY)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/login' });
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('asks which organisation when one email and password open accounts in several', async () => {
    const email = `two-orgs-${Date.now()}@example.com`;
    const second = (await createOrganization(t.db.pool, t.services.cipher, 'Second Books')).organization.id;
    const first = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer', email);
    const other = await signedInUser(t.app, t.db.pool, second, 'developer', email);
    expect(other.userId).not.toBe(first.userId);
    const ask = await signIn(email, TEST_PASSWORD, '10.0.0.7');
    expect(ask.statusCode).toBe(200);
    expect(String(ask.headers['set-cookie'])).not.toContain('lp_session=lpses_');
    expect(ask.body).toContain(`<option value="${second}">Second Books</option>`);
    expect(ask.body).not.toContain(TEST_PASSWORD);
    const chosen = await signIn(email, TEST_PASSWORD, '10.0.0.7', { organization: second });
    expect(chosen.statusCode).toBe(303);
    const session = /lp_session=([^;]+)/.exec(String(chosen.headers['set-cookie']))?.[1] ?? '';
    const who = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: `lp_session=${session}` } });
    expect(who.json()).toMatchObject({ organization_id: second, user: { id: other.userId, role: 'developer' } });
  });

  it('from an address blocked for failures, another user with the right password still signs in; a wrong one gets 429', async () => {
    // Issue 32: one misconfigured client behind a shared NAT must not lock out every person there.
    const careless = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    for (let i = 0; i < 8; i++) await signIn(`nobody-${i}@example.com`, 'not the password', '10.9.9.10');
    expect((await signIn(careless.email, 'still not it', '10.9.9.10')).statusCode).toBe(429);
    const colleague = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'developer');
    const answer = await signIn(colleague.email, TEST_PASSWORD, '10.9.9.10');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/connections');
  });

  it('uses a sign-in link once', async () => {
    const { signInToken } = await inviteUser(t.db.pool, t.org.organization.id, { email: 'once@example.com', role: 'developer' });
    const first = await t.app.inject({ method: 'GET', url: `/dashboard/sign-in/${signInToken}` });
    expect(first.statusCode).toBe(200);
    await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const token = /name="_login" value="([^"]+)"/.exec(first.body)?.[1] ?? '';
    const login = /lp_login=([^;]+)/.exec(String(first.headers['set-cookie']))?.[1] ?? '';
    const post = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: `/dashboard/sign-in/${signInToken}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `lp_login=${login}` },
        payload: new URLSearchParams({ _login: token, password }).toString(),
      });
    expect((await post('short')).statusCode).toBe(400);
    expect((await post(TEST_PASSWORD)).statusCode).toBe(303);
    const again = await t.app.inject({ method: 'GET', url: `/dashboard/sign-in/${signInToken}` });
    expect(again.statusCode).toBe(410);
  });
});

describe('where sign-in sends the browser next', () => {
  it('keeps dashboard paths and sends anything else to the overview', async () => {
    const { safeNext } = await import('./sign-in.ts');
    expect(safeNext('/dashboard/connections?status=active')).toBe('/dashboard/connections?status=active');
    expect(safeNext('/dashboard')).toBe('/dashboard');
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/dashboard/../admin',
      '/dashboard/%2E%2e/x',
      '/dashboard\\evil',
      '/dashboard/a\nb',
      '/x',
      42,
      '/dashboard/' + 'a'.repeat(2100),
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/dashboard');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, VERSION, type TestApp } from '../../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../../test/support/dashboard.ts';
import { createOrganization } from '../../../tenants/organizations.ts';

let t: TestApp;
let admin: DashboardSession;
let developer: DashboardSession;
let viewer: DashboardSession;
let otherAdmin: DashboardSession;
let otherOrgId: string;

beforeAll(async () => {
  t = await startTestApp();
  const orgId = t.org.organization.id;
  admin = await signedInUser(t.app, t.db.pool, orgId, 'admin');
  developer = await signedInUser(t.app, t.db.pool, orgId, 'developer');
  viewer = await signedInUser(t.app, t.db.pool, orgId, 'viewer');
  const other = await createOrganization(t.db.pool, t.services.cipher, 'Other');
  otherOrgId = other.organization.id;
  otherAdmin = await signedInUser(t.app, t.db.pool, otherOrgId, 'admin');
});
afterAll(async () => {
  await t.close();
});

const json = (session: DashboardSession) => ({ ...session.headers, 'content-type': 'application/json' });

describe('dashboard users API', () => {
  it('needs a session', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dashboard/api/users' });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ error_code: 'SESSION_REQUIRED' });
    const id = admin.userId;
    for (const [method, url] of [
      ['GET', '/dashboard/api/session'],
      ['GET', '/dashboard/api/audit_log'],
      ['POST', '/dashboard/api/users'],
      ['PATCH', `/dashboard/api/users/${id}`],
      ['DELETE', `/dashboard/api/users/${id}`],
    ] as const) {
      const refused = await t.app.inject({
        method,
        url,
        ...(method === 'GET' || method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: '{"email":"a@b.c","role":"admin"}' }),
      });
      expect(refused.statusCode, `${method} ${url}`).toBe(401);
    }
    const bogus = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: { cookie: 'lp_session=lpses_nope' } });
    expect(bogus.statusCode).toBe(401);
  });

  it('lists only the organisation’s own users', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: viewer.headers });
    expect(answer.statusCode).toBe(200);
    const emails = answer.json<{ users: { email: string }[] }>().users.map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining([admin.email, developer.email, viewer.email]));
    expect(emails).not.toContain(otherAdmin.email);
  });

  it('lets an admin invite, and refuses developers and viewers, forged or not', async () => {
    const body = JSON.stringify({ email: 'new.person@example.com', role: 'viewer' });
    for (const session of [developer, viewer]) {
      const refused = await t.app.inject({ method: 'POST', url: '/dashboard/api/users', headers: json(session), payload: body });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error_code: 'ROLE_NOT_ALLOWED' });
    }
    const invited = await t.app.inject({ method: 'POST', url: '/dashboard/api/users', headers: json(admin), payload: body });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ user: { email: 'new.person@example.com', role: 'viewer', has_password: false } });
    expect(invited.json<{ sign_in_url: string }>().sign_in_url).toMatch(/\/dashboard\/sign-in\/lplnk_/);
    const again = await t.app.inject({ method: 'POST', url: '/dashboard/api/users', headers: json(admin), payload: body });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error_message: string }>().error_message).toContain('already has a dashboard account in this organisation');
  });

  it('tells an organisation nothing about another’s users: inviting their email makes an account of its own', async () => {
    // otherAdmin's address is a user of the other organisation: inviting it here answers as for anyone new.
    const payload = JSON.stringify({ email: otherAdmin.email.toUpperCase(), role: 'viewer' });
    const answer = await t.app.inject({ method: 'POST', url: '/dashboard/api/users', headers: json(admin), payload });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({ user: { role: 'viewer', has_password: false } });
    expect(answer.body).not.toContain('already');
    const theirs = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: otherAdmin.headers });
    expect(theirs.json()).toMatchObject({ user: { role: 'admin' }, organization_id: otherOrgId });
    const ours = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: admin.headers });
    const here = ours
      .json<{ users: { email: string; role: string }[] }>()
      .users.filter((u) => u.email.toLowerCase() === otherAdmin.email.toLowerCase());
    expect(here).toEqual([expect.objectContaining({ role: 'viewer' })]);
  });

  it('refuses a state change without the CSRF token, and records the refusal', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api/users',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'csrf@example.com', role: 'viewer' }),
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error_code: 'CSRF_TOKEN_INVALID' });
    const log = await t.app.inject({ method: 'GET', url: '/dashboard/api/audit_log', headers: admin.headers });
    const entries = log.json<{ entries: { actor: string; action: string; status: number }[] }>().entries;
    expect(entries).toContainEqual(expect.objectContaining({ actor: admin.email, action: 'POST /dashboard/api/users', status: 403 }));
  });

  it('answers 400 for malformed input and changes nothing', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: admin.headers });
    for (const payload of ['{"email":"not-an-email","role":"viewer"}', '{"email":"a@b.c","role":"owner"}', '{"email":"a@b.c"}', '{nope']) {
      const answer = await t.app.inject({ method: 'POST', url: '/dashboard/api/users', headers: json(admin), payload });
      expect(answer.statusCode).toBe(400);
    }
    const malformedId = await t.app.inject({
      method: 'PATCH',
      url: '/dashboard/api/users/not-a-uuid',
      headers: json(admin),
      payload: '{"role":"viewer"}',
    });
    expect(malformedId.statusCode).toBe(400);
    const after = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: admin.headers });
    expect(after.json()).toEqual(before.json());
  });

  it('refuses developers and viewers changing roles or removing users, even forged straight to the API', async () => {
    for (const session of [developer, viewer]) {
      const promote = await t.app.inject({
        method: 'PATCH',
        url: `/dashboard/api/users/${session.userId}`,
        headers: json(session),
        payload: '{"role":"admin"}',
      });
      expect(promote.statusCode).toBe(403);
      expect(promote.json()).toMatchObject({ error_code: 'ROLE_NOT_ALLOWED' });
      const remove = await t.app.inject({ method: 'DELETE', url: `/dashboard/api/users/${admin.userId}`, headers: session.headers });
      expect(remove.statusCode).toBe(403);
    }
    const users = await t.app.inject({ method: 'GET', url: '/dashboard/api/users', headers: admin.headers });
    const roles = Object.fromEntries(users.json<{ users: { id: string; role: string }[] }>().users.map((u) => [u.id, u.role]));
    expect([roles[developer.userId], roles[viewer.userId], roles[admin.userId]]).toEqual(['developer', 'viewer', 'admin']);
  });

  it('pages the audit log and refuses a malformed cursor or limit', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/dashboard/api/audit_log?limit=1', headers: admin.headers });
    const body = first.json<{ entries: { id: string }[]; next_cursor: string | null }>();
    expect(body.entries).toHaveLength(1);
    expect(body.next_cursor).not.toBeNull();
    const second = await t.app.inject({
      method: 'GET',
      url: `/dashboard/api/audit_log?limit=1&cursor=${body.next_cursor ?? ''}`,
      headers: admin.headers,
    });
    expect(Number(second.json<{ entries: { id: string }[] }>().entries[0]?.id)).toBeLessThan(Number(body.entries[0]?.id));
    for (const query of ['cursor=abc', 'limit=0', 'limit=201', 'limit=x']) {
      const bad = await t.app.inject({ method: 'GET', url: `/dashboard/api/audit_log?${query}`, headers: admin.headers });
      expect(bad.statusCode, query).toBe(400);
    }
  });

  it('changes roles, keeps the last admin, and ends the changed user’s sessions', async () => {
    const target = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/dashboard/api/users/${target.userId}`,
      headers: json(admin),
      payload: '{"role":"developer"}',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ user: { role: 'developer' } });
    const ended = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: target.headers });
    expect(ended.statusCode).toBe(401);
    const lone = await signedInUser(t.app, t.db.pool, otherOrgId, 'viewer');
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `/dashboard/api/users/${otherAdmin.userId}`,
      headers: json(otherAdmin),
      payload: '{"role":"viewer"}',
    });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toMatchObject({ error_code: 'VALIDATION_ERROR' });
    expect(lone.role).toBe('viewer');
  });

  it('keeps the sessions of a user whose role is set to the one it has (an admin re-saving their own role)', async () => {
    const same = await t.app.inject({
      method: 'PATCH',
      url: `/dashboard/api/users/${admin.userId}`,
      headers: json(admin),
      payload: '{"role":"admin"}',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ user: { role: 'admin' } });
    const still = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: admin.headers });
    expect(still.statusCode).toBe(200);
  });

  it('answers nothing for another organisation’s user ids', async () => {
    for (const method of ['PATCH', 'DELETE'] as const) {
      const answer = await t.app.inject({
        method,
        url: `/dashboard/api/users/${otherAdmin.userId}`,
        ...(method === 'PATCH' ? { headers: json(admin), payload: '{"role":"viewer"}' } : { headers: admin.headers }),
      });
      // As an id that exists nowhere (RESOURCE_NOT_FOUND is the spec's 410).
      expect(answer.statusCode).toBe(410);
      expect(answer.json()).toMatchObject({ error_code: 'RESOURCE_NOT_FOUND' });
    }
    const still = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: otherAdmin.headers });
    expect(still.json()).toMatchObject({ user: { role: 'admin' } });
  });
});

describe('sessions on the API’s own routes', () => {
  it('act as the organisation in the chosen environment', async () => {
    const sandbox = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: viewer.headers });
    expect(sandbox.json()).toMatchObject({ environment: 'sandbox', organization_id: t.org.organization.id });
    const production = await t.app.inject({
      method: 'GET',
      url: '/dashboard/api/session',
      headers: { ...viewer.headers, 'x-ledgerport-environment': 'production' },
    });
    expect(production.json()).toMatchObject({ environment: 'production' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/dashboard/api/session',
      headers: { ...viewer.headers, 'x-ledgerport-environment': 'staging' },
    });
    expect(wrong.statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: { ...viewer.headers, 'x-service-version': VERSION } });
    expect(list.statusCode).toBe(200);
  });

  it('refuses a viewer’s forged write to a client route', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/create',
      headers: { ...json(viewer), 'x-service-version': VERSION },
      payload: JSON.stringify({ platform: 'SANDBOX' }),
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ error_code: 'ROLE_NOT_ALLOWED' });
    const list = await t.app.inject({
      method: 'GET',
      url: '/versioned/connections?status=any',
      headers: { ...viewer.headers, 'x-service-version': VERSION },
    });
    expect(list.json<{ connections: unknown[] }>().connections).toHaveLength(0);
  });

  it('keeps the operator’s routes the operator’s, and another organisation’s ids answer as unknown ones', async () => {
    const operatorOnly = await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: admin.headers });
    expect(operatorOnly.statusCode).toBe(403);
    const invite = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${t.org.organization.id}/dashboard_users`,
      headers: json(admin),
      payload: JSON.stringify({ email: 'sneaky@example.com', role: 'admin' }),
    });
    expect(invite.statusCode).toBe(403);
    const webhookOfOther = await t.app.inject({ method: 'GET', url: `/admin/organizations/${otherOrgId}/webhook`, headers: admin.headers });
    expect([403, 410]).toContain(webhookOfOther.statusCode);
  });
});

describe('operator invitations', () => {
  it('invites an organisation’s first admin with ADMIN_TOKEN', async () => {
    const headers = { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' };
    const fresh = await createOrganization(t.db.pool, t.services.cipher, 'Fresh');
    const answer = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${fresh.organization.id}/dashboard_users`,
      headers,
      payload: JSON.stringify({ email: 'first.admin@fresh.example', role: 'admin' }),
    });
    expect(answer.statusCode).toBe(201);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/admin/organizations/00000000-0000-4000-8000-000000000000/dashboard_users',
      headers,
      payload: JSON.stringify({ email: 'nobody@fresh.example', role: 'admin' }),
    });
    expect(unknown.statusCode).toBe(410);
    const noToken = await t.app.inject({
      method: 'POST',
      url: `/admin/organizations/${fresh.organization.id}/dashboard_users`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(noToken.statusCode).toBe(401);
  });
});

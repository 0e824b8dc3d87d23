/**
 * Dashboard users for tests: a signed-in session of a given role in an organisation, made through the real sign-in
 * link page (so the cookie is the one a browser gets), with its CSRF token and the headers a forged request needs.
 */
import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../src/db/pool.ts';
import { inviteUser } from '../../src/users/users.ts';
import { sessionUser } from '../../src/users/sessions.ts';
import type { DashboardRole } from '../../src/sql/dashboard-users.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface DashboardSession {
  email: string;
  userId: string;
  role: DashboardRole;
  token: string;
  csrfToken: string;
  /** Cookie header of the session. */
  cookie: string;
  /** Headers of a state-changing request a page's script would send (cookie, CSRF token). */
  headers: Record<string, string>;
}

let counter = 0;

function cookieFrom(setCookie: string | string[] | undefined, name: string): string | null {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const line of list) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match?.[1] !== undefined && match[1] !== '') return match[1];
  }
  return null;
}

/** Invites a user and signs them in through the one-time link, as a browser would. */
export async function signedInUser(
  app: FastifyInstance,
  pool: Pool,
  organizationId: string,
  role: DashboardRole,
  email = `user${++counter}-${Date.now()}@example.com`,
): Promise<DashboardSession> {
  const { user, signInToken } = await inviteUser(pool, organizationId, { email, role });
  const page = await app.inject({ method: 'GET', url: `/dashboard/sign-in/${signInToken}` });
  const login = cookieFrom(page.headers['set-cookie'], 'lp_login');
  const hidden = /name="_login" value="([^"]+)"/.exec(page.body)?.[1];
  if (login === null || hidden === undefined) throw new Error(`sign-in page answered ${page.statusCode} without its form token`);
  const answer = await app.inject({
    method: 'POST',
    url: `/dashboard/sign-in/${signInToken}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `lp_login=${login}` },
    payload: new URLSearchParams({ _login: hidden, password: TEST_PASSWORD }).toString(),
  });
  const token = cookieFrom(answer.headers['set-cookie'], 'lp_session');
  if (token === null) throw new Error(`sign-in answered ${answer.statusCode} without a session cookie: ${answer.body.slice(0, 300)}`);
  const session = await sessionUser(pool, token);
  if (session === null) throw new Error('the new session is not valid');
  const cookie = `lp_session=${token}`;
  return { email, userId: user.id, role, token, csrfToken: session.csrfToken, cookie, headers: { cookie, 'x-csrf-token': session.csrfToken } };
}

/**
 * Signing in and out: email and password (throttled per address and per email, as API credentials are), one-time
 * sign-in links (the first admin's, invitations) that set a password, the environment switch, signing out here or
 * everywhere. The login form carries a double-submit token against login CSRF (a foreign site signing a browser in
 * to the attacker's account).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from '../html/tag.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { throttledAuthentication } from '../http/auth-throttle.ts';
import { sessionCookie } from '../http/session-auth.ts';
import { acceptSignInLink, checkPassword, markSignedIn, signInLinkTarget } from '../users/users.ts';
import type { Pool } from '../db/pool.ts';
import type { DashboardUserRow } from '../sql/dashboard-users.ts';
import { getOrganization } from '../tenants/organizations.ts';
import { endEverySession, endSession, sessionUser, startSession } from '../users/sessions.ts';
import { recordAudit } from '../users/audit.ts';
import { MIN_PASSWORD_LENGTH } from '../users/passwords.ts';
import { ENVIRONMENTS } from '../tenants/types.ts';
import { signInPage } from './layout.ts';
import { clearSessionCookie, LOGIN_COOKIE, SESSION_TTL_SECONDS, setCookie, setEnvironmentCookie, setSessionCookie } from './cookies.ts';
import { checkedForm, formValue, withMessage, type FormBody } from './context.ts';
import { sameToken } from '../crypto/secrets.ts';
import { cookie } from '../http/session-auth.ts';
import { oidcAcceptButton, oidcSignInButton } from './oidc.ts';

/** Only a path of the dashboard itself: never an open redirect. */
export function safeNext(next: unknown): string {
  // Printable ASCII but the backslash (no header injection, no \\host), no dot segments (no way out of /dashboard).
  if (typeof next !== 'string' || next.length > 2000 || !/^\/dashboard(\/[\x21-\x3e\x40-\x5b\x5d-\x7e]*)?(\?[\x21-\x5b\x5d-\x7e]*)?$/.test(next)) {
    return '/dashboard';
  }
  // Browsers read %2e as a dot in a path segment.
  const segments = (next.split('?')[0] ?? '').toLowerCase().replaceAll('%2e', '.').split('/');
  return segments.some((segment) => segment === '.' || segment === '..') ? '/dashboard' : next;
}

/** A signed-in user's new session: the audit entry (how they signed in) and the cookie. Password, link and OIDC alike. */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; organization_id: string; email: string },
  via: 'password' | 'sign-in link' | 'oidc',
): Promise<{ csrfToken: string }> {
  const { pool } = request.server.services;
  const session = await startSession(pool, user.id, SESSION_TTL_SECONDS);
  await recordAudit(pool, {
    organizationId: user.organization_id,
    userId: user.id,
    actor: user.email,
    action: 'SIGN_IN',
    target: via,
    environment: null,
    status: 303,
    requestId: request.id,
  });
  setSessionCookie(reply, request, session.token);
  return { csrfToken: session.csrfToken };
}

/** What the sign-in page may say, by code: nothing from the URL is shown as it is (a crafted link says nothing). */
export const SIGN_IN_NOTICES = {
  'signed-out': 'Signed out.',
  'signed-out-everywhere': 'Signed out on every device.',
} as const;

function noticeOf(code: unknown): string | undefined {
  return typeof code === 'string' && Object.hasOwn(SIGN_IN_NOTICES, code) ? SIGN_IN_NOTICES[code as keyof typeof SIGN_IN_NOTICES] : undefined;
}

/** Organisations to choose from when one email and password open accounts in several. */
interface OrganizationChoice {
  id: string;
  name: string;
}

function organizationField(choices: readonly OrganizationChoice[] | undefined): Html {
  if (choices === undefined || choices.length === 0) return html``;
  return html`<div class="field"><label for="organization">Organisation</label><select id="organization" name="organization" required>${choices.map(
    (choice) => html`<option value="${choice.id}">${choice.name}</option>`,
  )}</select></div>`;
}

function loginForm(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { next: string; problem?: string; notice?: string; email?: string; organizations?: OrganizationChoice[] },
): Html {
  const token = randomBytes(24).toString('base64url');
  setCookie(reply, request, LOGIN_COOKIE, token, 3600);
  return html`${options.notice === undefined ? '' : html`<p class="notice" role="status">${options.notice}</p>`}
${options.problem === undefined ? '' : html`<p class="problem" role="alert">${options.problem}</p>`}
<form method="post" action="/dashboard/login" class="stack">
  <input type="hidden" name="_login" value="${token}">
  <input type="hidden" name="next" value="${options.next}">
  <div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"></div>
  ${organizationField(options.organizations)}
  <div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
  <button type="submit">Sign in</button>
</form>
${oidcSignInButton(request.server.services.config, options.next)}`;
}

/** The double-submit check: the form's token is the cookie's, and both are there (two empty values prove nothing). */
export function loginTokenMatches(request: FastifyRequest, body: FormBody): boolean {
  const expected = cookie(request, LOGIN_COOKIE);
  return expected !== null && expected !== '' && sameToken(formValue(body, '_login'), expected);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function organizationChoices(pool: Pool, accounts: readonly DashboardUserRow[]): Promise<OrganizationChoice[]> {
  const choices: OrganizationChoice[] = [];
  for (const account of accounts) {
    const organization = await getOrganization(pool, account.organization_id);
    if (organization !== null) choices.push({ id: organization.id, name: organization.name });
  }
  return choices;
}

function formBody(request: FastifyRequest): FormBody {
  return (request.body ?? {}) as FormBody;
}

export function registerSignIn(app: FastifyInstance): void {
  const { pool } = app.services;

  app.get('/dashboard/login', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const token = sessionCookie(request);
    if (token !== null && (await sessionUser(pool, token)) !== null) return reply.redirect(safeNext(query.next), 303);
    const notice = noticeOf(query.notice);
    const body = loginForm(request, reply, { next: safeNext(query.next), ...(notice === undefined ? {} : { notice }) });
    return reply.type('text/html; charset=utf-8').send(signInPage('Sign in to the dashboard', body));
  });

  app.post('/dashboard/login', async (request, reply) => {
    const body = formBody(request);
    const next = safeNext(formValue(body, 'next'));
    const email = formValue(body, 'email').trim();
    const again = (status: number, problem: string, organizations?: OrganizationChoice[]): FastifyReply =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(
          signInPage(
            'Sign in to the dashboard',
            loginForm(request, reply, { next, problem, email, ...(organizations === undefined ? {} : { organizations }) }),
          ),
        );
    const chosen = formValue(body, 'organization');
    if (!loginTokenMatches(request, body)) return again(403, 'This sign-in form has expired; please sign in again.');
    if (email === '' || formValue(body, 'password') === '') return again(400, 'Enter your email and password.');
    try {
      const user = await throttledAuthentication(
        app.authThrottle,
        request.log,
        {
          surface: 'dashboard',
          address: request.ip,
          target: `user:${email.toLowerCase()}`,
          presented: true,
          refusal: 'INVALID_CREDENTIALS',
          costly: true,
        },
        async () => {
          const found = await checkPassword(pool, email, formValue(body, 'password'), UUID.test(chosen) ? chosen : null);
          if (found.length === 0) throw new ServiceError('INVALID_CREDENTIALS', 'Wrong email or password.', { source: 'service' });
          return found;
        },
      );
      const [only] = user;
      if (only === undefined || user.length > 1) {
        // The same email and password open accounts in several organisations: the person says which (and types the
        // password again: it never goes back into a page).
        return await again(200, 'You have dashboard accounts in several organisations: choose one.', await organizationChoices(pool, user));
      }
      await markSignedIn(pool, only.id);
      await beginSession(request, reply, only, 'password');
      return await reply.redirect(next, 303);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error.code === 'RATE_LIMIT_EXCEEDED') return again(429, error.message);
      if (error.code === 'INVALID_CREDENTIALS') return again(401, 'Wrong email or password.');
      throw error;
    }
  });

  // A one-time link: shows whose it is and asks for a password; using it signs in.
  app.get('/dashboard/sign-in/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const target = await signInLinkTarget(pool, token);
    if (target === null) {
      return reply
        .code(410)
        .type('text/html; charset=utf-8')
        .send(
          signInPage(
            'This sign-in link cannot be used',
            html`<p>It was used already, has expired, or was never issued. Ask an admin of your organisation for a new invitation, or <a href="/dashboard/login">sign in</a>.</p>`,
          ),
        );
    }
    const loginToken = randomBytes(24).toString('base64url');
    setCookie(reply, request, LOGIN_COOKIE, loginToken, 3600);
    const body = html`<p>Welcome, ${target.email}. Choose a password (at least ${MIN_PASSWORD_LENGTH} characters) to finish ${target.purpose === 'first_admin' ? 'setting up the first admin' : 'your invitation'}.</p>
<form method="post" action="/dashboard/sign-in/${token}" class="stack">
  <input type="hidden" name="_login" value="${loginToken}">
  <input type="text" name="username" autocomplete="username" value="${target.email}" hidden>
  <div class="field"><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></div>
  <button type="submit">Set password and sign in</button>
</form>
${oidcAcceptButton(request.server.services.config, token)}`;
    return reply.type('text/html; charset=utf-8').send(signInPage('Set your password', body));
  });

  app.post('/dashboard/sign-in/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const body = formBody(request);
    if (!loginTokenMatches(request, body)) return reply.redirect(`/dashboard/sign-in/${encodeURIComponent(token)}`, 303);
    try {
      const user = await acceptSignInLink(pool, token, formValue(body, 'password'));
      if (user === null) return await reply.redirect(`/dashboard/sign-in/${encodeURIComponent(token)}`, 303);
      const session = await beginSession(request, reply, user, 'sign-in link');
      return await reply.redirect(withMessage({ to: '/dashboard', notice: 'Password set. Welcome to Ledgerport.' }, session.csrfToken), 303);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'VALIDATION_ERROR') {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            signInPage(
              'Set your password',
              html`<p class="problem" role="alert">${error.message}</p><p><a href="/dashboard/sign-in/${token}">Try again</a></p>`,
            ),
          );
      }
      throw error;
    }
  });

  // Sign-out and the environment switch are form posts of a signed-in page: the form's CSRF token must match.
  const signedInPost = (
    url: string,
    act: (request: FastifyRequest, reply: FastifyReply, token: string, body: FormBody, csrfToken: string) => Promise<FastifyReply>,
  ): void => {
    app.post(url, async (request, reply) => {
      const token = sessionCookie(request);
      const user = token === null ? null : await sessionUser(pool, token);
      if (token === null || user === null) return reply.redirect('/dashboard/login', 303);
      const body = await checkedForm(request, reply, user);
      if (body === null) return reply;
      const audit = (action: string): Promise<void> =>
        recordAudit(pool, {
          organizationId: user.organizationId,
          userId: user.userId,
          actor: user.email,
          action,
          target: null,
          environment: null,
          status: 303,
          requestId: request.id,
        });
      if (url.endsWith('/logout')) await audit('SIGN_OUT');
      if (url.endsWith('/logout-everywhere')) await audit('SIGN_OUT_EVERYWHERE');
      return act(request, reply, token, body, user.csrfToken);
    });
  };

  signedInPost('/dashboard/logout', async (request, reply, token) => {
    await endSession(pool, token);
    clearSessionCookie(reply, request);
    return reply.redirect('/dashboard/login?notice=signed-out', 303);
  });

  signedInPost('/dashboard/account/logout-everywhere', async (request, reply, token) => {
    const user = await sessionUser(pool, token);
    if (user !== null) await endEverySession(pool, user.userId);
    clearSessionCookie(reply, request);
    return reply.redirect('/dashboard/login?notice=signed-out-everywhere', 303);
  });

  signedInPost('/dashboard/environment', async (request, reply, _token, body, csrfToken) => {
    const environment = formValue(body, 'environment');
    if (!(ENVIRONMENTS as readonly string[]).includes(environment)) {
      return reply.redirect(withMessage({ to: '/dashboard', problem: 'Choose sandbox or production.' }, csrfToken), 303);
    }
    setEnvironmentCookie(reply, request, environment);
    const back = formValue(body, 'back');
    return reply.redirect(safeNext(back === '' ? '/dashboard' : back), 303);
  });
}

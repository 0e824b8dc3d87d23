/**
 * GET /dashboard/oidc/start and GET /dashboard/oidc/callback (docs/dashboard-oidc.md). Start sends the browser to the
 * provider with a state bound to this browser by a short-lived cookie; the callback signs in the dashboard user of
 * the verified email, or shows a page saying why not (400, 401, 403, 502), never with a session.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../html/tag.ts';
import { cookie } from '../http/session-auth.ts';
import { setCookie } from './cookies.ts';
import { beginSession } from './sign-in.ts';
import { signInPage } from './layout.ts';
import { beginOidcSignIn, finishOidcSignIn, OIDC_STATE_TTL_SECONDS, type OidcPurpose } from './oidc-flow.ts';
import type { DashboardUserRow } from '../sql/dashboard-users.ts';
import { getOrganization } from '../tenants/organizations.ts';
import type { Pool } from '../db/pool.ts';
import { OidcRefusal } from './oidc-provider.ts';

/** Holds the state of the sign-in this browser started (SameSite=Lax: sent on the provider's redirect back). */
export const OIDC_COOKIE = 'lp_oidc';

function refusalPage(request: FastifyRequest, reply: FastifyReply, refusal: OidcRefusal): FastifyReply {
  request.log.warn({ status: refusal.status, reason: refusal.message }, 'OpenID Connect sign-in refused');
  setCookie(reply, request, OIDC_COOKIE, '', 0);
  return reply
    .code(refusal.status)
    .type('text/html; charset=utf-8')
    .send(
      signInPage(refusal.title, html`<p class="problem" role="alert">${refusal.message}</p><p><a href="/dashboard/login">Back to sign-in</a></p>`),
    );
}

/** The person accepted invitations of several organisations: each is a new sign-in for that one (usually instant at the provider). */
async function chooserPage(pool: Pool, reply: FastifyReply, accounts: readonly DashboardUserRow[], next: string): Promise<FastifyReply> {
  const choices = [];
  for (const account of accounts) {
    const organization = await getOrganization(pool, account.organization_id);
    if (organization !== null) choices.push(organization);
  }
  const links = choices.map(
    (organization) =>
      html`<li><a href="/dashboard/oidc/start?organization=${organization.id}&amp;next=${encodeURIComponent(next)}">${organization.name}</a></li>`,
  );
  return reply
    .type('text/html; charset=utf-8')
    .send(signInPage('Choose an organisation', html`<p>You have dashboard accounts in several organisations. Sign in to:</p><ul>${links}</ul>`));
}

function purposeOf(query: Record<string, unknown>): OidcPurpose {
  const { invitation, organization } = query;
  return {
    ...(typeof invitation === 'string' ? { invitation } : {}),
    ...(typeof organization === 'string' ? { organizationId: organization } : {}),
  };
}

export function registerOidc(app: FastifyInstance): void {
  const { pool, config } = app.services;
  const notConfigured = new OidcRefusal(
    404,
    'Single sign-on is not set up',
    'This dashboard has no identity provider configured: sign in with your email and password.',
  );

  app.get('/dashboard/oidc/start', async (request, reply) => {
    if (config.oidc === null) return refusalPage(request, reply, notConfigured);
    const query = request.query as Record<string, unknown>;
    const next = typeof query.next === 'string' ? query.next : '/dashboard';
    try {
      const started = await beginOidcSignIn(pool, config.oidc, config.publicUrl, next, purposeOf(query));
      setCookie(reply, request, OIDC_COOKIE, started.state, OIDC_STATE_TTL_SECONDS);
      return await reply.redirect(started.authorizationUrl, 303);
    } catch (error) {
      if (error instanceof OidcRefusal) return refusalPage(request, reply, error);
      throw error;
    }
  });

  app.get('/dashboard/oidc/callback', async (request, reply) => {
    if (config.oidc === null) return refusalPage(request, reply, notConfigured);
    try {
      const outcome = await finishOidcSignIn(pool, config.oidc, config.publicUrl, {
        query: request.query as Record<string, unknown>,
        browserState: cookie(request, OIDC_COOKIE),
      });
      setCookie(reply, request, OIDC_COOKIE, '', 0);
      if ('choose' in outcome) return await chooserPage(pool, reply, outcome.choose, outcome.next);
      await beginSession(request, reply, outcome.user, 'oidc');
      return await reply.redirect(outcome.next, 303);
    } catch (error) {
      if (error instanceof OidcRefusal) return refusalPage(request, reply, error);
      throw error;
    }
  });
}

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
import { beginOidcSignIn, finishOidcSignIn, OIDC_STATE_TTL_SECONDS } from './oidc-flow.ts';
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

export function registerOidc(app: FastifyInstance): void {
  const { pool, config } = app.services;
  const notConfigured = new OidcRefusal(
    404,
    'Single sign-on is not set up',
    'This dashboard has no identity provider configured: sign in with your email and password.',
  );

  app.get('/dashboard/oidc/start', async (request, reply) => {
    if (config.oidc === null) return refusalPage(request, reply, notConfigured);
    const { next } = request.query as Record<string, unknown>;
    try {
      const started = await beginOidcSignIn(pool, config.oidc, config.publicUrl, typeof next === 'string' ? next : '/dashboard');
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
      const { user, next } = await finishOidcSignIn(pool, config.oidc, config.publicUrl, {
        query: request.query as Record<string, unknown>,
        browserState: cookie(request, OIDC_COOKIE),
      });
      setCookie(reply, request, OIDC_COOKIE, '', 0);
      await beginSession(request, reply, user, 'oidc');
      return await reply.redirect(next, 303);
    } catch (error) {
      if (error instanceof OidcRefusal) return refusalPage(request, reply, error);
      throw error;
    }
  });
}

/**
 * Every dashboard page and form action runs through here: the session (or a redirect to sign in), the environment
 * switch, the CSRF check of a form, and the API caller acting as the user.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameToken } from '../crypto/secrets.ts';
import { recordAudit } from '../users/audit.ts';
import { sessionCookie, sessionEnvironment } from '../http/session-auth.ts';
import { sessionUser, type SessionUser } from '../users/sessions.ts';
import { getOrganization } from '../tenants/organizations.ts';
import type { Environment, Organization } from '../tenants/types.ts';
import { apiCaller, type ApiCaller } from './api-client.ts';
import type { Html } from '../html/tag.ts';
import { layout, type NavSection } from './layout.ts';

export interface DashboardContext {
  user: SessionUser;
  organization: Organization;
  environment: Environment;
  api: ApiCaller;
  /** The page's own query string values. */
  query: Readonly<Record<string, string>>;
  request: FastifyRequest;
}

export type FormBody = Readonly<Record<string, string | readonly string[]>>;

function queryOf(request: FastifyRequest): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string') query[name] = value;
  }
  return query;
}

async function context(app: FastifyInstance, request: FastifyRequest): Promise<DashboardContext | null> {
  const token = sessionCookie(request);
  if (token === null) return null;
  const user = await sessionUser(app.services.pool, token);
  if (user === null) return null;
  const organization = await getOrganization(app.services.pool, user.organizationId);
  if (organization === null) return null;
  let environment: Environment;
  try {
    environment = sessionEnvironment(request);
  } catch {
    environment = 'sandbox';
  }
  return {
    user,
    organization,
    environment,
    query: queryOf(request),
    request,
    api: apiCaller(app, { token, csrfToken: user.csrfToken, environment, requestId: request.id }),
  };
}

function toSignIn(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
  return reply.redirect(`/dashboard/login${next}`, 303);
}

export interface PageResult {
  title: string;
  section: NavSection;
  body: Html;
  status?: number;
  /** What an action's answer page says happened (a page reached by a link says it through ?notice= / ?problem=). */
  notice?: string;
  problem?: string;
}

/** A page: signed in or sent to sign in; its body inside the shared layout. */
export function dashboardPage(app: FastifyInstance, url: string, render: (ctx: DashboardContext) => Promise<PageResult>): void {
  app.get(url, async (request, reply) => {
    const ctx = await context(app, request);
    if (ctx === null) return toSignIn(request, reply);
    const result = await render(ctx);
    // A page reached by a link says what happened through ?notice= / ?problem= (dashboardAction's redirect), only
    // when the link was signed for this session.
    const said = signedMessage(ctx);
    return sendPage(reply, ctx, { ...result, notice: result.notice ?? said.notice, problem: result.problem ?? said.problem });
  });
}

function sendPage(reply: FastifyReply, ctx: DashboardContext, result: PageResult): FastifyReply {
  return reply
    .code(result.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(
      layout({
        ...result,
        user: ctx.user,
        organization: ctx.organization,
        environment: ctx.environment,
        notice: result.notice,
        problem: result.problem,
      }),
    );
}

/** A live part of a page (running syncs, new deliveries): the same markup, re-fetched by the page's script. */
export function dashboardFragment(app: FastifyInstance, url: string, render: (ctx: DashboardContext) => Promise<Html>): void {
  app.get(url, async (request, reply) => {
    const ctx = await context(app, request);
    if (ctx === null) return reply.code(401).type('text/plain; charset=utf-8').send('Sign in again.');
    const body = await render(ctx);
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body.text);
  });
}

export function formValue(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : (value?.[0] ?? '');
}

export function formValues(body: FormBody, name: string): string[] {
  const value = body[name];
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

/**
 * The form's body when its CSRF token is the session's; otherwise the refusal is recorded in the audit log, answered
 * 403, and null returned.
 */
export async function checkedForm(request: FastifyRequest, reply: FastifyReply, user: SessionUser): Promise<FormBody | null> {
  const body = (request.body ?? {}) as FormBody;
  if (sameToken(formValue(body, '_csrf'), user.csrfToken)) return body;
  await recordAudit(request.server.services.pool, {
    organizationId: user.organizationId,
    userId: user.userId,
    actor: user.email,
    action: `POST ${request.routeOptions.url ?? ''}`,
    target: 'form without its CSRF token',
    environment: null,
    status: 403,
    requestId: request.id,
  });
  await reply
    .code(403)
    .type('text/plain; charset=utf-8')
    .send('This form has expired (its CSRF token does not match your session). Go back, reload the page and try again.');
  return null;
}

/** Where an action sends the browser back: a notice or the API's own error message. */
export interface ActionResult {
  to: string;
  notice?: string;
  problem?: string;
}

export function back(to: string, outcome: { notice?: string; problem?: string }): ActionResult {
  return { to, ...outcome };
}

/**
 * The signature of a message a redirect carries: an HMAC keyed with the session's own secret (its CSRF token), so
 * only this service, for this session, can make a page say something. A link crafted elsewhere
 * (`?problem=Your+account+is+locked,+call+…`) shows nothing.
 */
function messageSignature(sessionSecret: string, notice: string, problem: string): string {
  return createHmac('sha256', sessionSecret).update(`dashboard message\u0000${notice}\u0000${problem}`).digest('base64url');
}

/** Where to send the browser, with what happened, signed for the session (`sig`). */
export function withMessage(result: ActionResult, sessionSecret: string): string {
  const url = new URL(result.to, 'http://dashboard.invalid');
  if (result.notice !== undefined) url.searchParams.set('notice', result.notice);
  if (result.problem !== undefined) url.searchParams.set('problem', result.problem);
  if (result.notice !== undefined || result.problem !== undefined) {
    url.searchParams.set('sig', messageSignature(sessionSecret, result.notice ?? '', result.problem ?? ''));
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The page's ?notice= / ?problem=, when signed for this session; nothing otherwise. */
function signedMessage(ctx: DashboardContext): { notice?: string; problem?: string } {
  const { notice, problem, sig } = ctx.query;
  if (sig === undefined || (notice === undefined && problem === undefined)) return {};
  if (!sameToken(sig, messageSignature(ctx.user.csrfToken, notice ?? '', problem ?? ''))) return {};
  return { ...(notice === undefined ? {} : { notice }), ...(problem === undefined ? {} : { problem }) };
}

/**
 * A form action (POST, urlencoded): the form's CSRF token must be the session's; then the action calls the API as the
 * user and the browser is sent back (303) with what happened. Role refusals come from the API itself.
 */
export function dashboardAction(app: FastifyInstance, url: string, act: (ctx: DashboardContext, body: FormBody) => Promise<ActionResult>): void {
  app.post(url, async (request, reply) => {
    const ctx = await context(app, request);
    if (ctx === null) return toSignIn(request, reply);
    const body = await checkedForm(request, reply, ctx.user);
    if (body === null) return reply;
    return reply.redirect(withMessage(await act(ctx, body), ctx.user.csrfToken), 303);
  });
}

/**
 * A form action whose answer is a page, not a redirect: for what is shown once (a new secret, a sign-in link, a new
 * access token), which must never travel in a URL. CSRF-checked like dashboardAction.
 */
export function dashboardActionPage(app: FastifyInstance, url: string, act: (ctx: DashboardContext, body: FormBody) => Promise<PageResult>): void {
  app.post(url, async (request, reply) => {
    const ctx = await context(app, request);
    if (ctx === null) return toSignIn(request, reply);
    const body = await checkedForm(request, reply, ctx.user);
    if (body === null) return reply;
    return sendPage(reply, ctx, await act(ctx, body));
  });
}

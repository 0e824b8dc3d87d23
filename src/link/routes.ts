/**
 * The hosted link flow, served by this service at each connection's link_url
 * (also its update_url):
 *
 *   GET  /link.js                       embeddable popup opener
 *   GET  /link/:linkToken               platform picker, or straight to the platform (?platform=, or the connection's)
 *   GET  /link/:linkToken/:platform     credential form, the authorisation input form of an OAuth platform that asks
 *                                       for one (a shop domain), or redirect to the platform's OAuth consent page
 *   POST /link/:linkToken/:platform     credential form or authorisation input form submission
 *   GET  /link/oauth/callback           OAuth redirect target (code and state, or error)
 *   POST /link/oauth/tenant             organisation picker submission
 *   GET  /link/done                     completion page (popup mode: hands the token to the opener)
 *
 * Everything here is for the end user: errors are HTML pages in plain words,
 * never the API's JSON. Hidden from the OpenAPI document.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { toServiceError } from '../http/error-handler.ts';
import { getConnector, listConnectors } from '../platforms/index.ts';
import { browserSecret, ensureBrowserSecret, formTokenValid } from './csrf.ts';
import { credentialsForm, formSubject, submitCredentials } from './credentials.ts';
import { findLinkConnection, page, startOverHref, type FlowContext, type LinkConnection, type Outcome } from './flow.ts';
import { chooseTenant, forbidden, oauthCallback } from './oauth.ts';
import { oauthStep, submitAuthorizationInput } from './authorization-input.ts';
import {
  CallbackQuery,
  CredentialsBody,
  DoneQuery,
  httpUrl,
  keptOf,
  keptProblem,
  keptQuery,
  LinkParams,
  LinkQuery,
  PlatformParams,
  TenantBody,
  type Kept,
} from './params.ts';
import { checkRedirect } from './redirect.ts';
import { LINK_SCRIPT } from './script.ts';
import { registerQwcDownload } from './polled.ts';
import type { AuthAttempt, Blocked } from '../ratelimit/auth-failures.ts';
import { donePage, messagePage, notFoundPage, pickerPage } from './views.ts';
import { countThrottled } from '../metrics/registry.ts';

const FORM_BODY_LIMIT = 64 * 1024;

export function registerLinkRoutes(app: FastifyInstance): void {
  app.get('/link.js', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(LINK_SCRIPT),
  );
  void app.register(linkPages, { prefix: '/link' });
  registerQwcDownload(app);
}

function send(reply: FastifyReply, outcome: Outcome): FastifyReply {
  if (outcome.kind === 'redirect') return reply.code(outcome.status).header('Location', outcome.location).send();
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(outcome.status)
    .type('text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'`,
    )
    .send(outcome.render(nonce));
}

function secureCookies(request: FastifyRequest): boolean {
  return request.server.services.config.publicUrl.startsWith('https:');
}

/** The link flow's authentication attempt: from this address, at this link (when the address names one). */
function linkAttempt(request: FastifyRequest): AuthAttempt {
  const { params } = request;
  const linkToken =
    typeof params === 'object' && params !== null && 'linkToken' in params && typeof params.linkToken === 'string' ? params.linkToken : null;
  return { surface: 'link', address: request.ip, target: linkToken === null ? null : `link:${linkToken}` };
}

/** Counts a failed attempt of the link flow (an unknown link, refused credentials); never fails the page. */
async function countFailure(request: FastifyRequest, attempt: AuthAttempt): Promise<void> {
  try {
    await request.server.authThrottle.recordFailure(attempt);
  } catch (error) {
    request.log.warn({ err: error }, 'could not count a failed link sign-in');
  }
}

function context(request: FastifyRequest): FlowContext {
  return {
    services: request.server.services,
    log: request.log,
    requestId: request.id,
    secret: browserSecret(request),
    refused: () => countFailure(request, linkAttempt(request)),
  };
}

const notFound = (): Outcome => page(404, notFoundPage);

/** A link token nobody was given: counted against the address only (there is no link to count it against). */
async function unknownLink(request: FastifyRequest): Promise<Outcome> {
  await countFailure(request, { ...linkAttempt(request), target: null });
  return notFound();
}

function tooManyAttempts(blocked: Blocked): Outcome {
  countThrottled('auth_throttle');
  const minutes = Math.ceil(blocked.retryAfterSeconds / 60);
  const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
  return page(429, (nonce) =>
    messagePage({
      nonce,
      title: 'Too many attempts',
      message:
        `There were too many unsuccessful attempts to sign in ${blocked.by === 'address' ? 'from your network' : 'with this link'}, ` +
        `so it is paused for now and nothing was changed. Wait ${wait}, then try again.`,
    }),
  );
}

function badLink(message: string): Outcome {
  return page(400, (nonce) =>
    messagePage({ nonce, title: 'This link is not valid', message: `${message} Ask the app that sent you here for a new link.` }),
  );
}

/** The platform step for a connection: the credential form, or off to the OAuth consent page. */
async function platformStep(
  request: FastifyRequest,
  reply: FastifyReply,
  connection: LinkConnection,
  platform: string,
  kept: Kept,
  redirect: string | null,
): Promise<Outcome> {
  const connector = getConnector(platform);
  if (connector === undefined) {
    if (connection.platform !== null) {
      return page(404, (nonce) =>
        messagePage({
          nonce,
          title: 'Platform not available',
          message: `This connection's platform (${platform}) is not offered here any more. Contact the app that sent you here.`,
        }),
      );
    }
    return page(404, (nonce) =>
      pickerPage({
        nonce,
        linkToken: connection.linkToken,
        kept,
        connectors: listConnectors(),
        notice: `"${platform}" is not a platform we can connect. Choose yours below.`,
      }),
    );
  }
  const secret = ensureBrowserSecret(request, reply, secureCookies(request));
  const ctx = { ...context(request), secret };
  if (connector.auth.type === 'oauth2') return oauthStep(ctx, connection, connector, connector.auth, kept, redirect);
  return credentialsForm(connection, connector, kept, secret, 200, { values: {}, error: null, invalid: [] });
}

const linkPages: FastifyPluginCallback = (scope, _options, done) => {
  // HTML forms post urlencoded bodies; only this scope accepts them (the API stays JSON-only). One value a field:
  // a repeated field keeps its last value, as the flow's forms never repeat one.
  void scope.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT, parser: (text) => Object.fromEntries(new URLSearchParams(text)) });
  // Sets the browser secret's cookie (src/link/csrf.ts); no parsing hook: the secret is read when a route needs it.
  void scope.register(fastifyCookie, { hook: false });

  scope.addHook('onRequest', async (request, reply) => {
    // Link and public tokens travel in these URLs: keep them out of caches and Referer headers; no framing (clickjacking).
    void reply.headers({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    });
    // Too many failed attempts from this address or at this link: paused, before anything is looked up (src/ratelimit/auth-failures.ts).
    const blocked = request.server.authThrottle.blocked(linkAttempt(request));
    if (blocked !== null) return send(reply.header('Retry-After', String(blocked.retryAfterSeconds)), tooManyAttempts(blocked));
    return undefined;
  });

  scope.setErrorHandler((error: unknown, request, reply) => {
    const known = toServiceError(error);
    if (known !== null && known.status < 500) {
      return send(
        reply,
        page(known.status, (nonce) =>
          messagePage({
            nonce,
            title: 'This link is not valid',
            message: `This address is not right: ${known.message} Ask the app that sent you here for a new link.`,
          }),
        ),
      );
    }
    request.log.error({ err: error }, 'link flow failed');
    return send(
      reply,
      page(500, (nonce) =>
        messagePage({
          nonce,
          title: 'Something went wrong',
          message: `Something went wrong on our side, and nothing was connected. Please try again in a few minutes. (Reference: ${request.id})`,
        }),
      ),
    );
  });

  scope.setNotFoundHandler((_request, reply) => send(reply, notFound()));

  scope.get<{ Querystring: Static<typeof DoneQuery> }>('/done', { schema: { hide: true, querystring: DoneQuery } }, (request, reply) => {
    const { query } = request;
    const origin =
      query.mode === 'popup' &&
      query.origin !== undefined &&
      query.public_token !== undefined &&
      httpUrl(query.origin)?.origin === query.origin.toLowerCase()
        ? query.origin.toLowerCase()
        : null;
    const platformName = query.platform === undefined ? null : (getConnector(query.platform)?.name ?? null);
    return send(
      reply,
      page(200, (nonce) =>
        donePage({
          nonce,
          platformName,
          popup: origin === null || query.public_token === undefined ? null : { origin, publicToken: query.public_token },
        }),
      ),
    );
  });

  scope.get<{ Querystring: Static<typeof CallbackQuery> }>(
    '/oauth/callback',
    { schema: { hide: true, querystring: CallbackQuery } },
    async (request, reply) => send(reply, await oauthCallback(context(request), request.query)),
  );

  scope.post<{ Body: Static<typeof TenantBody> }>('/oauth/tenant', { schema: { hide: true, body: TenantBody } }, async (request, reply) =>
    send(reply, await chooseTenant(context(request), request.body)),
  );

  scope.get<{ Params: Static<typeof LinkParams>; Querystring: Static<typeof LinkQuery> }>(
    '/:linkToken',
    { schema: { hide: true, params: LinkParams, querystring: LinkQuery } },
    async (request, reply) => {
      const connection = await findLinkConnection(request.server.services.pool, request.params.linkToken);
      if (connection === null) return send(reply, await unknownLink(request));
      const kept = keptOf(request.query);
      const problem = keptProblem(kept);
      if (problem !== null) return send(reply, badLink(problem));
      const checked = await checkRedirect(request.server.services.pool, connection, kept);
      if ('refused' in checked) return send(reply, checked.refused);
      const platform = connection.platform ?? request.query.platform?.toUpperCase() ?? null;
      if (platform === null) {
        return send(
          reply,
          page(200, (nonce) => pickerPage({ nonce, linkToken: connection.linkToken, kept, connectors: listConnectors(), notice: null })),
        );
      }
      return send(reply, await platformStep(request, reply, connection, platform, kept, checked.redirect));
    },
  );

  scope.get<{ Params: Static<typeof PlatformParams>; Querystring: Static<typeof LinkQuery> }>(
    '/:linkToken/:platform',
    { schema: { hide: true, params: PlatformParams, querystring: LinkQuery } },
    async (request, reply) => {
      const connection = await findLinkConnection(request.server.services.pool, request.params.linkToken);
      if (connection === null) return send(reply, await unknownLink(request));
      const kept = keptOf(request.query);
      const problem = keptProblem(kept);
      if (problem !== null) return send(reply, badLink(problem));
      const checked = await checkRedirect(request.server.services.pool, connection, kept);
      if ('refused' in checked) return send(reply, checked.refused);
      const platform = request.params.platform.toUpperCase();
      if (connection.platform !== null && connection.platform !== platform) {
        // The connection's platform is fixed (chosen at creation, or linked before): go there instead.
        return send(reply, {
          kind: 'redirect',
          status: 302,
          location: `/link/${encodeURIComponent(connection.linkToken)}/${connection.platform}${keptQuery(kept)}`,
        });
      }
      return send(reply, await platformStep(request, reply, connection, platform, kept, checked.redirect));
    },
  );

  scope.post<{ Params: Static<typeof PlatformParams>; Body: Static<typeof CredentialsBody> }>(
    '/:linkToken/:platform',
    { schema: { hide: true, params: PlatformParams, body: CredentialsBody } },
    async (request, reply) => {
      const connection = await findLinkConnection(request.server.services.pool, request.params.linkToken);
      if (connection === null) return send(reply, await unknownLink(request));
      const kept = keptOf(request.body);
      const secret = browserSecret(request);
      if (secret === null || !formTokenValid(secret, formSubject(connection), request.body.csrf)) {
        return send(reply, forbidden(startOverHref(connection.linkToken, keptQuery(kept))));
      }
      const problem = keptProblem(kept);
      if (problem !== null) return send(reply, badLink(problem));
      const platform = request.params.platform.toUpperCase();
      const connector = getConnector(platform);
      // The credential form, or the authorisation input asked before an OAuth consent page (authorization-input.ts).
      const asksInput = connector?.auth.type === 'oauth2' && (connector.auth.authorizationInput ?? []).length > 0;
      if (
        connector === undefined ||
        (connector.auth.type !== 'credentials' && !asksInput) ||
        (connection.platform !== null && connection.platform !== platform)
      ) {
        return send(reply, badLink('This form does not belong to this connection.'));
      }
      const checked = await checkRedirect(request.server.services.pool, connection, kept);
      if ('refused' in checked) return send(reply, checked.refused);
      const submitted: Partial<Record<string, string>> = request.body;
      const ctx = { ...context(request), secret };
      if (connector.auth.type === 'oauth2') {
        return send(reply, await submitAuthorizationInput(ctx, connection, connector, connector.auth, kept, submitted, checked.redirect));
      }
      return send(reply, await submitCredentials(ctx, connection, connector, kept, submitted, checked.redirect));
    },
  );

  done();
};

/**
 * The dashboard at /dashboard: server-rendered pages that work without JavaScript, with a small script for live
 * parts (docs/architecture.md, "Dashboard"). Registered by src/app.ts in its own scope, with maintained plugins that
 * act in this scope only (the API's hot path has none of their hooks): forms post urlencoded bodies
 * (@fastify/formbody), cookies are parsed and set by @fastify/cookie, and every answer carries helmet's security
 * headers with a strict Content-Security-Policy (scripts and styles from this process only) and no framing.
 */
import type { FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import { DASHBOARD_CSS, DASHBOARD_ICON, DASHBOARD_JS } from './assets.ts';
import { registerSignIn } from './sign-in.ts';
import { registerOidc } from './oidc-routes.ts';
import { DASHBOARD_PAGES } from './pages/index.ts';

const FORM_BODY_LIMIT = 64 * 1024;
const CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
};

export function registerDashboard(app: FastifyInstance): void {
  void app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
    // No parsing hook: the few routes that read a cookie parse it when they do (src/http/session-auth.ts).
    await scope.register(fastifyCookie, { hook: false });
    await scope.register(fastifyHelmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      // HTTPS and its HSTS policy are the TLS proxy's to decide (a self-hoster's LAN box may have neither).
      strictTransportSecurity: false,
    });
    // Pages, not API: kept out of the OpenAPI document (the dashboard's JSON endpoints under /dashboard/api are in it).
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    scope.addHook('onSend', (_request, reply, payload, next) => {
      if (reply.getHeader('Cache-Control') === undefined) void reply.header('Cache-Control', 'no-store');
      next(null, payload);
    });
    scope.get('/dashboard/assets/dashboard.css', (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(DASHBOARD_CSS),
    );
    scope.get('/dashboard/assets/dashboard.js', (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').type('text/javascript; charset=utf-8').send(DASHBOARD_JS),
    );
    scope.get('/dashboard/assets/icon.svg', (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(DASHBOARD_ICON),
    );
    registerSignIn(scope);
    registerOidc(scope);
    for (const register of DASHBOARD_PAGES) register(scope);
  });
}

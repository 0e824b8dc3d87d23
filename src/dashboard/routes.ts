/**
 * The dashboard at /dashboard: server-rendered pages that work without JavaScript, with a small script for live
 * parts (docs/architecture.md, "Dashboard"). Registered by src/app.ts in its own scope: only here do forms post
 * urlencoded bodies, and every answer carries a strict Content-Security-Policy (scripts and styles from this
 * process only).
 */
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_CSS, DASHBOARD_ICON, DASHBOARD_JS } from './assets.ts';
import { registerSignIn } from './sign-in.ts';
import { registerOidc } from './oidc-routes.ts';
import { DASHBOARD_PAGES } from './pages/index.ts';

const FORM_BODY_LIMIT = 64 * 1024;
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function parseForm(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  }
  return fields;
}

export function registerDashboard(app: FastifyInstance): void {
  void app.register((scope, _options, done) => {
    // Pages, not API: kept out of the OpenAPI document (the dashboard's JSON endpoints under /dashboard/api are in it).
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, parsed) => {
      parsed(null, parseForm(String(body)));
    });
    scope.addHook('onSend', (_request, reply, payload, next) => {
      void reply.header('Content-Security-Policy', CSP).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'same-origin');
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
    done();
  });
}

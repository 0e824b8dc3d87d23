/**
 * Builds the HTTP application: edge hooks, error handling, OpenAPI and every
 * endpoint from src/api/routes.ts. No listening here: server.ts and tests decide.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import multipart from '@fastify/multipart';
import { answerFrameworkError, installErrorHandling } from './http/error-handler.ts';
import { answerClientError } from './http/client-error.ts';
import { installEdgeHooks } from './http/hooks.ts';
import { installRequestMetrics } from './http/request-metrics.ts';
import { exactNumbersJsonParser } from './http/exact-numbers.ts';
import { validatorCompiler } from './http/validation.ts';
import { serializerCompiler } from './http/serialization.ts';
import { registerEndpoint, type Endpoint } from './http/contract.ts';
import { openApiOptions } from './http/openapi.ts';
import { httpServerOptions, limitConnections } from './http/connection-limits.ts';
import { adminEndpoints, dashboardEndpoints, platformWebhookEndpoints, publicEndpoints, versionedEndpoints } from './api/routes.ts';
import { HeldRefusals } from './http/held-refusals.ts';
import { emptyAnswerWhereWanted, PLATFORM_WEBHOOK_BODY_LIMIT, refuseBlockedWebhookSenders } from './api/platform-webhooks/receive.ts';
import { registerLinkRoutes } from './link/routes.ts';
import { registerWebConnector } from './api/web-connector/soap.ts';
import { registerDashboard } from './dashboard/routes.ts';
import { DASHBOARD_ICON, WORDMARK } from './dashboard/assets.ts';
import { AuthFailureThrottle } from './ratelimit/auth-failures.ts';
import type { Services } from './services.ts';
import { tracingEnabled } from './metrics/tracing.ts';
import { redactUrl } from './log/redaction.ts';

export const VERSIONED_PREFIX = '/versioned';
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Extra /versioned endpoints (tests of the edge machinery). */
  extraVersionedEndpoints?: Endpoint[];
  /** Routes of the optional plugins the process hosts (Runtime.mounts: SANDBOX's pages when SANDBOX_ENABLED). */
  mounts?: readonly ((app: FastifyInstance) => void)[];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's trustProxy: a hop count becomes the function proxy-addr makes of one (trust the first `hops` hops). */
function trustedProxies(setting: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

export async function buildApp(services: Services, options: BuildOptions = {}): Promise<FastifyInstance> {
  const limits = services.config.http;
  // Widened to Fastify's own logger type, so the app keeps the instance type every route module is written against.
  const loggerInstance: FastifyBaseLogger = services.log;
  const app = Fastify({
    // The process's log (src/log/logger.ts: no header, body or secret query parameter is logged), unless a test or
    // tool passes its own settings.
    ...(options.logger === undefined ? { loggerInstance } : { logger: options.logger }),
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    // request.ip from X-Forwarded-For only when the peer is a trusted proxy (TRUST_PROXY): the auth throttle counts by it.
    trustProxy: trustedProxies(services.config.trustProxy),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Fastify's own 503 while closing has its own body: the edge hooks answer it with ours (src/http/hooks.ts).
    return503OnClosing: false,
    // Slow clients (issue 19): a request must arrive whole within its bound; Fastify sets these two on the server itself.
    http: httpServerOptions(limits),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route runs (an over-long or badly encoded path) answer like every other.
    frameworkErrors: answerFrameworkError,
    // And requests Node's HTTP parser refuses (a control byte in a header, headers too large, a timeout).
    clientErrorHandler: answerClientError,
  });
  app.decorate('services', services);
  // Traces on (src/metrics/tracing-sdk.ts): @fastify/otel first, so every hook and route below runs in the request's span.
  // Loaded only then: without traces no part of the SDK is in memory.
  if (tracingEnabled()) await app.register(await (await import('./metrics/tracing-sdk.ts')).fastifyTracingPlugin(redactUrl));
  limitConnections(app.server, limits, (message) => {
    app.log.warn(message);
  });
  // Both compile a route's schemas on its first use, not here (docs/architecture.md, "Start-up").
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  // Per process: the blocks this process has learnt; the counts are shared in PostgreSQL.
  app.decorate('authThrottle', new AuthFailureThrottle(services.pool, services.config.authFailures));
  // Refusals held before they are answered (src/http/held-refusals.ts); a closing app answers them at once.
  const heldRefusals = new HeldRefusals();
  app.decorate('heldRefusals', heldRefusals);
  app.addHook('preClose', (done) => {
    heldRefusals.releaseAll();
    done();
  });
  installRequestMetrics(app);
  installEdgeHooks(app);
  // JSON bodies: Fastify's parser, refusing a number that parsing changed (src/http/exact-numbers.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, exactNumbersJsonParser(parseJson));

  // Attachment uploads (limits are set per route where files are read).
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1 } });
  await app.register(swagger, openApiOptions(services.config.publicUrl));
  // Our name and icon on the API reference, not the plugin's default (Fastify's logo and "Swagger UI").
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    logo: { type: 'image/svg+xml', content: Buffer.from(WORDMARK), href: '/docs', target: '_self' },
    theme: {
      title: 'Ledgerport API reference',
      favicon: [{ filename: 'icon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(DASHBOARD_ICON) }],
    },
  });

  for (const endpoint of publicEndpoints) registerEndpoint(app, endpoint);
  for (const endpoint of adminEndpoints) registerEndpoint(app, endpoint);
  for (const endpoint of dashboardEndpoints) registerEndpoint(app, endpoint);
  // A signature covers the bytes as sent: this scope hands the handler the raw body, parsed only once verified.
  await app.register((scope, _options, done) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: PLATFORM_WEBHOOK_BODY_LIMIT }, (_request, body, parsed) => {
      parsed(null, body);
    });
    // A sender blocked for forged signatures is refused before its body is read (src/api/platform-webhooks/receive.ts).
    scope.addHook('onRequest', refuseBlockedWebhookSenders);
    scope.addHook('onSend', emptyAnswerWhereWanted);
    for (const endpoint of platformWebhookEndpoints) registerEndpoint(scope, endpoint);
    done();
  });
  for (const endpoint of [...versionedEndpoints, ...(options.extraVersionedEndpoints ?? [])]) {
    registerEndpoint(app, endpoint, VERSIONED_PREFIX);
  }
  registerLinkRoutes(app);
  // Platforms that call us: Intuit's Web Connector's SOAP calls (docs/connectors.md, "Platforms that call us").
  registerWebConnector(app);
  registerDashboard(app);
  // The optional plugins' own pages (SANDBOX's bank feed linking), served here because they run in this process.
  for (const mount of options.mounts ?? []) mount(app);
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  await app.ready();
  return app;
}

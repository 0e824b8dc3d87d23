/**
 * Edge hooks, in order: request id → (admin | client auth → rate limit →
 * version) → unstorable input → validation → idempotency → handler →
 * idempotency store.
 */
import { assertEndpointEnabled } from '../tenants/endpoints.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateRequest, clientIdOf, verifyAdminToken } from './auth.ts';
import { throttledAuthentication } from './auth-throttle.ts';
import { authenticateSession, authorizeSession, sessionCookie, sessionEnvironment } from './session-auth.ts';
import { sessionTenant } from './session-tenant.ts';
import { recordAudit } from '../users/audit.ts';
import { auditTarget } from './audit-target.ts';
import { issuesAccessToken, maskAccessTokens } from './session-redaction.ts';
import { clientAuthCache } from './auth-cache.ts';
import { parseVersionHeader, type ApiVersion } from './versioning.ts';
import { rateLimitHeaders } from '../ratelimit/limiter.ts';
import { countThrottled } from '../metrics/registry.ts';
import { ServiceError } from '../errors/catalogue.ts';
import { refuseUnstorableInput } from './storable-input.ts';
import { ApiPool } from '../db/api-pool.ts';
import { newRequestScope, runInRequestScope, type RequestScope } from '../db/request-scope.ts';
import { requestLogEntry, RequestLogWriter } from './request-log.ts';
import { insertRequestLogs } from '../sql/insert-request-logs.ts';
import {
  beginIdempotent,
  finishIdempotent,
  IDEMPOTENCY_HEADER,
  keepClaimAlive,
  REPLAYED_HEADERS,
  validateKey,
  type IdempotencyClaim,
} from '../idempotency/idempotency.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiVersion: ApiVersion | null;
    idempotency: IdempotencyClaim | null;
    stopRenewingClaim: (() => void) | null;
    requestScope: RequestScope | null;
  }
  interface FastifyInstance {
    requestLog: RequestLogWriter;
  }
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE', 'PUT']);

/** The request's lines from here on (Fastify's "request completed" included, which it writes through reply.log) carry `ids`. */
function bindLogIds(request: FastifyRequest, reply: FastifyReply, ids: Record<string, string>): void {
  request.log = request.log.child(ids);
  reply.log = request.log;
}

export function installEdgeHooks(app: FastifyInstance): void {
  clientAuthCache.configure(app.services.config.authCacheSeconds);
  app.decorateRequest('tenant', null);
  app.decorateRequest('dashboardUser', null);
  app.decorateRequest('apiVersion', null);
  app.decorateRequest('idempotency', null);
  app.decorateRequest('stopRenewingClaim', null);
  app.decorateRequest('requestScope', null);
  app.decorateRequest('errorCode', null);
  // The organisations' request log: buffered here, written in batches (src/http/request-log.ts), the rest on close.
  const requestLog = new RequestLogWriter(
    (entries) => insertRequestLogs(app.services.pool, entries),
    app.services.config.requestLog,
    app.services.log,
  );
  app.decorate('requestLog', requestLog);
  app.addHook('onClose', async () => {
    await requestLog.close();
  });

  // Requests that arrive while the server closes answer 503 with the spec's body (Fastify's own 503 has another).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('X-Request-Id', request.id);
    if (closing) {
      throw new ServiceError(
        'SERVICE_UNAVAILABLE',
        'The server is shutting down; retry in a moment.',
        { source: 'service' },
        { Connection: 'close' },
      );
    }
    const auth = request.routeOptions.config.auth;
    const { services } = app;
    const header = request.headers.authorization;
    const presented = header !== undefined && header !== '';
    const contract = request.routeOptions.config.contract;
    if (auth === undefined || auth === 'none' || contract === undefined) return;
    const sessionToken = presented ? null : sessionCookie(request);
    if (auth === 'session' || sessionToken !== null) {
      // A dashboard session (src/http/session-auth.ts): its organisation, role, CSRF token and environment.
      const user = await authenticateSession(services.pool, sessionToken ?? '');
      request.dashboardUser = user;
      // Every line of a dashboard request names its organisation and user (connection and job ids follow in the
      // lines of the sync or write it starts, which carry its request id).
      bindLogIds(request, reply, { organization_id: user.organizationId, dashboard_user_id: user.userId });
      authorizeSession(user, request, contract);
      if (auth === 'client') request.tenant = await sessionTenant(services.pool, user.organizationId, sessionEnvironment(request));
      await hitRateLimit(reply, user.organizationId);
    } else if (auth === 'admin') {
      // Failed attempts are counted per source address and per target; over a limit a wrong token gets 429, the right one passes (src/http/auth-throttle.ts).
      await throttledAuthentication(
        app.authThrottle,
        request.log,
        { surface: 'admin', address: request.ip, target: 'admin', presented, refusal: 'INVALID_ADMIN_TOKEN' },
        () => {
          verifyAdminToken(header, services.adminTokenSha256);
        },
      );
    } else {
      const clientId = clientIdOf(header);
      request.tenant = await throttledAuthentication(
        app.authThrottle,
        request.log,
        {
          surface: 'client',
          address: request.ip,
          target: clientId === null ? null : `client:${clientId}`,
          presented,
          refusal: 'INVALID_CREDENTIALS',
        },
        () => authenticateRequest(services.pool, request),
      );
      // Every line after authentication names the organisation, its 429s included (issue 33).
      bindLogIds(request, reply, { organization_id: request.tenant.organizationId });
      await hitRateLimit(reply, request.tenant.organizationId);
    }
    if (request.tenant === null) return;
    request.apiVersion = parseVersionHeader(request.headers['x-service-version']);
    assertEndpointEnabled(request.tenant, request.method, request.routeOptions.url ?? request.url);
  });

  async function hitRateLimit(reply: FastifyReply, organizationId: string): Promise<void> {
    const decision = await app.services.rateLimiter.hit(`org:${organizationId}`);
    void reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      countThrottled('rate_limit');
      throw new ServiceError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${decision.limit} requests per ${decision.windowSeconds} seconds for this organisation exceeded; retry after ${decision.resetSeconds} s.`,
        { source: 'service' },
        { 'Retry-After': String(decision.resetSeconds) },
      );
    }
  }

  // What a dashboard session changed, or tried to change, goes to its organisation's audit log (refusals included),
  // before the answer leaves: whoever reads the log after an answer finds the entry.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const user = request.dashboardUser;
    if (user === null || !WRITE_METHODS.has(request.method)) return payload;
    await recordAudit(app.services.pool, {
      organizationId: user.organizationId,
      userId: user.userId,
      actor: user.email,
      action: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0] ?? ''}`,
      target: auditTarget(request),
      environment: request.tenant?.environment ?? null,
      status: reply.statusCode,
      requestId: request.id,
    }).catch((error: unknown) => {
      request.log.error({ err: error }, 'could not record a dashboard action in the audit log');
    });
  });

  // Text PostgreSQL cannot store as sent (NUL, lone surrogates) and non-finite numbers: 400 before validation or any handler.
  app.addHook('preValidation', refuseUnstorableInput);
  // From here on the request's database connections count against its organisation (src/db/organization-gate.ts):
  // after authentication and the rate limit, whose shared batches belong to no one request.
  const gate = app.services.pool instanceof ApiPool ? app.services.pool.gate : null;
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.tenant === null) {
      done();
      return;
    }
    const scope = newRequestScope(request.tenant.organizationId);
    // The connection a handler resolves (by access token or id) is named on the request's later lines.
    scope.onConnection = (connectionId) => {
      bindLogIds(request, reply, { connection_id: connectionId });
    };
    request.requestScope = scope;
    runInRequestScope(scope, done);
  });
  const endScope = (request: FastifyRequest): void => {
    const scope = request.requestScope;
    if (scope === null) return;
    if (gate === null) scope.ended = true;
    else gate.end(scope);
  };

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.tenant === null || !WRITE_METHODS.has(request.method)) return;
    const key = validateKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === null) return;
    const scope = { organizationId: request.tenant.organizationId, environment: request.tenant.environment, key };
    const outcome = await beginIdempotent(
      app.services.pool,
      app.services.cipher,
      scope,
      { method: request.method, path: request.url, body: request.body },
      { waitMs: app.services.idempotencyWaitMs },
    );
    if (outcome.kind === 'execute') {
      request.idempotency = outcome.claim;
      request.stopRenewingClaim = keepClaimAlive(app.services.pool, outcome.claim, (error) => {
        request.log.warn({ err: error }, 'could not renew an idempotency claim');
      });
      return;
    }
    const { response } = outcome;
    for (const [name, value] of Object.entries(response.headers)) void reply.header(name, value);
    return reply.code(response.status).header('Idempotent-Replayed', 'true').send(response.body);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (claim === null) return payload;
    request.idempotency = null;
    request.stopRenewingClaim?.();
    if (typeof payload !== 'string') {
      await finishIdempotent(app.services.pool, app.services.cipher, claim, { status: 500, headers: {}, body: '' });
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    await finishIdempotent(app.services.pool, app.services.cipher, claim, { status: reply.statusCode, headers, body: payload });
    return payload;
  });

  // A request that ends without a response (client gone, crash of the handler's socket) stops renewing its claim.
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    request.stopRenewingClaim?.();
    endScope(request);
    const entry = requestLogEntry(request, reply);
    if (entry !== null) requestLog.record(entry);
    done();
  });
  app.addHook('onRequestAbort', (request: FastifyRequest, done: () => void) => {
    request.stopRenewingClaim?.();
    endScope(request);
    done();
  });

  // A dashboard session never reads a connection's access token back (src/http/session-redaction.ts).
  app.addHook('preSerialization', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    if (request.dashboardUser === null || issuesAccessToken(request.method, request.routeOptions.url ?? '')) return payload;
    return maskAccessTokens(payload);
  });

  // Versioned responses: newest shape from the handler, downgraded for older versions.
  app.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const version = request.apiVersion;
    const contract = request.routeOptions.config.contract;
    const successSchema = contract?.success.schema;
    if (version === null || successSchema === undefined || successSchema === null || reply.statusCode !== contract?.success.status) return payload;
    const routeKey = `${request.method} ${request.routeOptions.url ?? ''}`;
    const { versions } = app.services;
    if (!versions.affects(routeKey, version)) return payload;
    // The older shape has its own schema, so its serializer still drops every field that shape does not have.
    void reply.serializer(versions.serializer(routeKey, version, { ...successSchema }));
    return versions.render(routeKey, version, payload);
  });
}

/**
 * Dashboard sessions at the edge. A request without an Authorization header but with the session cookie is the
 * dashboard's own: it reaches the same endpoints as API clients (the client routes as its organisation in the chosen
 * environment, the operator's routes of its own organisation where they allow it), so there is no second path to the
 * data. Checked here, once: the session, the role (src/http/dashboard-roles.ts), the CSRF token of a state-changing
 * request, and that an organisation in the path is the session's own (another organisation's answers 404, as an
 * unknown one does).
 */
import { parseCookie } from 'cookie';
import { sameToken } from '../crypto/secrets.ts';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/catalogue.ts';
import type { Queryable } from '../db/pool.ts';
import { sessionUser, type SessionUser } from '../users/sessions.ts';
import { ENVIRONMENTS, type Environment } from '../tenants/types.ts';
import { organizationNotFound } from '../tenants/organizations.ts';
import type { Contract } from './contract.ts';
import { requiredRole, roleAllows } from './dashboard-roles.ts';

export const SESSION_COOKIE = 'lp_session';
/** The environment a session works in; the dashboard's switch sets the cookie, its scripts send the header. */
export const ENVIRONMENT_COOKIE = 'lp_env';
export const ENVIRONMENT_HEADER = 'x-ledgerport-environment';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: SessionUser | null;
  }
}

/**
 * A cookie of the request, parsed by `cookie` (the parser @fastify/cookie uses). The edge reads the session cookie
 * on API routes, where no cookie plugin hook runs: only requests that carry a Cookie header pay for the parse.
 */
export function cookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (header === undefined) return null;
  return parseCookie(header)[name] ?? null;
}

export function sessionCookie(request: FastifyRequest): string | null {
  return cookie(request, SESSION_COOKIE);
}

function isEnvironment(value: string | null | undefined): value is Environment {
  return value !== null && value !== undefined && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** The environment the session works in: the header, else the switch's cookie, else sandbox. */
export function sessionEnvironment(request: FastifyRequest): Environment {
  const header = request.headers[ENVIRONMENT_HEADER];
  if (typeof header === 'string') {
    if (isEnvironment(header)) return header;
    throw new ServiceError('VALIDATION_ERROR', `\`${ENVIRONMENT_HEADER}\` must be sandbox or production (got "${header.slice(0, 20)}").`, {
      source: 'service',
      field: ENVIRONMENT_HEADER,
      location: 'headers',
    });
  }
  const fromCookie = cookie(request, ENVIRONMENT_COOKIE);
  return isEnvironment(fromCookie) ? fromCookie : 'sandbox';
}

export async function authenticateSession(db: Queryable, token: string): Promise<SessionUser> {
  const user = await sessionUser(db, token);
  if (user === null) {
    throw new ServiceError('SESSION_REQUIRED', 'Your dashboard session has ended or is not valid: sign in again at /dashboard/login.', {
      source: 'service',
    });
  }
  return user;
}

/** Whether the session may make this request: role, CSRF token, and its own organisation in the path. */
export function authorizeSession(user: SessionUser, request: FastifyRequest, contract: Contract): void {
  const required = requiredRole(contract);
  if (required === null) {
    throw new ServiceError('ROLE_NOT_ALLOWED', `${contract.method} ${contract.url} is the operator's (ADMIN_TOKEN), not a dashboard user's.`, {
      source: 'service',
    });
  }
  if (!roleAllows(user.role, required)) {
    throw new ServiceError(
      'ROLE_NOT_ALLOWED',
      `Your role (${user.role}) may not ${contract.method} ${contract.url}: it needs ${required}. Ask an admin of your organisation.`,
      { source: 'service' },
    );
  }
  if (!SAFE_METHODS.has(request.method)) {
    const presented = request.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || !sameToken(presented, user.csrfToken)) {
      throw new ServiceError('CSRF_TOKEN_INVALID', `A dashboard session's ${request.method} must send its CSRF token in X-CSRF-Token.`, {
        source: 'service',
        field: CSRF_HEADER,
        location: 'headers',
      });
    }
  }
  const params = request.params as Record<string, unknown> | undefined;
  const organizationId = contract.auth === 'admin' ? params?.id : undefined;
  if (typeof organizationId === 'string' && organizationId !== user.organizationId) throw organizationNotFound(organizationId);
}

/** The guard of session-authenticated handlers: the user the edge established (every dashboard JSON endpoint). */
export function requireDashboardUser(request: { dashboardUser: SessionUser | null }): SessionUser {
  if (request.dashboardUser === null) {
    throw new ServiceError('SESSION_REQUIRED', 'Sign in to the dashboard first (/dashboard/login).', { source: 'service' });
  }
  return request.dashboardUser;
}

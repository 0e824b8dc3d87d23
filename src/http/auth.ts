/**
 * Authentication at the edge. /versioned: HTTP Basic client credentials, the
 * environment follows from the client_id. /admin: Bearer ADMIN_TOKEN.
 */
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors/catalogue.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { verifyClient } from '../tenants/organizations.ts';
import { clientAuthCache } from './auth-cache.ts';
import { hasControlOrUndecodable } from './storable-input.ts';
import type { AuthenticatedTenant } from '../tenants/types.ts';

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="Ledgerport", charset="UTF-8"' };

function invalid(message: string): ServiceError {
  return new ServiceError('INVALID_CREDENTIALS', message, { source: 'service' }, BASIC_CHALLENGE);
}

export function parseBasicAuthorization(header: string | undefined): { clientId: string; clientSecret: string } {
  if (header === undefined || header === '') {
    throw invalid('Missing credentials: send Authorization: Basic base64(client_id:client_secret).');
  }
  const match = /^Basic +([A-Za-z0-9+/=_-]+) *$/i.exec(header);
  if (match?.[1] === undefined) {
    throw invalid('Malformed Authorization header: expected "Basic " followed by base64(client_id:client_secret).');
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  // No credential of this service holds such characters; refused here, before they reach a lookup (a NUL used to end in a 500).
  if (hasControlOrUndecodable(decoded)) {
    throw invalid('Malformed Basic credentials: the decoded value contains a control character (such as NUL) or bytes that are not UTF-8.');
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) {
    throw invalid('Malformed Basic credentials: the decoded value must be client_id:client_secret.');
  }
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

/** The client_id the header names, if it can be read: what a failed attempt was aimed at. */
export function clientIdOf(header: string | undefined): string | null {
  try {
    return parseBasicAuthorization(header).clientId;
  } catch {
    return null;
  }
}

export async function authenticateRequest(db: Queryable, request: FastifyRequest): Promise<AuthenticatedTenant> {
  const { clientId, clientSecret } = parseBasicAuthorization(request.headers.authorization);
  if (clientId.length > 200 || clientSecret.length > 200) throw invalid('Invalid client credentials.');
  const cached = clientAuthCache.get(clientId, clientSecret);
  if (cached !== null) return cached;
  const verified = await verifyClient(db, clientId, clientSecret);
  if (verified === null) throw invalid('Invalid client credentials: unknown client_id, or a wrong or expired client_secret.');
  clientAuthCache.remember(clientId, clientSecret, verified.tenant, verified.expiresAt);
  return verified.tenant;
}

/** Admin bearer check against the configured token or the stored hash of the generated one. */
export function verifyAdminToken(header: string | undefined, expectedSha256: Buffer): void {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (match?.[1] === undefined) {
    throw new ServiceError('INVALID_ADMIN_TOKEN', 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>.', { source: 'service' });
  }
  if (!timingSafeEqual(sha256(match[1]), expectedSha256)) {
    throw new ServiceError('INVALID_ADMIN_TOKEN', 'Invalid admin token.', { source: 'service' });
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: AuthenticatedTenant | null;
  }
}

/**
 * The tenant guard of client-authenticated handlers: the tenant the authentication hook established
 * (src/http/hooks.ts), which every ownership check below takes (connections by access token or id, jobs, events
 * are looked up within it, so another tenant's ids answer as unknown ones). A route with auth 'client' always has
 * one; a handler reached without it is a wiring mistake, and fails as one.
 */
export function requireTenant(request: Pick<FastifyRequest, 'tenant'>): AuthenticatedTenant {
  if (request.tenant === null) throw new Error('client auth hook did not run');
  return request.tenant;
}

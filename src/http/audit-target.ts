/**
 * What an audited request acted on, without its secrets: the path's ids and the query's names other than tokens
 * (an access_token is a credential; the connection it names is found by the request id in the log).
 */
import type { FastifyRequest } from 'fastify';

const SECRET_QUERY = new Set(['access_token', 'public_token', 'client_secret']);

export function auditTarget(request: FastifyRequest): string | null {
  const params = Object.entries((request.params ?? {}) as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'string')
    .map(([name, value]) => `${name}=${String(value)}`);
  const query = Object.entries((request.query ?? {}) as Record<string, unknown>)
    .filter(([name, value]) => !SECRET_QUERY.has(name) && typeof value === 'string')
    .map(([name, value]) => `${name}=${String(value).slice(0, 100)}`);
  const parts = [...params, ...query];
  return parts.length === 0 ? null : parts.join(' ').slice(0, 500);
}

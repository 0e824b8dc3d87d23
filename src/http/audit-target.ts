/**
 * What an audited request acted on, without its secrets: the path's ids and the query's values but tokens and codes
 * (an access_token is a credential; the connection it names is found by the request id in the log).
 */
import type { FastifyRequest } from 'fastify';
import { isSecret } from '../log/redaction.ts';

export function auditTarget(request: FastifyRequest): string | null {
  const params = Object.entries((request.params ?? {}) as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'string')
    .map(([name, value]) => `${name}=${String(value)}`);
  const query = Object.entries((request.query ?? {}) as Record<string, unknown>)
    // The names and values the log masks (src/log/redaction.ts) are left out here.
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !isSecret(entry[0], entry[1]))
    .map(([name, value]) => `${name}=${value.slice(0, 100)}`);
  const parts = [...params, ...query];
  return parts.length === 0 ? null : parts.join(' ').slice(0, 500);
}

/**
 * Access tokens are connection credentials: a dashboard session does not read them back. Answers to a session carry
 * `access_token` masked, wherever it appears, except the answers that issue one (a new connection, an invalidated
 * token's replacement), which show it that once. The dashboard's pages find a token on the server when they call the
 * API for a connection (src/dashboard/connection-token.ts), and never render it.
 */
const MASK = 'lpat_…';
const ISSUES_A_TOKEN = new Set(['POST /versioned/connections/create', 'POST /versioned/connections/access_token/invalidate']);

export function issuesAccessToken(method: string, route: string): boolean {
  return ISSUES_A_TOKEN.has(`${method} ${route}`);
}

/** The payload with every `access_token` string replaced by a mask (a new object; the handler's is left alone). */
export function maskAccessTokens(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(maskAccessTokens);
  if (typeof payload !== 'object' || payload === null || payload instanceof Date || Buffer.isBuffer(payload)) return payload;
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload))
    masked[key] = key === 'access_token' && typeof value === 'string' ? MASK : maskAccessTokens(value);
  return masked;
}

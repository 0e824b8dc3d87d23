/**
 * Platform calls with the connection's OAuth access token. The token comes
 * from the job's session before every call (refreshed when it nears expiry);
 * a 401 refreshes once and retries once, so an access token that dies mid-sync
 * costs one extra request, not the sync. A second 401 is final: the grant is
 * gone and the connection needs the end user (needs_reauth). Retrying a write
 * after a 401 is safe: the platform refused it before acting.
 */
import type { ConnectorContext, OAuthTokens } from './connector.ts';
import { PlatformError } from './errors.ts';
import type { PlatformRequest, PlatformResponse } from './http.ts';

/** Builds the request for a given token: the Authorization header and any tenant header from `tokens`. */
export type AuthorizedRequest = (tokens: OAuthTokens) => PlatformRequest;

export async function authorizedRequest(ctx: ConnectorContext, build: AuthorizedRequest): Promise<PlatformResponse> {
  const session = ctx.oauth;
  if (session === null) {
    throw new PlatformError({
      kind: 'unauthorized',
      message: 'This connection has no OAuth tokens: the end user must link it first.',
      requestSent: false,
    });
  }
  const tokens = await session.tokens();
  try {
    return await ctx.http.request(build(tokens));
  } catch (error) {
    if (!(error instanceof PlatformError) || error.kind !== 'unauthorized') throw error;
    const renewed = await session.rejected(tokens.accessToken);
    if (renewed.accessToken === tokens.accessToken) throw error;
    return ctx.http.request(build(renewed));
  }
}

/** `Authorization: Bearer …` for `tokens`, merged with other headers. */
export function bearer(tokens: OAuthTokens, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, authorization: `Bearer ${tokens.accessToken}` };
}

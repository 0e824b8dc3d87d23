/**
 * Intuit OAuth 2.0: the consent page (appcenter.intuit.com), then the token
 * endpoint with the app's credentials as HTTP Basic and a form body.
 * Access tokens live an hour (expires_in 3600); every refresh answers with a
 * refresh token to use next time. The company the end user picked comes back
 * on the callback as `realmId`; it is kept as the tokens' tenantId.
 */
import type { AuthContext, AuthSpec, OAuthAppCredentials, OAuthCallbackParams, OAuthTokens } from '../connector.ts';
import { platformAddress } from '../addresses.ts';
import { PlatformError } from '../errors.ts';

export const QBO_SCOPE = 'com.intuit.quickbooks.accounting';

export const authorizeEndpoint = (): string => platformAddress('QUICKBOOKS_AUTHORIZE_URL', 'https://appcenter.intuit.com/connect/oauth2');
export const tokenEndpoint = (): string => platformAddress('QUICKBOOKS_TOKEN_URL', 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer');

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  token_type?: unknown;
}

function basic(app: OAuthAppCredentials): string {
  return `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
}

/** The token endpoint's answer as stored tokens; `realmId` is kept from before (a refresh does not repeat it). */
export function tokensOf(body: unknown, realmId: string | null, now: number = Date.now()): OAuthTokens {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as TokenAnswer;
  if (typeof answer.access_token !== 'string' || answer.access_token === '') {
    throw new PlatformError({ kind: 'server', message: 'The Intuit token endpoint answered without an access_token' });
  }
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : Number(answer.expires_in);
  return {
    accessToken: answer.access_token,
    refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token !== '' ? answer.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now + expiresIn * 1000).toISOString() : null,
    tenantId: realmId,
  };
}

async function tokenRequest(ctx: AuthContext, app: OAuthAppCredentials, form: Record<string, string>, idempotent: boolean): Promise<unknown> {
  const response = await ctx.http.request({
    method: 'POST',
    url: tokenEndpoint(),
    headers: { authorization: basic(app), accept: 'application/json' },
    form,
    idempotent,
    signal: ctx.signal,
    operation: `quickbooks token ${form.grant_type ?? ''}`.trim(),
  });
  return response.body;
}

export const quickbooksAuth: Extract<AuthSpec, { type: 'oauth2' }> = {
  type: 'oauth2',
  // Intuit names the company the end user chose on the callback, and nowhere else.
  callbackParams: ['realmId'],
  authorizeUrl(app, state, scope) {
    const url = new URL(authorizeEndpoint());
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', scope ?? QBO_SCOPE);
    url.searchParams.set('redirect_uri', app.redirectUri);
    url.searchParams.set('state', state);
    return url.href;
  },
  async exchangeCode(ctx, app, code, callback: OAuthCallbackParams) {
    const realmId = callback.realmId;
    if (realmId === undefined || realmId === '') {
      throw new PlatformError({
        kind: 'bad_request',
        message: 'QuickBooks Online did not say which company was connected (no realmId on the callback).',
        requestSent: false,
      });
    }
    // An authorization code works once: a repeat after a lost answer could only fail, so it is not retried.
    const body = await tokenRequest(ctx, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }, false);
    return tokensOf(body, realmId);
  },
  async refresh(ctx, app, refreshToken) {
    const body = await tokenRequest(ctx, app, { grant_type: 'refresh_token', refresh_token: refreshToken }, true);
    // The realm is not in the answer; the token manager keeps the stored one when tenantId is null.
    return tokensOf(body, null);
  },
};

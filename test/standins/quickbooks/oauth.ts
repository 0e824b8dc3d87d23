/**
 * Intuit's OAuth 2.0 as the stand-in plays it, on the kit's OAuth server: client credentials as HTTP Basic only,
 * access tokens for an hour, a new refresh token on every refresh (the old one dies), answers and errors shaped as the
 * recorded fixtures (test/fixtures/quickbooks/oauth), and the consent page naming the company.
 */
import { consentPage as kitConsentPage, errorPage as kitErrorPage, escapeHtml, OAuthServer, randomToken } from '../kit/oauth.ts';
import { fixture } from './fixtures.ts';

export type { OAuthClient } from '../kit/oauth.ts';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** ISO 8601, as the connector stores it. */
  expiresAt: string;
  /** The realm, as the connector stores it (tenantId). */
  tenantId: string;
}

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 8_726_400;

/** A grant reaches one company: its realm id. */
export function intuitOAuth(now: () => number): OAuthServer<string> {
  return new OAuthServer<string>(
    {
      clientAuth: ['basic'],
      accessSeconds: ACCESS_TOKEN_SECONDS,
      codeSeconds: null,
      refresh: 'rotate',
      checkRedirectUri: true,
      mint: {
        access: () => randomToken('eyJ.qbo.', 18, 'base64url'),
        refresh: () => randomToken('AB11', 18, 'base64url'),
        code: () => randomToken('AB11code', 18, 'base64url'),
      },
      answer: (issued) => ({
        ...fixture('oauth/token.json'),
        access_token: issued.accessToken,
        refresh_token: issued.refreshToken,
        expires_in: ACCESS_TOKEN_SECONDS,
        x_refresh_token_expires_in: REFRESH_TOKEN_SECONDS,
      }),
      errors: {
        invalidClient: { status: 401, body: fixture('oauth/invalid-client.json') },
        invalidGrant: { status: 400, body: fixture('oauth/invalid-grant.json') },
        unsupportedGrant: () => ({ status: 400, body: { error: 'unsupported_grant_type' } }),
      },
    },
    now,
  );
}

/** Tokens for a company as if the consent flow had run, in the connector's stored shape. */
export function issueTokens(oauth: OAuthServer<string>, realmId: string, clientId: string, accessSeconds?: number): IssuedTokens {
  const issued = oauth.issue(oauth.grant(clientId, realmId), accessSeconds);
  return {
    accessToken: issued.accessToken,
    refreshToken: issued.refreshToken ?? '',
    expiresAt: new Date(issued.expiresAt ?? 0).toISOString(),
    tenantId: realmId,
  };
}

/** The consent page: who asks, for which company, and two buttons. */
export function consentPage(input: { clientId: string; redirectUri: string; state: string; scope: string; companyName: string }): string {
  return kitConsentPage({
    title: 'Connect your QuickBooks company',
    intro: `An app wants to read and write the accounting data of <strong id="company">${escapeHtml(input.companyName)}</strong>.`,
    action: '/connect/oauth2',
    hidden: { client_id: input.clientId, redirect_uri: input.redirectUri, state: input.state, scope: input.scope },
    allowLabel: 'Connect',
    denyLabel: 'Cancel',
  });
}

export function errorPage(message: string): string {
  return kitErrorPage('Something went wrong', message);
}

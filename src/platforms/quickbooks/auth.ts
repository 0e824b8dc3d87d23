/**
 * Intuit OAuth 2.0, described for the kit (../oauth2.ts): the consent page (appcenter.intuit.com), then the
 * token endpoint with the app's credentials as HTTP Basic and a form body. Access tokens live an hour (expires_in
 * 3600); every refresh answers with a refresh token to use next time. The company the end user picked comes back
 * on the callback as `realmId`, and nowhere else; it is kept as the tokens' tenantId.
 */
import type { OAuthTokens } from '../connector.ts';
import { platformAddress } from '../addresses.ts';
import { oauth2, readTokenAnswer, type OAuth2Description } from '../oauth2.ts';

export const QBO_SCOPE = 'com.intuit.quickbooks.accounting';

export const authorizeEndpoint = (): string => platformAddress('QUICKBOOKS_AUTHORIZE_URL', 'https://appcenter.intuit.com/connect/oauth2');
export const tokenEndpoint = (): string => platformAddress('QUICKBOOKS_TOKEN_URL', 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer');

const description: OAuth2Description = {
  name: 'quickbooks',
  authorizeUrl: authorizeEndpoint,
  tokenUrl: tokenEndpoint,
  clientAuth: 'basic',
  scopes: [QBO_SCOPE],
  tenantFromCallback: 'realmId',
  // Rotated, but a refresh whose answer was lost has always been resent here (Intuit answers the same refresh token).
  refresh: { rotates: true, resendable: true },
};

/** The token endpoint's answer as stored tokens; `realmId` is kept from before (a refresh does not repeat it). */
export function tokensOf(body: unknown, realmId: string | null, now: number = Date.now()): OAuthTokens {
  return readTokenAnswer(description, body, realmId, now);
}

export const quickbooksAuth = oauth2(description);

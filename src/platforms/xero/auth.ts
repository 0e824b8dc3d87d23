/**
 * Xero's OAuth 2.0 authorization-code flow: consent at login.xero.com, code
 * and refresh grants at identity.xero.com (client id and secret as Basic
 * auth, form body), organisations from GET /connections. Access tokens live
 * 30 minutes; each refresh returns a new refresh token and retires the old one.
 */
import type { AuthContext, AuthSpec, OAuthAppCredentials, OAuthTenant, OAuthTokens } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { bearer } from '../oauth-request.ts';
import { xeroUrls } from './client.ts';
import { classifyXeroError } from './errors.ts';
import { parseConnections } from './contract.ts';

/**
 * Xero's granular scopes, which replace accounting.transactions and accounting.reports.read: apps created since
 * 2 March 2026 can ask for nothing else, and older apps could ask for them from April 2026 (the broad ones end in
 * September 2027). Exactly what the connector calls: bills (Invoices) and manual journals written, payments and bank
 * transfers read, contacts written, settings (accounts, tax rates, tracking, currencies, organisation, employees),
 * the balance sheet and profit and loss reports, attachments. A connection's own `scope` still replaces the list.
 */
export const XERO_SCOPES = [
  'offline_access',
  'accounting.invoices',
  'accounting.payments.read',
  'accounting.banktransactions.read',
  'accounting.manualjournals',
  'accounting.contacts',
  'accounting.settings',
  'accounting.reports.balancesheet.read',
  'accounting.reports.profitandloss.read',
  'accounting.attachments',
  'openid',
  'profile',
  'email',
].join(' ');

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

function basic(app: OAuthAppCredentials): string {
  return `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
}

async function tokenGrant(ctx: AuthContext, app: OAuthAppCredentials, form: Record<string, string>): Promise<OAuthTokens> {
  const response = await ctx.http.request({
    method: 'POST',
    url: xeroUrls().token,
    headers: { authorization: basic(app) },
    form,
    // A code or a refresh token is good for one use: never resend one that may have arrived.
    idempotent: false,
    operation: `xero token (${form.grant_type ?? 'grant'})`,
  });
  const body = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as TokenAnswer;
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: 'Xero answered the token request without an access token',
      requestSent: true,
    });
  }
  const expiresIn = typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) ? body.expires_in : null;
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    expiresAt: expiresIn === null ? null : new Date(Date.now() + expiresIn * 1000).toISOString(),
    tenantId: null,
  };
}

export const xeroAuth: AuthSpec = {
  type: 'oauth2',
  authorizeUrl(app, state, scope) {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      scope: scope ?? XERO_SCOPES,
      state,
    });
    return `${xeroUrls().authorize}?${query.toString()}`;
  },
  exchangeCode: (ctx, app, code) => tokenGrant(ctx, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }),
  refresh: (ctx, app, refreshToken) => tokenGrant(ctx, app, { grant_type: 'refresh_token', refresh_token: refreshToken }),
  async listTenants(ctx, tokens): Promise<OAuthTenant[]> {
    const response = await ctx.http.request({
      method: 'GET',
      url: xeroUrls().connections,
      headers: bearer(tokens),
      idempotent: true,
      classifyError: classifyXeroError(),
      operation: 'xero connections',
    });
    const connections = parseConnections(response.body, response.status);
    // Practices (tenantType PRACTICE) hold no books of their own.
    return connections
      .filter((c) => c.tenantType === 'ORGANISATION' && typeof c.tenantId === 'string')
      .map((c) => ({ id: c.tenantId ?? '', name: c.tenantName ?? c.tenantId ?? '' }));
  },
};

/**
 * Xero's OAuth 2.0 authorization-code flow, described for the kit (../oauth2.ts): consent at login.xero.com,
 * code and refresh grants at identity.xero.com (client id and secret as Basic auth, form body). Access tokens live
 * 30 minutes; each refresh returns a new refresh token and retires the old one. The quirk: the organisations a grant
 * reaches come from GET /connections (listTenants).
 */
import type { OAuthTenant } from '../connector.ts';
import { oauth2 } from '../oauth2.ts';
import { bearer } from '../oauth-request.ts';
import { xeroUrls } from './client.ts';
import { classifyXeroError } from './errors.ts';
import { parseConnections } from './contract.ts';

/**
 * Xero's granular scopes, which replace accounting.transactions and accounting.reports.read: apps created since
 * 2 March 2026 can ask for nothing else, and older apps could ask for them from April 2026 (the broad ones end in
 * September 2027). Exactly what the connector calls: bills and invoices (Invoices), manual journals and payments
 * written, bank transfers read, contacts written, settings (accounts, tax rates, tracking, currencies, organisation, employees),
 * the balance sheet and profit and loss reports, attachments. A connection's own `scope` still replaces the list.
 */
export const XERO_SCOPES = [
  'offline_access',
  'accounting.invoices',
  'accounting.payments',
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

export const xeroAuth = oauth2({
  name: 'xero',
  authorizeUrl: () => xeroUrls().authorize,
  tokenUrl: () => xeroUrls().token,
  clientAuth: 'basic',
  scopes: XERO_SCOPES.split(' '),
  // Each refresh returns a new refresh token and retires the old one: never resend one that may have arrived.
  refresh: { rotates: true },
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
});

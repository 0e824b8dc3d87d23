/**
 * Intuit's OAuth 2.0 as the stand-in plays it: the consent page (allow or
 * deny, with the company's name), authorization codes that work once, the
 * token endpoint (HTTP Basic client credentials, form body) issuing access
 * tokens for an hour and a new refresh token on every refresh (the old one
 * dies), and bearer checks for the API.
 */
import { randomBytes } from 'node:crypto';
import type { Json } from './fixtures.ts';
import { fixture } from './fixtures.ts';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** ISO 8601, as the connector stores it. */
  expiresAt: string;
  /** The realm, as the connector stores it (tenantId). */
  tenantId: string;
}

interface AccessGrant {
  realmId: string;
  clientId: string;
  expiresAt: number;
  expired: boolean;
}
interface RefreshGrant {
  realmId: string;
  clientId: string;
  valid: boolean;
}
interface CodeGrant {
  realmId: string;
  clientId: string;
  redirectUri: string;
  used: boolean;
}

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 8_726_400;

export type BearerCheck = { ok: true; realmId: string } | { ok: false; reason: 'missing' | 'unknown' | 'expired' };

export interface TokenAnswer {
  status: number;
  body: Json;
}

const token = (prefix: string): string => `${prefix}${randomBytes(18).toString('base64url')}`;

export class OAuthServer {
  readonly clients = new Map<string, OAuthClient>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  /** Calls of the token endpoint, whatever their outcome. */
  tokenCalls = 0;

  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  register(client: OAuthClient): void {
    this.clients.set(client.clientId, client);
  }

  issue(realmId: string, clientId: string, accessSeconds = ACCESS_TOKEN_SECONDS): IssuedTokens {
    const accessToken = token('eyJ.qbo.');
    const refreshToken = token('AB11');
    const expiresAt = this.now() + accessSeconds * 1000;
    this.access.set(accessToken, { realmId, clientId, expiresAt, expired: false });
    this.refresh.set(refreshToken, { realmId, clientId, valid: true });
    return { accessToken, refreshToken, expiresAt: new Date(expiresAt).toISOString(), tenantId: realmId };
  }

  /** A code for the consent page's "allow". */
  code(client: OAuthClient, realmId: string): string {
    const code = token('AB11code');
    this.codes.set(code, { realmId, clientId: client.clientId, redirectUri: client.redirectUri, used: false });
    return code;
  }

  expireAccessTokens(): void {
    for (const grant of this.access.values()) grant.expired = true;
  }

  revokeRefreshTokens(): void {
    for (const grant of this.refresh.values()) grant.valid = false;
  }

  bearer(header: string | undefined): BearerCheck {
    const match = /^Bearer (\S+)$/i.exec(header ?? '');
    if (match?.[1] === undefined) return { ok: false, reason: 'missing' };
    const grant = this.access.get(match[1]);
    if (grant === undefined) return { ok: false, reason: 'unknown' };
    if (grant.expired || grant.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, realmId: grant.realmId };
  }

  /** The token endpoint: `grant_type=authorization_code` or `refresh_token`, client credentials as HTTP Basic. */
  tokenEndpoint(authorization: string | undefined, form: URLSearchParams): TokenAnswer {
    this.tokenCalls += 1;
    const client = this.basicClient(authorization);
    if (client === null) return { status: 401, body: fixture('oauth/invalid-client.json') };
    const grantType = form.get('grant_type');
    let realmId: string;
    if (grantType === 'authorization_code') {
      const grant = this.codes.get(form.get('code') ?? '');
      if (grant === undefined || grant.used || grant.clientId !== client.clientId || grant.redirectUri !== form.get('redirect_uri')) {
        return { status: 400, body: fixture('oauth/invalid-grant.json') };
      }
      grant.used = true;
      realmId = grant.realmId;
    } else if (grantType === 'refresh_token') {
      const grant = this.refresh.get(form.get('refresh_token') ?? '');
      if (grant?.valid !== true || grant.clientId !== client.clientId) return { status: 400, body: fixture('oauth/invalid-grant.json') };
      // Rotation: the refresh token just used is spent.
      grant.valid = false;
      realmId = grant.realmId;
    } else {
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    const issued = this.issue(realmId, client.clientId);
    return {
      status: 200,
      body: {
        ...fixture('oauth/token.json'),
        access_token: issued.accessToken,
        refresh_token: issued.refreshToken,
        expires_in: ACCESS_TOKEN_SECONDS,
        x_refresh_token_expires_in: REFRESH_TOKEN_SECONDS,
      },
    };
  }

  private basicClient(authorization: string | undefined): OAuthClient | null {
    const match = /^Basic (\S+)$/i.exec(authorization ?? '');
    if (match?.[1] === undefined) return null;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const client = this.clients.get(decoded.slice(0, colon));
    return client !== undefined && colon > 0 && client.clientSecret === decoded.slice(colon + 1) ? client : null;
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The consent page: who asks, for which company, and two buttons. */
export function consentPage(input: { clientId: string; redirectUri: string; state: string; scope: string; companyName: string }): string {
  const hidden = (name: string, value: string): string => `<input type="hidden" name="${name}" value="${escape(value)}">`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Connect to QuickBooks</title></head>
<body>
<main>
<h1>Connect your QuickBooks company</h1>
<p>An app wants to read and write the accounting data of <strong id="company">${escape(input.companyName)}</strong>.</p>
<form method="post" action="/connect/oauth2">
${hidden('client_id', input.clientId)}${hidden('redirect_uri', input.redirectUri)}${hidden('state', input.state)}${hidden('scope', input.scope)}
<button id="deny" type="submit" name="decision" value="deny">Cancel</button>
<button id="allow" type="submit" name="decision" value="allow">Connect</button>
</form>
</main>
</body></html>`;
}

export function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><h1>Something went wrong</h1><p id="error">${escape(message)}</p></body></html>`;
}

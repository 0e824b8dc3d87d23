/**
 * Xero's identity service in the stand-in: registered OAuth clients, the
 * consent page (organisations to tick, Allow / Deny), single-use codes,
 * 30-minute access tokens and refresh tokens that rotate on every use (the
 * old one is dead after), and the organisations each grant reaches.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}
export interface Tenant {
  id: string;
  name: string;
}

interface Grant {
  id: string;
  clientId: string;
  tenants: string[];
  scope: string;
  authEventId: string;
  createdAt: string;
}
interface Code {
  grantId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

export interface TokenAnswer {
  status: number;
  body: Record<string, unknown>;
}

export const ACCESS_TOKEN_SECONDS = 1800;

const token = (prefix: string): string => `${prefix}_${randomBytes(18).toString('base64url')}`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class XeroIdentity {
  readonly clients = new Map<string, OAuthClient>();
  private readonly grants = new Map<string, Grant>();
  private readonly codes = new Map<string, Code>();
  private readonly access = new Map<string, { grantId: string; expiresAt: number }>();
  private readonly refresh = new Map<string, { grantId: string; used: boolean }>();
  /** Every token handed out (access, refresh, id), so tests can look for them where they must not be. */
  readonly issued: string[] = [];
  /** Calls of the token endpoint by grant type. */
  readonly tokenCalls = { authorization_code: 0, refresh_token: 0, total: 0 };

  private readonly tenants: readonly Tenant[];

  constructor(tenants: readonly Tenant[]) {
    this.tenants = tenants;
  }

  registerClient(client: OAuthClient): void {
    this.clients.set(client.clientId, client);
  }

  private clientProblem(clientId: string | null, redirectUri: string | null): string | null {
    const client = clientId === null ? undefined : this.clients.get(clientId);
    if (client === undefined) return 'Unknown client_id: this app is not registered with the stand-in.';
    if (redirectUri !== client.redirectUri) return 'Invalid redirect_uri: it must match the one registered for the app.';
    return null;
  }

  /** GET /identity/connect/authorize: the consent page, or an error page for a bad client. */
  consentPage(query: URLSearchParams): { status: number; html: string } {
    const clientId = query.get('client_id');
    const redirectUri = query.get('redirect_uri');
    const problem = query.get('response_type') !== 'code' ? 'response_type must be code.' : this.clientProblem(clientId, redirectUri);
    if (problem !== null) return { status: 400, html: page('Sign-in failed', `<p id="error">${escapeHtml(problem)}</p>`) };
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query.get(name) ?? '')}">`)
      .join('\n');
    const boxes = this.tenants
      .map((t) => `<label><input type="checkbox" name="tenant" value="${escapeHtml(t.id)}" checked> ${escapeHtml(t.name)}</label>`)
      .join('<br>\n');
    return {
      status: 200,
      html: page(
        'Xero stand-in: allow access',
        `<p>An app wants access to your organisations (${escapeHtml(query.get('scope') ?? '')}).</p>
<form method="post" action="/identity/connect/authorize">
${hidden}
<fieldset><legend>Organisations</legend>
${boxes}
</fieldset>
<button type="submit" id="allow" name="decision" value="allow">Allow access</button>
<button type="submit" id="deny" name="decision" value="deny">Cancel</button>
</form>`,
      ),
    };
  }

  /** POST /identity/connect/authorize: the user's answer, as the redirect back to the app (or an error page). */
  decide(form: URLSearchParams): { status: number; location?: string; html?: string } {
    const clientId = form.get('client_id');
    const redirectUri = form.get('redirect_uri');
    const problem = this.clientProblem(clientId, redirectUri);
    if (problem !== null || clientId === null || redirectUri === null)
      return { status: 400, html: page('Sign-in failed', `<p id="error">${escapeHtml(problem ?? '')}</p>`) };
    const back = new URL(redirectUri);
    const state = form.get('state');
    if (form.get('decision') !== 'allow') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const chosen = form.getAll('tenant').filter((id) => this.tenants.some((t) => t.id === id));
      if (chosen.length === 0)
        return { status: 400, html: page('Choose an organisation', '<p id="error">Tick at least one organisation to allow access.</p>') };
      const grant = this.grant(clientId, chosen, form.get('scope') ?? '');
      const code = token('code');
      this.codes.set(code, { grantId: grant.id, redirectUri, expiresAt: Date.now() + 5 * 60_000, used: false });
      back.searchParams.set('code', code);
      if (form.get('scope') !== null) back.searchParams.set('scope', form.get('scope') ?? '');
    }
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, location: back.href };
  }

  private grant(clientId: string, tenants: string[], scope: string): Grant {
    const grant = { id: randomUUID(), clientId, tenants, scope, authEventId: randomUUID(), createdAt: new Date().toISOString() };
    this.grants.set(grant.id, grant);
    return grant;
  }

  private issue(grant: Grant): {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope: string;
    id_token: string;
  } {
    const access = token('at');
    const refresh = token('rt');
    this.access.set(access, { grantId: grant.id, expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000 });
    this.refresh.set(refresh, { grantId: grant.id, used: false });
    const id = token('id');
    this.issued.push(access, refresh, id);
    return { id_token: id, access_token: access, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer', refresh_token: refresh, scope: grant.scope };
  }

  /** Tokens for a client and organisations without the consent page (tests that start linked). */
  issueTokens(
    clientId: string,
    tenantIds: readonly string[],
    scope = 'offline_access accounting.transactions',
  ): { accessToken: string; refreshToken: string; expiresAt: string } {
    const issued = this.issue(this.grant(clientId, [...tenantIds], scope));
    return {
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      expiresAt: new Date(Date.now() + issued.expires_in * 1000).toISOString(),
    };
  }

  /** POST /connect/token. */
  tokenEndpoint(form: URLSearchParams, authorization: string | undefined): TokenAnswer {
    this.tokenCalls.total += 1;
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code' || grantType === 'refresh_token') this.tokenCalls[grantType] += 1;
    const [id, secret] = credentialsOf(authorization) ?? [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
    const client = this.clients.get(id);
    if (client?.clientSecret !== secret) return { status: 400, body: { error: 'invalid_client' } };
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      const grant = code === undefined ? undefined : this.grants.get(code.grantId);
      if (
        code === undefined ||
        grant === undefined ||
        code.used ||
        code.expiresAt < Date.now() ||
        grant.clientId !== id ||
        form.get('redirect_uri') !== code.redirectUri
      ) {
        return { status: 400, body: { error: 'invalid_grant' } };
      }
      code.used = true;
      return { status: 200, body: this.issue(grant) };
    }
    if (grantType === 'refresh_token') {
      const refresh = this.refresh.get(form.get('refresh_token') ?? '');
      const grant = refresh === undefined ? undefined : this.grants.get(refresh.grantId);
      if (refresh === undefined || grant === undefined || refresh.used || grant.clientId !== id)
        return { status: 400, body: { error: 'invalid_grant' } };
      refresh.used = true;
      return { status: 200, body: this.issue(grant) };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  }

  /** The grant behind a bearer token, or why there is none. */
  authenticate(authorization: string | undefined): { grant: Grant } | { problem: string } {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (bearer === undefined) return { problem: 'No bearer token' };
    const access = this.access.get(bearer);
    if (access === undefined) return { problem: 'TokenInvalid: the token is unknown' };
    if (access.expiresAt <= Date.now()) return { problem: `TokenExpired: token expired at ${new Date(access.expiresAt).toISOString()}` };
    const grant = this.grants.get(access.grantId);
    return grant === undefined ? { problem: 'TokenInvalid: the grant is gone' } : { grant };
  }

  /** GET /connections for a grant. */
  connections(grant: Grant): Record<string, unknown>[] {
    return grant.tenants.map((tenantId) => ({
      id: randomUUID(),
      authEventId: grant.authEventId,
      tenantId,
      tenantType: 'ORGANISATION',
      tenantName: this.tenants.find((t) => t.id === tenantId)?.name ?? tenantId,
      createdDateUtc: grant.createdAt,
      updatedDateUtc: grant.createdAt,
    }));
  }

  /** Fault: every access token issued so far stops working now. */
  expireAccessTokens(): void {
    for (const access of this.access.values()) access.expiresAt = Math.min(access.expiresAt, Date.now());
  }

  /** Fault: the user disconnected the app; every refresh token is refused. */
  revokeRefreshTokens(): void {
    for (const refresh of this.refresh.values()) refresh.used = true;
  }
}

function credentialsOf(authorization: string | undefined): [string, string] | null {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (encoded === undefined) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

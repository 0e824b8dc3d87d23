/**
 * One OAuth 2.0 authorization server for every stand-in: registered clients, single-use authorization codes, the
 * token endpoint's authorization_code and refresh_token grants, access tokens that expire, refresh tokens that rotate
 * (or stay, as Stripe's do), bearer checks for the API, and the faults tests pull (expire every access token, revoke
 * every refresh token, revoke a subject's grants). What differs between platforms is data: an `OAuthPlatform`
 * (client authentication, lifetimes, token shapes, the token answer and the error answers).
 *
 * `S` is what a grant reaches: Xero's organisations, a QuickBooks realm, a Stripe account, a Shopify shop.
 */
import { randomBytes } from 'node:crypto';

type Json = Record<string, unknown>;

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /** The registered callback; absent: the platform does not check it (Shopify, Stripe). */
  redirectUri?: string;
}

/**
 * How the token endpoint knows the client: `basic` (HTTP Basic client_id:client_secret), `post` (client_id and
 * client_secret in the form), `secret` (the client secret alone, as a bearer token or the form's client_secret: Stripe
 * Connect's platform key). The first one whose credentials the request carries decides.
 */
export type ClientAuth = 'basic' | 'post' | 'secret';

export interface Grant<S> {
  readonly clientId: string;
  readonly subject: S;
  readonly scope: string;
}

export interface Issued<S> {
  grant: Grant<S>;
  accessToken: string;
  /** Null where the platform issues none (Shopify's offline tokens). */
  refreshToken: string | null;
  /** Seconds the access token lives; null: until revoked. */
  expiresIn: number | null;
  /** Epoch ms; null: until revoked. */
  expiresAt: number | null;
}

export interface TokenAnswer {
  status: number;
  body: Json;
}

export type GrantType = 'authorization_code' | 'refresh_token';

export interface OAuthPlatform<S> {
  clientAuth: readonly ClientAuth[];
  /** Seconds an access token lives; null: until revoked. */
  accessSeconds: number | null;
  /** Seconds a code may wait for its exchange; null: no limit. */
  codeSeconds: number | null;
  /** `rotate`: a refresh token works once (a new one comes with every answer); `keep`: it works until revoked; `none`: no refresh grant. */
  refresh: 'rotate' | 'keep' | 'none';
  /** The exchange must name the redirect_uri the code was issued for (RFC 6749 4.1.3). */
  checkRedirectUri: boolean;
  /** A request without grant_type is a code exchange (Shopify's access_token endpoint takes none). */
  defaultGrant?: GrantType;
  /** New token texts, in the platform's shapes (tests and connectors look at prefixes). */
  mint: { access(): string; refresh(): string; code(): string };
  /** The 200 body; `remember` records a further secret handed out (an id_token) for `issued`. */
  answer(issued: Issued<S>, remember: (token: string) => string): Json;
  errors: { invalidClient: TokenAnswer; invalidGrant: TokenAnswer; unsupportedGrant(grantType: string | null): TokenAnswer };
}

/** `prefix` then `bytes` random bytes, hex or base64url. */
export function randomToken(prefix: string, bytes: number, encoding: 'hex' | 'base64url'): string {
  return `${prefix}${randomBytes(bytes).toString(encoding)}`;
}

interface Code<S> {
  grant: Grant<S>;
  redirectUri: string | null;
  expiresAt: number | null;
  used: boolean;
}
interface Access<S> {
  grant: Grant<S>;
  expiresAt: number | null;
  revoked: boolean;
}
interface Refresh<S> {
  grant: Grant<S>;
  used: boolean;
}

export type BearerCheck<S> = { ok: true; grant: Grant<S> } | { ok: false; reason: 'missing' | 'unknown' | 'expired'; expiresAt?: number };

export class OAuthServer<S> {
  readonly clients = new Map<string, OAuthClient>();
  /** Every secret handed out (access, refresh and id tokens), so tests can look for them where they must not be. */
  readonly issued: string[] = [];
  /** Calls of the token endpoint, whatever their outcome, by grant type. */
  readonly calls = { authorization_code: 0, refresh_token: 0, total: 0 };
  private readonly codes = new Map<string, Code<S>>();
  private readonly access = new Map<string, Access<S>>();
  private readonly refresh = new Map<string, Refresh<S>>();

  private readonly platform: OAuthPlatform<S>;
  private readonly now: () => number;

  constructor(platform: OAuthPlatform<S>, now: () => number = Date.now) {
    this.platform = platform;
    this.now = now;
  }

  register(client: OAuthClient): void {
    this.clients.set(client.clientId, client);
  }

  /** Why a consent request cannot go on (unknown client, another redirect_uri), or null. */
  clientProblem(clientId: string | null, redirectUri: string | null): string | null {
    const client = clientId === null ? undefined : this.clients.get(clientId);
    if (client === undefined) return 'Unknown client_id: this app is not registered with the stand-in.';
    if (client.redirectUri !== undefined && redirectUri !== client.redirectUri)
      return 'Invalid redirect_uri: it must match the one registered for the app.';
    return null;
  }

  grant(clientId: string, subject: S, scope = ''): Grant<S> {
    return { clientId, subject, scope };
  }

  /** A code for the consent's "allow", good for one exchange. */
  code(grant: Grant<S>, redirectUri: string | null): string {
    const code = this.platform.mint.code();
    const seconds = this.platform.codeSeconds;
    this.codes.set(code, { grant, redirectUri, expiresAt: seconds === null ? null : this.now() + seconds * 1000, used: false });
    return code;
  }

  /** Tokens for a grant, as the token endpoint would issue them (tests that start linked skip the consent). */
  issue(grant: Grant<S>, accessSeconds = this.platform.accessSeconds): Issued<S> {
    const accessToken = this.platform.mint.access();
    const expiresAt = accessSeconds === null ? null : this.now() + accessSeconds * 1000;
    this.access.set(accessToken, { grant, expiresAt, revoked: false });
    this.issued.push(accessToken);
    let refreshToken: string | null = null;
    if (this.platform.refresh !== 'none') {
      refreshToken = this.platform.mint.refresh();
      this.refresh.set(refreshToken, { grant, used: false });
      this.issued.push(refreshToken);
    }
    return { grant, accessToken, refreshToken, expiresIn: accessSeconds, expiresAt };
  }

  /** The token endpoint: the form (already parsed) and the Authorization header; `accepts` narrows the grants this host serves. */
  token(form: URLSearchParams, authorization: string | undefined, accepts: (grant: Grant<S>) => boolean = () => true): TokenAnswer {
    const { errors } = this.platform;
    this.calls.total += 1;
    const grantType = form.get('grant_type') ?? this.platform.defaultGrant ?? null;
    if (grantType === 'authorization_code' || grantType === 'refresh_token') this.calls[grantType] += 1;
    const client = this.client(form, authorization);
    if (client === null) return errors.invalidClient;
    let grant: Grant<S> | null;
    if (grantType === 'authorization_code') grant = this.redeemCode(form, client, accepts);
    else if (grantType === 'refresh_token' && this.platform.refresh !== 'none') grant = this.redeemRefresh(form, client, accepts);
    else return errors.unsupportedGrant(grantType);
    if (grant === null) return errors.invalidGrant;
    const remember = (token: string): string => {
      this.issued.push(token);
      return token;
    };
    return { status: 200, body: this.platform.answer(this.issue(grant), remember) };
  }

  private redeemCode(form: URLSearchParams, client: OAuthClient, accepts: (grant: Grant<S>) => boolean): Grant<S> | null {
    const code = this.codes.get(form.get('code') ?? '');
    if (code === undefined || code.used || code.grant.clientId !== client.clientId || !accepts(code.grant)) return null;
    if (code.expiresAt !== null && code.expiresAt < this.now()) return null;
    if (this.platform.checkRedirectUri && form.get('redirect_uri') !== code.redirectUri) return null;
    code.used = true;
    return code.grant;
  }

  private redeemRefresh(form: URLSearchParams, client: OAuthClient, accepts: (grant: Grant<S>) => boolean): Grant<S> | null {
    const refresh = this.refresh.get(form.get('refresh_token') ?? '');
    if (refresh === undefined || refresh.used || refresh.grant.clientId !== client.clientId || !accepts(refresh.grant)) return null;
    // Rotation: the refresh token just used is spent.
    if (this.platform.refresh === 'rotate') refresh.used = true;
    return refresh.grant;
  }

  private client(form: URLSearchParams, authorization: string | undefined): OAuthClient | null {
    for (const method of this.platform.clientAuth) {
      const presented = presentedCredentials(method, form, authorization);
      if (presented === null) continue;
      const client =
        presented.clientId === null
          ? [...this.clients.values()].find((c) => c.clientSecret === presented.secret)
          : this.clients.get(presented.clientId);
      return client?.clientSecret === presented.secret ? client : null;
    }
    return null;
  }

  /** The grant behind an `Authorization: Bearer …` header, or why there is none. */
  bearer(authorization: string | undefined): BearerCheck<S> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    return token === undefined ? { ok: false, reason: 'missing' } : this.check(token);
  }

  /** The grant behind an access token, or why there is none. */
  check(token: string): BearerCheck<S> {
    const access = this.access.get(token);
    if (access === undefined || access.revoked) return { ok: false, reason: 'unknown' };
    if (access.expiresAt !== null && access.expiresAt <= this.now()) return { ok: false, reason: 'expired', expiresAt: access.expiresAt };
    return { ok: true, grant: access.grant };
  }

  /** Fault: every access token issued so far stops working now. */
  expireAccessTokens(): void {
    const now = this.now();
    for (const access of this.access.values()) access.expiresAt = Math.min(access.expiresAt ?? now, now);
  }

  /** Fault: the user disconnected the app; every refresh token is refused. */
  revokeRefreshTokens(): void {
    for (const refresh of this.refresh.values()) refresh.used = true;
  }

  /** Ends the grants of the subjects `which` picks (an uninstalled app, a deauthorized account): their tokens stop working. */
  revoke(which: (subject: S) => boolean): void {
    for (const access of this.access.values()) if (which(access.grant.subject)) access.revoked = true;
    for (const refresh of this.refresh.values()) if (which(refresh.grant.subject)) refresh.used = true;
  }

  resetCalls(): void {
    this.calls.authorization_code = 0;
    this.calls.refresh_token = 0;
    this.calls.total = 0;
  }
}

function presentedCredentials(
  method: ClientAuth,
  form: URLSearchParams,
  authorization: string | undefined,
): { clientId: string | null; secret: string } | null {
  if (method === 'basic') {
    const encoded = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (encoded === undefined) return null;
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon <= 0 ? { clientId: '', secret: '' } : { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  if (method === 'post') {
    const clientId = form.get('client_id');
    const secret = form.get('client_secret');
    return clientId === null && secret === null ? null : { clientId: clientId ?? '', secret: secret ?? '' };
  }
  const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? form.get('client_secret');
  return secret === null ? null : { clientId: null, secret };
}

/** The callback address with `params` added (code and state, or error=access_denied). */
export function redirectBack(redirectUri: string, params: Readonly<Record<string, string>>): string {
  const back = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value);
  return back.href;
}

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A stand-in's HTML page: a title, its heading and a body already escaped. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

/** The error page of a consent that cannot go on: the message in #error (tests and the browser read it there). */
export function errorPage(title: string, message: string): string {
  return page(title, `<p id="error">${escapeHtml(message)}</p>`);
}

/** The consent page: who asks for what (`intro`, HTML), the request's fields carried as hidden inputs, choices, and #allow / #deny. */
export function consentPage(input: {
  title: string;
  intro: string;
  action: string;
  hidden: Readonly<Record<string, string>>;
  choices?: string;
  allowLabel: string;
  denyLabel: string;
}): string {
  const hidden = Object.entries(input.hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
  return page(
    input.title,
    `<p>${input.intro}</p>
<form method="post" action="${escapeHtml(input.action)}">
${hidden}
${input.choices ?? ''}
<button type="submit" id="allow" name="decision" value="allow">${escapeHtml(input.allowLabel)}</button>
<button type="submit" id="deny" name="decision" value="deny">${escapeHtml(input.denyLabel)}</button>
</form>`,
  );
}

/**
 * OAuth 2.0 authorization-code platforms as data: a connector describes its platform (OAuth2Description) and
 * `oauth2()` turns the description into its AuthSpec. The token requests are built and their answers checked by
 * oauth4webapi (client authentication, PKCE, the token answer's shape); they travel through the connector's
 * PlatformHttp, so limits, retries, logs and the classification of refusals (400 invalid_grant → bad_request) stay
 * those of every other platform call. Code per platform is left for real quirks: `checkCallback` (Shopify's hmac)
 * and `listTenants` (Xero's organisations).
 */
import { createHash, createHmac } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type {
  AuthContext,
  AuthorizationInput,
  AuthorizationInputField,
  AuthSpec,
  CredentialFieldSpec,
  OAuthAppCredentials,
  OAuthCallbackParams,
  OAuthTenant,
  OAuthTokens,
} from './connector.ts';
import { platformAddress } from './addresses.ts';
import { PlatformError } from './errors.ts';
import type { PlatformHttp } from './http.ts';
import { isRecord } from './json.ts';

/**
 * An address, fixed or built from the connection's authorisation input (Shopify's shop domain) and the data centre
 * named at the callback (`hostFromCallback`; null for platforms without one).
 */
export type Endpoint = string | ((input: AuthorizationInput, host: string | null) => string);

export interface OAuth2Description {
  /** The platform's name, for messages and the token calls' operation names. */
  name: string;
  authorizeUrl: Endpoint;
  tokenUrl: Endpoint;
  /** How the app's credentials reach the token endpoint: HTTP Basic, or client_id and client_secret in the form. */
  clientAuth: 'basic' | 'post';
  /** Asked for when the connection names no scope of its own. */
  scopes: readonly string[];
  /** Default ' ' (RFC 6749); Shopify joins its scopes with ','. */
  scopeSeparator?: string;
  /** PKCE (S256). The verifier is derived from the state under the client secret, so nothing more is stored. */
  pkce?: boolean;
  /** Sent on the consent page address besides the standard ones (access_type=offline, prompt=consent…). */
  authorizeParams?: Readonly<Record<string, string>>;
  /** Shopify's consent page takes no response_type; default true. */
  responseType?: boolean;
  /** Callback parameters passed on to `checkCallback` (OAuthCallbackParams). */
  callbackParams?: readonly string[];
  /** The callback parameter naming the company the grant acts on (Intuit's realmId): required, kept as tenantId. */
  tenantFromCallback?: string;
  /** The token answer's field naming the account the grant acts on (Stripe's stripe_user_id): required, tenantId. */
  tenantFromAnswer?: string;
  /**
   * The callback parameter naming the data centre the grant lives in (Zoho's `accounts-server`), which must match
   * `pattern` (anchored: the callback is not proof of anything); passed to `tokenUrl` and kept with the tokens (`host`)
   * for their refreshes.
   */
  hostFromCallback?: { param: string; pattern: RegExp };
  /** The token answer has no token_type (Shopify): the token is taken as a bearer-style token. */
  tokenTypeOmitted?: boolean;
  /**
   * 'none': tokens do not expire and are not refreshed (linking again is the remedy). Otherwise `rotates`: each
   * refresh answers with a new refresh token; `resendable`: a refresh whose answer was lost may be sent again (the
   * platform still takes the refresh token), so it is retried like a read.
   */
  refresh: 'none' | { rotates: boolean; resendable?: boolean };
  authorizationInput?: readonly AuthorizationInputField[];
  credentials?: readonly CredentialFieldSpec[];
  /** A quirk checked before the code is exchanged (Shopify's callback hmac); throws a PlatformError to refuse. */
  checkCallback?(app: OAuthAppCredentials, code: string, callback: OAuthCallbackParams, input: AuthorizationInput): void;
  listTenants?: (ctx: AuthContext, tokens: OAuthTokens) => Promise<OAuthTenant[]>;
}

const at = (endpoint: Endpoint, input: AuthorizationInput, host: string | null = null): string =>
  typeof endpoint === 'string' ? endpoint : endpoint(input, host);

/** The PKCE verifier of one consent: 43 characters only the app (its client secret) can derive from the state. */
export function pkceVerifier(app: OAuthAppCredentials, state: string): string {
  return createHmac('sha256', app.clientSecret).update(`pkce:${state}`).digest('base64url');
}

/** The consent page address: the standard parameters, then the platform's own. */
export function authorizeAddress(
  description: OAuth2Description,
  app: OAuthAppCredentials,
  state: string,
  scope: string | null,
  input: AuthorizationInput = {},
): string {
  const url = new URL(at(description.authorizeUrl, input));
  url.searchParams.set('client_id', app.clientId);
  if (description.responseType !== false) url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', scope ?? description.scopes.join(description.scopeSeparator ?? ' '));
  url.searchParams.set('redirect_uri', app.redirectUri);
  url.searchParams.set('state', state);
  for (const [name, value] of Object.entries(description.authorizeParams ?? {})) url.searchParams.set(name, value);
  if (description.pkce === true) {
    // RFC 7636 S256, as oauth4webapi's calculatePKCECodeChallenge, but synchronous: the consent address is.
    url.searchParams.set('code_challenge', createHash('sha256').update(pkceVerifier(app, state)).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.href;
}

/** oauth4webapi's fetch, carried by the platform's HTTP client (its own user agent, limits, retries, refusals). */
function fetchThrough(
  http: PlatformHttp,
  signal: AbortSignal,
  operation: string,
  idempotent: boolean,
): oauth.HttpRequestOptions<'POST', URLSearchParams>[typeof oauth.customFetch] {
  return async (url, init) => {
    const { 'user-agent': _library, ...headers } = init.headers;
    const answer = await http.request({ method: 'POST', url, headers, rawBody: init.body.toString(), idempotent, operation, signal });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}

function noAccessToken(description: OAuth2Description, reason: string, cause?: unknown): PlatformError {
  return new PlatformError({
    kind: 'server',
    message: `${description.name} answered the token request without an access token (${reason})`,
    requestSent: true,
    cause,
  });
}

/**
 * The token answer as stored tokens (synchronous: answers already checked by `checkedAnswer`, or fixtures in tests);
 * `tenantId` from the callback, or null: the token manager keeps the stored one.
 */
export function readTokenAnswer(description: OAuth2Description, body: unknown, tenantId: string | null, now: number = Date.now()): OAuthTokens {
  if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '') throw noAccessToken(description, 'no access_token');
  const named = description.tenantFromAnswer === undefined ? undefined : body[description.tenantFromAnswer];
  if (description.tenantFromAnswer !== undefined && (typeof named !== 'string' || named === '')) {
    throw noAccessToken(description, `no ${description.tenantFromAnswer}`);
  }
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now + expiresIn * 1000).toISOString() : null,
    tenantId: typeof named === 'string' ? named : tenantId,
  };
}

/** The answer checked by oauth4webapi (access_token and token_type strings, a numeric expires_in, a bearer token). */
async function checkedAnswer(description: OAuth2Description, body: unknown): Promise<oauth.TokenEndpointResponse> {
  if (!isRecord(body)) throw noAccessToken(description, 'no JSON object');
  // The id token is not used (identity comes from the platform's API), so it is not validated either.
  const { id_token: _unused, ...answer } = body;
  if (description.tokenTypeOmitted === true && answer.token_type === undefined) answer.token_type = 'bearer';
  const response = new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  try {
    return await oauth.processGenericTokenEndpointResponse({ issuer: description.name }, { client_id: description.name }, response);
  } catch (error) {
    throw noAccessToken(description, error instanceof Error ? error.message : 'unreadable', error);
  }
}

/**
 * HTTP Basic as the platforms document it and check it, base64(client_id:client_secret) of the raw values:
 * oauth4webapi's ClientSecretBasic form-encodes them first (RFC 6749 §2.3.1; even `-` becomes %2D), which changes
 * what was sent before and what the stand-ins, built on the platforms' documentation, accept.
 */
function plainBasic(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${client.client_id}:${clientSecret}`).toString('base64')}`);
  };
}

interface Grant {
  type: 'authorization_code' | 'refresh_token';
  /** The data centre named at the callback, or null. */
  host: string | null;
  parameters: Record<string, string>;
  idempotent: boolean;
}

async function tokenGrant(
  description: OAuth2Description,
  ctx: AuthContext,
  app: OAuthAppCredentials,
  input: AuthorizationInput,
  grant: Grant,
): Promise<oauth.TokenEndpointResponse> {
  const url = at(description.tokenUrl, input, grant.host);
  const clientAuth = description.clientAuth === 'basic' ? plainBasic(app.clientSecret) : oauth.ClientSecretPost(app.clientSecret);
  const options: oauth.TokenEndpointRequestOptions = {
    [oauth.customFetch]: fetchThrough(ctx.http, ctx.signal, `${description.name} token ${grant.type}`, grant.idempotent),
    // An operator (or a test's stand-in) pointing the platform at a plain-http address has said so in its configuration.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated to stand out, which is the point here
    [oauth.allowInsecureRequests]: url.startsWith('http:'),
  };
  const response = await oauth.genericTokenEndpointRequest(
    { issuer: url, token_endpoint: url },
    { client_id: app.clientId },
    clientAuth,
    grant.type,
    grant.parameters,
    options,
  );
  const body: unknown = await response.json();
  return checkedAnswer(description, body);
}

/** The tokens with the data centre they live in, when the platform has several. */
const withHost = (tokens: OAuthTokens, host: string | null): OAuthTokens => (host === null ? tokens : { ...tokens, host });

function refused(description: OAuth2Description, message: string): PlatformError {
  return new PlatformError({ kind: 'bad_request', message: `${description.name}: ${message}`, requestSent: false });
}

/** The AuthSpec a description stands for: one implementation for every OAuth 2.0 platform. */
export function oauth2(description: OAuth2Description): Extract<AuthSpec, { type: 'oauth2' }> {
  const { tenantFromCallback, hostFromCallback } = description;
  const callbackParams = [
    ...(description.callbackParams ?? []),
    ...(tenantFromCallback === undefined ? [] : [tenantFromCallback]),
    ...(hostFromCallback === undefined ? [] : [hostFromCallback.param]),
    ...(description.pkce === true ? ['state'] : []),
  ];
  const refresh = description.refresh;
  return {
    type: 'oauth2',
    ...(callbackParams.length === 0 ? {} : { callbackParams: [...new Set(callbackParams)] }),
    ...(description.authorizationInput === undefined ? {} : { authorizationInput: description.authorizationInput }),
    ...(description.credentials === undefined ? {} : { credentials: description.credentials }),
    ...(description.listTenants === undefined ? {} : { listTenants: description.listTenants }),
    authorizeUrl: (app, state, scope, input) => authorizeAddress(description, app, state, scope, input),
    async exchangeCode(ctx, app, code, callback, input = {}) {
      const tenantId = tenantFromCallback === undefined ? null : (callback[tenantFromCallback] ?? '');
      if (tenantId === '') throw refused(description, `the callback did not say which company was connected (no ${tenantFromCallback ?? ''})`);
      const host = hostFromCallback === undefined ? null : (callback[hostFromCallback.param] ?? '');
      if (host !== null && !hostFromCallback?.pattern.test(host)) {
        throw refused(description, `the callback named no data centre we know (${hostFromCallback?.param ?? ''}: ${host.slice(0, 100)})`);
      }
      description.checkCallback?.(app, code, callback, input);
      const parameters: Record<string, string> = { code, redirect_uri: app.redirectUri };
      if (description.pkce === true) parameters.code_verifier = pkceVerifier(app, callback.state ?? '');
      // An authorization code works once: a repeat after a lost answer could only fail, so it is not retried.
      const body = await tokenGrant(description, ctx, app, input, { type: 'authorization_code', host, parameters, idempotent: false });
      return withHost(readTokenAnswer(description, body, tenantId), host);
    },
    async refresh(ctx, app, refreshToken, input = {}, stored) {
      if (refresh === 'none') {
        throw new PlatformError({
          kind: 'unauthorized',
          message: `${description.name} tokens are not refreshed: the end user must link again`,
          requestSent: false,
        });
      }
      const idempotent = !refresh.rotates || refresh.resendable === true;
      const host = hostFromCallback === undefined ? null : (stored?.host ?? null);
      if (hostFromCallback !== undefined && host === null) throw refused(description, 'the stored tokens name no data centre: link again');
      const parameters = { refresh_token: refreshToken };
      const body = await tokenGrant(description, ctx, app, input, { type: 'refresh_token', host, parameters, idempotent });
      // The tenant is not in a refresh answer; the token manager keeps the stored one when tenantId is null.
      return withHost(readTokenAnswer(description, body, null), host);
    },
  };
}

/**
 * Login with Amazon (Selling Partner API): access tokens from a refresh token, the grant at api.amazon.com/auth/o2/token
 * with the app's client_id and client_secret in the form. Amazon's refresh tokens do not rotate; access tokens live
 * an hour. A seller's self-authorised refresh token needs no consent page, so only the refresh grant is described.
 */
export const LOGIN_WITH_AMAZON: OAuth2Description = {
  name: 'amazon',
  authorizeUrl: () => platformAddress('AMAZON_CONSENT_URL', 'https://sellercentral.amazon.com/apps/authorize/consent'),
  tokenUrl: () => platformAddress('AMAZON_LWA_URL', 'https://api.amazon.com/auth/o2/token'),
  clientAuth: 'post',
  scopes: [],
  refresh: { rotates: false },
};

/** An LWA access token for `refreshToken` (the refresh grant of LOGIN_WITH_AMAZON). */
export function lwaAccessToken(ctx: AuthContext, app: OAuthAppCredentials, refreshToken: string): Promise<OAuthTokens> {
  return oauth2(LOGIN_WITH_AMAZON).refresh(ctx, app, refreshToken);
}

/**
 * Serves one simulated platform: its OAuth 2.0 (consent page, token endpoint: what every platform's has in common) and
 * its API behind bearer tokens, as one function from request to answer. The connector reaches it in process through
 * `fetch` (its PlatformHttp, with retries and limits, unchanged); the browser reaches the consent page over the
 * service's /simulators/<platform> mount (routes.ts).
 */
import { withTransaction } from '../../../../src/db/pool.ts';
import type { FetchLike } from '../../../../src/platforms/http.ts';
import type { SandboxPlatform } from '../platform.ts';
import { simulatedAccountKey, simulatorBooks } from './books.ts';
import { consentPage, errorPage } from './consent.ts';
import type { PlatformSimulator, SimulatorAnswer, SimulatorRequest } from './kit.ts';
import { accessGrant, forgetExpiredTokens, issueToken, spendToken, type IssuedGrant } from './tokens.ts';
import { requestOf, responseOf } from './wire.ts';

/** The OAuth app every simulator knows: documented test credentials (docs/simulators.md), not a secret. */
export interface SimulatorApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export const SIMULATOR_CLIENT_ID = 'ledgerport-simulator';
export const SIMULATOR_CLIENT_SECRET = 'simulator-secret';
/** Codes live ten minutes, refresh tokens 60 days (Xero's; QuickBooks' live 100). */
const CODE_SECONDS = 600;
const REFRESH_SECONDS = 60 * 24 * 3600;

export interface SimulatorHost {
  simulator: PlatformSimulator;
  app: SimulatorApp;
  answer(request: SimulatorRequest): Promise<SimulatorAnswer>;
  /** The connector's way in: every call of a simulated connection's PlatformHttp. */
  fetch: FetchLike;
}

const oauthError = (status: number, error: string, description: string): SimulatorAnswer => ({
  status,
  headers: { 'cache-control': 'no-store' },
  body: { error, error_description: description },
});

function fields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || body instanceof Uint8Array) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') out[key] = value;
  return out;
}

/** User and password of an HTTP Basic authorization header, or null. */
function basicOf(authorization: string | undefined): { user: string; password: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  try {
    return { user: decodeURIComponent(decoded.slice(0, colon)), password: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    // A malformed %-escape: no client of ours.
    return null;
  }
}

/** Client id and secret from HTTP Basic (what Xero and Intuit ask for), else from the form. */
function clientOf(request: SimulatorRequest, form: Record<string, string>): { id: string; secret: string } | null {
  const basic = basicOf(request.headers.authorization);
  if (basic !== null) return { id: basic.user, secret: basic.password };
  return form.client_id === undefined ? null : { id: form.client_id, secret: form.client_secret ?? '' };
}

/** The app's secret alone (Stripe Connect): a Bearer token, HTTP Basic user with an empty password, or the form's client_secret. */
function secretOf(request: SimulatorRequest, form: Record<string, string>): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const basic = basicOf(request.headers.authorization);
  if (basic !== null) return basic.password === '' ? basic.user : null;
  return form.client_secret ?? null;
}

export function simulatorHost(platform: SandboxPlatform, simulator: PlatformSimulator, app: SimulatorApp): SimulatorHost {
  const db = platform.pool;
  const { oauth, name } = simulator;

  const consentProblem = (params: URLSearchParams): string | null => {
    if (oauth.responseType !== false && params.get('response_type') !== 'code') return 'response_type must be "code".';
    if (params.get('client_id') !== app.clientId) return `Unknown client_id: the ${name} simulator knows only "${app.clientId}".`;
    if (params.get('redirect_uri') !== app.redirectUri) return `Invalid redirect_uri: it must be "${app.redirectUri}", the app's registered one.`;
    return null;
  };

  async function consent(request: SimulatorRequest): Promise<SimulatorAnswer> {
    const params = request.method === 'POST' ? new URLSearchParams(fields(request.body)) : request.query;
    const problem = consentProblem(params);
    if (problem !== null) return errorPage(name, 400, problem);
    if (request.method !== 'POST') return consentPage({ name, params });
    const back = new URL(app.redirectUri, 'http://simulator.invalid');
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const form = fields(request.body);
    if (form.decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
      return redirect(back);
    }
    const accountKey = simulatedAccountKey(simulator.platform, form.username ?? '', form.password ?? '');
    if (accountKey === null) {
      const error = 'That username and password are not a SANDBOX test account: try user_good / pass_good.';
      return consentPage({ name, params, status: 401, error, username: form.username ?? '' });
    }
    const refusal = oauth.consentRefusal?.(accountKey, params) ?? null;
    if (refusal !== null) return consentPage({ name, params, status: 403, error: refusal, username: form.username ?? '' });
    const grant = {
      platform: simulator.platform,
      accountKey,
      clientId: app.clientId,
      scope: params.get('scope') ?? '',
      redirectUri: app.redirectUri,
    };
    // Consents are open to anyone: what expired goes as codes are made, not only at the token endpoint.
    await forgetExpiredTokens(db);
    back.searchParams.set('code', await issueToken(db, 'code', grant, CODE_SECONDS));
    for (const [key, value] of Object.entries(oauth.callbackParams?.(simulator.tenantId(accountKey), params) ?? {}))
      back.searchParams.set(key, value);
    oauth.signCallback?.(back.searchParams, app.clientSecret);
    return redirect(back);
  }

  function redirect(url: URL): SimulatorAnswer {
    // The registered redirect URI may be relative (the service's own callback): keep it relative.
    const location = url.origin === 'http://simulator.invalid' ? `${url.pathname}${url.search}` : url.toString();
    return { status: 302, headers: { location, 'cache-control': 'no-store' } };
  }

  async function token(request: SimulatorRequest): Promise<SimulatorAnswer> {
    const form = fields(request.body);
    if (oauth.clientAuth === 'secret') {
      if (secretOf(request, form) !== app.clientSecret) return oauthError(401, 'invalid_client', 'Unknown client or wrong secret.');
    } else {
      const client = clientOf(request, form);
      if (client?.id !== app.clientId || client.secret !== app.clientSecret)
        return oauthError(401, 'invalid_client', 'Unknown client or wrong secret.');
    }
    if (oauth.tokenRequest === 'code') return exchangeOnce(form);
    if (form.grant_type !== 'authorization_code' && form.grant_type !== 'refresh_token') {
      return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
    await forgetExpiredTokens(db);
    // Spending the code or refresh token and issuing the new pair in one transaction: a failure in between must not
    // burn the refresh token (which would force the end user to link again).
    const issued = await withTransaction(db, async (tx) => {
      let grant: IssuedGrant | null;
      if (form.grant_type === 'authorization_code') {
        grant = await spendToken(tx, 'code', simulator.platform, form.code ?? '');
        if (grant !== null && oauth.exchangeRedirectUri !== false && grant.redirectUri !== form.redirect_uri) grant = null;
      } else {
        // Rotated on every use: the old refresh token is dead after this, as at Xero and Intuit.
        grant = await spendToken(tx, 'refresh', simulator.platform, form.refresh_token ?? '');
      }
      if (grant === null) return null;
      const next = { ...grant, redirectUri: null };
      return {
        accountKey: grant.accountKey,
        scope: grant.scope,
        access: await issueToken(tx, 'access', next, oauth.accessTokenSeconds),
        refresh: await issueToken(tx, 'refresh', next, REFRESH_SECONDS),
      };
    });
    if (issued === null) return oauthError(400, 'invalid_grant', 'The code or refresh token is unknown, expired or already used.');
    const tokens = {
      accessToken: issued.access,
      refreshToken: issued.refresh,
      scope: issued.scope,
      accessTokenSeconds: oauth.accessTokenSeconds,
      refreshTokenSeconds: REFRESH_SECONDS,
    };
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: oauth.tokenAnswer?.(tokens, simulator.tenantId(issued.accountKey)) ?? {
        access_token: tokens.accessToken,
        token_type: 'Bearer',
        expires_in: tokens.accessTokenSeconds,
        refresh_token: tokens.refreshToken,
        x_refresh_token_expires_in: tokens.refreshTokenSeconds,
        scope: tokens.scope,
      },
    };
  }

  /** A code exchanged once for an access token that does not expire (Shopify's offline tokens): no refresh token. */
  async function exchangeOnce(form: Record<string, string>): Promise<SimulatorAnswer> {
    await forgetExpiredTokens(db);
    const issued = await withTransaction(db, async (tx) => {
      const grant = await spendToken(tx, 'code', simulator.platform, form.code ?? '');
      if (grant === null) return null;
      return { scope: grant.scope, access: await issueToken(tx, 'access', { ...grant, redirectUri: null }, oauth.accessTokenSeconds) };
    });
    if (issued === null) return oauthError(400, 'invalid_request', 'The authorization code was not found or was already used.');
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: { access_token: issued.access, scope: issued.scope } };
  }

  async function api(request: SimulatorRequest): Promise<SimulatorAnswer> {
    const links = simulator.links;
    const isLink = links !== undefined && request.method === 'GET' && request.path.startsWith(links.pathPrefix);
    const link = isLink ? request.query.get(links.tokenParam) : null;
    const basic = oauth.basicAccessToken === true ? basicOf(request.headers.authorization) : null;
    const bearer =
      oauth.accessTokenHeader === undefined
        ? (/^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? (basic?.password === '' ? basic.user : undefined))
        : request.headers[oauth.accessTokenHeader.toLowerCase()];
    const grant =
      link !== null
        ? await accessGrant(db, simulator.platform, link, 'link')
        : bearer === undefined
          ? null
          : await accessGrant(db, simulator.platform, bearer);
    if (grant === null) {
      return (
        simulator.unauthorized?.() ?? {
          status: 401,
          headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
          body: { error: 'invalid_token' },
        }
      );
    }
    const books = await simulatorBooks(platform, grant.accountKey);
    return simulator.handle(request, {
      accountKey: grant.accountKey,
      tenantId: simulator.tenantId(grant.accountKey),
      scope: grant.scope,
      books,
      linkToken: (seconds) => issueToken(db, 'link', { ...grant, redirectUri: null }, seconds),
    });
  }

  async function answer(request: SimulatorRequest): Promise<SimulatorAnswer> {
    if (request.path === oauth.authorizePath && (request.method === 'GET' || request.method === 'POST')) return consent(request);
    if (request.path === oauth.tokenPath && request.method === 'POST') return token(request);
    return api(request);
  }

  return {
    simulator,
    app,
    answer,
    fetch: async (url, init) => responseOf(await answer(await requestOf(url, init))),
  };
}

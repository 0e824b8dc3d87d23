/**
 * OpenID Connect sign-in against a stand-in identity provider: our own small provider built from the OpenID Connect
 * Core and Discovery specs (discovery, JWKS, an authorize endpoint the test drives, a token endpoint that checks the
 * client secret and PKCE and returns a signed ID token), on a real port. The app under test calls it over HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, VERSION, type TestApp } from '../../test/support/app.ts';
import { ConfigError, loadConfig, type OidcConfig } from '../config.ts';
import { inviteUser } from '../users/users.ts';
import { createOrganization } from '../tenants/organizations.ts';
import { signedInUser } from '../../test/support/dashboard.ts';
import { chooseClientAuthentication, discover, OidcRefusal, providerMetadata } from './oidc-provider.ts';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** How the next ID token differs from a good one. */
interface TokenTweaks {
  nonce?: string;
  audience?: string;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  /** Signed with a key the provider does not publish (same kid). */
  wrongKey?: boolean;
  /** The token endpoint refuses the code. */
  refuseExchange?: boolean;
  /** iat, in seconds from now (a positive value: issued in the future). */
  issuedIn?: number;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string;
  claims: Record<string, unknown>;
}

class StandInProvider {
  issuer = '';
  readonly clientId = 'ledgerport-test';
  readonly clientSecret = 'stand-in secret/with:odd chars';
  /** Who signs in at the next authorize request, or a refusal. */
  nextLogin: { claims: Record<string, unknown> } | { error: string; description: string } = { claims: {} };
  tweaks: TokenTweaks = {};
  readonly tokenRequests: { authorization: string | undefined; form: URLSearchParams }[] = [];
  private readonly grants = new Map<string, Grant>();
  private server: Server | null = null;
  private readonly signing: KeyPair;
  /** Not published in the JWKS: a token it signs is a forgery. */
  private readonly impostor: KeyPair;
  private constructor(signing: KeyPair, impostor: KeyPair) {
    this.signing = signing;
    this.impostor = impostor;
  }

  static async start(): Promise<StandInProvider> {
    const provider = new StandInProvider(await generateKeyPair('RS256'), await generateKeyPair('RS256'));
    const server = createServer((request, response) => {
      provider.handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider.server = server;
    provider.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return provider;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => {
        resolve();
      });
    });
  }

  private json(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      this.json(response, 200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    } else if (url.pathname === '/jwks') {
      this.json(response, 200, { keys: [{ ...(await exportJWK(this.signing.publicKey)), kid: 'stand-in-1', alg: 'RS256', use: 'sig' }] });
    } else if (url.pathname === '/authorize') {
      this.authorize(url, response);
    } else if (url.pathname === '/token' && request.method === 'POST') {
      let text = '';
      for await (const chunk of request) text += String(chunk);
      await this.token(request.headers.authorization, new URLSearchParams(text), response);
    } else {
      response.writeHead(404).end();
    }
  }

  /** The user has signed in (or refused) at the provider: back to the client's redirect URI. */
  private authorize(url: URL, response: ServerResponse): void {
    const params = url.searchParams;
    const back = new URL(params.get('redirect_uri') ?? '');
    back.searchParams.set('state', params.get('state') ?? '');
    const login = this.nextLogin;
    if ('error' in login) {
      back.searchParams.set('error', login.error);
      back.searchParams.set('error_description', login.description);
    } else {
      const code = randomBytes(16).toString('hex');
      this.grants.set(code, {
        clientId: params.get('client_id') ?? '',
        redirectUri: params.get('redirect_uri') ?? '',
        challenge: params.get('code_challenge_method') === 'S256' ? (params.get('code_challenge') ?? '') : '',
        nonce: params.get('nonce') ?? '',
        claims: login.claims,
      });
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.toString() }).end();
  }

  private async token(authorization: string | undefined, form: URLSearchParams, response: ServerResponse): Promise<void> {
    this.tokenRequests.push({ authorization, form });
    // RFC 6749 2.3.1: Basic of the form-encoded client id and secret.
    const [id, secret] = Buffer.from((authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')
      .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
    if (id !== this.clientId || secret !== this.clientSecret) {
      this.json(response, 401, { error: 'invalid_client' });
      return;
    }
    const code = form.get('code') ?? '';
    const grant = this.grants.get(code);
    this.grants.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (grant?.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri') || form.get('grant_type') !== 'authorization_code') {
      this.json(response, 400, { error: 'invalid_grant', error_description: 'code, verifier or redirect_uri does not match' });
      return;
    }
    if (this.tweaks.refuseExchange === true) {
      this.json(response, 400, { error: 'invalid_grant', error_description: 'the code has expired' });
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = this.tweaks.expiresIn ?? 300;
    const idToken = await new SignJWT({ nonce: this.tweaks.nonce ?? grant.nonce, ...grant.claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'stand-in-1' })
      .setIssuer(this.issuer)
      .setAudience(this.tweaks.audience ?? grant.clientId)
      .setSubject(`subject-${String(grant.claims.email)}`)
      .setIssuedAt(this.tweaks.issuedIn === undefined ? now + Math.min(0, expiresIn) - 60 : now + this.tweaks.issuedIn)
      .setExpirationTime(now + expiresIn)
      .sign(this.tweaks.wrongKey === true ? this.impostor.privateKey : this.signing.privateKey);
    this.json(response, 200, { access_token: 'unused', token_type: 'Bearer', expires_in: 300, id_token: idToken });
  }
}

let idp: StandInProvider;
let t: TestApp;
let oidc: OidcConfig;

beforeAll(async () => {
  idp = await StandInProvider.start();
  oidc = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid email profile', buttonLabel: 'Stand-in IdP' };
  t = await startTestApp({ config: { oidc } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

function cookieValue(response: LightMyRequestResponse, name: string): string | null {
  for (const line of setCookies(response)) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match?.[1] !== undefined && match[1] !== '') return match[1];
  }
  return null;
}

/** Starts a sign-in at the app, signs in (or refuses) at the provider, and returns the callback to make. */
async function throughProvider(options: { claims?: Record<string, unknown>; error?: string; next?: string; startUrl?: string }) {
  idp.nextLogin = options.error === undefined ? { claims: options.claims ?? {} } : { error: options.error, description: 'The user pressed Cancel' };
  const start = await t.app.inject({
    method: 'GET',
    url: options.startUrl ?? `/dashboard/oidc/start?next=${encodeURIComponent(options.next ?? '/dashboard')}`,
  });
  expect(start.statusCode).toBe(303);
  const stateCookie = cookieValue(start, 'lp_oidc') ?? '';
  const authorize = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location') ?? '');
  return { start, stateCookie, callbackUrl: `${back.pathname}${back.search}`, back };
}

async function callback(url: string, stateCookie: string | null) {
  return t.app.inject({ method: 'GET', url, headers: stateCookie === null ? {} : { cookie: `lp_oidc=${stateCookie}` } });
}

async function signIn(options: { claims?: Record<string, unknown>; error?: string; next?: string; tweaks?: TokenTweaks; startUrl?: string }) {
  idp.tweaks = options.tweaks ?? {};
  const flow = await throughProvider(options);
  const answer = await callback(flow.callbackUrl, flow.stateCookie);
  idp.tweaks = {};
  return { ...flow, answer };
}

/** A user who accepted their invitation at the provider (as "Accept with …" on the link's page does). */
async function invited(role: 'admin' | 'developer' | 'viewer' = 'viewer'): Promise<{ email: string; id: string }> {
  const email = `oidc-${randomBytes(4).toString('hex')}@example.com`;
  const { user } = await inviteUser(t.db.pool, t.org.organization.id, { email, role });
  await t.db.pool.query('UPDATE dashboard_users SET oidc_accepted_at = now() WHERE id = $1', [user.id]);
  return { email, id: user.id };
}

async function sessionsOf(userId: string): Promise<number> {
  const result = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_sessions WHERE user_id = $1', [userId]);
  return result.rows[0]?.n ?? -1;
}

function expectNoSession(answer: LightMyRequestResponse): void {
  expect(cookieValue(answer, 'lp_session')).toBeNull();
  expect(answer.headers['content-type']).toMatch(/text\/html/);
}

describe('OpenID Connect configuration', () => {
  const complete = { OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'ledgerport', OIDC_CLIENT_SECRET: 's3cret' };

  it('is off unless set, and complete with the default scopes and label', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(complete).oidc).toEqual({ ...oidcOf(complete), scopes: 'openid email profile', buttonLabel: 'single sign-on' });
    expect(loadConfig({ ...complete, OIDC_SCOPES: 'openid  email groups', OIDC_BUTTON_LABEL: 'Okta' }).oidc).toMatchObject({
      scopes: 'openid email groups',
      buttonLabel: 'Okta',
    });
  });

  it('names what a partial setting is missing', () => {
    const problems = configProblems({ OIDC_ISSUER: 'https://idp.example.com' });
    expect(problems.join('\n')).toContain('set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too');
    expect(configProblems({ OIDC_CLIENT_SECRET: 'x', OIDC_CLIENT_ID: 'y' }).join('\n')).toContain('set OIDC_ISSUER too');
    expect(configProblems({ OIDC_BUTTON_LABEL: 'Okta' }).join('\n')).toContain('set OIDC_ISSUER and OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too');
  });

  it('wants an https issuer (plain http only on loopback) and the openid scope', () => {
    expect(configProblems({ ...complete, OIDC_ISSUER: 'http://idp.example.com' }).join('\n')).toContain('must be an https:// URL');
    expect(configProblems({ ...complete, OIDC_ISSUER: 'not a url' }).join('\n')).toContain('is not a URL');
    expect(loadConfig({ ...complete, OIDC_ISSUER: 'http://127.0.0.1:9999' }).oidc?.issuer).toBe('http://127.0.0.1:9999');
    expect(configProblems({ ...complete, OIDC_SCOPES: 'email profile' }).join('\n')).toContain('must include openid');
  });

  it('presents the client secret as the provider asks: Basic by default, or in the body', () => {
    expect(chooseClientAuthentication(null)).toBe('client_secret_basic');
    expect(chooseClientAuthentication(['client_secret_post'])).toBe('client_secret_post');
    expect(chooseClientAuthentication(['private_key_jwt'])).toBeNull();
  });
});

describe('OpenID Connect discovery', () => {
  const config = oidcOf({ OIDC_ISSUER: 'https://idp.example.com/', OIDC_CLIENT_ID: 'ledgerport', OIDC_CLIENT_SECRET: 's3cret' });
  const document = {
    issuer: 'https://idp.example.com',
    authorization_endpoint: 'https://idp.example.com/authorize',
    token_endpoint: 'https://idp.example.com/token',
    jwks_uri: 'https://idp.example.com/jwks',
  };

  async function refusal(promise: Promise<unknown>): Promise<OidcRefusal> {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    if (!(error instanceof OidcRefusal)) throw new Error(`expected an OidcRefusal, got ${String(error)}`);
    return error;
  }

  it('accepts the configured issuer (with or without its trailing slash) and https endpoints', () => {
    expect(providerMetadata(config, document)).toEqual({
      issuer: 'https://idp.example.com',
      authorizationEndpoint: 'https://idp.example.com/authorize',
      tokenEndpoint: 'https://idp.example.com/token',
      jwksUri: 'https://idp.example.com/jwks',
      clientAuthentication: 'client_secret_basic',
    });
  });

  it.each([
    ['another issuer', { issuer: 'https://evil.example.com' }, 'names the issuer https://evil.example.com'],
    ['a plain-http endpoint', { token_endpoint: 'http://idp.example.com/token' }, 'token_endpoint is missing or not an https URL'],
    ['no jwks_uri', { jwks_uri: undefined }, 'jwks_uri is missing'],
    ['no PKCE S256', { code_challenge_methods_supported: ['plain'] }, 'does not offer PKCE with S256'],
    ['no client secret method', { token_endpoint_auth_methods_supported: ['private_key_jwt'] }, 'neither client_secret_basic nor client_secret_post'],
  ])('refuses a discovery document with %s (502)', (_name, change, message) => {
    let caught: unknown = null;
    try {
      providerMetadata(config, { ...document, ...change });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OidcRefusal);
    expect(caught).toMatchObject({ status: 502 });
    expect(String(caught)).toContain(message);
  });

  it('turns an unreachable provider into a 502, not an error', async () => {
    const unreachable = { ...config, issuer: 'http://127.0.0.1:9' };
    const error = await refusal(discover(unreachable));
    expect(error.status).toBe(502);
    expect(error.message).toContain('http://127.0.0.1:9/.well-known/openid-configuration) could not be reached');
  });
});

function oidcOf(env: Record<string, string>): OidcConfig {
  const config = loadConfig(env).oidc;
  if (config === null) throw new Error('expected OpenID Connect to be configured');
  return config;
}

function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('OpenID Connect sign-in', () => {
  it('shows the button only when a provider is configured', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/login?next=%2Fdashboard%2Fconnections' });
    expect(page.body).toContain('href="/dashboard/oidc/start?next=%2Fdashboard%2Fconnections">Sign in with Stand-in IdP</a>');
    const plain = await startTestApp();
    try {
      const without = await plain.app.inject({ method: 'GET', url: '/dashboard/login' });
      expect(without.statusCode).toBe(200);
      expect(without.body).not.toContain('Sign in with');
      expect(without.body).not.toContain('/dashboard/oidc/start');
      const start = await plain.app.inject({ method: 'GET', url: '/dashboard/oidc/start' });
      expect(start.statusCode).toBe(404);
      expect(start.body).toContain('no identity provider configured');
    } finally {
      await plain.close();
    }
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce bound to a short-lived cookie', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/dashboard/oidc/start' });
    expect(start.statusCode).toBe(303);
    const location = new URL(String(start.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${idp.issuer}/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: `${t.services.config.publicUrl}/dashboard/oidc/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = setCookies(start).find((line) => line.startsWith('lp_oidc='));
    expect(cookie).toContain(`lp_oidc=${location.searchParams.get('state')}`);
    // The same attributes in @fastify/cookie's order.
    expect(cookie?.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=600', 'Path=/', 'SameSite=Lax', 'Secure']);
  });

  it('signs in an invited user, whose session then works on the API, and records it in the audit log', async () => {
    const user = await invited('developer');
    const { answer } = await signIn({ claims: { email: user.email.toUpperCase(), email_verified: true } });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard');
    const session = cookieValue(answer, 'lp_session');
    expect(session).not.toBeNull();
    expect(setCookies(answer).find((line) => line.startsWith('lp_oidc='))).toMatch(/^lp_oidc=; .*Max-Age=0/);
    const api = await t.app.inject({
      method: 'GET',
      url: '/versioned/connections',
      headers: { cookie: `lp_session=${session}`, 'x-service-version': VERSION },
    });
    expect(api.statusCode).toBe(200);
    // The client secret went as Basic, with the PKCE verifier.
    // RFC 6749 2.3.1: Basic of the form-encoded client id and secret (the secret has a space, a slash and a colon).
    const basic = Buffer.from((idp.tokenRequests.at(-1)?.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const [id, secret] = basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
    expect([id, secret, basic.split(':').length]).toEqual([idp.clientId, idp.clientSecret, 2]);
    expect(idp.tokenRequests.at(-1)?.form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const audit = await t.db.pool.query<{ action: string; target: string; actor: string }>(
      'SELECT action, target, actor FROM dashboard_audit_log WHERE user_id = $1',
      [user.id],
    );
    expect(audit.rows).toEqual([{ action: 'SIGN_IN', target: 'oidc', actor: user.email }]);
  });

  it('refuses an email without a dashboard account', async () => {
    const { answer } = await signIn({ claims: { email: 'stranger@example.org', email_verified: true } });
    expect(answer.statusCode).toBe(403);
    expect(answer.body).toContain('No dashboard account for stranger@example.org signs in through Stand-in IdP yet');
    expect(answer.body).toContain('ask an admin of your organisation to invite you.');
    expectNoSession(answer);
  });

  it('refuses an unverified or missing email', async () => {
    const user = await invited();
    const unverified = await signIn({ claims: { email: user.email, email_verified: false } });
    expect(unverified.answer.statusCode).toBe(401);
    expect(unverified.answer.body).toContain('has not verified the email address');
    expectNoSession(unverified.answer);
    const none = await signIn({ claims: {} });
    expect(none.answer.statusCode).toBe(401);
    expect(none.answer.body).toContain('did not say your email address');
    // A provider that does not say the address is verified may let anyone type it (an admin's included).
    const unsaid = await signIn({ claims: { email: user.email } });
    expect(unsaid.answer.statusCode).toBe(401);
    expect(unsaid.answer.body).toContain('has not verified the email address');
    expectNoSession(unsaid.answer);
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it.each([
    ['a wrong nonce', { nonce: 'not-the-nonce-of-this-sign-in' }, 'its nonce does not belong to this sign-in'],
    ['another audience', { audience: 'some-other-client' }, 'it was issued to another client'],
    ['an expired token', { expiresIn: -600 }, 'it has expired'],
    ['a bad signature', { wrongKey: true }, 'its signature does not verify'],
    ['an issue time an hour ahead', { issuedIn: 3600 }, 'it was issued in the future'],
  ] satisfies [string, TokenTweaks, string][])('refuses an ID token with %s, without a session', async (_name, tweaks, reason) => {
    const user = await invited();
    const { answer } = await signIn({ claims: { email: user.email, email_verified: true }, tweaks });
    expect(answer.statusCode).toBe(401);
    expect(answer.body).toContain(reason);
    expectNoSession(answer);
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it('uses a state once: a replayed callback is refused', async () => {
    const user = await invited();
    const first = await signIn({ claims: { email: user.email, email_verified: true } });
    expect(first.answer.statusCode).toBe(303);
    const replay = await callback(first.callbackUrl, first.stateCookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('finished already');
    expectNoSession(replay);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it('refuses a state from another browser, an expired state and a missing state', async () => {
    const user = await invited();
    const elsewhere = await throughProvider({ claims: { email: user.email } });
    const noCookie = await callback(elsewhere.callbackUrl, null);
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.body).toContain('not started in this browser');
    expectNoSession(noCookie);

    const late = await throughProvider({ claims: { email: user.email } });
    await t.db.pool.query(`UPDATE dashboard_oidc_states SET expires_at = now() - interval '1 second'`);
    const expired = await callback(late.callbackUrl, late.stateCookie);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('took longer than 10 minutes');
    expectNoSession(expired);

    const missing = await callback('/dashboard/oidc/callback?code=abc', null);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('no valid state');
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it('shows the provider’s refusal (access_denied) and spends the state', async () => {
    const flow = await throughProvider({ error: 'access_denied' });
    const answer = await callback(flow.callbackUrl, flow.stateCookie);
    expect(answer.statusCode).toBe(401);
    expect(answer.body).toContain('Stand-in IdP answered access_denied (The user pressed Cancel).');
    expectNoSession(answer);
    const state = flow.back.searchParams.get('state') ?? '';
    const stored = await t.db.pool.query('SELECT 1 FROM dashboard_oidc_states WHERE state_sha256 = $1', [
      createHash('sha256').update(state).digest(),
    ]);
    expect(stored.rowCount).toBe(0);
  });

  it('shows a failed code exchange as the provider’s fault (502)', async () => {
    const user = await invited();
    const { answer } = await signIn({ claims: { email: user.email }, tweaks: { refuseExchange: true } });
    expect(answer.statusCode).toBe(502);
    expect(answer.body).toContain('invalid_grant: the code has expired');
    expectNoSession(answer);
  });

  it('goes back to `next` on the dashboard, and never anywhere else', async () => {
    const user = await invited();
    const claims = { email: user.email, email_verified: true };
    const deep = await signIn({ claims, next: '/dashboard/connections?status=ERROR' });
    expect(deep.answer.statusCode).toBe(303);
    expect(deep.answer.headers.location).toBe('/dashboard/connections?status=ERROR');
    const long = await signIn({ claims, next: `/dashboard/connections?q=${'é'.repeat(1500)}` });
    expect(long.answer.headers.location).toBe('/dashboard');
    for (const next of ['https://evil.example/', '//evil.example/dashboard', '/dashboard\\@evil.example', 'javascript:alert(1)']) {
      const { answer } = await signIn({ claims, next });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe('/dashboard');
    }
  });

  it('refuses a state whose `next` was changed on the way', async () => {
    const user = await invited();
    const flow = await throughProvider({ claims: { email: user.email, email_verified: true }, next: '/dashboard/account' });
    const state = flow.back.searchParams.get('state') ?? '';
    const forged = `${state.slice(0, state.indexOf('.'))}.${Buffer.from('/dashboard/users').toString('base64url')}`;
    const back = new URL(flow.back);
    back.searchParams.set('state', forged);
    const answer = await callback(`${back.pathname}${back.search}`, forged);
    expect(answer.statusCode).toBe(400);
    expectNoSession(answer);
  });
});

describe('OpenID Connect and invitations', () => {
  async function organizationNamed(name: string): Promise<string> {
    return (await createOrganization(t.db.pool, t.services.cipher, name)).organization.id;
  }

  async function sessionOrganization(answer: LightMyRequestResponse): Promise<string | null> {
    const token = cookieValue(answer, 'lp_session');
    if (token === null) return null;
    const session = await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: `lp_session=${token}` } });
    return session.json<{ organization_id: string }>().organization_id;
  }

  it('does not let an organisation that invited an address first take that person’s sign-ins', async () => {
    const victim = `victim-${randomBytes(4).toString('hex')}@example.com`;
    const claimer = await organizationNamed('Claimer');
    // The claiming organisation invites the address and even uses the link itself (it holds it), setting a password.
    const claimed = await signedInUser(t.app, t.db.pool, claimer, 'admin', victim);
    const { answer } = await signIn({ claims: { email: victim, email_verified: true } });
    expect(answer.statusCode).toBe(403);
    expectNoSession(answer);
    expect(await sessionsOf(claimed.userId)).toBe(1);
    // The person's own organisation invites them too (no conflict, nothing said about the other), and they accept.
    const own = await inviteUser(t.db.pool, t.org.organization.id, { email: victim, role: 'developer' });
    const accepted = await signIn({
      claims: { email: victim, email_verified: true },
      startUrl: `/dashboard/oidc/start?invitation=${own.signInToken}`,
    });
    expect(accepted.answer.statusCode).toBe(303);
    expect(await sessionOrganization(accepted.answer)).toBe(t.org.organization.id);
    // From then on the provider's sign-in reaches their own organisation, never the claimer's.
    const later = await signIn({ claims: { email: victim, email_verified: true } });
    expect(later.answer.statusCode).toBe(303);
    expect(await sessionOrganization(later.answer)).toBe(t.org.organization.id);
    expect(await sessionsOf(claimed.userId)).toBe(1);
  });

  it('accepts an invitation from its link’s page, once, and only as the person invited', async () => {
    const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
    const { user, signInToken } = await inviteUser(t.db.pool, t.org.organization.id, { email, role: 'viewer' });
    const page = await t.app.inject({ method: 'GET', url: `/dashboard/sign-in/${signInToken}` });
    expect(page.body).toContain(`href="/dashboard/oidc/start?invitation=${signInToken}">Accept with Stand-in IdP</a>`);
    const startUrl = `/dashboard/oidc/start?invitation=${signInToken}`;
    const flow = await throughProvider({ claims: { email: 'someone.else@example.com', email_verified: true }, startUrl });
    expect(flow.start.headers.location).not.toContain(signInToken);
    const someoneElse = await callback(flow.callbackUrl, flow.stateCookie);
    expect(someoneElse.statusCode).toBe(403);
    expect(someoneElse.body).toContain('this invitation is for another address');
    expectNoSession(someoneElse);
    const accepted = await signIn({ claims: { email: email.toUpperCase(), email_verified: true }, startUrl });
    expect(accepted.answer.statusCode).toBe(303);
    expect(await sessionsOf(user.id)).toBe(1);
    const used = await t.app.inject({ method: 'GET', url: startUrl });
    expect(used.statusCode).toBe(410);
    const forged = await t.app.inject({ method: 'GET', url: '/dashboard/oidc/start?invitation=lplnk_nope' });
    expect(forged.statusCode).toBe(410);
  });

  it('lets a person with accepted accounts in several organisations choose one', async () => {
    const email = `several-${randomBytes(4).toString('hex')}@example.com`;
    const second = await organizationNamed('Second & Co');
    for (const organizationId of [t.org.organization.id, second]) {
      const { user } = await inviteUser(t.db.pool, organizationId, { email, role: 'viewer' });
      await t.db.pool.query('UPDATE dashboard_users SET oidc_accepted_at = now() WHERE id = $1', [user.id]);
    }
    const { answer } = await signIn({ claims: { email, email_verified: true }, next: '/dashboard/connections' });
    expect(answer.statusCode).toBe(200);
    expectNoSession(answer);
    expect(answer.body).toContain('Second &amp; Co');
    expect(answer.body).toContain(`href="/dashboard/oidc/start?organization=${second}&amp;next=%2Fdashboard%2Fconnections"`);
    const chosen = await signIn({
      claims: { email, email_verified: true },
      startUrl: `/dashboard/oidc/start?organization=${second}&next=%2Fdashboard%2Fconnections`,
    });
    expect(chosen.answer.statusCode).toBe(303);
    expect(chosen.answer.headers.location).toBe('/dashboard/connections');
    expect(await sessionOrganization(chosen.answer)).toBe(second);
  });
});

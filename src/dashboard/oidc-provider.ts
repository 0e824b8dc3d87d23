/**
 * Talking to the OpenID Connect provider: discovery (cached per process), the token endpoint, and the ID token's
 * verification with jose (signature from the provider's JWKS, issuer, audience, expiry, nonce). Every way this can go
 * wrong is an `OidcRefusal` with the status and words of the page the user sees: 401 for a token we will not accept,
 * 502 for a provider that does not answer as it should.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { acceptableProviderUrl, type OidcConfig } from '../config.ts';

/** A refused sign-in: shown to the user as a page with this status, never a session. */
export class OidcRefusal extends Error {
  readonly status: 400 | 401 | 403 | 404 | 410 | 502;
  readonly title: string;
  constructor(status: OidcRefusal['status'], title: string, message: string) {
    super(message);
    this.name = 'OidcRefusal';
    this.status = status;
    this.title = title;
  }
}

/** A provider that does not answer within this time fails the sign-in (502) rather than hold the request. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** How long a process trusts a discovery document before fetching it again (endpoints and keys rarely move). */
export const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** ID tokens must be signed with a provider's private key: no `none`, no shared-secret HMAC. */
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Clocks of the provider and this service may differ by this much (exp, iat). */
const CLOCK_TOLERANCE_SECONDS = 60;

export type ClientAuthentication = 'client_secret_basic' | 'client_secret_post';

export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  clientAuthentication: ClientAuthentication;
}

interface CachedProvider {
  metadata: ProviderMetadata;
  keys: ReturnType<typeof createRemoteJWKSet>;
  expiresAt: number;
}

const discovered = new Map<string, CachedProvider>();

function unavailable(message: string): OidcRefusal {
  return new OidcRefusal(502, 'The identity provider did not answer as expected', message);
}

/** The same issuer, whether or not one side ends with a slash (providers differ; the discovery path has none). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/** Node's fetch with a timeout and no redirects (a secret is never sent on to somewhere else). */
async function providerFetch(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw unavailable(
      `${what} (${url}) ${timedOut ? `did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s` : 'could not be reached'}. Try again later.`,
    );
  }
}

async function jsonBody(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;
}

/** Which way to present the client secret: Basic when the provider lists it or lists nothing (the spec's default). */
export function chooseClientAuthentication(methods: string[] | null): ClientAuthentication | null {
  if (methods === null || methods.includes('client_secret_basic')) return 'client_secret_basic';
  return methods.includes('client_secret_post') ? 'client_secret_post' : null;
}

/** Checks a discovery document: the configured issuer's, endpoints over https, PKCE S256, a usable client authentication. */
export function providerMetadata(config: OidcConfig, document: Record<string, unknown>): ProviderMetadata {
  const { issuer } = document;
  if (typeof issuer !== 'string' || !sameIssuer(issuer, config.issuer)) {
    throw unavailable(`The discovery document names the issuer ${String(issuer)}, not ${config.issuer}: check OIDC_ISSUER.`);
  }
  const endpoint = (name: string): string => {
    const value = document[name];
    const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : null;
    if (url === null || !acceptableProviderUrl(url)) throw unavailable(`The discovery document's ${name} is missing or not an https URL.`);
    return url.toString();
  };
  const challengeMethods = stringList(document.code_challenge_methods_supported);
  if (challengeMethods !== null && !challengeMethods.includes('S256')) {
    throw unavailable('The identity provider does not offer PKCE with S256 (code_challenge_methods_supported), which this sign-in requires.');
  }
  const clientAuthentication = chooseClientAuthentication(stringList(document.token_endpoint_auth_methods_supported));
  if (clientAuthentication === null) {
    throw unavailable('The identity provider accepts neither client_secret_basic nor client_secret_post at its token endpoint.');
  }
  return {
    issuer,
    authorizationEndpoint: endpoint('authorization_endpoint'),
    tokenEndpoint: endpoint('token_endpoint'),
    jwksUri: endpoint('jwks_uri'),
    clientAuthentication,
  };
}

async function provider(config: OidcConfig): Promise<CachedProvider> {
  const cached = discovered.get(config.issuer);
  if (cached !== undefined && cached.expiresAt > Date.now()) return cached;
  const url = discoveryUrl(config.issuer);
  const response = await providerFetch(url, { headers: { accept: 'application/json' } }, 'The identity provider’s discovery document');
  const document = response.ok ? await jsonBody(response) : null;
  if (document === null) throw unavailable(`The discovery document at ${url} answered ${response.status} without a JSON object.`);
  const metadata = providerMetadata(config, document);
  const keys = createRemoteJWKSet(new URL(metadata.jwksUri), { timeoutDuration: PROVIDER_TIMEOUT_MS });
  const entry = { metadata, keys, expiresAt: Date.now() + DISCOVERY_TTL_MS };
  discovered.set(config.issuer, entry);
  return entry;
}

export async function discover(config: OidcConfig): Promise<ProviderMetadata> {
  return (await provider(config)).metadata;
}

/** RFC 6749 2.3.1: the client id and secret are form-encoded before they are joined for Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The token request for an authorization code, with the client secret where the provider wants it. */
export function tokenRequest(
  config: OidcConfig,
  clientAuthentication: ClientAuthentication,
  grant: { code: string; codeVerifier: string; redirectUri: string },
): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: grant.redirectUri,
    code_verifier: grant.codeVerifier,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (clientAuthentication === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${formEncode(config.clientId)}:${formEncode(config.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', config.clientId);
    form.set('client_secret', config.clientSecret);
  }
  return { headers, body: form.toString() };
}

/** Exchanges the authorization code for tokens; returns the ID token. */
export async function exchangeCode(config: OidcConfig, grant: { code: string; codeVerifier: string; redirectUri: string }): Promise<string> {
  const { metadata } = await provider(config);
  const request = tokenRequest(config, metadata.clientAuthentication, grant);
  const response = await providerFetch(metadata.tokenEndpoint, { method: 'POST', ...request }, 'The identity provider’s token endpoint');
  const body = await jsonBody(response);
  if (!response.ok) {
    const code = typeof body?.error === 'string' ? body.error : `HTTP ${response.status}`;
    const description = typeof body?.error_description === 'string' ? `: ${body.error_description}` : '';
    throw unavailable(`The identity provider refused to exchange the sign-in code (${code}${description}). Start the sign-in again.`);
  }
  if (typeof body?.id_token !== 'string')
    throw unavailable('The identity provider’s token response has no id_token: check that the openid scope is granted.');
  return body.id_token;
}

function rejected(reason: string): OidcRefusal {
  return new OidcRefusal(
    401,
    'The sign-in was not accepted',
    `The identity provider’s ID token was not accepted: ${reason}. Start the sign-in again.`,
  );
}

/** Why jose refused a token, in words; null when the fault is reaching the keys rather than the token (502). */
function joseReason(error: unknown): string | null {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'it was issued to another client (audience)';
    if (error.claim === 'iss') return 'it was issued by another issuer';
    return `its ${error.claim} claim is ${error.reason === 'missing' ? 'missing' : 'not valid'}`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return 'it is signed with a key the provider does not publish';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'it is signed with an algorithm this service does not accept';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSENotSupported) return 'it is malformed';
  return null;
}

/** Verifies the ID token and returns its claims: signature, issuer, audience = client id, exp, iat, and the nonce. */
export async function verifyIdToken(config: OidcConfig, idToken: string, nonce: string): Promise<JWTPayload> {
  const { metadata, keys } = await provider(config);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: metadata.issuer,
      audience: config.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    const reason = joseReason(error);
    if (reason !== null) throw rejected(reason);
    throw unavailable(`The identity provider’s signing keys (${metadata.jwksUri}) could not be read. Try again later.`);
  }
  // jose checks iat only against a maximum age: a token issued in the future (a provider's clock far ahead, or a
  // token minted for later) is refused here, with the same tolerance as exp.
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw rejected('it was issued in the future');
  if (payload.nonce !== nonce) throw rejected('its nonce does not belong to this sign-in');
  // OpenID Connect Core 3.1.3.7: a token for several audiences names the one it was issued to.
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== config.clientId)
    throw rejected('it was issued to another client (azp)');
  return payload;
}

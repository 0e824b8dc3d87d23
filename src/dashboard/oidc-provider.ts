/**
 * Talking to the OpenID Connect provider: discovery (cached per process, with this service's own policy: https
 * endpoints, PKCE S256, a client-secret method), then openid-client for the protocol itself: the code exchange with
 * PKCE and the client secret, and the ID token's verification (signature from the provider's JWKS, issuer, audience,
 * azp, expiry, nonce). Every way this can go wrong is an `OidcRefusal` with the status and words of the page the user
 * sees: 401 for a token we will not accept, 502 for a provider that does not answer as it should.
 */
import * as client from 'openid-client';
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
  /** openid-client's view of the provider and this client; it also caches the provider's keys. */
  client: client.Configuration;
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

/**
 * openid-client refuses plain http unless told; its `allowInsecureRequests` is marked deprecated "only to make it stand
 * out" as a development and test switch, which is the one use here: config.ts admits an http issuer on loopback only.
 */
function allowPlainHttp(configuration: client.Configuration): void {
  const allow: unknown = Reflect.get(client, 'allowInsecureRequests');
  if (isConfigurationSwitch(allow)) allow(configuration);
}

function isConfigurationSwitch(value: unknown): value is (configuration: client.Configuration) => void {
  return typeof value === 'function';
}

/** The provider as openid-client sees it: only the checked endpoints, and the signing algorithms it lists. */
function clientConfiguration(config: OidcConfig, metadata: ProviderMetadata, document: Record<string, unknown>): client.Configuration {
  const algorithms = stringList(document.id_token_signing_alg_values_supported);
  const server: client.ServerMetadata = {
    issuer: metadata.issuer,
    authorization_endpoint: metadata.authorizationEndpoint,
    token_endpoint: metadata.tokenEndpoint,
    jwks_uri: metadata.jwksUri,
    ...(algorithms === null ? {} : { id_token_signing_alg_values_supported: algorithms }),
  };
  const authentication =
    metadata.clientAuthentication === 'client_secret_basic'
      ? client.ClientSecretBasic(config.clientSecret)
      : client.ClientSecretPost(config.clientSecret);
  const configuration = new client.Configuration(server, config.clientId, { [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS }, authentication);
  configuration.timeout = PROVIDER_TIMEOUT_MS / 1000;
  // openid-client trusts an ID token from the token endpoint on TLS alone (OpenID Connect Core 3.1.3.7 allows it);
  // the dashboard verifies its signature against the provider's published keys as well, as it did before.
  client.enableNonRepudiationChecks(configuration);
  // Plain http only where the configuration allows it: a loopback issuer (tests).
  if (new URL(metadata.tokenEndpoint).protocol === 'http:') allowPlainHttp(configuration);
  return configuration;
}

async function provider(config: OidcConfig): Promise<CachedProvider> {
  const cached = discovered.get(config.issuer);
  if (cached !== undefined && cached.expiresAt > Date.now()) return cached;
  const url = discoveryUrl(config.issuer);
  const response = await providerFetch(url, { headers: { accept: 'application/json' } }, 'The identity provider’s discovery document');
  const document = response.ok ? await jsonBody(response) : null;
  if (document === null) throw unavailable(`The discovery document at ${url} answered ${response.status} without a JSON object.`);
  const metadata = providerMetadata(config, document);
  const entry = { metadata, client: clientConfiguration(config, metadata, document), expiresAt: Date.now() + DISCOVERY_TTL_MS };
  discovered.set(config.issuer, entry);
  return entry;
}

export async function discover(config: OidcConfig): Promise<ProviderMetadata> {
  return (await provider(config)).metadata;
}

function rejected(reason: string): OidcRefusal {
  return new OidcRefusal(
    401,
    'The sign-in was not accepted',
    `The identity provider’s ID token was not accepted: ${reason}. Start the sign-in again.`,
  );
}

function claimOf(error: client.ClientError): unknown {
  const detail: unknown = error.cause;
  if (typeof detail !== 'object' || detail === null || !('cause' in detail)) return undefined;
  const cause: unknown = detail.cause;
  return typeof cause === 'object' && cause !== null && 'claim' in cause ? cause.claim : undefined;
}

/** Why openid-client refused the ID token, in words; null when the fault is not the token's (502). */
function tokenReason(error: client.ClientError): string | null {
  const claim = claimOf(error);
  switch (error.code) {
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      return claim === 'exp' ? 'it has expired' : `its ${String(claim)} claim is not valid`;
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      if (claim === 'nonce') return 'its nonce does not belong to this sign-in';
      if (claim === 'aud') return 'it was issued to another client (audience)';
      if (claim === 'azp') return 'it was issued to another client (azp)';
      if (claim === 'iss') return 'it was issued by another issuer';
      return `its ${String(claim)} claim is not valid`;
    case 'OAUTH_KEY_SELECTION_FAILED':
      return 'it is signed with a key the provider does not publish';
    case 'OAUTH_UNSUPPORTED_OPERATION':
      return 'it is signed with an algorithm this service does not accept';
    case 'OAUTH_INVALID_RESPONSE': {
      const message = error.cause instanceof Error ? error.cause.message : error.message;
      return message.includes('signature verification failed') ? 'its signature does not verify' : `it is malformed (${message})`;
    }
    default:
      return null;
  }
}

/** A refusal for what openid-client threw: the token's fault (401) or the provider's (502). */
function refusalOf(error: unknown, metadata: ProviderMetadata): OidcRefusal {
  if (error instanceof client.ResponseBodyError) {
    const description = error.error_description === undefined ? '' : `: ${error.error_description}`;
    return unavailable(`The identity provider refused to exchange the sign-in code (${error.error}${description}). Start the sign-in again.`);
  }
  if (error instanceof client.ClientError) {
    const reason = tokenReason(error);
    if (reason !== null) return rejected(reason);
    return unavailable(`The identity provider did not answer as expected (${error.message}). Try again later.`);
  }
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  return unavailable(
    `The identity provider (${metadata.tokenEndpoint}, ${metadata.jwksUri}) ${timedOut ? `did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s` : 'could not be reached'}. Try again later.`,
  );
}

/**
 * Exchanges the authorization code (PKCE verifier, client secret as the provider wants it) and verifies the ID token
 * with openid-client: signature against the provider's keys, issuer, audience and azp, exp, iat present, nonce. Then
 * what it leaves: an issue time in the future. Returns the ID token's claims.
 */
export async function exchangeAndVerify(
  config: OidcConfig,
  grant: { code: string; state: string; iss: string | null; codeVerifier: string; nonce: string; redirectUri: string },
): Promise<client.IDToken> {
  const { metadata, client: configuration } = await provider(config);
  const callback = new URL(grant.redirectUri);
  callback.searchParams.set('code', grant.code);
  callback.searchParams.set('state', grant.state);
  if (grant.iss !== null) callback.searchParams.set('iss', grant.iss);
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: grant.codeVerifier,
      expectedNonce: grant.nonce,
      expectedState: grant.state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    throw refusalOf(error, metadata);
  }
  if (claims === undefined) throw unavailable('The identity provider’s token response has no id_token: check that the openid scope is granted.');
  // openid-client checks iat only for its type: a token issued in the future (a provider's clock far ahead, or a token
  // minted for later) is refused here, with the same tolerance as exp.
  if (claims.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw rejected('it was issued in the future');
  return claims;
}

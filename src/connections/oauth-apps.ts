/**
 * The operator's OAuth app functions, shared by the admin API and the CLI:
 * each organisation registers its own OAuth app (client id, client secret,
 * redirect URI) per OAuth platform and environment, which the link flow uses
 * for consent and token exchange. The secret is stored only encrypted with the
 * service cipher and never returned.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { ServiceError, type ErrorMetadata } from '../errors/catalogue.ts';
import { deleteOAuthApp, listOAuthApps, upsertOAuthApp, type OAuthAppRow } from '../sql/oauth-apps.ts';
import { organizationNotFound, requireOrganization } from '../tenants/organizations.ts';
import type { Environment } from '../tenants/types.ts';
import { getConnector, listConnectors } from '../platforms/index.ts';

export const OAUTH_APP_FIELD_MAX_LENGTH = 500;
export const REDIRECT_URI_MAX_LENGTH = 2000;
/** As a connection's own scope (POST /connections/create). */
export const OAUTH_SCOPE_MAX_LENGTH = 1000;
/** Hosts where a plain-http redirect URI is allowed (local development). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

export interface OAuthAppView {
  platform: string;
  environment: Environment;
  client_id: string;
  redirect_uri: string;
  /** Whether the platform's webhooks are verified with a key of this app (never shown). */
  has_webhook_key: boolean;
  scope: string | null;
  calls_this_month: number;
  created_at: string;
  updated_at: string;
}

function toOAuthAppView(row: OAuthAppRow): OAuthAppView {
  return {
    platform: row.platform,
    environment: row.environment,
    client_id: row.client_id,
    redirect_uri: row.redirect_uri,
    has_webhook_key: row.has_webhook_key,
    scope: row.scope,
    calls_this_month: row.calls_this_month,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function invalid(field: string, problem: string, location: ErrorMetadata['location']): ServiceError {
  const where = location === 'body' ? ' in the request body' : location === 'params' ? ' in the path' : '';
  return new ServiceError('VALIDATION_ERROR', `\`${field}\`${where} ${problem}.`, {
    source: 'service',
    field,
    ...(location !== undefined ? { location } : {}),
  });
}

/** Ids of the registered platforms that sign in with OAuth 2, sorted. */
export function oauthPlatforms(): string[] {
  return listConnectors()
    .filter((c) => c.auth.type === 'oauth2')
    .map((c) => c.id);
}

/** Why the platform cannot take an OAuth app, as a 400 naming `platform`; null when it can. */
export function oauthPlatformError(platform: string, location: ErrorMetadata['location']): ServiceError | null {
  const connector = getConnector(platform);
  if (connector?.auth.type === 'oauth2') return null;
  const takers = oauthPlatforms();
  const which = takers.length === 0 ? 'no platform of this build takes an OAuth app yet' : `platforms that take an OAuth app: ${takers.join(', ')}`;
  const problem = connector === undefined ? `"${platform}" is not a known platform` : `${platform} does not sign in with OAuth`;
  return invalid('platform', `${problem}; ${which}`, location);
}

/** Why the redirect URI cannot be used, in words; null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '' || uri.includes('#')) return 'must not contain a #fragment';
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname))
    return `must use https (plain http is allowed only for ${[...LOCAL_HOSTS].join(' and ')})`;
  return null;
}

export interface OAuthAppInput {
  organizationId: string;
  platform: string;
  environment: Environment;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The key the platform signs its webhooks with (Xero's webhook key, Intuit's verifier token), for platforms that send them. */
  webhookKey?: string;
  /** Consent scopes the app asks for (space-separated, as OAuth 2.0 writes them); absent: the connector's list. */
  scope?: string;
  /** Where the values came from, for the error metadata: body (platform in params) for the API, undefined for the CLI. */
  location?: 'body';
}

/** Sets (or replaces) the organisation's app of one platform and environment; the secret is stored encrypted. */
export async function setOAuthApp(db: Queryable, cipher: Cipher, input: OAuthAppInput): Promise<OAuthAppView> {
  const api = input.location === 'body';
  const platformError = oauthPlatformError(input.platform, api ? 'params' : undefined);
  if (platformError !== null) throw platformError;
  for (const [field, value] of [
    ['client_id', input.clientId],
    ['client_secret', input.clientSecret],
  ] as const) {
    if (value.length < 1 || value.length > OAUTH_APP_FIELD_MAX_LENGTH) {
      throw invalid(field, `must be 1 to ${OAUTH_APP_FIELD_MAX_LENGTH} characters long`, input.location);
    }
  }
  const problem =
    input.redirectUri.length > REDIRECT_URI_MAX_LENGTH
      ? `must be at most ${REDIRECT_URI_MAX_LENGTH} characters long`
      : redirectUriProblem(input.redirectUri);
  if (problem !== null) throw invalid('redirect_uri', problem, input.location);
  const webhookKey = input.webhookKey;
  if (webhookKey !== undefined) {
    if (getConnector(input.platform)?.webhooks === undefined) {
      throw invalid('webhook_key', `${input.platform} sends no webhooks we receive; leave webhook_key out`, input.location);
    }
    if (webhookKey.length < 1 || webhookKey.length > OAUTH_APP_FIELD_MAX_LENGTH) {
      throw invalid('webhook_key', `must be 1 to ${OAUTH_APP_FIELD_MAX_LENGTH} characters long`, input.location);
    }
  }
  const scope = input.scope?.trim().replace(/\s+/g, ' ');
  if (scope !== undefined && (scope === '' || scope.length > OAUTH_SCOPE_MAX_LENGTH || !/^[\x21\x23-\x5b\x5d-\x7e ]+$/.test(scope))) {
    throw invalid('scope', `must be 1 to ${OAUTH_SCOPE_MAX_LENGTH} characters of OAuth scope names separated by spaces`, input.location);
  }
  const row = await upsertOAuthApp(db, {
    organizationId: input.organizationId,
    environment: input.environment,
    platform: input.platform,
    clientId: input.clientId,
    clientSecretCiphertext: cipher.encrypt(input.clientSecret),
    redirectUri: input.redirectUri,
    webhookKeyCiphertext: webhookKey === undefined ? null : cipher.encrypt(webhookKey),
    scope: scope ?? null,
  });
  if (row === null) throw organizationNotFound(input.organizationId);
  return toOAuthAppView(row);
}

/** The organisation's apps, by platform then environment, without secrets. */
export async function getOAuthApps(db: Queryable, organizationId: string): Promise<OAuthAppView[]> {
  await requireOrganization(db, organizationId);
  return (await listOAuthApps(db, organizationId)).map(toOAuthAppView);
}

/**
 * Removes the app of one platform and environment: new links of that platform
 * stop until another is set. Any platform id is accepted, so an app of a
 * platform no longer served can still be removed.
 */
export async function removeOAuthApp(db: Queryable, organizationId: string, platform: string, environment: Environment): Promise<void> {
  await requireOrganization(db, organizationId);
  if (!(await deleteOAuthApp(db, organizationId, environment, platform))) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} has no ${platform} OAuth app for ${environment}.`, {
      source: 'service',
    });
  }
}

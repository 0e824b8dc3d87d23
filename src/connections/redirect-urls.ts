/**
 * Where the link flow may send an end user (with a fresh public_token) after
 * success: each organisation lists the redirect URLs it allows, per
 * environment, through the admin API or the CLI (like its webhook URL).
 *
 * The rule, for a redirect_url from connection creation or from the link
 * page's query string:
 * - a list is set: the URL is used only if it is on the list;
 * - no list, sandbox: only the redirect_url given at connection creation (the
 *   client authenticated to give it), never one from the query string;
 * - no list, production: none.
 * A URL is on the list when its scheme, host, port and path equal an entry's
 * (after URL parsing: case of scheme and host, default ports, dot segments).
 * Its query string is free and kept (the client's own state; public_token is
 * added to it); user info and #fragments are refused. So an allowed path must
 * not itself redirect on a query parameter.
 */
import type { Queryable } from '../db/pool.ts';
import { ServiceError, type ErrorMetadata } from '../errors/catalogue.ts';
import { deleteRedirectUrlList, findRedirectUrlList, listRedirectUrlLists, upsertRedirectUrlList } from '../sql/redirect-urls.ts';
import { organizationNotFound, requireOrganization } from '../tenants/organizations.ts';
import type { Environment } from '../tenants/types.ts';

export const MAX_REDIRECT_URLS = 50;
export const REDIRECT_URL_MAX_LENGTH = 2000;
/** Plain http is allowed in production only for these hosts (a developer's own machine). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface RedirectUrlsView {
  environment: Environment;
  urls: string[];
  updated_at: string;
}

export function adminPath(organizationId: string): string {
  return `/admin/organizations/${organizationId}/redirect_urls`;
}

function parseHttp(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Scheme, host, port and path: what must match an entry. Null for a URL that can never match. */
export function redirectKey(raw: string): string | null {
  const url = parseHttp(raw);
  if (url === null) return null;
  const plain = url.username === '' && url.password === '' && url.hash === '' && !raw.includes('#');
  return plain ? `${url.protocol}//${url.host}${url.pathname}` : null;
}

/** Why an entry cannot be on the list, in words; null when it can. */
export function entryProblem(raw: string, environment: Environment): string | null {
  if (raw.length > REDIRECT_URL_MAX_LENGTH) return `must be at most ${REDIRECT_URL_MAX_LENGTH} characters long`;
  const url = parseHttp(raw);
  if (url === null) return 'must be an absolute http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '' || raw.includes('#')) return 'must not contain a #fragment';
  if (url.search !== '' || raw.includes('?')) return 'must not contain a query string (any query string is allowed on a listed URL, and kept)';
  if (environment === 'production' && url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    return `must use https in production (plain http is allowed only for ${[...LOCAL_HOSTS].join(', ')})`;
  }
  return null;
}

function invalid(message: string, field: string, location: ErrorMetadata['location']): ServiceError {
  return new ServiceError('VALIDATION_ERROR', message, { source: 'service', field, ...(location !== undefined ? { location } : {}) });
}

/**
 * Sets (replaces) the allowed redirect URLs of one environment. Entries are
 * stored as scheme://host[:port]/path, each once; an empty list allows none.
 */
export async function setRedirectUrls(
  db: Queryable,
  input: {
    organizationId: string;
    environment: Environment;
    urls: readonly string[];
    /** Where the list came from, for the error metadata (body for the API, undefined for the CLI). */
    location?: ErrorMetadata['location'];
  },
): Promise<RedirectUrlsView> {
  if (input.urls.length > MAX_REDIRECT_URLS) {
    throw invalid(`\`urls\` may hold at most ${MAX_REDIRECT_URLS} URLs (got ${input.urls.length}).`, 'urls', input.location);
  }
  const urls: string[] = [];
  for (const [i, raw] of input.urls.entries()) {
    const problem = entryProblem(raw, input.environment);
    const key = problem === null ? redirectKey(raw) : null;
    if (key === null)
      throw invalid(`\`urls[${i}]\` ${problem ?? 'is not a valid redirect URL'} (got "${raw.slice(0, 100)}").`, `urls/${i}`, input.location);
    if (!urls.includes(key)) urls.push(key);
  }
  const row = await upsertRedirectUrlList(db, input.organizationId, input.environment, urls);
  if (row === null) throw organizationNotFound(input.organizationId);
  return { environment: row.environment, urls: row.urls, updated_at: row.updated_at.toISOString() };
}

/** The lists of the organisation's configured environments (an environment without a list is left out). */
export async function getRedirectUrls(db: Queryable, organizationId: string): Promise<RedirectUrlsView[]> {
  await requireOrganization(db, organizationId);
  return (await listRedirectUrlLists(db, organizationId)).map((row) => ({
    environment: row.environment,
    urls: row.urls,
    updated_at: row.updated_at.toISOString(),
  }));
}

/** Removes the list: sandbox goes back to accepting the creation redirect_url, production to accepting none. */
export async function removeRedirectUrls(db: Queryable, organizationId: string, environment: Environment): Promise<void> {
  await requireOrganization(db, organizationId);
  if (!(await deleteRedirectUrlList(db, organizationId, environment))) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} has no redirect URL list for ${environment}.`, {
      source: 'service',
    });
  }
}

export interface RedirectScope {
  organizationId: string;
  environment: Environment;
}

/** Why a redirect is refused: not a usable URL, not on the list, not the creation one (sandbox without list), or production without list. */
export type RedirectRefusal = 'malformed' | 'not_listed' | 'not_from_creation' | 'no_list';

/**
 * Null when `candidate` may be used, else why not. `fromCreation`: it is the
 * redirect_url given at connection creation (stored with the connection).
 */
export async function redirectRefusal(
  db: Queryable,
  scope: RedirectScope,
  candidate: string,
  fromCreation: boolean,
): Promise<RedirectRefusal | null> {
  const key = redirectKey(candidate);
  if (key === null) return 'malformed';
  const list = await findRedirectUrlList(db, scope.organizationId, scope.environment);
  if (list !== null) return list.includes(key) ? null : 'not_listed';
  if (scope.environment === 'sandbox') return fromCreation ? null : 'not_from_creation';
  return 'no_list';
}

/**
 * Popup mode hands the public_token to the opener at `origin` (postMessage):
 * the same rule as a redirect, by origin. A list is set: the origin of one of
 * its entries; no list: sandbox accepts it (nothing was given at creation to
 * compare with), production none.
 */
export async function originRefusal(db: Queryable, scope: RedirectScope, origin: string): Promise<RedirectRefusal | null> {
  const wanted = parseHttp(origin)?.origin;
  if (wanted === undefined) return 'malformed';
  const list = await findRedirectUrlList(db, scope.organizationId, scope.environment);
  if (list !== null) return list.some((entry) => parseHttp(entry)?.origin === wanted) ? null : 'not_listed';
  return scope.environment === 'sandbox' ? null : 'no_list';
}

/** The refusal in words for the developer, without how to fix it. */
export function refusalReason(refusal: RedirectRefusal, environment: Environment): string {
  switch (refusal) {
    case 'malformed':
      return 'is not an absolute http or https URL without credentials or #fragment';
    case 'not_listed':
      return `is not on the ${environment} environment's allowed redirect URLs (scheme, host, port and path must equal one's)`;
    case 'not_from_creation':
      return 'is not the redirect_url given when the connection was created, and the sandbox environment has no allowed redirect URLs';
    case 'no_list':
      return 'cannot be used: the production environment has no allowed redirect URLs';
  }
}

/** Connection creation: a redirect_url the link flow would refuse is a 400 naming `redirect_url` now, saying how to allow it. */
export async function assertCreationRedirect(db: Queryable, scope: RedirectScope, redirectUrl: string): Promise<void> {
  const refusal = await redirectRefusal(db, scope, redirectUrl, true);
  if (refusal === null) return;
  const howTo =
    refusal === 'malformed'
      ? ''
      : `; allow it with PUT ${adminPath(scope.organizationId)} ` +
        `{"environment": "${scope.environment}", "urls": [...]} or: ledgerport redirect-url set --id ${scope.organizationId} --environment ${scope.environment} --url <url>`;
  throw invalid(`\`redirect_url\` ${refusalReason(refusal, scope.environment)}${howTo}.`, 'redirect_url', 'body');
}

/**
 * What the link flow carries from step to step (query string on GET, hidden
 * fields on POST): redirect_url, store_name, and popup mode with the host
 * page's origin. Also where the end user goes when the flow succeeds.
 */
import { Type, type Static } from 'typebox';
import { PATTERN_HINT } from '../http/validation.ts';
import { CREDENTIAL_FIELDS } from '../platforms/registry.ts';

const PLATFORM = Type.String({
  pattern: '^[A-Za-z0-9_]{1,40}$',
  [PATTERN_HINT]: 'names no platform: a platform id is letters, digits and _, e.g. SANDBOX',
});

const keptProperties = {
  redirect_url: Type.Optional(Type.String({ maxLength: 2000, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })),
  store_name: Type.Optional(Type.String({ maxLength: 255 })),
  mode: Type.Optional(Type.Union([Type.Literal('popup'), Type.Literal('page')])),
  origin: Type.Optional(Type.String({ maxLength: 300, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+$' })),
};

export const LinkParams = Type.Object({ linkToken: Type.String({ minLength: 1, maxLength: 200 }) });
export const PlatformParams = Type.Object({ linkToken: Type.String({ minLength: 1, maxLength: 200 }), platform: PLATFORM });
export const LinkQuery = Type.Object({ platform: Type.Optional(PLATFORM), ...keptProperties });
export const KeptQuery = Type.Object(keptProperties);

const credentialProperties = Object.fromEntries(CREDENTIAL_FIELDS.map((field) => [field, Type.Optional(Type.String({ maxLength: 4096 }))]));
/** The credential form: kept fields, the CSRF token (checked by the handler: 403, not 400) and credential fields. */
export const CredentialsBody = Type.Object(
  {
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    ...keptProperties,
    ...credentialProperties,
  },
  { additionalProperties: false },
);

export const DoneQuery = Type.Object({
  platform: Type.Optional(PLATFORM),
  mode: keptProperties.mode,
  origin: keptProperties.origin,
  public_token: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The platform's own parameters (QuickBooks' realmId, Shopify's shop and hmac…) pass as text, up to 30 of them. */
export const CallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 300 })),
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: Type.String({ maxLength: 2048 }), maxProperties: 30 },
);

export const TenantBody = Type.Object(
  {
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    state: Type.String({ minLength: 1, maxLength: 300 }),
    tenant: Type.Optional(Type.String({ maxLength: 300 })),
  },
  { additionalProperties: false },
);

export type Kept = Static<typeof KeptQuery>;

/** Only the kept fields of a query or body (which also hold platform, csrf, credentials). */
export function keptOf(source: Kept): Kept {
  const kept: Kept = {};
  if (source.redirect_url !== undefined) kept.redirect_url = source.redirect_url;
  if (source.store_name !== undefined) kept.store_name = source.store_name;
  if (source.mode !== undefined) kept.mode = source.mode;
  if (source.origin !== undefined) kept.origin = source.origin;
  return kept;
}

/** An absolute http(s) URL, or null. */
export function httpUrl(value: string | null | undefined): URL | null {
  if (value === null || value === undefined) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** What is wrong with the kept values, in words for the person who built the link; null when fine. */
export function keptProblem(kept: Kept): string | null {
  if (kept.redirect_url !== undefined && httpUrl(kept.redirect_url) === null) {
    return 'The redirect_url in this link is not a valid http or https address.';
  }
  if (kept.origin !== undefined && httpUrl(kept.origin)?.origin !== kept.origin.toLowerCase()) {
    return 'The origin in this link must be a web origin such as https://app.example.com (scheme, host and port only).';
  }
  return null;
}

export function isPopup(kept: Kept): kept is Kept & { origin: string } {
  return kept.mode === 'popup' && kept.origin !== undefined;
}

/** "?a=b&…" for links between the flow's pages; empty when nothing is kept. */
export function keptQuery(kept: Kept, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...extra, ...keptOf(kept) })) params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Path of the completion page, which also hands the token to the opener in popup mode. */
export function completionPath(platform: string, kept: Kept): string {
  const params = new URLSearchParams({ platform });
  if (isPopup(kept)) {
    params.set('mode', 'popup');
    params.set('origin', kept.origin.toLowerCase());
  }
  return `/link/done?${params.toString()}`;
}

/**
 * Where the end user goes after success, before public_token is appended:
 * popup mode → our completion page (it posts the token to the host page);
 * else the vetted redirect (src/link/redirect.ts), else the completion page.
 */
export function destination(redirect: string | null, platform: string, kept: Kept): string {
  if (isPopup(kept)) return completionPath(platform, kept);
  return httpUrl(redirect)?.href ?? completionPath(platform, kept);
}

/** The destination with public_token added, keeping the query it already has. */
export function withPublicToken(target: string, publicToken: string): string {
  if (target.startsWith('/')) {
    const url = new URL(target, 'http://link.invalid');
    url.searchParams.set('public_token', publicToken);
    return `${url.pathname}${url.search}`;
  }
  const url = new URL(target);
  url.searchParams.set('public_token', publicToken);
  return url.href;
}

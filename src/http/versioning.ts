/**
 * API versions. Every /versioned request names one in X-Service-Version.
 * Handlers always build the newest shape; a registered VersionChange says how
 * to turn it into the shape of the versions before it (Stripe-style
 * downgrades), applied newest first. Changes are declared in
 * src/http/version-changes.ts so the whole history reads in one place.
 */
import fastJson from 'fast-json-stringify';
import { ServiceError } from '../errors/catalogue.ts';

export const API_VERSIONS = ['2024-08-31', '2024-04-30', '2023-03-14', '2023-02-07'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const LATEST_VERSION: ApiVersion = API_VERSIONS[0];
export const VERSION_HEADER = 'x-service-version';

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

export function parseVersionHeader(raw: string | string[] | undefined): ApiVersion {
  const accepted = API_VERSIONS.join(', ');
  if (raw === undefined || raw === '') {
    throw new ServiceError('MISSING_VERSION', `The X-Service-Version header is required. Send one of: ${accepted} (newest first).`, {
      source: 'service',
      field: 'X-Service-Version',
      location: 'headers',
      accepted_versions: [...API_VERSIONS],
    });
  }
  const value = Array.isArray(raw) ? (raw[0] ?? '') : raw.trim();
  if (!isApiVersion(value)) {
    throw new ServiceError('UNSUPPORTED_VERSION', `X-Service-Version "${value.slice(0, 40)}" is not a published version. Send one of: ${accepted}.`, {
      source: 'service',
      field: 'X-Service-Version',
      location: 'headers',
      accepted_versions: [...API_VERSIONS],
    });
  }
  return value;
}

/** Older versions sort before newer ones (ISO dates compare as text). */
export function isBefore(version: ApiVersion, other: ApiVersion): boolean {
  return version < other;
}

export type JsonSchema = Record<string, unknown>;

export interface VersionChange {
  /** The first version with the new behaviour; requests for older versions get `downgrade`. */
  since: ApiVersion;
  description: string;
  /** Route keys ("GET /versioned/accounting/bills") this change touches. */
  appliesTo(routeKey: string): boolean;
  downgrade(body: unknown): unknown;
  /** The success response schema of the older shape (it serializes the downgraded body). */
  downgradeSchema(schema: JsonSchema): JsonSchema;
}

export class VersionRegistry {
  private readonly changes: VersionChange[] = [];

  register(change: VersionChange): void {
    this.changes.push(change);
    // Newest first, so downgrades peel changes off in reverse order of introduction.
    this.changes.sort((a, b) => (a.since < b.since ? 1 : a.since > b.since ? -1 : 0));
  }

  list(): readonly VersionChange[] {
    return this.changes;
  }

  /** Whether any registered change alters this route's response for that version. */
  affects(routeKey: string, version: ApiVersion): boolean {
    return this.changes.some((c) => isBefore(version, c.since) && c.appliesTo(routeKey));
  }

  /** The newest-shape body rewritten for the requested version. */
  render(routeKey: string, version: ApiVersion, body: unknown): unknown {
    let current = body;
    for (const change of this.changes) {
      if (isBefore(version, change.since) && change.appliesTo(routeKey)) current = change.downgrade(current);
    }
    return current;
  }

  /** The success schema of the route as the requested version shapes it. */
  renderSchema(routeKey: string, version: ApiVersion, schema: JsonSchema): JsonSchema {
    let current = schema;
    for (const change of this.changes) {
      if (isBefore(version, change.since) && change.appliesTo(routeKey)) current = change.downgradeSchema(current);
    }
    return current;
  }

  /** A compiled serializer per route and version, built on first use. */
  serializer(routeKey: string, version: ApiVersion, schema: JsonSchema): (body: unknown) => string {
    const key = `${routeKey} ${version}`;
    let compiled = this.serializers.get(key);
    if (compiled === undefined) {
      compiled = fastJson(this.renderSchema(routeKey, version, schema) as fastJson.AnySchema);
      this.serializers.set(key, compiled);
    }
    return compiled;
  }

  private readonly serializers = new Map<string, (body: unknown) => string>();
}

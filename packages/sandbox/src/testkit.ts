/**
 * Helpers for driving the sandbox connector in tests and benchmarks: a
 * connection context whose service ids are "<type>:<platform id>" (so links
 * resolve without a database), and a reader that pages through every object.
 */
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../../src/model/object-types.ts';
import type { Connector, ConnectorContext, Credentials, WriteContext } from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import type { PlatformHttp } from '../../../src/platforms/http.ts';
import { auditRef, type AuditInput } from './audit.ts';

const noHttp: PlatformHttp = { request: () => Promise.reject(new Error('this context has no HTTP client')) };

export function testContext(credentials: Credentials, http: PlatformHttp = noHttp): ConnectorContext {
  return {
    http,
    signal: new AbortController().signal,
    connectionId: `test-${credentials.basic_username ?? 'none'}`,
    credentials,
    tokens: null,
    oauth: null,
    environment: 'sandbox',
    ref: auditRef,
    platformIdOf: (type, serviceId) => Promise.resolve(serviceId.startsWith(`${type}:`) ? serviceId.slice(type.length + 1) : null),
  };
}

export function writeContext(ctx: ConnectorContext, idempotencyKey: string): WriteContext {
  return { ...ctx, idempotencyKey };
}

export interface ReadAllResult {
  records: AuditInput[];
  deleted: { type: UnifiedObjectType; id: string }[];
  /** nextSince per type, to pass back as `since` for the next incremental read. */
  cursors: Partial<Record<UnifiedObjectType, string | null>>;
  pages: number;
}

/** Reads every object type to its last page: full when no cursor is given for a type, incremental otherwise. */
export async function readAll(
  connector: Connector,
  ctx: ConnectorContext,
  cursors: Partial<Record<UnifiedObjectType, string | null>> = {},
  types: readonly UnifiedObjectType[] = UNIFIED_OBJECT_TYPES,
): Promise<ReadAllResult> {
  const result: ReadAllResult = { records: [], deleted: [], cursors: {}, pages: 0 };
  for (const type of types) {
    const handler = connector.objects[type]?.handler;
    if (handler === undefined) continue;
    let pageToken: string | null = null;
    do {
      const page = await handler.read(ctx, { since: cursors[type] ?? null, window: null, pageToken });
      result.pages++;
      for (const record of page.records) result.records.push({ type, raw: record.raw });
      for (const id of page.deletedPlatformIds ?? []) result.deleted.push({ type, id });
      pageToken = page.nextPageToken;
      if (pageToken === null) result.cursors[type] = page.nextSince ?? null;
    } while (pageToken !== null);
  }
  return result;
}

/** The PlatformError a call fails with (fails the test when it succeeds or throws something else). */
export async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
}

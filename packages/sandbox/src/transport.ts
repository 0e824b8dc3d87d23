/**
 * How the connector reaches the sandbox platform. Both transports speak the
 * same native REST API and turn failures into PlatformErrors the same way:
 * in process (no network: the API function is called directly) or over HTTP
 * through the shared PlatformHttp client (retries, Retry-After, limits).
 */
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import type { AuthContext } from '../../../src/platforms/connector.ts';
import { PlatformError, classifyResponse } from '../../../src/platforms/errors.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_RETRY_POLICY, retryDelay, type PlatformResponse } from '../../../src/platforms/http.ts';
import { handleNative, type NativeMethod, type NativeRequest, type NativeResponse } from './api.ts';
import type { SandboxPlatform } from './platform.ts';

export interface SandboxCall {
  method: NativeMethod;
  path: string;
  query?: Record<string, string | undefined>;
  headers: Record<string, string>;
  body?: unknown;
  /** Reads and keyed writes may be retried by the HTTP layer. */
  idempotent: boolean;
  /** Collection the call is about, to name a duplicate field in unified terms. */
  objectType?: UnifiedObjectType;
  operation: string;
}

export interface SandboxTransport {
  readonly kind: 'in-process' | 'http';
  /** The 2xx response; anything else is thrown as a PlatformError. */
  send(call: SandboxCall, ctx: AuthContext): Promise<NativeResponse>;
}

/** Unified field named by the platform's `Element` of a duplicate-value fault. */
const DUPLICATE_FIELDS: Readonly<Record<string, string | ((type: UnifiedObjectType | undefined) => string)>> = {
  DocNumber: 'document_number',
  DisplayName: (type) => (type === 'vendor' ? 'vendor_name' : 'customer_name'),
  Name: 'name',
  Code: (type) => (type === 'tax_rate' ? 'code' : 'nominal_code'),
  AccountId: 'account_id',
};

function faultOf(body: unknown): { code?: unknown; Element?: unknown } | null {
  if (typeof body !== 'object' || body === null || !('Fault' in body)) return null;
  const fault: unknown = body.Fault;
  if (typeof fault !== 'object' || fault === null || !('Error' in fault) || !Array.isArray(fault.Error)) return null;
  const first: unknown = fault.Error[0];
  return typeof first === 'object' && first !== null ? first : null;
}

/** The platform's own cases on top of the status classification: duplicate values. */
export function refineError(error: PlatformError, response: PlatformResponse, type: UnifiedObjectType | undefined): PlatformError {
  const fault = faultOf(response.body);
  if (fault?.code !== 'DuplicateValue') return error;
  const element = typeof fault.Element === 'string' ? fault.Element : '';
  const field = DUPLICATE_FIELDS[element];
  return new PlatformError({
    kind: 'duplicate',
    message: error.platformMessage,
    httpStatus: error.httpStatus,
    code: error.platformCode,
    rawExcerpt: error.rawExcerpt,
    headers: error.headers,
    requestSent: true,
    duplicateProperty: typeof field === 'function' ? field(type) : (field ?? element),
  });
}

function cleanQuery(query: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Calls the platform in this process; `platform` is resolved per call so it can be configured after import.
 * Failures are retried by the same rule as over HTTP (src/platforms/http.ts), so the default in-process
 * SANDBOX behaves towards syncs and writes as a real platform behind the HTTP client does.
 */
export function inProcessTransport(platform: () => SandboxPlatform, policy = DEFAULT_RETRY_POLICY): SandboxTransport {
  return {
    kind: 'in-process',
    async send(call, ctx) {
      for (let attempt = 1; ; attempt++) {
        const request: NativeRequest = {
          method: call.method,
          path: call.path,
          query: cleanQuery(call.query),
          headers: Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k.toLowerCase(), v])),
          // As if it went over the wire: the platform never shares objects with the caller.
          body: call.body === undefined ? undefined : structuredClone(call.body),
          signal: ctx.signal,
        };
        const response = await handleNative(platform(), request);
        if (response.status >= 200 && response.status < 300) return response;
        const error = refineError(classifyResponse(response), response, call.objectType);
        const wait = ctx.signal.aborted ? null : retryDelay(error, attempt, call.idempotent, policy);
        if (wait === null) throw error;
        await sleep(wait, undefined, { signal: ctx.signal });
      }
    },
  };
}

/** Calls the platform's HTTP server through the shared platform HTTP client. */
export function httpTransport(baseUrl: string): SandboxTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    kind: 'http',
    async send(call, ctx) {
      const response = await ctx.http.request({
        method: call.method,
        url: `${base}${call.path}`,
        query: cleanQuery(call.query),
        headers: call.headers,
        body: call.body,
        idempotent: call.idempotent,
        signal: ctx.signal,
        operation: call.operation,
        classifyError: (error, failed) => refineError(error, failed, call.objectType),
      });
      return { status: response.status, headers: response.headers, body: response.body };
    },
  };
}

/**
 * Calls to Xero's Accounting API for one connection: every call goes through
 * authorizedRequest (fresh token, one refresh and retry on a 401) with the
 * organisation in `xero-tenant-id`. Writes carry the write's idempotency key
 * as Xero's Idempotency-Key, which makes them safe for the HTTP layer to retry.
 */
import { platformAddress } from '../addresses.ts';
import type { ConnectorContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import type { HttpMethod, PlatformResponse } from '../http.ts';
import { authorizedRequest, bearer } from '../oauth-request.ts';
import { parseList } from './contract.ts';
import { classifyXeroError, type XeroErrorOptions } from './errors.ts';
import type { XeroLists } from './types.ts';

export const XERO_SETTINGS = [
  { variable: 'XERO_LOGIN_URL', description: 'Consent page host (default https://login.xero.com)' },
  { variable: 'XERO_IDENTITY_URL', description: 'Token endpoint host (default https://identity.xero.com)' },
  { variable: 'XERO_API_URL', description: 'API host for the Accounting API and /connections (default https://api.xero.com)' },
] as const;

/** Xero's addresses, read at call time (tests point them at a stand-in). */
export function xeroUrls(): { authorize: string; token: string; accounting: string; connections: string } {
  const api = platformAddress('XERO_API_URL', 'https://api.xero.com');
  return {
    authorize: `${platformAddress('XERO_LOGIN_URL', 'https://login.xero.com')}/identity/connect/authorize`,
    token: `${platformAddress('XERO_IDENTITY_URL', 'https://identity.xero.com')}/connect/token`,
    accounting: `${api}/api.xro/2.0`,
    connections: `${api}/connections`,
  };
}

/** Records per page of Xero's paged endpoints. */
export const XERO_PAGE_SIZE = 100;

export interface XeroCall {
  method: HttpMethod;
  /** Under api.xro/2.0, e.g. `/Invoices`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** If-Modified-Since (ISO 8601). */
  since?: string | null;
  /** Sent as Idempotency-Key; makes a write retryable. */
  idempotencyKey?: string;
  /** More headers (an attachment's mime type). */
  headers?: Record<string, string>;
  /** 'bytes' for file downloads. */
  responseType?: 'bytes';
  operation: string;
  errors?: XeroErrorOptions;
}

export async function xeroCall(ctx: ConnectorContext, call: XeroCall): Promise<PlatformResponse> {
  const url = `${xeroUrls().accounting}${call.path}`;
  return authorizedRequest(ctx, (tokens) => {
    if (tokens.tenantId === null) {
      // Not `unauthorized`: that would refresh the token, which cannot add an organisation.
      throw new PlatformError({
        kind: 'forbidden',
        message: 'This Xero connection has no organisation: the end user must link it again.',
        requestSent: false,
      });
    }
    const headers: Record<string, string> = { ...call.headers, 'xero-tenant-id': tokens.tenantId };
    if (call.since !== undefined && call.since !== null) headers['if-modified-since'] = call.since;
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    return {
      method: call.method,
      url,
      headers: bearer(tokens, headers),
      query: call.query,
      body: call.body,
      idempotent: call.method === 'GET' || call.idempotencyKey !== undefined,
      classifyError: classifyXeroError(call.errors),
      operation: `xero ${call.operation}`,
      ...(call.responseType === undefined ? {} : { responseType: call.responseType }),
    };
  });
}

/**
 * The array under `key` of a Xero answer (`{"Invoices": [...]}`), parsed against Xero's contract (./contract.ts);
 * a missing key is an empty list.
 */
export function listOf<K extends keyof XeroLists>(response: PlatformResponse, key: K): XeroLists[K][] {
  const body = response.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `Xero answered without a JSON body where ${key} was expected`,
      requestSent: true,
    });
  }
  const list: unknown = Reflect.get(body, key);
  return list === undefined || list === null ? [] : parseList(key, list, response.status);
}

/** The one record of a write's answer (`{"Invoices": [record]}`). */
export function onlyOf<K extends keyof XeroLists>(response: PlatformResponse, key: K): XeroLists[K] {
  const [first] = listOf(response, key);
  if (first === undefined)
    throw new PlatformError({ kind: 'server', httpStatus: response.status, message: `Xero's answer held no ${key}`, requestSent: true });
  return first;
}

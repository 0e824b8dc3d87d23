/**
 * The Ledgerport client: openapi-fetch over the types generated from /openapi.json (./generated/schema.d.ts), with
 * the credentials and API version set once and every unsuccessful answer thrown as a LedgerportError.
 */
import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { LedgerportError } from './errors.ts';
import type { paths } from './generated/schema.d.ts';

/** The published API versions, newest first (X-Service-Version). */
export const API_VERSIONS = ['2024-08-31', '2024-04-30', '2023-03-14', '2023-02-07'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export interface LedgerportOptions {
  /** Where the service answers, e.g. https://ledgerport.example.com (its PUBLIC_URL). */
  baseUrl: string;
  /** The environment's client credentials (sandbox or production; the client_id says which). */
  clientId: string;
  clientSecret: string;
  /** Sent as X-Service-Version on every request; default the newest. */
  version?: ApiVersion;
  /** A fetch of your own (tests, proxies); default globalThis.fetch. */
  fetch?: typeof fetch;
}

export type LedgerportApi = Client<paths>;

/** Throws the error body of every unsuccessful answer, so a call's `data` is there whenever it returns. */
const throwOnFailure: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await LedgerportError.fromResponse(response);
    return undefined;
  },
};

/** The headers every request carries: the client credentials (Basic) and the API version. */
export function requestHeaders(options: Pick<LedgerportOptions, 'clientId' | 'clientSecret' | 'version'>): {
  authorization: string;
  'x-service-version': ApiVersion;
} {
  const credentials = Buffer.from(`${options.clientId}:${options.clientSecret}`, 'utf8').toString('base64');
  return { authorization: `Basic ${credentials}`, 'x-service-version': options.version ?? API_VERSIONS[0] };
}

export function createLedgerportApi(options: LedgerportOptions): LedgerportApi {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: requestHeaders(options),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });
  api.use(throwOnFailure);
  return api;
}

/** The success body of a call made through the client (its failures were thrown already). */
export async function data<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data: body, response } = await call;
  if (body === undefined) throw new LedgerportError(response.status, null, response.headers.get('x-request-id'), 'the answer had no body');
  return body;
}

/** A fresh key for one write: send the same key again to retry that write safely (the first answer is replayed). */
export function idempotencyKey(): string {
  return randomUUID();
}

/**
 * Calls to Stripe, all through the official library (stripe-node, pinned to its API version) with its HTTP sent through
 * our shared PlatformHttp (ctx.http): the library builds the request (paths, form encoding, Stripe-Version, the key),
 * ctx.http sends it under the connection's limits, with our retries, Retry-After and logging. The library's own retries
 * are off (maxNetworkRetries 0) so ours alone decide.
 *
 * Which key: an API-key connection calls with its key (ctx.credentials.api_key). A Connect connection calls with the
 * access_token the OAuth token endpoint returned for the connected account (Stripe documents it as usable as that
 * account's secret key); the platform's own key with a Stripe-Account header would need the OAuth app's secret at sync
 * time, which the engine does not hand to connectors.
 */
import Stripe from 'stripe';
import { platformAddress } from '../addresses.ts';
import type { ConnectorContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import type { HttpMethod, PlatformHttp } from '../http.ts';
import { classifyStripeError, sortStripeError } from './errors.ts';

export const STRIPE_SETTINGS = [
  { variable: 'STRIPE_API_URL', description: 'API host (default https://api.stripe.com); tests point it at the stand-in.' },
  {
    variable: 'STRIPE_CONNECT_URL',
    description:
      'Connect OAuth host for the consent page and the token endpoint (default https://connect.stripe.com, or STRIPE_API_URL when that is set).',
  },
] as const;

const API_HOST = 'https://api.stripe.com';
const CONNECT_HOST = 'https://connect.stripe.com';

/** Stripe's addresses, read at call time (tests point them at a stand-in). */
export function stripeUrls(): { api: string; connect: string } {
  const api = platformAddress('STRIPE_API_URL', API_HOST);
  const connectFallback = api === API_HOST ? CONNECT_HOST : api;
  return { api, connect: platformAddress('STRIPE_CONNECT_URL', connectFallback) };
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const isMethod = (value: string): value is HttpMethod => METHODS.some((method) => method === value);

function methodOf(value: string | undefined): HttpMethod {
  const method = (value ?? 'GET').toUpperCase();
  if (!isMethod(method)) throw new Error(`Stripe: unexpected method ${method}`);
  return method;
}

/** Name for logs and limits: "stripe GET /v1/charges". */
function operationOf(method: string, url: URL): string {
  const path = url.pathname.replace(/\/(ch|po|cus|dp|txn|evt|acct|re|pi)_[A-Za-z0-9]+/g, '/{id}');
  return `stripe ${method} ${path}`;
}

/** A fetch for the library that sends through ctx.http; Connect's host is rerouted to STRIPE_CONNECT_URL. */
export function fetchThrough(http: PlatformHttp, signal?: AbortSignal): (url: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const requested = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const urls = stripeUrls();
    const base = new URL(requested.hostname === new URL(CONNECT_HOST).hostname ? urls.connect : urls.api);
    const target = new URL(`${requested.pathname}${requested.search}`, base);
    const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers));
    const method = methodOf(init.method);
    const body = typeof init.body === 'string' && init.body !== '' ? init.body : undefined;
    // The job's signal, and the library's own (its timeout).
    const signals = [signal, init.signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
    const response = await http.request({
      method,
      url: target.href,
      headers,
      ...(body === undefined ? {} : { rawBody: body }),
      // Reads only: a POST (the token exchange) is not retried after it may have reached Stripe.
      idempotent: method === 'GET' || headers['idempotency-key'] !== undefined,
      responseType: 'text',
      classifyError: classifyStripeError,
      operation: operationOf(method, target),
      ...(signals.length === 0 ? {} : { signal: AbortSignal.any(signals) }),
    });
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? null);
    return new Response(text, { status: response.status, headers: response.headers });
  };
}

/** A library client for one key, over ctx.http. */
export function stripeClient(http: PlatformHttp, key: string, signal?: AbortSignal): Stripe {
  const api = new URL(stripeUrls().api);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(fetchThrough(http, signal)),
    maxNetworkRetries: 0,
    telemetry: false,
    host: api.hostname,
    port: api.port === '' ? (protocol === 'http' ? 80 : 443) : Number(api.port),
    protocol,
    // ctx.http keeps its own per-attempt timeout; the library's covers all of ours, retries included.
    timeout: 5 * 60_000,
  });
}

/** The key this connection calls with: its API key, or its Connect access token. */
export async function connectionKey(ctx: ConnectorContext): Promise<string> {
  const key = ctx.credentials.api_key;
  if (key !== undefined && key !== '') return key;
  const tokens = ctx.oauth === null ? ctx.tokens : await ctx.oauth.tokens();
  if (tokens === null)
    throw new PlatformError({
      kind: 'unauthorized',
      message: 'This Stripe connection has neither an API key nor a Connect token',
      requestSent: false,
    });
  return tokens.accessToken;
}

/** Runs library calls for this connection; every failure comes out a PlatformError (./errors.ts). */
export async function withStripe<T>(ctx: ConnectorContext, call: (stripe: Stripe) => Promise<T>): Promise<T> {
  const stripe = stripeClient(ctx.http, await connectionKey(ctx), ctx.signal);
  try {
    return await call(stripe);
  } catch (error) {
    throw sortStripeError(error);
  }
}

/**
 * The one HTTP client every connector talks to its platform through. It owns
 * timeouts, retries with backoff, Retry-After, client-side rate limits and error
 * classification, so connectors only build requests and read answers. Every
 * failure surfaces as a PlatformError (src/platforms/errors.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { PlatformError, classifyFailure, classifyResponse, mayRetry } from './errors.ts';
import { createLimiterPool, type LimitSpec, type LimiterPool, type Sleep } from './limiter.ts';
import type { PlatformResponse, SharedLimiter, TakenCall } from './limit-types.ts';
import { buildXml, parseXml, XmlSyntaxError, type XmlReadOptions } from './xml.ts';

export type { Sleep } from './limiter.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PlatformHttp {
  request(input: PlatformRequest): Promise<PlatformResponse>;
}

export interface PlatformRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** Appended to the URL; null/undefined values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token endpoints). */
  form?: Record<string, string>;
  /** Sent as is; set content-type in headers. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  /** Sent as XML (xml.ts's shape: `@_` attributes, `#text` text); content-type text/xml unless headers say (SOAP 1.2). */
  xml?: Record<string, unknown>;
  /**
   * Signs each attempt afresh (OAuth 1.0a's nonce and timestamp, a request signature): called just before every send,
   * after any limiter wait, with the request as it goes out; the headers it returns are set on that attempt only.
   */
  sign?: (request: OutgoingRequest) => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Whether a failed attempt may be retried here. Reads: true. Writes: false
   * unless the platform dedupes them (idempotency key); a non-idempotent request
   * is retried only when it provably never left (connection refused, DNS).
   */
  idempotent: boolean;
  /** Cancels the request and any retry; combined with the client's signal. */
  signal?: AbortSignal;
  /** Epoch ms after which no new attempt starts: retries that would end later give up early. */
  deadline?: number;
  /** Per-attempt timeout; default from the client. */
  timeoutMs?: number;
  /** Non-2xx statuses returned as a response instead of thrown (404 on a fetch by id). */
  acceptStatuses?: readonly number[];
  /** Platform-specific classification (billing text in a 400, duplicate names in a 409). */
  classifyError?: (error: PlatformError, response: PlatformResponse) => PlatformError;
  /**
   * 'auto' parses JSON when the content type says so; 'bytes' gives a Uint8Array (attachments); 'xml' parses a 2xx
   * answer through xml.ts (`xmlRead` its options), a document that is not well formed failing as a server error.
   */
  responseType?: 'auto' | 'text' | 'bytes' | 'xml';
  xmlRead?: XmlReadOptions;
  /** Short name for logs and metrics ("list invoices"), and the key of a per-operation rate; default method and path. */
  operation?: string;
  /** Points this call is expected to cost, for platforms with a cost bucket; default the bucket's defaultCost. */
  cost?: number;
}

export type { PlatformResponse } from './limit-types.ts';

/** One attempt as it is sent, for `sign`: the final URL (query included), headers (lower-case names) and body. */
export interface OutgoingRequest {
  method: HttpMethod;
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array<ArrayBuffer> | undefined;
}

/** One attempt, for logs and metrics. The URL has no query string (it may carry keys). */
export interface AttemptEvent {
  operation: string;
  method: HttpMethod;
  url: string;
  limitKey: string | null;
  attempt: number;
  status: number | null;
  durationMs: number;
  limiterWaitMs: number;
  error: PlatformError | null;
  /** Delay before the next attempt; null when this attempt was the last. */
  retryInMs: number | null;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface PlatformHttpOptions {
  /** Requests with the same key (usually the connection id) share `limits`. */
  limitKey?: string;
  /** Limits this process keeps by itself (limiter.ts): concurrency, and the rate when there is no shared limiter. */
  limits?: LimitSpec;
  /** Limits every process shares (shared-limits.ts), taken after this process's own before each attempt. */
  sharedLimiter?: SharedLimiter | null;
  /** Where limiters live; default one per process. Pass your own with a fake clock in tests. */
  limiters?: LimiterPool;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited out here: the error goes up (the job reschedules). */
  maxRetryAfterMs?: number;
  /** Sent with every request (User-Agent, API version). */
  headers?: Record<string, string>;
  /** Cancels every request of this client (the job's signal). */
  signal?: AbortSignal;
  fetch?: FetchLike;
  sleep?: Sleep;
  now?: () => number;
  /** In [0, 1); the jitter source. */
  random?: () => number;
  /** Observer of every attempt; its errors are ignored. */
  onAttempt?: (event: AttemptEvent) => void;
}

export const HTTP_DEFAULTS = {
  timeoutMs: 30_000,
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const;

const USER_AGENT = 'Ledgerport (+https://github.com/ledgerport/ledgerport)';

export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? undefined : { signal });
};

/** Limiters of this process, shared by every client with the same key. */
export const processLimiters: LimiterPool = createLimiterPool({ now: Date.now, sleep: realSleep });

/** Full jitter: uniform in [0, min(cap, base·2^(attempt-1))). */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error goes up (the job reschedules). */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: HTTP_DEFAULTS.maxAttempts,
  baseDelayMs: HTTP_DEFAULTS.baseDelayMs,
  maxDelayMs: HTTP_DEFAULTS.maxDelayMs,
  maxRetryAfterMs: HTTP_DEFAULTS.maxRetryAfterMs,
  random: Math.random,
};

/**
 * The one retry rule of platform calls, whatever carries them (HTTP, or the
 * in-process SANDBOX): the delay before attempt `attempt + 1`, or null to give up.
 */
export function retryDelay(error: PlatformError, attempt: number, idempotent: boolean, policy: RetryPolicy): number | null {
  if (!mayRetry(error, idempotent) || attempt >= policy.maxAttempts) return null;
  if (error.retryAfterMs !== null && error.retryAfterMs > policy.maxRetryAfterMs) return null;
  return error.retryAfterMs ?? backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, policy.random);
}

type Outcome = { response: PlatformResponse } | { error: PlatformError; status: number | null };

export function createPlatformHttp(options: PlatformHttpOptions = {}): PlatformHttp {
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const policy: RetryPolicy = {
    maxAttempts: Math.max(1, options.maxAttempts ?? HTTP_DEFAULTS.maxAttempts),
    baseDelayMs: options.baseDelayMs ?? HTTP_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? HTTP_DEFAULTS.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? HTTP_DEFAULTS.maxRetryAfterMs,
    random,
  };
  const limitKey = options.limitKey ?? null;
  const limiter = limitKey === null || options.limits === undefined ? null : (options.limiters ?? processLimiters).get(limitKey, options.limits);

  function emit(event: AttemptEvent): void {
    try {
      options.onAttempt?.(event);
    } catch {
      // Observers must never break a request.
    }
  }

  /** Delay before the next attempt, or null to give up with `error`. */
  function nextDelay(error: PlatformError, attempt: number, req: PlatformRequest, signal: AbortSignal | undefined): number | null {
    if (signal?.aborted === true) return null;
    const wait = retryDelay(error, attempt, req.idempotent, policy);
    if (wait === null || (req.deadline !== undefined && now() + wait >= req.deadline)) return null;
    return wait;
  }

  async function attemptOnce(req: PlatformRequest, url: URL, init: AttemptInit, signal: AbortSignal | undefined): Promise<Outcome> {
    const timeoutMs = Math.max(
      1,
      Math.min(
        req.timeoutMs ?? options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
        req.deadline === undefined ? Number.POSITIVE_INFINITY : req.deadline - now(),
      ),
    );
    const timeout = AbortSignal.timeout(timeoutMs);
    let status: number | null = null;
    let response: PlatformResponse;
    let ok: boolean;
    try {
      const res = await fetchImpl(url.href, { ...init, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
      status = res.status;
      ok = (res.status >= 200 && res.status < 300) || req.acceptStatuses?.includes(res.status) === true;
      response = {
        status,
        headers: Object.fromEntries(res.headers),
        body: await readBody(res, ok ? (req.responseType ?? 'auto') : 'auto', req.xmlRead),
      };
    } catch (thrown) {
      if (thrown instanceof XmlSyntaxError) return { status, error: notWellFormed(thrown, status) };
      if (signal?.aborted === true) {
        // Cancelled mid-flight: the platform may have acted, so this is indeterminate, not a plain abort.
        return {
          status,
          error: new PlatformError({ kind: 'timeout', message: 'The request was cancelled after it was sent', cause: signal.reason }),
        };
      }
      return { status, error: classifyFailure(thrown) };
    }
    if (ok) return { response };
    const error = classifyResponse(response, now());
    // A connector's classifier may throw its own PlatformError or return one.
    try {
      return { status, error: req.classifyError?.(error, response) ?? error };
    } catch (thrown) {
      if (thrown instanceof PlatformError) return { status, error: thrown };
      throw thrown;
    }
  }

  async function request(req: PlatformRequest): Promise<PlatformResponse> {
    const signal = combineSignals(options.signal, req.signal);
    const url = buildUrl(req);
    const init = buildInit(req, options.headers);
    const base = { operation: req.operation ?? `${req.method} ${url.pathname}`, method: req.method, url: url.origin + url.pathname, limitKey };
    let lastError: PlatformError | null = null;
    for (let attempt = 1; ; attempt++) {
      if (lastError !== null && signal?.aborted === true) throw lastError;
      signal?.throwIfAborted();
      const waitStart = now();
      let release = (): void => undefined;
      let taken: TakenCall | null;
      try {
        if (limiter !== null) release = await limiter.acquire(signal);
        taken =
          (await options.sharedLimiter?.take({ operation: base.operation, ...(req.cost === undefined ? {} : { cost: req.cost }) }, signal)) ?? null;
      } catch (refused) {
        release();
        // Cancelled while waiting: the platform failure before it is the useful news. A spent budget is news itself.
        throw signal?.aborted === true ? (lastError ?? refused) : refused;
      }
      const start = now();
      const outcome = await signed(req, url, init)
        .then((attemptInit) => attemptOnce(req, url, attemptInit, signal))
        .finally(release);
      const event = { ...base, attempt, durationMs: now() - start, limiterWaitMs: start - waitStart };
      if ('response' in outcome) {
        // Best effort: an unsettled cost only leaves the bucket emptier than it is until it refills.
        await taken?.settle(outcome.response).catch(() => undefined);
        emit({ ...event, status: outcome.response.status, error: null, retryInMs: null });
        return { ...outcome.response, attempts: attempt };
      }
      lastError = outcome.error;
      const wait = nextDelay(outcome.error, attempt, req, signal);
      emit({ ...event, status: outcome.status, error: outcome.error, retryInMs: wait });
      if (wait === null) throw outcome.error;
      try {
        await sleep(wait, signal);
      } catch {
        // Cancelled while backing off: the platform failure is the useful news.
        throw outcome.error;
      }
    }
  }

  return { request };
}

/** The attempt's init, signed afresh by the request's `sign` (nonce, timestamp) when it has one. */
async function signed(req: PlatformRequest, url: URL, init: AttemptInit): Promise<AttemptInit> {
  if (req.sign === undefined) return init;
  const added = await req.sign({ method: req.method, url, headers: init.headers, body: init.body });
  const headers = { ...init.headers };
  for (const [name, value] of Object.entries(added)) headers[name.toLowerCase()] = value;
  return { ...init, headers };
}

/** A 2xx answer that is not the XML it should be (truncated, an HTML error page): the platform failed, as with bad JSON. */
function notWellFormed(error: XmlSyntaxError, status: number | null): PlatformError {
  return new PlatformError({
    kind: 'server',
    ...(status === null ? {} : { httpStatus: status }),
    message: error.message,
    requestSent: true,
    cause: error,
  });
}

function combineSignals(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s) => s !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}

function buildUrl(req: PlatformRequest): URL {
  const url = new URL(req.url);
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== null && value !== undefined) url.searchParams.append(name, String(value));
  }
  return url;
}

/** What one attempt sends (RequestInit narrowed to what this client sets, so `sign` can read it). */
interface AttemptInit {
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | undefined;
  redirect: 'follow';
}

function buildInit(req: PlatformRequest, defaults: Record<string, string> | undefined): AttemptInit {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
  for (const [name, value] of Object.entries({ ...defaults, ...req.headers })) headers[name.toLowerCase()] = value;
  const given = [req.body, req.form, req.rawBody, req.xml].filter((b) => b !== undefined).length;
  if (given > 1) throw new Error('PlatformRequest: give only one of body, form, rawBody and xml');
  let body: string | Uint8Array<ArrayBuffer> | undefined = req.rawBody;
  if (req.xml !== undefined) {
    body = buildXml(req.xml);
    headers['content-type'] ??= 'text/xml; charset=utf-8';
  } else if (req.form !== undefined) {
    body = new URLSearchParams(req.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] ??= 'application/json';
  }
  return { method: req.method, headers, body, redirect: 'follow' };
}

async function readBody(res: Response, type: 'auto' | 'text' | 'bytes' | 'xml', xml: XmlReadOptions | undefined): Promise<unknown> {
  if (type === 'bytes') return new Uint8Array(await res.arrayBuffer());
  const text = await res.text();
  if (type === 'text') return text;
  if (type === 'xml') return parseXml(text, xml);
  if (text.trim() === '') return null;
  // Some platforms send JSON labelled text/plain; a leading brace is evidence enough.
  const contentType = res.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(contentType) && !/^\s*[{[]/.test(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A connector's reading of a 2xx answer that is an error all the same (Shopify's GraphQL `errors` with THROTTLED in
 * a 200): the PlatformError it stands for, or null when the answer is an answer.
 */
export type AnswerClassifier = (response: PlatformResponse) => PlatformError | null;

export interface ClassifiedRequestOptions {
  /** Sends at most; default HTTP_DEFAULTS.maxAttempts. */
  attempts?: number;
  /** A wait the error names beyond this is cut to it (the platform's bucket refills meanwhile); default 30 s. */
  maxWaitMs?: number;
  sleep?: Sleep;
}

/**
 * `http.request`, with 2xx answers read by the connector's classifier: an answer it calls an error is sent again under
 * the one retry rule (mayRetry: retryable kinds, idempotent requests) after the wait the error names (else a second
 * more per attempt), up to `attempts` sends, and thrown after. Over any PlatformHttp (a test's fake included), since
 * the shared client's own loop sees only HTTP statuses.
 */
export async function requestClassified(
  http: PlatformHttp,
  req: PlatformRequest,
  classify: AnswerClassifier,
  options: ClassifiedRequestOptions = {},
): Promise<PlatformResponse> {
  const attempts = options.attempts ?? HTTP_DEFAULTS.maxAttempts;
  const sleep = options.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    const response = await http.request(req);
    const error = classify(response);
    if (error === null) return response;
    if (attempt >= attempts || !mayRetry(error, req.idempotent) || req.signal?.aborted === true) throw error;
    await sleep(Math.min(options.maxWaitMs ?? 30_000, error.retryAfterMs ?? 1000 * attempt), req.signal);
  }
}

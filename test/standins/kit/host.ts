/**
 * A stand-in's serving, whatever the platform and its contract family: every request routed to an operation of the
 * platform's published contract (a StandInContract: OpenAPI's is ./openapi.ts `openApiOperations`, a JSON Schema
 * platform's is its path table) and checked (an unknown operation or a violation is answered 400 and recorded in
 * `violations`, as is every answer that breaks the contract), bearer tokens checked on the kit's OAuth server, its
 * token endpoint and consent pages beside the API, a log of API requests, injected faults, idempotent replays, a
 * limit of concurrent requests and access tokens that expire after some answers. A platform brings data: its routes,
 * its answers to refusals and faults, and a handler per operation.
 */
import type { IncomingMessage } from 'node:http';
import type { BearerCheck, Grant, Issued, OAuthServer } from './oauth.ts';
import { Faults, header, matchesLine, readBody, send, serve, type Answer, type ContentTypes } from './server.ts';

export interface Violation {
  kind: 'request' | 'response';
  method: string;
  path: string;
  operation: string | null;
  problems: string[];
  /** The problems as one line. */
  reason: string;
}

/** An API request as logged, with the request headers the platform keeps (`K`: the log's names for them). */
export type LoggedRequest<K extends string> = {
  /** Epoch ms when the request arrived. */
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
} & Record<K, string | undefined>;

/** Which requests a fault takes: a method, a path prefix or pattern, a part of `METHOD /path?query` (none: any). */
export interface FaultMatch {
  method?: string;
  path?: string | RegExp;
  line?: string | RegExp;
}

export interface Fault {
  status: number;
  match: FaultMatch;
  retryAfter: number;
  /** The request is carried out first, then answered the fault (an answer lost on its way back). */
  applied?: boolean;
}

/** A request as a contract checks it. */
export interface RequestParts {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  contentType: string | null;
  /** The parsed JSON body; undefined when none was sent. */
  body: unknown;
}

/** A contract family's part in the host: finding a request's operation and checking requests and answers. */
export interface StandInContract<T extends { path: string }, O extends { id: string }> {
  /** The operation `method` on a routed request names (asked with `accept`), and its path parameters; null: none. */
  find(target: T, method: string, accept?: string): { operation: O; pathParams: Record<string, string> } | null;
  /** The names a handler of `operation` may be registered under, its id first. */
  names(operation: O): string[];
  requestProblems(operation: O, request: RequestParts): string[];
  answerProblems(operation: O, status: number, body: unknown): string[];
}

/** A request to a page beside the API. */
export interface PageRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: () => Promise<string>;
}

/** Records a breach of the platform's rules beyond the contract, answered `answer`. */
export type Refuse = (problem: string, answer: Answer) => Answer;

/** A checked request of a caller the OAuth server knows. */
export interface ApiCall<O, S> extends RequestParts {
  operation: O;
  grant: Grant<S>;
  refuse: Refuse;
}

export type OperationHandler<O, S> = (call: ApiCall<O, S>) => Answer;

export interface StandInOptions<T extends { path: string }, O extends { id: string }, S, K extends string> {
  /** The platform's name, in messages. */
  name: string;
  contract: StandInContract<T, O>;
  oauth: OAuthServer<S>;
  /** What a request path names for the contract; null: none (answered `answers.notFound`). */
  route(path: string): T | null;
  /** The operations served, by any of their names (StandInContract.names); the others are answered 501. */
  operations: Readonly<Record<string, OperationHandler<O, S>>>;
  /** Refuses a checked call before its handler (an organisation the grant does not reach); null: go on. */
  authorize?(call: ApiCall<O, S>): Answer | null;
  answers: {
    /** A request outside the contract (no operation), or breaking it. */
    violation(message: string, operation: O | null): Answer;
    /** A missing, unknown or expired bearer token. */
    unauthorized(check: Exclude<BearerCheck<S>, { ok: true }>, refuse: Refuse): Answer;
    fault(fault: Fault): Answer;
    notFound(method: string, path: string, refuse: Refuse): Answer;
  };
  /** The token endpoint (POST): problems of its request's headers and of a 200 answer are recorded. */
  token: { path: string; requestProblems?(headers: Record<string, string | undefined>): string[]; answerProblems?(body: unknown): string[] };
  /** Pages beside the API (consent), answered first and never faulted or logged; null: not one of them. */
  pages?(request: PageRequest, refuse: Refuse): Answer | null | Promise<Answer | null>;
  /** Request headers every logged request keeps, by the log's name for them. */
  logged: Readonly<Record<K, string>>;
  /** The log keeps the pages' requests too (file links a test follows). */
  logPages?: boolean;
  /** A write sent again with its key (scoped: an organisation's) gets the first answer again. */
  idempotency?: {
    key(call: ApiCall<O, S>): string | undefined;
    /** What the key stands for (default: method and path): a key sent for something else is answered afresh, or by `reused`. */
    request?(call: ApiCall<O, S>): string;
    reused?(call: ApiCall<O, S>, first: string, now: string): Answer;
    /** Which answers are replayed (default: all but 5xx). */
    kept?(answer: Answer): boolean;
  };
  /** At most `limit` requests at once in a scope (a company; null: unlimited), beyond that `refused` (recorded). */
  concurrency?: { limit: number; scope(target: T): string | null; refused(message: string): Answer };
  types?: ContentTypes;
}

export interface StandIn<K extends string> {
  url: string;
  readonly violations: Violation[];
  readonly requests: LoggedRequest<K>[];
  /** Token endpoint calls by grant type. */
  readonly tokenCalls: { authorization_code: number; refresh_token: number; total: number };
  /** Writes answered again from their idempotency key. */
  readonly replays: { count: number };
  /** API requests so far whose path matches (and method, when given). */
  requestCount(path: string | RegExp, method?: string): number;
  /** Forgets logged requests and token calls (violations stay). */
  resetCounters(): void;
  expireAccessTokens(): void;
  /** Every access, refresh and id token issued so far. */
  issuedTokens(): readonly string[];
  /** Expires every access token once `count` more API requests have been answered. */
  expireAccessTokensAfter(count: number): void;
  revokeRefreshTokens(): void;
  /** The next `count` requests matching `match` are answered `status` (429 with Retry-After, 500, 503, …). */
  failNext(status: number, count?: number, match?: FaultMatch, retryAfterSeconds?: number, applied?: boolean): void;
  close(): Promise<void>;
}

/** Issued tokens as a connector stores them: the expiry as an ISO 8601 instant. */
export function storedTokens<S>(issued: Issued<S>): { accessToken: string; refreshToken: string; expiresAt: string } {
  return { accessToken: issued.accessToken, refreshToken: issued.refreshToken ?? '', expiresAt: new Date(issued.expiresAt ?? 0).toISOString() };
}

/** The query string with its values decoded, for logs and matching. */
export const decodedQuery = (query: Iterable<[string, string]>): string => [...query].map(([name, value]) => `${name}=${value}`).join('&');

const matchesFault = ({ match }: Fault, method: string, url: URL): boolean =>
  (match.method === undefined || match.method === method) &&
  (match.path === undefined || (typeof match.path === 'string' ? url.pathname.startsWith(match.path) : match.path.test(url.pathname))) &&
  (match.line === undefined || matchesLine(match.line, `${method} ${url.pathname}?${decodedQuery(url.searchParams)}`));

function parseBody(text: string, problems: string[]): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    problems.push('the body is not JSON');
    return text;
  }
}

export async function startStandIn<T extends { path: string }, O extends { id: string }, S, K extends string>(
  options: StandInOptions<T, O, S, K>,
): Promise<StandIn<K>> {
  const { contract, oauth, answers } = options;
  const violations: Violation[] = [];
  const requests: LoggedRequest<K>[] = [];
  const faults = new Faults<Fault>();
  const replays = new Map<string, { request: string; answer: Answer }>();
  const replayCount = { count: 0 };
  const inFlight = new Map<string, number>();
  let expireAfter: number | null = null;

  function record(kind: Violation['kind'], method: string, path: string, operation: string | null, problems: string[]): void {
    violations.push({ kind, method, path, operation, problems, reason: problems.join('; ') });
  }

  function refused(method: string, path: string, operation: O | null, problems: string[]): Answer {
    record('request', method, path, operation?.id ?? null, problems);
    return answers.violation(problems.join('; '), operation);
  }

  const refuser =
    (method: string, path: string, operation: string | null): Refuse =>
    (problem, answer) => {
      record('request', method, path, operation, [problem]);
      return answer;
    };

  async function api(request: IncomingMessage, url: URL, target: T): Promise<Answer> {
    const method = request.method ?? 'GET';
    const found = contract.find(target, method, header(request, 'accept'));
    const problems: string[] = [];
    const body = parseBody(await readBody(request), problems);
    if (found === null) return refused(method, url.pathname, null, [`${method} ${target.path} is not in ${options.name}'s contract`]);
    const { operation, pathParams } = found;
    const check = oauth.bearer(header(request, 'authorization'));
    if (!check.ok) return answers.unauthorized(check, refuser(method, url.pathname, operation.id));
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
    const contentType = header(request, 'content-type') ?? null;
    const parts: RequestParts = { pathParams, query: url.searchParams, headers, contentType, body };
    problems.push(...contract.requestProblems(operation, parts));
    if (problems.length > 0) return refused(method, url.pathname, operation, problems);
    const call: ApiCall<O, S> = {
      ...parts,
      operation,
      grant: check.grant,
      refuse: refuser(method, url.pathname, operation.id),
    };
    const refusal = options.authorize?.(call) ?? null;
    if (refusal !== null) return refusal;
    const handler = contract
      .names(operation)
      .map((name) => options.operations[name])
      .find((h) => h !== undefined);
    if (handler === undefined) return { status: 501, body: `The stand-in does not implement ${operation.id}` };
    return replayed(call, `${method} ${url.pathname}`, () => handler(call));
  }

  function replayed(call: ApiCall<O, S>, route: string, answer: () => Answer): Answer {
    const idempotency = options.idempotency;
    const key = idempotency?.key(call);
    if (idempotency === undefined || key === undefined) return answer();
    const request = idempotency.request?.(call) ?? route;
    const replay = replays.get(key);
    if (replay !== undefined && replay.request !== request && idempotency.reused !== undefined)
      return idempotency.reused(call, replay.request, request);
    if (replay?.request === request) {
      replayCount.count += 1;
      return replay.answer;
    }
    const fresh = answer();
    if (idempotency.kept?.(fresh) ?? fresh.status < 500) replays.set(key, { request, answer: fresh });
    return fresh;
  }

  async function token(request: IncomingMessage, fault: Fault | undefined): Promise<Answer> {
    const form = new URLSearchParams(await readBody(request));
    if (fault !== undefined) return answers.fault(fault);
    const headers = { accept: header(request, 'accept'), 'content-type': header(request, 'content-type') };
    const asked = options.token.requestProblems?.(headers) ?? [];
    if (asked.length > 0) record('request', 'POST', options.token.path, 'token', asked);
    const answer = oauth.token(form, header(request, 'authorization'));
    const problems = answer.status === 200 ? (options.token.answerProblems?.(answer.body) ?? []) : [];
    if (problems.length > 0) record('response', 'POST', options.token.path, 'token', problems);
    return { ...answer, headers: { 'cache-control': 'no-store' } };
  }

  /** The API's answer within the concurrency limit of the target's scope. */
  async function limited(request: IncomingMessage, url: URL, target: T): Promise<Answer> {
    const scope = options.concurrency?.scope(target) ?? null;
    if (options.concurrency === undefined || scope === null) return api(request, url, target);
    const busy = (inFlight.get(scope) ?? 0) + 1;
    inFlight.set(scope, busy);
    try {
      if (busy <= options.concurrency.limit) return await api(request, url, target);
      const message = `more than ${options.concurrency.limit} concurrent requests to ${scope}`;
      record('request', request.method ?? 'GET', url.pathname, null, [message]);
      return options.concurrency.refused(message);
    } finally {
      inFlight.set(scope, (inFlight.get(scope) ?? 1) - 1);
    }
  }

  /** A fault's answer; an applied fault's request is carried out first. */
  async function faulted(request: IncomingMessage, url: URL, target: T, fault: Fault): Promise<Answer> {
    if (fault.applied === true) await limited(request, url, target);
    else await readBody(request);
    return answers.fault(fault);
  }

  function logRequest(request: IncomingMessage, url: URL): LoggedRequest<K> {
    const log = {
      at: Date.now(),
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
    } as LoggedRequest<K>;
    for (const [field, name] of Object.entries<string>(options.logged)) Reflect.set(log, field, header(request, name));
    requests.push(log);
    return log;
  }

  async function answer(request: IncomingMessage, url: URL): Promise<Answer> {
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const authorization = header(request, 'authorization');
    const page = await options.pages?.({ method, url, authorization, body: () => readBody(request) }, refuser(method, path, null));
    if (page !== undefined && page !== null && options.logPages === true) logRequest(request, url).status = page.status;
    if (page !== undefined && page !== null) return page;
    const fault = faults.take((f) => matchesFault(f, method, url));
    if (path === options.token.path && method === 'POST') return token(request, fault);
    const target = options.route(path);
    if (target === null) return answers.notFound(method, path, refuser(method, path, null));
    const log = logRequest(request, url);
    const answer = fault === undefined ? await limited(request, url, target) : await faulted(request, url, target, fault);
    const operation = contract.find(target, method, header(request, 'accept'))?.operation;
    const problems = operation === undefined ? [] : contract.answerProblems(operation, answer.status, answer.body);
    if (problems.length > 0) record('response', method, path, operation?.id ?? null, problems);
    log.status = answer.status;
    if (expireAfter !== null && --expireAfter <= 0) {
      expireAfter = null;
      oauth.expireAccessTokens();
    }
    return answer;
  }

  const server = await serve(
    async (request, response) => {
      send(response, await answer(request, new URL(request.url ?? '/', 'http://standin.invalid')), options.types);
    },
    (error, request, response) => {
      record('response', request.method ?? '', request.url ?? '', null, [
        `stand-in failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ]);
      if (!response.headersSent) send(response, { status: 500, body: 'stand-in failure' });
      else response.end();
    },
  );

  return {
    url: server.url,
    violations,
    requests,
    tokenCalls: oauth.calls,
    replays: replayCount,
    requestCount: (path, method) =>
      requests.filter((r) => (method === undefined || r.method === method) && (typeof path === 'string' ? r.path === path : path.test(r.path)))
        .length,
    resetCounters() {
      requests.length = 0;
      oauth.resetCalls();
    },
    expireAccessTokens: () => {
      oauth.expireAccessTokens();
    },
    issuedTokens: () => [...oauth.issued],
    expireAccessTokensAfter(count) {
      expireAfter = count;
    },
    revokeRefreshTokens: () => {
      oauth.revokeRefreshTokens();
    },
    failNext(status, count = 1, match = {}, retryAfterSeconds = 1, applied = false) {
      faults.add({ status, match, retryAfter: retryAfterSeconds, applied }, count);
    },
    close: server.close,
  };
}

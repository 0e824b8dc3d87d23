/**
 * An OpenAPI stand-in's serving, whatever the platform: every request routed to an operation of the platform's
 * published description (./openapi.ts) and checked (an unknown operation or a violation is answered 400 and recorded
 * in `violations`, as is every answer that breaks the contract), bearer tokens checked on the kit's OAuth server, its
 * token endpoint and consent pages beside the API, a log of API requests, injected faults, Idempotency-Key replays and
 * access tokens that expire after some answers. A platform brings data: its routes, its answers to refusals and
 * faults, and a handler per operationId.
 */
import type { IncomingMessage } from 'node:http';
import type { BearerCheck, Grant, Issued, OAuthServer } from './oauth.ts';
import type { OpenApiContract, Operation } from './openapi.ts';
import { Faults, header, readBody, send, serve, type Answer, type ContentTypes } from './server.ts';

export interface Violation {
  kind: 'request' | 'response';
  method: string;
  path: string;
  operation: string | null;
  problems: string[];
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

/** Which requests a fault takes: a method, a path prefix or pattern (none: any). */
export interface FaultMatch {
  method?: string;
  path?: string | RegExp;
}

export interface Fault {
  status: number;
  match: FaultMatch;
  retryAfter: number;
}

/** A checked request of a caller the OAuth server knows. */
export interface ApiCall<A extends string, S> {
  operation: Operation<A>;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: unknown;
  grant: Grant<S>;
}

export type OperationHandler<A extends string, S> = (call: ApiCall<A, S>) => Answer;

export interface OpenApiStandInOptions<A extends string, S, K extends string> {
  /** The platform's name, in messages. */
  name: string;
  contract: OpenApiContract<A>;
  oauth: OAuthServer<S>;
  /** The API and contract path a request path names; null: none (answered `answers.notFound`). */
  route(path: string): { api: A; path: string } | null;
  /** The operations served, by operationId or by method and path template (`GET /Invoices/{InvoiceID}`); the others are answered 501. */
  operations: Readonly<Record<string, OperationHandler<A, S>>>;
  /** Refuses a checked call before its handler (an organisation the grant does not reach); null: go on. */
  authorize?(call: ApiCall<A, S>): Answer | null;
  answers: {
    /** A request outside the contract, or breaking it. */
    violation(message: string): Answer;
    /** A missing, unknown or expired bearer token. */
    unauthorized(check: Exclude<BearerCheck<S>, { ok: true }>): Answer;
    fault(fault: Fault): Answer;
    notFound(): Answer;
  };
  /** The token endpoint (POST); a 200 answer is checked against the component schema named. */
  token: { path: string; schema?: { api: A; component: string } };
  /** Pages beside the API (consent), answered first and never faulted or logged; null: not one of them. */
  pages?(method: string, url: URL, body: () => Promise<string>): Answer | null | Promise<Answer | null>;
  /** Request headers every logged request keeps, by the log's name for them. */
  logged: Readonly<Record<K, string>>;
  /** A write repeating an Idempotency-Key (`header`) within its scope (an organisation) gets the first answer again. */
  idempotency?: { header: string; scope(call: ApiCall<A, S>): string };
  types?: ContentTypes;
}

export interface OpenApiStandIn<K extends string> {
  url: string;
  readonly violations: Violation[];
  readonly requests: LoggedRequest<K>[];
  /** Token endpoint calls by grant type. */
  readonly tokenCalls: { authorization_code: number; refresh_token: number; total: number };
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
  failNext(status: number, count?: number, match?: FaultMatch, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

/** Issued tokens as a connector stores them: the expiry as an ISO 8601 instant. */
export function storedTokens<S>(issued: Issued<S>): { accessToken: string; refreshToken: string; expiresAt: string } {
  return { accessToken: issued.accessToken, refreshToken: issued.refreshToken ?? '', expiresAt: new Date(issued.expiresAt ?? 0).toISOString() };
}

const matchesFault = ({ match }: Fault, method: string, path: string): boolean =>
  (match.method === undefined || match.method === method) &&
  (match.path === undefined || (typeof match.path === 'string' ? path.startsWith(match.path) : match.path.test(path)));

function parseBody(text: string, problems: string[]): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    problems.push('the body is not JSON');
    return text;
  }
}

export async function startOpenApiStandIn<A extends string, S, K extends string>(
  options: OpenApiStandInOptions<A, S, K>,
): Promise<OpenApiStandIn<K>> {
  const { contract, oauth, answers } = options;
  const violations: Violation[] = [];
  const requests: LoggedRequest<K>[] = [];
  const faults = new Faults<Fault>();
  const replays = new Map<string, { route: string; answer: Answer }>();
  let expireAfter: number | null = null;

  function refused(kind: Violation['kind'], method: string, path: string, operation: string | null, problems: string[]): Answer {
    violations.push({ kind, method, path, operation, problems });
    return answers.violation(problems.join('; '));
  }

  async function api(request: IncomingMessage, url: URL, target: { api: A; path: string }): Promise<Answer> {
    const method = request.method ?? 'GET';
    const found = contract.find(target.api, method, target.path);
    const problems: string[] = [];
    const body = parseBody(await readBody(request), problems);
    if (found === null) return refused('request', method, url.pathname, null, [`${method} ${target.path} is not in ${options.name}'s contract`]);
    const { operation, pathParams } = found;
    const check = oauth.bearer(header(request, 'authorization'));
    if (!check.ok) return answers.unauthorized(check);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
    const contentType = header(request, 'content-type') ?? null;
    problems.push(...contract.validateRequest(operation, { pathParams, query: url.searchParams, headers, contentType, body }));
    if (problems.length > 0) return refused('request', method, url.pathname, operation.id, problems);
    const call: ApiCall<A, S> = { operation, pathParams, query: url.searchParams, headers, body, grant: check.grant };
    const refusal = options.authorize?.(call) ?? null;
    if (refusal !== null) return refusal;
    const handler = options.operations[operation.id] ?? options.operations[`${operation.method} ${operation.template}`];
    if (handler === undefined) return { status: 501, body: `The stand-in does not implement ${operation.id}` };
    return replayed(call, `${method} ${url.pathname}`, () => handler(call));
  }

  function replayed(call: ApiCall<A, S>, route: string, answer: () => Answer): Answer {
    const key = options.idempotency === undefined ? undefined : call.headers[options.idempotency.header];
    if (options.idempotency === undefined || key === undefined) return answer();
    const scoped = `${options.idempotency.scope(call)}:${key}`;
    const replay = replays.get(scoped);
    if (replay?.route === route) return replay.answer;
    const fresh = answer();
    if (fresh.status < 500) replays.set(scoped, { route, answer: fresh });
    return fresh;
  }

  async function token(request: IncomingMessage, fault: Fault | undefined): Promise<Answer> {
    const form = new URLSearchParams(await readBody(request));
    if (fault !== undefined) return answers.fault(fault);
    const answer = oauth.token(form, header(request, 'authorization'));
    const schema = options.token.schema;
    const problems = answer.status === 200 && schema !== undefined ? contract.validateComponent(schema.api, schema.component, answer.body) : [];
    if (problems.length > 0) violations.push({ kind: 'response', method: 'POST', path: options.token.path, operation: 'token', problems });
    return { ...answer, headers: { 'cache-control': 'no-store' } };
  }

  async function answer(request: IncomingMessage, url: URL): Promise<Answer> {
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const page = await options.pages?.(method, url, () => readBody(request));
    if (page !== undefined && page !== null) return page;
    const fault = faults.take((f) => matchesFault(f, method, path));
    if (path === options.token.path && method === 'POST') return token(request, fault);
    const target = options.route(path);
    if (target === null) return answers.notFound();
    const log = { at: Date.now(), method, path, query: Object.fromEntries(url.searchParams), status: 0 } as LoggedRequest<K>;
    for (const [field, name] of Object.entries<string>(options.logged)) Reflect.set(log, field, header(request, name));
    requests.push(log);
    if (fault !== undefined) await readBody(request);
    const answer = fault === undefined ? await api(request, url, target) : answers.fault(fault);
    const operation = contract.find(target.api, method, target.path)?.operation;
    const problems = operation === undefined ? [] : contract.validateResponse(operation, answer.status, answer.body);
    if (problems.length > 0) violations.push({ kind: 'response', method, path, operation: operation?.id ?? null, problems });
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
      const problem = `stand-in failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      violations.push({ kind: 'response', method: request.method ?? '', path: request.url ?? '', operation: null, problems: [problem] });
      if (!response.headersSent) send(response, { status: 500, body: 'stand-in failure' });
      else response.end();
    },
  );

  return {
    url: server.url,
    violations,
    requests,
    tokenCalls: oauth.calls,
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
    failNext(status, count = 1, match = {}, retryAfterSeconds = 1) {
      faults.add({ status, match, retryAfter: retryAfterSeconds }, count);
    },
    close: server.close,
  };
}

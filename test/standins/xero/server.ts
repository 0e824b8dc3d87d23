/**
 * The Xero stand-in: an HTTP server on 127.0.0.1 (random port) serving
 * Xero's Accounting API under /api.xro/2.0, GET /connections, the consent
 * page (/identity/connect/authorize) and the token endpoint (/connect/token),
 * for two organisations seeded from Xero's contract. Every API request is
 * checked against the contract (a violation is answered 400 and recorded in
 * `violations`), and so is every answer. Tests steer it with fault controls
 * (expired tokens, revoked grants, 429s and 5xx) and read its counters.
 *
 * Point the connector at it with XERO_API_URL, XERO_IDENTITY_URL and
 * XERO_LOGIN_URL = `url` (useStandIn() does it).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound, XeroBooks, type Answer } from './books.ts';
import { xeroContract, type Operation } from './contract.ts';
import { Faults, header, readBody, send, serve } from '../kit/server.ts';
import { XeroIdentity, type OAuthClient, type Tenant } from './oauth.ts';
import { seedBooks, withFreshIds, type Collection } from './seed.ts';
import { setEnv } from '../../support/env.ts';

export interface Violation {
  kind: 'request' | 'response';
  method: string;
  path: string;
  operation: string | null;
  problems: string[];
}

export interface LoggedRequest {
  /** Epoch ms when the request arrived. */
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  tenant: string | undefined;
  ifModifiedSince: string | undefined;
  idempotencyKey: string | undefined;
  status: number;
}

export interface FaultMatch {
  method?: string;
  path?: string | RegExp;
}

export interface XeroStandIn {
  url: string;
  /** The two organisations: Demo Company (NZ), seeded from the contract's examples, and Demo Company (UK), the same books under new ids. */
  tenants: readonly Tenant[];
  books(tenantId?: string): XeroBooks;
  registerClient(client: OAuthClient): void;
  /** Tokens for a registered client without the consent page, reaching `tenantIds` (default: the first organisation). */
  issueTokens(clientId: string, tenantIds?: readonly string[]): { accessToken: string; refreshToken: string; expiresAt: string; tenantId: string };
  readonly violations: Violation[];
  readonly requests: LoggedRequest[];
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
  /** The next `count` API requests matching `match` are answered `status` (429 with Retry-After, 500, 503, …). */
  failNext(status: number, count?: number, match?: FaultMatch, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

interface Fault {
  status: number;
  match: FaultMatch;
  retryAfter: number;
}

type Handler = (input: {
  books: XeroBooks;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  since: string | undefined;
}) => Answer;

const list =
  (collection: Collection): Handler =>
  ({ books, query, since }) =>
    books.list(collection, query, since);
const one =
  (collection: Collection, param: string): Handler =>
  ({ books, params }) =>
    books.one(collection, params[param] ?? '');

/** Xero's three writes of a collection: PUT creates, POST creates or updates, POST to a record updates it. */
function writes(collection: 'Invoices' | 'Contacts' | 'ManualJournals', param: string): [Handler, Handler, Handler] {
  return [
    ({ books, body }) => books.save(collection, body, null, true),
    ({ books, body }) => books.save(collection, body, null, false),
    ({ books, body, params }) => books.save(collection, body, params[param] ?? '', false),
  ];
}
const [createContacts, updateOrCreateContacts, updateContact] = writes('Contacts', 'ContactID');
const [createInvoices, updateOrCreateInvoices, updateInvoice] = writes('Invoices', 'InvoiceID');
const [createManualJournals, updateOrCreateManualJournals, updateManualJournal] = writes('ManualJournals', 'ManualJournalID');

/** The operations the stand-in implements, by the contract's operationId. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  getAccounts: list('Accounts'),
  getAccount: one('Accounts', 'AccountID'),
  getContacts: list('Contacts'),
  getContact: one('Contacts', 'ContactID'),
  createContacts,
  updateOrCreateContacts,
  updateContact,
  getInvoices: list('Invoices'),
  getInvoice: one('Invoices', 'InvoiceID'),
  createInvoices,
  updateOrCreateInvoices,
  updateInvoice,
  getInvoiceAttachments: ({ books, params }) => books.attachmentsOf('Invoices', params.InvoiceID ?? ''),
  getInvoiceAttachmentById: ({ books, params }) => books.attachmentFile('Invoices', params.InvoiceID ?? '', params.AttachmentID ?? ''),
  getCreditNotes: list('CreditNotes'),
  getCreditNote: one('CreditNotes', 'CreditNoteID'),
  getPayments: list('Payments'),
  getPayment: one('Payments', 'PaymentID'),
  getBankTransfers: list('BankTransfers'),
  getManualJournals: list('ManualJournals'),
  getManualJournal: one('ManualJournals', 'ManualJournalID'),
  createManualJournals,
  updateOrCreateManualJournals,
  updateManualJournal,
  getManualJournalAttachments: ({ books, params }) => books.attachmentsOf('ManualJournals', params.ManualJournalID ?? ''),
  getManualJournalAttachmentById: ({ books, params }) =>
    books.attachmentFile('ManualJournals', params.ManualJournalID ?? '', params.AttachmentID ?? ''),
  getTaxRates: list('TaxRates'),
  getTrackingCategories: list('TrackingCategories'),
  getCurrencies: list('Currencies'),
  getEmployees: list('Employees'),
  getEmployee: one('Employees', 'EmployeeID'),
  getOrganisations: ({ books }) => books.organisationAnswer(),
  getReportBalanceSheet: ({ books, query }) => books.balanceSheet(query),
  getReportProfitAndLoss: ({ books, query }) => books.profitAndLoss(query),
};

const ACCOUNTING = '/api.xro/2.0';

const xeroProblem = (status: number, title: string, detail: string): Answer => ({
  status,
  body: { Type: null, Title: title, Status: status, Detail: detail },
});

export async function startXeroStandIn(): Promise<XeroStandIn> {
  const contract = xeroContract();
  const tenants: Tenant[] = [
    { id: 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', name: 'Demo Company (NZ)' },
    { id: randomUUID(), name: 'Demo Company (UK)' },
  ];
  const [first, second] = tenants as [Tenant, Tenant];
  const organisations = new Map<string, XeroBooks>([
    [first.id, new XeroBooks(seedBooks({ tenantId: first.id, name: first.name }))],
    [second.id, new XeroBooks(withFreshIds(seedBooks({ tenantId: second.id, name: second.name }), { [second.id]: second.id }, 7))],
  ]);
  const identity = new XeroIdentity(tenants);
  const violations: Violation[] = [];
  const requests: LoggedRequest[] = [];
  const faults = new Faults<Fault>();
  const idempotent = new Map<string, { route: string; answer: Answer }>();
  let expireAfter: number | null = null;

  const faultFor = (method: string, path: string): Fault | undefined =>
    faults.take(
      ({ match }) =>
        (match.method === undefined || match.method === method) &&
        (match.path === undefined || (typeof match.path === 'string' ? path.startsWith(match.path) : match.path.test(path))),
    );

  function faultAnswer(fault: Fault): Answer {
    if (fault.status === 429)
      return { status: 429, body: '', headers: { 'retry-after': String(fault.retryAfter), 'x-rate-limit-problem': 'minute' } };
    return fault.status === 503
      ? { status: 503, body: 'Service Unavailable' }
      : xeroProblem(
          fault.status,
          'Internal Server Error',
          'An error occurred in Xero. Check the API Status page http://status.developer.xero.com for current service status.',
        );
  }

  async function api(req: IncomingMessage, url: URL, api: 'accounting' | 'identity', path: string): Promise<Answer> {
    const method = req.method ?? 'GET';
    const found = contract.find(api, method, path);
    const text = await readBody(req);
    const contentType = header(req, 'content-type') ?? null;
    let body: unknown;
    const problems: string[] = [];
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
        problems.push('the body is not JSON');
      }
    }
    if (found === null) {
      violations.push({ kind: 'request', method, path: url.pathname, operation: null, problems: [`${method} ${path} is not in Xero's contract`] });
      return { status: 400, body: { ErrorNumber: 0, Type: 'ContractViolation', Message: `${method} ${path} is not in Xero's contract` } };
    }
    const { operation, pathParams } = found;
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    const auth = identity.authenticate(header(req, 'authorization'));
    if ('problem' in auth)
      return { ...xeroProblem(401, 'Unauthorized', auth.problem), headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
    problems.push(...contract.validateRequest(operation, { pathParams, query: url.searchParams, headers, contentType, body }));
    if (problems.length > 0) {
      violations.push({ kind: 'request', method, path: url.pathname, operation: operation.id, problems });
      return { status: 400, body: { ErrorNumber: 0, Type: 'ContractViolation', Message: problems.join('; ') } };
    }
    if (api === 'identity') return { status: 200, body: identity.connections(auth.grant) };
    const tenant = header(req, 'xero-tenant-id') ?? '';
    const books = organisations.get(tenant);
    if (books === undefined || !auth.grant.subject.tenants.includes(tenant)) return xeroProblem(403, 'Forbidden', 'AuthenticationUnsuccessful');
    const handler = HANDLERS[operation.id];
    if (handler === undefined) return { status: 501, body: `The stand-in does not implement ${operation.id}` };
    const key = header(req, 'idempotency-key');
    const route = `${method} ${url.pathname}`;
    const replay = key === undefined ? undefined : idempotent.get(`${tenant}:${key}`);
    if (replay?.route === route) return replay.answer;
    const answer = handler({ books, params: pathParams, query: url.searchParams, body, since: header(req, 'if-modified-since') });
    if (key !== undefined && answer.status < 500) idempotent.set(`${tenant}:${key}`, { route, answer });
    return answer;
  }

  function checkAnswer(operation: Operation | null, method: string, path: string, answer: Answer): void {
    if (operation === null) return;
    const problems = contract.validateResponse(operation, answer.status, answer.body);
    if (problems.length > 0) violations.push({ kind: 'response', method, path, operation: operation.id, problems });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://standin.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (path === '/identity/connect/authorize') {
      const result = method === 'POST' ? identity.decide(new URLSearchParams(await readBody(req))) : identity.consentPage(url.searchParams);
      res.writeHead(
        result.status,
        'location' in result && result.location !== undefined ? { location: result.location } : { 'content-type': 'text/html; charset=utf-8' },
      );
      res.end('html' in result ? result.html : '');
      return;
    }
    const fault = faultFor(method, path);
    if (path === '/connect/token' && method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      if (fault !== undefined) {
        send(res, faultAnswer(fault));
        return;
      }
      const answer = identity.oauth.token(form, header(req, 'authorization'));
      const problems = answer.status === 200 ? contract.validateComponent('identity', 'AccessToken', answer.body) : [];
      if (problems.length > 0) violations.push({ kind: 'response', method, path, operation: 'token', problems });
      send(res, { ...answer, headers: { 'cache-control': 'no-store' } });
      return;
    }
    const target = path.startsWith(`${ACCOUNTING}/`)
      ? { api: 'accounting' as const, path: path.slice(ACCOUNTING.length) }
      : /^\/connections\/?$/i.test(path)
        ? { api: 'identity' as const, path: '/Connections' }
        : null;
    if (target === null) {
      send(res, notFound());
      return;
    }
    const log: LoggedRequest = {
      at: Date.now(),
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      tenant: header(req, 'xero-tenant-id'),
      ifModifiedSince: header(req, 'if-modified-since'),
      idempotencyKey: header(req, 'idempotency-key'),
      status: 0,
    };
    requests.push(log);
    const answer = fault !== undefined ? faultAnswer(fault) : await api(req, url, target.api, target.path);
    if (fault !== undefined) await readBody(req);
    checkAnswer(contract.find(target.api, method, target.path)?.operation ?? null, method, path, answer);
    log.status = answer.status;
    if (expireAfter !== null && --expireAfter <= 0) {
      expireAfter = null;
      identity.oauth.expireAccessTokens();
    }
    send(res, answer);
  }

  const server = await serve(handle, (error, req, res) => {
    violations.push({
      kind: 'response',
      method: req.method ?? '',
      path: req.url ?? '',
      operation: null,
      problems: [`stand-in failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`],
    });
    if (!res.headersSent) send(res, { status: 500, body: 'stand-in failure' });
    else res.end();
  });

  return {
    url: server.url,
    tenants,
    books(tenantId = first.id) {
      const books = organisations.get(tenantId);
      if (books === undefined) throw new Error(`no organisation ${tenantId}`);
      return books;
    },
    registerClient: (client) => {
      identity.registerClient(client);
    },
    issueTokens(clientId, tenantIds = [first.id]) {
      return { ...identity.issueTokens(clientId, tenantIds), tenantId: tenantIds[0] ?? first.id };
    },
    violations,
    requests,
    tokenCalls: identity.oauth.calls,
    requestCount: (path, method) =>
      requests.filter((r) => (method === undefined || r.method === method) && (typeof path === 'string' ? r.path === path : path.test(r.path)))
        .length,
    resetCounters() {
      requests.length = 0;
      identity.oauth.resetCalls();
    },
    expireAccessTokens: () => {
      identity.oauth.expireAccessTokens();
    },
    issuedTokens: () => [...identity.oauth.issued],
    expireAccessTokensAfter(count) {
      expireAfter = count;
    },
    revokeRefreshTokens: () => {
      identity.oauth.revokeRefreshTokens();
    },
    failNext(status, count = 1, match = {}, retryAfterSeconds = 1) {
      faults.add({ status, match, retryAfter: retryAfterSeconds }, count);
    },
    close: server.close,
  };
}

/** Points the Xero connector's addresses at the stand-in; returns a function that restores them. */
export function useStandIn(standin: Pick<XeroStandIn, 'url'>): () => void {
  return setEnv({ XERO_API_URL: standin.url, XERO_IDENTITY_URL: standin.url, XERO_LOGIN_URL: standin.url });
}

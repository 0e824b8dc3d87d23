/**
 * The Xero stand-in: an HTTP server on 127.0.0.1 (random port) serving
 * Xero's Accounting API under /api.xro/2.0, GET /connections, the consent
 * page (/identity/connect/authorize) and the token endpoint (/connect/token),
 * for two organisations seeded from Xero's contract, on the kit's OpenAPI
 * stand-in host (../kit/host.ts). Every API request is checked against
 * the contract (a violation is answered 400 and recorded in `violations`),
 * and so is every answer. Tests steer it with fault controls (expired tokens,
 * revoked grants, 429s and 5xx) and read its counters.
 *
 * Point the connector at it with XERO_API_URL, XERO_IDENTITY_URL and
 * XERO_LOGIN_URL = `url` (useStandIn() does it).
 */
import { randomUUID } from 'node:crypto';
import { notFound, XeroBooks, type Answer } from './books.ts';
import { xeroContract, type XeroApi } from './contract.ts';
import { startStandIn, type ApiCall, type Fault, type LoggedRequest as KitLoggedRequest, type OperationHandler, type StandIn } from '../kit/host.ts';
import { openApiOperations, type Operation } from '../kit/openapi.ts';
import { consentAnswer } from '../kit/consent.ts';
import type { OAuthClient } from '../kit/oauth.ts';
import { XeroIdentity, type Consent, type Tenant } from './oauth.ts';
import { forbidden, problem } from '../../../packages/sandbox/src/simulators/xero/answers.ts';
import { WRITABLE_LISTS } from '../../../packages/sandbox/src/simulators/xero/writes.ts';
import { xeroSimulator } from '../../../packages/sandbox/src/simulators/xero/simulator.ts';
import { COLLECTIONS, ID_FIELD, seedBooks, withFreshIds } from './seed.ts';
import { setEnv } from '../../support/env.ts';

export type { FaultMatch, Violation } from '../kit/host.ts';

/** Request headers each logged request keeps. */
const LOGGED = { tenant: 'xero-tenant-id', ifModifiedSince: 'if-modified-since', idempotencyKey: 'idempotency-key' } as const;
export type LoggedRequest = KitLoggedRequest<keyof typeof LOGGED>;

export interface XeroStandIn extends StandIn<keyof typeof LOGGED> {
  /** The two organisations: Demo Company (NZ), seeded from the contract's examples, and Demo Company (UK), the same books under new ids. */
  tenants: readonly Tenant[];
  books(tenantId?: string): XeroBooks;
  registerClient(client: OAuthClient): void;
  /** Tokens for a registered client without the consent page, reaching `tenantIds` (default: the first organisation). */
  issueTokens(clientId: string, tenantIds?: readonly string[]): { accessToken: string; refreshToken: string; expiresAt: string; tenantId: string };
}

type Handler = (books: XeroBooks, call: ApiCall<Operation<XeroApi>, Consent>) => Answer;

/**
 * The operations the stand-in implements, by the contract's method and path template: every collection is listed and
 * read by id; invoices, contacts and manual journals are written as Xero does (PUT creates, POST creates or updates,
 * POST to a record updates it); invoices, manual journals and bank transfers serve their attachments; an invoice is
 * served as a PDF when asked with Accept: application/pdf.
 */
function handlers(): Record<string, Handler> {
  const table: Record<string, Handler> = {
    'GET /Organisation': (books) => books.organisationAnswer(),
    'GET /Reports/BalanceSheet': (books, { query }) => books.balanceSheet(query),
    'GET /Reports/ProfitAndLoss': (books, { query }) => books.profitAndLoss(query),
    // GET /Invoices/{InvoiceID} with Accept: application/pdf (the contract lists it under /pdf with that x-path).
    getInvoiceAsPdf: (books, { pathParams }) => books.invoicePdf(pathParams.InvoiceID ?? ''),
  };
  for (const collection of COLLECTIONS) {
    const id = ID_FIELD[collection];
    table[`GET /${collection}`] = (books, { query, headers }) => books.list(collection, query, headers['if-modified-since']);
    table[`GET /${collection}/{${id}}`] = (books, { pathParams }) => books.one(collection, pathParams[id] ?? '');
  }
  for (const collection of WRITABLE_LISTS) {
    const id = ID_FIELD[collection];
    table[`PUT /${collection}`] = (books, { body }) => books.save(collection, body, null, true);
    table[`POST /${collection}`] = (books, { body }) => books.save(collection, body, null, false);
    table[`POST /${collection}/{${id}}`] = (books, { body, pathParams }) => books.save(collection, body, pathParams[id] ?? '', false);
  }
  for (const parent of ['Invoices', 'ManualJournals', 'BankTransfers'] as const) {
    const id = ID_FIELD[parent];
    table[`GET /${parent}/{${id}}/Attachments`] = (books, { pathParams }) => books.attachmentsOf(parent, pathParams[id] ?? '');
    table[`GET /${parent}/{${id}}/Attachments/{AttachmentID}`] = (books, { pathParams }) =>
      books.attachmentFile(parent, pathParams[id] ?? '', pathParams.AttachmentID ?? '');
  }
  return table;
}

const ACCOUNTING = '/api.xro/2.0';

/** Where a request path goes: the Accounting API, or the identity API's /connections (whatever its case). */
function route(path: string): { api: XeroApi; path: string } | null {
  if (path.startsWith(`${ACCOUNTING}/`)) return { api: 'accounting', path: path.slice(ACCOUNTING.length) };
  return /^\/connections\/?$/i.test(path) ? { api: 'identity', path: '/Connections' } : null;
}

function faultAnswer(fault: Fault): Answer {
  if (fault.status === 429) return { status: 429, body: '', headers: { 'retry-after': String(fault.retryAfter), 'x-rate-limit-problem': 'minute' } };
  return fault.status === 503
    ? { status: 503, body: 'Service Unavailable' }
    : problem(
        fault.status,
        'Internal Server Error',
        'An error occurred in Xero. Check the API Status page http://status.developer.xero.com for current service status.',
      );
}

export async function startXeroStandIn(): Promise<XeroStandIn> {
  const tenants: Tenant[] = [
    { id: 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', name: 'Demo Company (NZ)' },
    { id: randomUUID(), name: 'Demo Company (UK)' },
  ];
  const [first, second] = tenants as [Tenant, Tenant];
  const organisations = new Map<string, XeroBooks>([
    [first.id, new XeroBooks(seedBooks(first.id, first.name))],
    [second.id, new XeroBooks(withFreshIds(seedBooks(second.id, second.name), { [second.id]: second.id }, 7))],
  ]);
  const identity = new XeroIdentity(tenants);
  const tenantOf = (call: ApiCall<Operation<XeroApi>, Consent>): string => call.headers['xero-tenant-id'] ?? '';
  const operations: Record<string, OperationHandler<Operation<XeroApi>, Consent>> = {
    'GET /Connections': ({ grant }) => ({ status: 200, body: identity.connections(grant) }),
  };
  for (const [operation, handler] of Object.entries(handlers())) {
    operations[operation] = (call) => {
      const books = organisations.get(tenantOf(call));
      if (books === undefined) throw new Error('authorize() lets no call reach an unknown organisation');
      return handler(books, call);
    };
  }

  const contract = xeroContract();
  const host = await startStandIn({
    name: 'Xero',
    contract: openApiOperations(contract),
    oauth: identity.oauth,
    route,
    operations,
    authorize: (call) =>
      call.operation.api === 'identity' || (organisations.has(tenantOf(call)) && call.grant.subject.tenants.includes(tenantOf(call)))
        ? null
        : forbidden(),
    answers: {
      violation: (message) => ({ status: 400, body: { ErrorNumber: 0, Type: 'ContractViolation', Message: message } }),
      unauthorized: (check) => XeroIdentity.unauthorized(check),
      fault: faultAnswer,
      notFound,
    },
    token: { path: xeroSimulator.oauth.tokenPath, answerProblems: (body) => contract.validateComponent('identity', 'AccessToken', body) },
    pages: ({ method, url, body }) => consentAnswer(identity.consent, method, url, body),
    logged: LOGGED,
    idempotency: {
      key: (call) => (call.headers['idempotency-key'] === undefined ? undefined : `${tenantOf(call)}:${call.headers['idempotency-key']}`),
    },
  });

  return {
    ...host,
    tenants,
    books(tenantId = first.id) {
      const books = organisations.get(tenantId);
      if (books === undefined) throw new Error(`no organisation ${tenantId}`);
      return books;
    },
    registerClient: (client) => {
      identity.oauth.register(client);
    },
    issueTokens(clientId, tenantIds = [first.id]) {
      return { ...identity.issueTokens(clientId, tenantIds), tenantId: tenantIds[0] ?? first.id };
    },
  };
}

/** Points the Xero connector's addresses at the stand-in; returns a function that restores them. */
export function useStandIn(standin: Pick<XeroStandIn, 'url'>): () => void {
  return setEnv({ XERO_API_URL: standin.url, XERO_IDENTITY_URL: standin.url, XERO_LOGIN_URL: standin.url });
}

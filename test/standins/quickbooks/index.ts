/**
 * An in-process stand-in of QuickBooks Online for tests: the Accounting API (query, ChangeDataCapture, reads, sparse
 * and full updates with SyncToken, deletes, voids, CompanyInfo, Preferences, a multicurrency company's CompanyCurrency
 * and ExchangeRate (by query), the BalanceSheet, ProfitAndLoss and CashFlow reports, invoice PDFs, attachment downloads with their
 * short-lived file links) and Intuit's OAuth (consent page and token endpoint, on the kit's OAuth server), on
 * 127.0.0.1 and a random port. Stateful and seeded from test/fixtures/quickbooks, the response shapes of Intuit's
 * reference.
 *
 * It holds the connector to the rules of the real API and records every breach in `violations` (tests expect none
 * after normal runs): Intuit's published contract (its XML Schema, test/contracts/quickbooks) for every body written
 * and every JSON answer given (validate.ts), the query subset it understands, `minorversion` on every call, `Accept:
 * application/json`, a bearer token for the company in the path, the documented required fields and references of
 * written entities, CDC's 30-day look-back and the entities it covers, at most 10 concurrent requests per company,
 * and no Authorization header on the presigned file links (S3 refuses a second credential).
 *
 * Fault controls: expire access tokens (next call 401 with the AuthenticationFault body), revoke refresh tokens
 * (invalid_grant), answer the next N matching requests with 429 (Retry-After) or 5xx, change a record between the
 * connector's read and its write (stale SyncToken).
 */
import { Company, type CompanyOptions } from './company.ts';
import { ENTITIES, faultBody, fixture, isEntity, isJson, type Entity, type Json } from './fixtures.ts';
import { escapeHtml, OAuthServer, randomToken, type OAuthClient } from '../kit/oauth.ts';
import { consentAnswer, type ConsentFlow } from '../kit/consent.ts';
import { quickbooksSimulator } from '../../../packages/sandbox/src/simulators/quickbooks/index.ts';
import {
  cdcRequest,
  cdcResponse,
  parseQuery,
  QueryError,
  queryResponse,
  runQuery,
} from '../../../packages/sandbox/src/simulators/quickbooks/query.ts';
import { qboTime } from '../../../packages/sandbox/src/simulators/quickbooks/shapes.ts';
import { LINK_SECONDS as FILE_LINK_SECONDS } from '../../../packages/sandbox/src/simulators/quickbooks/files.ts';
import { isReportName, monthlyReport, ReportError } from './report.ts';
import { invoicePdf } from './invoice-pdf.ts';
import { CONTRACT, DELETABLE, validate, VOIDS, WRITABLE, type Problem } from './validate.ts';
import { PresignedFiles } from '../kit/presigned-files.ts';
import type { Answer, ContentTypes } from '../kit/server.ts';
import {
  decodedQuery,
  startStandIn,
  storedTokens,
  type ApiCall,
  type OperationHandler,
  type PageRequest,
  type Refuse,
  type StandIn,
  type StandInContract,
  type Violation,
} from '../kit/host.ts';

export type { OAuthClient } from '../kit/oauth.ts';
export type { Violation } from '../kit/host.ts';
export { Company } from './company.ts';
/** How long the file link GET download/{id} answers stays valid. */
export { FILE_LINK_SECONDS };

/** One request; `query` is decoded ("query=SELECT * FROM Bill …&minorversion=75"). */
export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  at: number;
}

export interface FailRule {
  status: 429 | 500 | 502 | 503;
  /** How many matching requests fail. */
  count: number;
  /** Matches `METHOD /path?query` (substring or pattern); default every API request. */
  match?: string | RegExp;
  /** Retry-After seconds sent with a 429; default 1. */
  retryAfter?: number;
  /** Carry the request out first, then fail (an answer lost on the way back): the write is done, the caller cannot know. */
  applied?: boolean;
}

/** A company of the stand-in: its realm id and name, generated bills, multicurrency (off by default, as recorded). */
export type CompanyInput = Omit<CompanyOptions, 'now'>;

export interface StandInOptions extends Partial<CompanyInput> {
  /** The default company's name. */
  companyName?: string;
  now?: () => number;
}

/** Intuit's documented limit of concurrent requests per company and app. */
export const MAX_CONCURRENT = 10;
/** Entities ChangeDataCapture does not cover (Intuit's list). */
const NOT_IN_CDC = new Set(['JournalCode', 'TaxAgency', 'TimeActivity', 'TaxCode', 'TaxRate']);
/** Intuit's OAuth paths and token lifetime, as the simulator serves them. */
const { authorizePath: CONSENT_PATH, tokenPath: TOKEN_PATH, accessTokenSeconds: ACCESS_TOKEN_SECONDS } = quickbooksSimulator.oauth;

/** Intuit's content types: JSON as UTF-8, the consent and error pages as HTML, file links as text; a transaction id on every answer. */
const INTUIT_TYPES: ContentTypes = {
  json: 'application/json;charset=UTF-8',
  text: (body) => (body.startsWith('<') ? 'text/html; charset=utf-8' : 'text/plain'),
  headers: () => ({ intuit_tid: `1-${Date.now().toString(16)}` }),
};

/** An API request: the company of its path and the rest of the path (`query`, `bill`, `reports/ProfitAndLoss`). */
interface Target {
  realm: string;
  path: string;
  parts: string[];
}

/** An operation of the Accounting API the stand-in serves. */
interface QboOperation {
  id: 'query' | 'cdc' | 'preferences' | 'companyinfo' | 'report' | 'download' | 'pdf' | 'read' | 'write';
  entity: Entity | null;
}

type Call = ApiCall<QboOperation, string>;

function route(path: string): Target | null {
  const [, realm, rest] = /^\/v3\/company\/([^/]+)\/(.+)$/.exec(path) ?? [];
  if (realm === undefined || rest === undefined) return null;
  return { realm: decodeURIComponent(realm), path: rest, parts: rest.split('/').map(decodeURIComponent) };
}

/** The operation a request names, by Intuit's reference of the v3 paths. */
function findOperation({ realm, parts }: Target, method: string): ReturnType<StandInContract<Target, QboOperation>['find']> {
  const [resource = '', id, ...extra] = parts;
  const entity = ENTITIES.find((e) => e.toLowerCase() === resource) ?? null;
  const found = (name: QboOperation['id']): ReturnType<typeof findOperation> => ({
    operation: { id: name, entity },
    pathParams: { realm, id: id ?? '' },
  });
  if (method === 'GET' && id === undefined && (resource === 'query' || resource === 'cdc' || resource === 'preferences')) return found(resource);
  if (method === 'GET' && id !== undefined && extra.length === 0) {
    if (resource === 'companyinfo' || resource === 'download') return found(resource);
    if (resource === 'reports' && isReportName(id)) return found('report');
    if (entity !== null) return found('read');
  }
  if (method === 'GET' && id !== undefined && entity === 'Invoice' && extra.length === 1 && extra[0] === 'pdf') return found('pdf');
  return method === 'POST' && id === undefined && entity !== null ? found('write') : null;
}

/** Intuit's contract (JSON Schemas of its XML Schema): each written body as its entity, every JSON answer. */
const INTUIT_CONTRACT: StandInContract<Target, QboOperation> = {
  find: findOperation,
  names: (operation) => [operation.id],
  requestProblems({ id, entity }, { body }) {
    if (id !== 'write' || entity === null) return [];
    return isJson(body) ? CONTRACT.problems(entity, body) : ['the request body is not a JSON object'];
  },
  answerProblems({ id }, status, body) {
    if (!isJson(body) || Buffer.isBuffer(body)) return [];
    const problems = CONTRACT.problems(id === 'report' && status === 200 ? 'Report' : 'IntuitResponse', body, 'answer');
    return problems.length === 0 ? [] : [`the stand-in's answer breaks Intuit's contract: ${problems.join('; ')}`];
  },
};

/** Intuit's OAuth 2.0: client credentials as HTTP Basic only, access tokens for an hour, a new refresh token on every refresh. */
function intuitOAuth(now: () => number): OAuthServer<string> {
  return new OAuthServer<string>(
    {
      clientAuth: ['basic'],
      accessSeconds: ACCESS_TOKEN_SECONDS,
      codeSeconds: null,
      refresh: 'rotate',
      checkRedirectUri: true,
      mint: {
        access: () => randomToken('eyJ.qbo.', 18, 'base64url'),
        refresh: () => randomToken('AB11', 18, 'base64url'),
        code: () => randomToken('AB11code', 18, 'base64url'),
      },
      answer: (issued) => ({
        ...fixture('oauth/token.json'),
        access_token: issued.accessToken,
        refresh_token: issued.refreshToken,
        expires_in: ACCESS_TOKEN_SECONDS,
        x_refresh_token_expires_in: 8_726_400,
      }),
      errors: {
        invalidClient: { status: 401, body: fixture('oauth/invalid-client.json') },
        invalidGrant: { status: 400, body: fixture('oauth/invalid-grant.json') },
        unsupportedGrant: () => ({ status: 400, body: { error: 'unsupported_grant_type' } }),
      },
    },
    now,
  );
}

/** Problems of a token request's headers: Intuit answers JSON only when asked, and reads a form. */
const tokenRequestProblems = (headers: Record<string, string | undefined>): string[] => [
  ...((headers.accept ?? '').includes('application/json') ? [] : ['token request without Accept: application/json']),
  ...((headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
    ? []
    : ['token request body is not application/x-www-form-urlencoded']),
];

export class QuickBooksStandIn {
  /** The default company; the consent page connects it. */
  readonly realmId: string;
  url = '';
  private readonly now: () => number;
  private readonly oauth: OAuthServer<string>;
  private readonly companies = new Map<string, Company>();
  private readonly afterRead = new Map<string, (record: Json) => void>();
  private readonly afterQuery = new Map<string, (company: Company) => void>();
  private readonly files: PresignedFiles<{ realmId: string; id: string }>;
  private host: StandIn<never> | null = null;

  constructor(options: StandInOptions) {
    this.now = options.now ?? Date.now;
    this.oauth = intuitOAuth(this.now);
    this.files = new PresignedFiles({
      seconds: FILE_LINK_SECONDS,
      now: this.now,
      open: (file) => this.companies.get(file.realmId)?.file(file.id) ?? null,
    });
    this.realmId = options.realmId ?? '4620816365178424710';
    const name = options.companyName ?? options.name;
    this.addCompany({ ...options, realmId: this.realmId, ...(name === undefined ? {} : { name }), generatedBills: options.generatedBills ?? 0 });
  }

  private get server(): StandIn<never> {
    if (this.host === null) throw new Error('the QuickBooks stand-in is not listening');
    return this.host;
  }

  /** Breaches of Intuit's rules so far (tests expect none after normal runs). */
  get violations(): Violation[] {
    return this.server.violations;
  }

  /** The API requests so far. */
  get log(): LoggedRequest[] {
    return this.server.requests.map(({ method, path, query, status, at }) => ({
      method,
      path,
      query: decodedQuery(Object.entries(query)),
      status,
      at,
    }));
  }

  /** Requests answered from the request id cache (a write sent again with its requestid). */
  get repeatedRequestIds(): number {
    return this.server.replays.count;
  }

  /** Calls of the token endpoint. */
  get tokenCalls(): number {
    return this.oauth.calls.total;
  }

  /** A property, so that `afterAll(stand.close)` carries no `this`. */
  close = (): Promise<void> => this.server.close();

  company(realmId = this.realmId): Company {
    const company = this.companies.get(realmId);
    if (company === undefined) throw new Error(`the stand-in has no company ${realmId}`);
    return company;
  }

  addCompany(input: CompanyInput): Company {
    const company = new Company({ ...input, now: this.now });
    this.companies.set(input.realmId, company);
    return company;
  }

  registerClient(client: OAuthClient): void {
    this.oauth.register(client);
  }

  /** Tokens as if the consent flow had run, for connections made without a browser, as the connector stores them (the realm as `tenantId`). */
  issueTokens({
    clientId,
    realmId = this.realmId,
    expiresInSeconds,
  }: {
    clientId: string;
    realmId?: string;
    expiresInSeconds?: number;
  }): ReturnType<typeof storedTokens> & { tenantId: string } {
    return { ...storedTokens(this.oauth.issue(this.oauth.grant(clientId, realmId), expiresInSeconds)), tenantId: realmId };
  }

  /** Every access token issued so far is refused from now on (401 AuthenticationFault). */
  expireAccessTokens(): void {
    this.oauth.expireAccessTokens();
  }

  /** Expires every access token once `requests` more API requests were answered (an expiry mid-sync). */
  expireAccessTokensAfter(requests: number): void {
    this.server.expireAccessTokensAfter(requests);
  }

  /** Every refresh token issued so far is refused (400 invalid_grant). */
  revokeRefreshTokens(): void {
    this.oauth.revokeRefreshTokens();
  }

  failNext(rule: FailRule): void {
    const match = rule.match === undefined ? { path: '/v3/company/' } : { line: rule.match };
    this.server.failNext(rule.status, rule.count, match, rule.retryAfter ?? 1, rule.applied ?? false);
  }

  /** Changes the record right after the next time the API serves it by id: the caller's SyncToken is then stale. */
  editAfterNextRead(entity: Entity, id: string, change: (record: Json) => void, realmId = this.realmId): void {
    this.afterRead.set(`${realmId}|${entity}|${id}`, change);
  }

  /** Runs `change` on the company once the next query of `entity` has been answered (records changing between pages). */
  afterNextQuery(entity: Entity, change: (company: Company) => void, realmId = this.realmId): void {
    this.afterQuery.set(`${realmId}|${entity}`, change);
  }

  async listen(): Promise<void> {
    this.host = await startStandIn({
      name: 'QuickBooks Online',
      contract: INTUIT_CONTRACT,
      oauth: this.oauth,
      route,
      operations: this.operations(),
      authorize: (call) => this.authorize(call),
      answers: {
        // Outside the paths served, Intuit answers unsupported-operation; a body breaking the contract, invalid-property.
        violation: (message, operation) =>
          operation === null
            ? this.fault(400, 'unsupported-operation', message)
            : this.fault(400, 'invalid-property', message, message.split(' ')[0]),
        unauthorized: (check, refuse) =>
          check.reason === 'expired'
            ? this.fault(401, 'authentication', 'Token expired')
            : refuse(`API call with ${check.reason} bearer token`, this.fault(401, 'authentication', 'Token invalid')),
        fault: ({ status, retryAfter }) =>
          status === 429 ? { ...this.fault(429, 'throttle'), headers: { 'retry-after': String(retryAfter) } } : this.fault(status, 'system'),
        // The browser on the consent page asks for a favicon: not the connector's doing.
        notFound: (_method, path, refuse) =>
          path === '/favicon.ico' ? { status: 404, body: 'Not Found' } : refuse('no such endpoint', { status: 404, body: 'Not Found' }),
      },
      token: { path: TOKEN_PATH, requestProblems: tokenRequestProblems },
      pages: (request, refuse) => this.page(request, refuse),
      logged: {},
      logPages: true,
      idempotency: {
        key: (call) =>
          call.operation.id === 'write' && call.query.has('requestid') ? `${call.pathParams.realm}|${call.query.get('requestid')}` : undefined,
        request: (call) => `${call.operation.entity}|${writeOperation(call)}|${call.query.get('include') ?? ''}`,
        reused: (call, first, now) =>
          this.refuse(call.refuse, `requestid ${String(call.query.get('requestid'))} reused for another request (${first}, now ${now})`),
        kept: (answer) => answer.status === 200,
      },
      concurrency: { limit: MAX_CONCURRENT, scope: (target) => `realm ${target.realm}`, refused: (message) => this.fault(429, 'throttle', message) },
      types: INTUIT_TYPES,
    });
    this.url = this.host.url;
  }

  private fault(status: number, name: string, detail?: string, element?: string): Answer {
    return { status, body: { ...faultBody(name, detail, element), time: qboTime(this.now(), true) } };
  }

  /** Records a breach of the API's rules, answered with the fault QBO gives it. */
  private refuse(refuse: Refuse, reason: string, status = 400, name = 'required-param-missing', element?: string): Answer {
    return refuse(reason, this.fault(status, name, reason, element));
  }

  private refuseProblem(call: Call, problem: Problem): Answer {
    return this.refuse(call.refuse, problem.detail, 400, problem.fault, problem.element);
  }

  private ok(body: Json): Answer {
    return { status: 200, body: { ...body, time: qboTime(this.now(), true) } };
  }

  /** The consent page, and presigned file links (which must come without an Authorization header: S3 refuses a second credential). */
  private async page(request: PageRequest, refuse: Refuse): Promise<Answer | null> {
    const { method, url } = request;
    const consent = await consentAnswer(this.consentFlow(), method, url, request.body, refuse);
    if (consent !== null) return consent;
    const link = /^\/attachments\/[^/]+\/([0-9a-f]{32})\/[^/]+$/.exec(url.pathname)?.[1];
    if (link === undefined || method !== 'GET') return null;
    const { answer, breach } = this.files.serve(link, url.searchParams, request.authorization);
    return breach === null ? answer : refuse(breach, answer);
  }

  /** GET /connect/oauth2: the consent page for the default company; POST: the user's answer, its realm id beside the code. */
  private consentFlow(): ConsentFlow<string> {
    return {
      oauth: this.oauth,
      path: CONSENT_PATH,
      title: 'Connect your QuickBooks company',
      failedTitle: 'Something went wrong',
      intro: () =>
        `An app wants to read and write the accounting data of <strong id="company">${escapeHtml(this.companies.get(this.realmId)?.name ?? this.realmId)}</strong>.`,
      allowLabel: 'Connect',
      denyLabel: 'Cancel',
      allowed: () => ({ subject: this.realmId }),
      returnsScope: false,
      returns: (realmId) => ({ realmId }),
      requestProblems: (query) => [
        ...((query.get('scope') ?? '').split(/\s+/).includes('com.intuit.quickbooks.accounting')
          ? []
          : ['scope must include com.intuit.quickbooks.accounting']),
        ...((query.get('state') ?? '') === '' ? ['state is required'] : []),
      ],
    };
  }

  /** A token of the realm in the path, a company of the stand-in, JSON asked for and minorversion pinned. */
  private authorize(call: Call): Answer | null {
    const realmId = call.pathParams.realm ?? '';
    if (call.grant.subject !== realmId)
      return this.refuse(call.refuse, `token of realm ${call.grant.subject} used for realm ${realmId}`, 403, 'authorization');
    if (!this.companies.has(realmId)) return this.refuse(call.refuse, `no company ${realmId}`, 403, 'authorization');
    // A PDF is asked for as one; everything else as JSON.
    const accept = call.operation.id === 'pdf' ? 'application/pdf' : 'application/json';
    if (!(call.headers.accept ?? '').includes(accept))
      return this.refuse(call.refuse, `missing Accept: ${accept} (QBO would answer XML)`, 400, 'required-param-missing', 'Accept');
    const minor = call.query.get('minorversion');
    if (minor === null || !/^\d+$/.test(minor))
      return this.refuse(call.refuse, 'every call must pin minorversion', 400, 'required-param-missing', 'minorversion');
    return null;
  }

  private operations(): Record<QboOperation['id'], OperationHandler<QboOperation, string>> {
    const on =
      (serve: (call: Call, company: Company, id: string) => Answer): OperationHandler<QboOperation, string> =>
      (call) =>
        serve(call, this.company(call.pathParams.realm), call.pathParams.id ?? '');
    return {
      query: on((call, company) => this.query(call, company, call.query.get('query') ?? '')),
      cdc: on((call, company) => this.cdc(call, company)),
      preferences: on((_call, company) => this.ok({ Preferences: company.preferences })),
      companyinfo: on((call, company, id) =>
        id === company.realmId
          ? this.ok({ CompanyInfo: company.companyInfo })
          : this.refuse(call.refuse, `companyinfo/${id} is not the realm ${company.realmId}`, 400, 'object-not-found'),
      ),
      report: on((call, company, id) => (isReportName(id) ? this.report(call, company.reports[id]) : this.notFound('Report', id))),
      download: on((_call, company, id) => this.download(company, id)),
      pdf: on((_call, company, id) => this.invoicePdf(company, id)),
      read: on((call, company, id) => this.read(company, entityOf(call), id)),
      write: on((call, company) => this.apply(call, company, entityOf(call), isJson(call.body) ? call.body : {})),
    };
  }

  private report(call: Call, recorded: Json): Answer {
    try {
      return { status: 200, body: monthlyReport(recorded, call.query, qboTime(this.now(), true)) };
    } catch (error) {
      if (error instanceof ReportError) return this.refuse(call.refuse, error.message);
      throw error;
    }
  }

  private query(call: Call, company: Company, text: string): Answer {
    try {
      const parsed = parseQuery(text, isEntity);
      const page = runQuery(parsed, company.list(parsed.entity));
      const key = `${company.realmId}|${parsed.entity}`;
      const change = this.afterQuery.get(key);
      this.afterQuery.delete(key);
      change?.(company);
      return this.ok({ QueryResponse: queryResponse(parsed.entity, page, parsed.startPosition) });
    } catch (error) {
      if (error instanceof QueryError) return this.refuse(call.refuse, `QueryParserError: ${error.message} in "${text}"`, 400, 'query-parser');
      throw error;
    }
  }

  private cdc(call: Call, company: Company): Answer {
    const request = cdcRequest(call.query, this.now());
    if ('refused' in request) return this.refuse(call.refuse, request.detail, 400, 'required-param-missing', request.element);
    const responses: Json[] = [];
    for (const entity of request.entities) {
      if (NOT_IN_CDC.has(entity) || !isEntity(entity))
        return this.refuse(call.refuse, `ChangeDataCapture does not cover ${entity}`, 400, 'unsupported-operation');
      responses.push(queryResponse(entity, company.changedSince(entity, request.since)));
    }
    return this.ok(cdcResponse(responses));
  }

  private notFound(entity: string, id: string, why = 'does not exist or was deleted'): Answer {
    return this.fault(400, 'object-not-found', `Object Not Found : ${entity} ${id} ${why}`);
  }

  private read(company: Company, entity: Entity, id: string): Answer {
    const record = company.find(entity, id);
    if (record === null) return this.notFound(entity, id);
    const key = `${company.realmId}|${entity}|${id}`;
    const change = this.afterRead.get(key);
    this.afterRead.delete(key);
    if (change !== undefined) company.edit(entity, id, change);
    return this.ok({ [entity]: record });
  }

  /** GET download/{attachableId}: a presigned link to the file, as plain text. */
  private download(company: Company, id: string): Answer {
    const file = company.file(id);
    if (file === null) return this.notFound('Attachable', id, 'does not exist, was deleted or has no file');
    const link = this.files.link(`${this.url}/attachments/${company.realmId}`, { realmId: company.realmId, id }, file);
    return { status: 200, body: link, headers: { 'content-type': 'text/plain;charset=UTF-8' } };
  }

  /** GET invoice/{id}/pdf: the invoice rendered (number, dates, customer, lines, total), as application/pdf. */
  private invoicePdf(company: Company, id: string): Answer {
    const invoice = company.find('Invoice', id);
    if (invoice === null) return this.notFound('Invoice', id);
    return { status: 200, body: invoicePdf(invoice), headers: { 'content-type': 'application/pdf' } };
  }

  /** POST /{entity}, its body within Intuit's contract (checked by the host): create, update, sparse update, delete or void. */
  private apply(call: Call, company: Company, entity: Entity, body: Json): Answer {
    const operation = writeOperation(call);
    const unsupported = (what: string): Answer => this.refuse(call.refuse, what, 400, 'unsupported-operation');
    if (operation === 'create') {
      if (!WRITABLE.has(entity)) return unsupported(`the stand-in does not create ${entity}`);
      const problem = validate(company, entity, body);
      return problem === null ? this.ok({ [entity]: company.insert(entity, body) }) : this.refuseProblem(call, problem);
    }
    const id = typeof body.Id === 'string' ? body.Id : null;
    if (id === null) return this.refuse(call.refuse, `${operation} needs Id`, 400, 'required-param-missing', 'Id');
    if (typeof body.SyncToken !== 'string')
      return this.refuse(call.refuse, `${operation} needs SyncToken`, 400, 'required-param-missing', 'SyncToken');
    const current = company.find(entity, id);
    if (current === null) return this.notFound(entity, id);
    if (current.SyncToken !== body.SyncToken) return this.fault(400, 'stale-object');
    if (operation === 'delete') {
      if (!DELETABLE.has(entity)) return unsupported(`Operation Delete is not supported for ${entity}`);
      company.remove(entity, id);
      return this.ok({ [entity]: { status: 'Deleted', domain: 'QBO', Id: id } });
    }
    const voids = operation === 'void' ? 'operation=void' : call.query.get('include') === 'void' ? 'include=void' : null;
    if (voids !== null) {
      if (VOIDS[entity] !== voids) return unsupported(`${entity} is not voided by ${voids}`);
      if (voids === 'include=void' && body.sparse !== true) return unsupported(`a void of ${entity} is a sparse update (sparse: true)`);
      return this.ok({ [entity]: company.void(entity, id) });
    }
    if (operation !== 'update') return unsupported(`unknown operation ${operation}`);
    if (!WRITABLE.has(entity)) return unsupported(`the stand-in does not update ${entity}`);
    const { sparse, ...fields } = body;
    // A sparse update changes the fields sent (an array such as Line as a whole); a full update replaces every writable field.
    const merged: Json = sparse === true ? { ...current, ...fields } : { ...fields, Id: id, MetaData: current.MetaData };
    const problem = validate(company, entity, merged);
    return problem === null ? this.ok({ [entity]: company.replace(entity, merged) }) : this.refuseProblem(call, problem);
  }
}

/** The entity of a read or write (the path table gives one). */
function entityOf(call: Call): Entity {
  if (call.operation.entity === null) throw new Error(`${call.operation.id} names no entity`);
  return call.operation.entity;
}

/** A write's operation: the one asked for, else create without an Id and update with one. */
function writeOperation(call: Call): string {
  return call.query.get('operation') ?? (isJson(call.body) && call.body.Id !== undefined ? 'update' : 'create');
}

export async function startQuickBooksStandIn(options: StandInOptions = {}): Promise<QuickBooksStandIn> {
  const stand = new QuickBooksStandIn(options);
  await stand.listen();
  return stand;
}

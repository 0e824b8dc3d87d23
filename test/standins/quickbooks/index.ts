/**
 * An in-process stand-in of QuickBooks Online for tests: the Accounting API (query, ChangeDataCapture, reads, sparse
 * and full updates with SyncToken, deletes, voids, CompanyInfo, Preferences, a multicurrency company's CompanyCurrency
 * and ExchangeRate (by query), the BalanceSheet, ProfitAndLoss and CashFlow reports, attachment downloads with their
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
import type { IncomingMessage } from 'node:http';
import { Company, qboTime, type CompanyOptions } from './company.ts';
import { ENTITIES, faultBody, fixture, isEntity, isJson, type Entity, type Json } from './fixtures.ts';
import { consentPage, errorPage, escapeHtml, OAuthServer, randomToken, redirectBack, type OAuthClient } from '../kit/oauth.ts';
import { parseQuery, QueryError, runQuery } from '../../../packages/sandbox/src/simulators/quickbooks/query.ts';
import { isReportName, monthlyReport, ReportError } from './report.ts';
import { contractProblem, CONTRACT, DELETABLE, validate, VOIDABLE, WRITABLE, type Problem } from './validate.ts';
import { PresignedFiles } from '../kit/presigned-files.ts';
import { Faults, header, matchesLine, readBody, send, serve, type Answer, type ContentTypes } from '../kit/server.ts';

export type { OAuthClient } from '../kit/oauth.ts';
export { Company } from './company.ts';

export interface Violation {
  method: string;
  path: string;
  reason: string;
}

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

/** Tokens as the connector stores them: `expiresAt` ISO 8601, the realm as `tenantId`. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  tenantId: string;
}

/** Intuit's documented limit of concurrent requests per company and app. */
export const MAX_CONCURRENT = 10;
const CDC_LOOKBACK_MS = 30 * 24 * 60 * 60_000;
/** How long the file link GET download/{id} answers stays valid (QBO's TempDownloadUri: 15 minutes). */
export const FILE_LINK_SECONDS = 15 * 60;
/** Entities ChangeDataCapture does not cover (Intuit's list). */
const NOT_IN_CDC = new Set(['JournalCode', 'TaxAgency', 'TimeActivity', 'TaxCode', 'TaxRate']);
const ACCESS_TOKEN_SECONDS = 3600;

type Where = Pick<Violation, 'method' | 'path'>;

/** Intuit's content types: JSON as UTF-8, the consent and error pages as HTML, file links as text; a transaction id on every answer. */
const INTUIT_TYPES: ContentTypes = {
  json: 'application/json;charset=UTF-8',
  text: (body) => (body.startsWith('<') ? 'text/html; charset=utf-8' : 'text/plain'),
  headers: () => ({ intuit_tid: `1-${Date.now().toString(16)}` }),
};

/** The query string with its values decoded, for logs and matching. */
const decodedQuery = (url: URL): string => [...url.searchParams].map(([name, value]) => `${name}=${value}`).join('&');
const isJsonAnswer = (body: unknown): body is Json => isJson(body) && !Buffer.isBuffer(body);

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

export class QuickBooksStandIn {
  readonly violations: Violation[] = [];
  readonly log: LoggedRequest[] = [];
  /** The default company; the consent page connects it. */
  readonly realmId: string;
  url = '';
  close: () => Promise<void> = () => Promise.resolve();
  /** Requests answered from the request id cache (a write sent again with its requestid). */
  repeatedRequestIds = 0;
  private readonly now: () => number;
  private readonly oauth: OAuthServer<string>;
  private readonly companies = new Map<string, Company>();
  private readonly faults = new Faults<FailRule>();
  private readonly requestIds = new Map<string, { fingerprint: string; answer: Answer }>();
  private readonly afterRead = new Map<string, (record: Json) => void>();
  private readonly afterQuery = new Map<string, (company: Company) => void>();
  private readonly inFlight = new Map<string, number>();
  private readonly files: PresignedFiles<{ realmId: string; id: string }>;
  private expireAfter: number | null = null;

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

  /** Tokens as if the consent flow had run, for connections made without a browser. */
  issueTokens({
    clientId,
    realmId = this.realmId,
    expiresInSeconds,
  }: {
    clientId: string;
    realmId?: string;
    expiresInSeconds?: number;
  }): IssuedTokens {
    const issued = this.oauth.issue(this.oauth.grant(clientId, realmId), expiresInSeconds);
    return {
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken ?? '',
      expiresAt: new Date(issued.expiresAt ?? 0).toISOString(),
      tenantId: realmId,
    };
  }

  /** Every access token issued so far is refused from now on (401 AuthenticationFault). */
  expireAccessTokens(): void {
    this.oauth.expireAccessTokens();
  }

  /** Expires every access token once `requests` more API requests were answered (an expiry mid-sync). */
  expireAccessTokensAfter(requests: number): void {
    this.expireAfter = requests;
  }

  /** Every refresh token issued so far is refused (400 invalid_grant). */
  revokeRefreshTokens(): void {
    this.oauth.revokeRefreshTokens();
  }

  failNext(rule: FailRule): void {
    this.faults.add({ ...rule }, rule.count);
  }

  /** Changes the record right after the next time the API serves it by id: the caller's SyncToken is then stale. */
  editAfterNextRead(entity: Entity, id: string, change: (record: Json) => void, realmId = this.realmId): void {
    this.afterRead.set(`${realmId}|${entity}|${id}`, change);
  }

  /** Runs `change` on the company once the next query of `entity` has been answered (records changing between pages). */
  afterNextQuery(entity: Entity, change: (company: Company) => void, realmId = this.realmId): void {
    this.afterQuery.set(`${realmId}|${entity}`, change);
  }

  /** Calls of the token endpoint. */
  get tokenCalls(): number {
    return this.oauth.calls.total;
  }

  async handle(req: IncomingMessage, url: URL): Promise<Answer> {
    const at = this.now();
    const answer = await this.route(req, url);
    if (url.pathname.startsWith('/v3/') && isJsonAnswer(answer.body)) {
      const report = url.pathname.includes('/reports/') && answer.status === 200;
      const problems = CONTRACT.problems(report ? 'Report' : 'IntuitResponse', answer.body, 'answer');
      if (problems.length > 0) this.refuse(this.where(req, url), `the stand-in's answer breaks Intuit's contract: ${problems.join('; ')}`);
    }
    this.log.push({ method: req.method ?? 'GET', path: url.pathname, query: decodedQuery(url), status: answer.status, at });
    return answer;
  }

  private where(req: IncomingMessage, url: URL): Where {
    return { method: req.method ?? 'GET', path: url.pathname };
  }

  private fault(status: number, name: string, detail?: string, element?: string): Answer {
    return { status, body: { ...faultBody(name, detail, element), time: qboTime(this.now(), true) } };
  }

  /** Records a breach of the API's rules; with a fault, the answer QBO gives it. */
  private refuse(where: Where, reason: string, status = 400, name = 'required-param-missing', element?: string): Answer {
    this.violations.push({ ...where, reason });
    return this.fault(status, name, reason, element);
  }

  private refuseProblem(where: Where, problem: Problem): Answer {
    return this.refuse(where, problem.detail, 400, problem.fault, problem.element);
  }

  private ok(body: Json): Answer {
    return { status: 200, body: { ...body, time: qboTime(this.now(), true) } };
  }

  // ---------------------------------------------------------------- OAuth

  /** GET /connect/oauth2: the consent page; POST: the user's answer, as the redirect back to the app. */
  private async authorize(req: IncomingMessage, url: URL): Promise<Answer> {
    const params = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams;
    const get = (name: string): string => params.get(name) ?? '';
    const problems = [this.oauth.clientProblem(get('client_id'), get('redirect_uri'))];
    if (req.method !== 'POST') {
      problems.push(
        get('response_type') === 'code' ? null : 'response_type must be code',
        get('scope').split(/\s+/).includes('com.intuit.quickbooks.accounting') ? null : 'scope must include com.intuit.quickbooks.accounting',
        get('state') === '' ? 'state is required' : null,
      );
    }
    const problem = problems.filter((p) => p !== null).join('; ');
    if (problem !== '') {
      this.violations.push({ ...this.where(req, url), reason: problem });
      return { status: 400, body: errorPage('Something went wrong', problem) };
    }
    if (req.method === 'POST') {
      const allowed = get('decision') === 'allow';
      const code = allowed ? this.oauth.code(this.oauth.grant(get('client_id'), this.realmId), get('redirect_uri')) : '';
      const back: Record<string, string> = allowed
        ? { code, state: get('state'), realmId: this.realmId }
        : { error: 'access_denied', state: get('state') };
      return { status: 302, body: '', headers: { location: redirectBack(get('redirect_uri'), back) } };
    }
    const hidden = Object.fromEntries(['client_id', 'redirect_uri', 'state', 'scope'].map((name) => [name, get(name)]));
    const company = escapeHtml(this.companies.get(this.realmId)?.name ?? this.realmId);
    const intro = `An app wants to read and write the accounting data of <strong id="company">${company}</strong>.`;
    const page = consentPage({
      title: 'Connect your QuickBooks company',
      intro,
      action: '/connect/oauth2',
      hidden,
      allowLabel: 'Connect',
      denyLabel: 'Cancel',
    });
    return { status: 200, body: page };
  }

  /** POST /oauth2/v1/tokens/bearer. */
  private async tokens(req: IncomingMessage, url: URL): Promise<Answer> {
    if (!(header(req, 'accept') ?? '').includes('application/json'))
      this.violations.push({ ...this.where(req, url), reason: 'token request without Accept: application/json' });
    if (!(header(req, 'content-type') ?? '').includes('application/x-www-form-urlencoded'))
      this.violations.push({ ...this.where(req, url), reason: 'token request body is not application/x-www-form-urlencoded' });
    const answer = this.oauth.token(new URLSearchParams(await readBody(req)), req.headers.authorization);
    return { status: answer.status, body: answer.body, headers: { 'cache-control': 'no-store' } };
  }

  // ---------------------------------------------------------------- API

  private async api(req: IncomingMessage, url: URL, company: Company, rest: string[]): Promise<Answer> {
    const where = this.where(req, url);
    if (!(header(req, 'accept') ?? '').includes('application/json'))
      return this.refuse(where, 'missing Accept: application/json (QBO would answer XML)', 400, 'required-param-missing', 'Accept');
    const minor = url.searchParams.get('minorversion');
    if (minor === null || !/^\d+$/.test(minor))
      return this.refuse(where, 'every call must pin minorversion', 400, 'required-param-missing', 'minorversion');
    const [resource = '', id, ...extra] = rest;
    const entity = ENTITIES.find((e) => e.toLowerCase() === resource) ?? null;
    const single = id !== undefined && extra.length === 0;
    if (req.method === 'GET' && id === undefined) {
      if (resource === 'query') return this.query(where, company, url.searchParams.get('query') ?? '');
      if (resource === 'cdc') return this.cdc(where, company, url.searchParams);
      if (resource === 'preferences') return this.ok({ Preferences: company.preferences });
    }
    if (req.method === 'GET' && single) {
      if (resource === 'companyinfo' && id !== company.realmId)
        return this.refuse(where, `companyinfo/${id} is not the realm ${company.realmId}`, 400, 'object-not-found');
      if (resource === 'companyinfo') return this.ok({ CompanyInfo: company.companyInfo });
      if (resource === 'reports' && isReportName(id)) return this.report(where, company.reports[id], url.searchParams);
      if (resource === 'download') return this.download(company, id);
      if (entity !== null) return this.read(company, entity, id);
    }
    if (req.method === 'POST' && id === undefined && entity !== null) return this.write(req, where, company, entity, url.searchParams);
    return this.refuse(where, `the stand-in has no ${where.method} ${rest.join('/')}`, 400, 'unsupported-operation');
  }

  private report(where: Where, recorded: Json, params: URLSearchParams): Answer {
    try {
      return { status: 200, body: monthlyReport(recorded, params, qboTime(this.now(), true)) };
    } catch (error) {
      if (error instanceof ReportError) return this.refuse(where, error.message);
      throw error;
    }
  }

  private query(where: Where, company: Company, text: string): Answer {
    try {
      const parsed = parseQuery(text, isEntity);
      const page = runQuery(parsed, company.list(parsed.entity));
      const key = `${company.realmId}|${parsed.entity}`;
      const change = this.afterQuery.get(key);
      this.afterQuery.delete(key);
      change?.(company);
      return this.ok({
        QueryResponse: page.length === 0 ? {} : { [parsed.entity]: page, startPosition: parsed.startPosition, maxResults: page.length },
      });
    } catch (error) {
      if (error instanceof QueryError) return this.refuse(where, `QueryParserError: ${error.message} in "${text}"`, 400, 'query-parser');
      throw error;
    }
  }

  private cdc(where: Where, company: Company, params: URLSearchParams): Answer {
    const entities = (params.get('entities') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    const since = Date.parse(params.get('changedSince') ?? '');
    if (entities.length === 0) return this.refuse(where, 'cdc needs entities', 400, 'required-param-missing', 'entities');
    if (Number.isNaN(since)) return this.refuse(where, 'cdc needs changedSince as a date-time', 400, 'required-param-missing', 'changedSince');
    if (this.now() - since > CDC_LOOKBACK_MS)
      return this.refuse(where, 'changedSince must be within the last 30 days', 400, 'required-param-missing', 'changedSince');
    const responses: Json[] = [];
    for (const entity of entities) {
      if (NOT_IN_CDC.has(entity) || !isEntity(entity))
        return this.refuse(where, `ChangeDataCapture does not cover ${entity}`, 400, 'unsupported-operation');
      const changed = company.changedSince(entity, since);
      responses.push(changed.length === 0 ? {} : { [entity]: changed, startPosition: 1, maxResults: changed.length });
    }
    return this.ok({ CDCResponse: [{ QueryResponse: responses }] });
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

  /** POST /{entity}: every body is checked against Intuit's contract of the entity before anything else. */
  private async write(req: IncomingMessage, where: Where, company: Company, entity: Entity, params: URLSearchParams): Promise<Answer> {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req)) as unknown;
    } catch {
      return this.refuse(where, 'the request body is not JSON');
    }
    if (!isJson(body)) return this.refuse(where, 'the request body is not a JSON object');
    const operation = params.get('operation') ?? (body.Id === undefined ? 'create' : 'update');
    const requestId = params.get('requestid');
    const fingerprint = `${entity}|${operation}|${params.get('include') ?? ''}`;
    const cached = requestId === null ? undefined : this.requestIds.get(`${company.realmId}|${requestId}`);
    if (cached !== undefined && cached.fingerprint !== fingerprint)
      return this.refuse(where, `requestid ${String(requestId)} reused for another request (${cached.fingerprint}, now ${fingerprint})`);
    if (cached !== undefined) {
      this.repeatedRequestIds += 1;
      return cached.answer;
    }
    const problem = contractProblem(entity, body);
    const answer = problem === null ? this.apply(where, company, entity, operation, params.get('include'), body) : this.refuseProblem(where, problem);
    if (requestId !== null && answer.status === 200) this.requestIds.set(`${company.realmId}|${requestId}`, { fingerprint, answer });
    return answer;
  }

  private apply(where: Where, company: Company, entity: Entity, operation: string, include: string | null, body: Json): Answer {
    const unsupported = (what: string): Answer => this.refuse(where, what, 400, 'unsupported-operation');
    if (operation === 'create') {
      if (!WRITABLE.has(entity)) return unsupported(`the stand-in does not create ${entity}`);
      const problem = validate(company, entity, body);
      return problem === null ? this.ok({ [entity]: company.insert(entity, body) }) : this.refuseProblem(where, problem);
    }
    const id = typeof body.Id === 'string' ? body.Id : null;
    if (id === null) return this.refuse(where, `${operation} needs Id`, 400, 'required-param-missing', 'Id');
    if (typeof body.SyncToken !== 'string') return this.refuse(where, `${operation} needs SyncToken`, 400, 'required-param-missing', 'SyncToken');
    const current = company.find(entity, id);
    if (current === null) return this.notFound(entity, id);
    if (current.SyncToken !== body.SyncToken) return this.fault(400, 'stale-object');
    if (operation === 'delete') {
      if (!DELETABLE.has(entity)) return unsupported(`Operation Delete is not supported for ${entity}`);
      company.remove(entity, id);
      return this.ok({ [entity]: { status: 'Deleted', domain: 'QBO', Id: id } });
    }
    if (operation !== 'update') return unsupported(`unknown operation ${operation}`);
    if (include === 'void') return VOIDABLE.has(entity) ? this.ok({ [entity]: company.void(entity, id) }) : unsupported(`${entity} cannot be voided`);
    if (!WRITABLE.has(entity)) return unsupported(`the stand-in does not update ${entity}`);
    const { sparse, ...fields } = body;
    // A sparse update changes the fields sent (an array such as Line as a whole); a full update replaces every writable field.
    const merged: Json = sparse === true ? { ...current, ...fields } : { ...fields, Id: id, MetaData: current.MetaData };
    const problem = validate(company, entity, merged);
    return problem === null ? this.ok({ [entity]: company.replace(entity, merged) }) : this.refuseProblem(where, problem);
  }

  // ---------------------------------------------------------------- plumbing

  private async route(req: IncomingMessage, url: URL): Promise<Answer> {
    const path = url.pathname;
    if (path === '/connect/oauth2' && (req.method === 'GET' || req.method === 'POST')) return this.authorize(req, url);
    if (path === '/oauth2/v1/tokens/bearer' && req.method === 'POST') return this.tokens(req, url);
    const link = /^\/attachments\/[^/]+\/([0-9a-f]{32})\/[^/]+$/.exec(path)?.[1];
    if (link !== undefined && req.method === 'GET') {
      const { answer, breach } = this.files.serve(link, url.searchParams, req.headers.authorization);
      if (breach !== null) this.violations.push({ ...this.where(req, url), reason: breach });
      return answer;
    }
    const [, realm, rest] = /^\/v3\/company\/([^/]+)\/(.+)$/.exec(path) ?? [];
    if (realm !== undefined && rest !== undefined) return this.apiCall(req, url, decodeURIComponent(realm), rest.split('/').map(decodeURIComponent));
    // The browser on the consent page asks for a favicon: not the connector's doing.
    if (path !== '/favicon.ico') this.violations.push({ ...this.where(req, url), reason: 'no such endpoint' });
    return { status: 404, body: 'Not Found' };
  }

  /** An API call: injected failures, the bearer token of the realm, Intuit's concurrency limit, then the API. */
  private async apiCall(req: IncomingMessage, url: URL, realmId: string, rest: string[]): Promise<Answer> {
    const rule = this.faults.take((r) => matchesLine(r.match, `${req.method ?? 'GET'} ${url.pathname}?${decodedQuery(url)}`));
    const failure =
      rule === undefined
        ? null
        : rule.status === 429
          ? { ...this.fault(429, 'throttle'), headers: { 'retry-after': String(rule.retryAfter ?? 1) } }
          : this.fault(rule.status, 'system');
    if (failure !== null && rule?.applied !== true) return failure;
    const busy = (this.inFlight.get(realmId) ?? 0) + 1;
    this.inFlight.set(realmId, busy);
    try {
      const answer =
        busy > MAX_CONCURRENT
          ? this.refuse(this.where(req, url), `more than ${MAX_CONCURRENT} concurrent requests to realm ${realmId}`, 429, 'throttle')
          : await this.authorized(req, url, realmId, rest);
      if (this.expireAfter !== null && --this.expireAfter <= 0) {
        this.expireAfter = null;
        this.oauth.expireAccessTokens();
      }
      return failure ?? answer;
    } finally {
      this.inFlight.set(realmId, (this.inFlight.get(realmId) ?? 1) - 1);
    }
  }

  private async authorized(req: IncomingMessage, url: URL, realmId: string, rest: string[]): Promise<Answer> {
    const check = this.oauth.bearer(req.headers.authorization);
    if (!check.ok && check.reason === 'expired') return this.fault(401, 'authentication', 'Token expired');
    if (!check.ok) {
      this.violations.push({ ...this.where(req, url), reason: `API call with ${check.reason} bearer token` });
      return this.fault(401, 'authentication', 'Token invalid');
    }
    if (check.grant.subject !== realmId)
      return this.refuse(this.where(req, url), `token of realm ${check.grant.subject} used for realm ${realmId}`, 403, 'authorization');
    const company = this.companies.get(realmId);
    if (company === undefined) return this.refuse(this.where(req, url), `no company ${realmId}`, 403, 'authorization');
    return this.api(req, url, company, rest);
  }
}

export async function startQuickBooksStandIn(options: StandInOptions = {}): Promise<QuickBooksStandIn> {
  const stand = new QuickBooksStandIn(options);
  const server = await serve(
    async (req, res) => {
      send(res, await stand.handle(req, new URL(req.url ?? '/', 'http://127.0.0.1')), INTUIT_TYPES);
    },
    (error, req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      stand.violations.push({
        method: req.method ?? 'GET',
        path,
        reason: `stand-in failure: ${error instanceof Error ? error.message : String(error)}`,
      });
      send(res, { status: 500, body: { ...faultBody('system'), time: qboTime(Date.now(), true) } }, INTUIT_TYPES);
    },
  );
  stand.url = server.url;
  stand.close = server.close;
  return stand;
}

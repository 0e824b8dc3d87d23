/**
 * An in-process stand-in of QuickBooks Online for tests: the Accounting API
 * (query, ChangeDataCapture, reads, sparse and full updates with SyncToken,
 * deletes, voids, CompanyInfo, Preferences, a multicurrency company's CompanyCurrency and ExchangeRate (by query), the BalanceSheet, ProfitAndLoss and CashFlow reports,
 * attachment downloads with their short-lived file links) and Intuit's OAuth (consent page and token endpoint), on 127.0.0.1 and a random
 * port. Stateful and seeded from test/fixtures/quickbooks, the response
 * shapes of Intuit's reference.
 *
 * It holds the connector to the rules of the real API and records every
 * breach in `violations` (tests expect none after normal runs): the query
 * subset it understands, `minorversion` on every call, `Accept:
 * application/json`, a bearer token for the company in the path, the
 * documented required fields of written entities, CDC's 30-day look-back and
 * the entities it covers, at most 10 concurrent requests per company, and
 * no Authorization header on the presigned file links (S3 refuses a second
 * credential).
 *
 * Fault controls: expire access tokens (next call 401 with the
 * AuthenticationFault body), revoke refresh tokens (invalid_grant), answer
 * the next N matching requests with 429 (Retry-After) or 5xx, change a record
 * between the connector's read and its write (stale SyncToken).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Company, qboTime } from './company.ts';
import { ENTITIES, faultBody, isEntity, type Entity, type Json } from './fixtures.ts';
import { consentPage, errorPage, intuitOAuth, issueTokens, type IssuedTokens, type OAuthClient } from './oauth.ts';
import { parseQuery, QueryError, runQuery } from '../../../packages/sandbox/src/simulators/quickbooks/query.ts';
import { isReportName, monthlyReport, ReportError } from './report.ts';
import { DELETABLE, validate, VOIDABLE, WRITABLE } from './validate.ts';
import { Faults, matchesLine, readBody, send, serve, type ContentTypes } from '../kit/server.ts';

export type { IssuedTokens, OAuthClient } from './oauth.ts';
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

export interface StandInOptions {
  realmId?: string;
  companyName?: string;
  generatedBills?: number;
  /** The default company has multicurrency on (CompanyCurrency and ExchangeRate records); off by default, as recorded. */
  multiCurrency?: boolean;
  now?: () => number;
}

/** Intuit's documented limit of concurrent requests per company and app. */
export const MAX_CONCURRENT = 10;
const CDC_LOOKBACK_MS = 30 * 24 * 60 * 60_000;
/** How long the file link GET download/{id} answers stays valid (QBO's TempDownloadUri: 15 minutes). */
export const FILE_LINK_SECONDS = 15 * 60;
/** Entities ChangeDataCapture does not cover (Intuit's list). */
const NOT_IN_CDC = new Set(['JournalCode', 'TaxAgency', 'TimeActivity', 'TaxCode', 'TaxRate']);

export interface QuickBooksStandIn {
  url: string;
  /** The default company. */
  realmId: string;
  company(realmId?: string): Company;
  addCompany(options: { realmId: string; name?: string; generatedBills?: number; multiCurrency?: boolean }): Company;
  registerClient(client: OAuthClient): void;
  /** Tokens as if the consent flow had run, for connections made without a browser. */
  issueTokens(options: { clientId: string; realmId?: string; expiresInSeconds?: number }): IssuedTokens;
  /** Every access token issued so far is refused from now on (401 AuthenticationFault). */
  expireAccessTokens(): void;
  /** Expires every access token once `requests` more API requests were answered (an expiry mid-sync). */
  expireAccessTokensAfter(requests: number): void;
  /** Every refresh token issued so far is refused (400 invalid_grant). */
  revokeRefreshTokens(): void;
  failNext(rule: FailRule): void;
  /** Changes the record right after the next time the API serves it by id: the caller's SyncToken is then stale. */
  editAfterNextRead(entity: Entity, id: string, change: (record: Json) => void, realmId?: string): void;
  /** Runs `change` on the company once the next query of `entity` has been answered (records changing between pages). */
  afterNextQuery(entity: Entity, change: (company: Company) => void, realmId?: string): void;
  /** The company the consent page connects. */
  consentRealm: string;
  readonly violations: Violation[];
  readonly log: LoggedRequest[];
  /** Calls of the token endpoint. */
  readonly tokenCalls: number;
  /** Answered requests whose `METHOD /path?query` (query decoded) matches. */
  requests(match?: string | RegExp): number;
  /** Requests answered from the request id cache (a write sent again with its requestid). */
  readonly repeatedRequestIds: number;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: Json | string | Buffer;
  headers?: Record<string, string>;
}

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The query string with its values decoded, for logs and matching. */
function decodedQuery(url: URL): string {
  return [...url.searchParams].map(([name, value]) => `${name}=${value}`).join('&');
}

/** Intuit's content types: JSON as UTF-8, the consent and error pages as HTML, file links as text; a transaction id on every answer. */
const INTUIT_TYPES: ContentTypes = {
  json: 'application/json;charset=UTF-8',
  text: (body) => (body.startsWith('<') ? 'text/html; charset=utf-8' : 'text/plain'),
  headers: () => ({ intuit_tid: `1-${Date.now().toString(16)}` }),
};

export async function startQuickBooksStandIn(options: StandInOptions = {}): Promise<QuickBooksStandIn> {
  const now = options.now ?? Date.now;
  const companies = new Map<string, Company>();
  const oauth = intuitOAuth(now);
  const violations: Violation[] = [];
  const log: LoggedRequest[] = [];
  const rules = new Faults<FailRule>();
  const requestIds = new Map<string, { fingerprint: string; answer: Answer }>();
  const afterRead = new Map<string, (record: Json) => void>();
  const afterQuery = new Map<string, (company: Company) => void>();
  const inFlight = new Map<string, number>();
  const fileLinks = new Map<string, { realmId: string; id: string; expires: number }>();
  let repeated = 0;
  let expireAfter: number | null = null;

  const addCompany = (input: { realmId: string; name?: string; generatedBills?: number; multiCurrency?: boolean }): Company => {
    const company = new Company({ ...input, now });
    companies.set(input.realmId, company);
    return company;
  };
  const defaultRealm = options.realmId ?? '4620816365178424710';
  addCompany({
    realmId: defaultRealm,
    ...(options.companyName === undefined ? {} : { name: options.companyName }),
    generatedBills: options.generatedBills ?? 0,
    multiCurrency: options.multiCurrency ?? false,
  });

  const time = (): string => qboTime(now(), true);
  const fault = (status: number, name: string, detail?: string, element?: string): Answer => ({
    status,
    body: { ...faultBody(name, detail, element), time: time() },
  });

  function refuse(req: { method: string; path: string }, status: number, name: string, reason: string, element?: string): Answer {
    violations.push({ method: req.method, path: req.path, reason });
    return fault(status, name, reason, element);
  }

  // ---------------------------------------------------------------- OAuth

  async function authorize(req: IncomingMessage, url: URL): Promise<Answer> {
    const params = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams;
    const clientId = params.get('client_id') ?? '';
    const redirectUri = params.get('redirect_uri') ?? '';
    const client = oauth.clients.get(clientId);
    const where = { method: req.method ?? 'GET', path: url.pathname };
    if (client === undefined) {
      violations.push({ ...where, reason: `unknown client_id "${clientId}"` });
      return { status: 400, body: errorPage('This app is not registered with QuickBooks (unknown client_id).') };
    }
    if (client.redirectUri !== redirectUri) {
      violations.push({ ...where, reason: `redirect_uri "${redirectUri}" is not the registered ${client.redirectUri}` });
      return { status: 400, body: errorPage('The redirect_uri does not match the one registered for this app.') };
    }
    const state = params.get('state') ?? '';
    const scope = params.get('scope') ?? '';
    if (req.method !== 'POST') {
      const problems = [
        params.get('response_type') === 'code' ? null : 'response_type must be code',
        scope.split(/\s+/).includes('com.intuit.quickbooks.accounting') ? null : 'scope must include com.intuit.quickbooks.accounting',
        state === '' ? 'state is required' : null,
      ].filter((p): p is string => p !== null);
      if (problems.length > 0) {
        violations.push({ ...where, reason: problems.join('; ') });
        return { status: 400, body: errorPage(problems.join('; ')) };
      }
      const company = companies.get(stand.consentRealm);
      return { status: 200, body: consentPage({ clientId, redirectUri, state, scope, companyName: company?.name ?? stand.consentRealm }) };
    }
    const back = new URL(redirectUri);
    if (params.get('decision') === 'allow') {
      back.searchParams.set('code', oauth.code(oauth.grant(client.clientId, stand.consentRealm), redirectUri));
      back.searchParams.set('state', state);
      back.searchParams.set('realmId', stand.consentRealm);
    } else {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('state', state);
    }
    return { status: 302, body: '', headers: { location: back.href } };
  }

  async function tokens(req: IncomingMessage, path: string): Promise<Answer> {
    if (!(req.headers.accept ?? '').includes('application/json'))
      violations.push({ method: 'POST', path, reason: 'token request without Accept: application/json' });
    if (!(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
      violations.push({ method: 'POST', path, reason: 'token request body is not application/x-www-form-urlencoded' });
    }
    const answer = oauth.token(new URLSearchParams(await readBody(req)), req.headers.authorization);
    return { status: answer.status, body: answer.body, headers: { 'cache-control': 'no-store' } };
  }

  // ---------------------------------------------------------------- API

  async function api(req: IncomingMessage, url: URL, realmId: string, rest: string[]): Promise<Answer> {
    const method = req.method ?? 'GET';
    const where = { method, path: url.pathname };
    const check = oauth.bearer(req.headers.authorization);
    if (!check.ok) {
      if (check.reason !== 'expired') violations.push({ ...where, reason: `API call with ${check.reason} bearer token` });
      return fault(401, 'authentication', check.reason === 'expired' ? 'Token expired' : 'Token invalid');
    }
    if (check.grant.subject !== realmId)
      return refuse(where, 403, 'authorization', `token of realm ${check.grant.subject} used for realm ${realmId}`);
    const company = companies.get(realmId);
    if (company === undefined) return refuse(where, 403, 'authorization', `no company ${realmId}`);
    if (!(req.headers.accept ?? '').includes('application/json'))
      return refuse(where, 400, 'required-param-missing', 'missing Accept: application/json (QBO would answer XML)', 'Accept');
    const minor = url.searchParams.get('minorversion');
    if (minor === null || !/^\d+$/.test(minor))
      return refuse(where, 400, 'required-param-missing', 'every call must pin minorversion', 'minorversion');
    const [resource = '', id, ...extra] = rest;
    if (method === 'GET') {
      if (resource === 'query' && id === undefined) return query(where, company, url);
      if (resource === 'cdc' && id === undefined) return cdc(where, company, url);
      if (resource === 'preferences' && id === undefined) return { status: 200, body: { Preferences: company.preferences, time: time() } };
      if (resource === 'companyinfo' && id !== undefined && extra.length === 0) {
        if (id !== realmId) return refuse(where, 400, 'object-not-found', `companyinfo/${id} is not the realm ${realmId}`);
        return { status: 200, body: { CompanyInfo: company.companyInfo, time: time() } };
      }
      if (resource === 'reports' && isReportName(id) && extra.length === 0) {
        try {
          return { status: 200, body: monthlyReport(company.reports[id], url.searchParams, time()) };
        } catch (error) {
          if (error instanceof ReportError) return refuse(where, 400, 'required-param-missing', error.message);
          throw error;
        }
      }
      if (resource === 'download' && id !== undefined && extra.length === 0) return download(company, id);
      const entity = entityOf(resource);
      if (entity !== null && id !== undefined && extra.length === 0) return read(company, entity, id);
    }
    if (method === 'POST' && id === undefined) {
      const entity = entityOf(resource);
      if (entity !== null) return write(req, where, company, entity, url);
    }
    return refuse(where, 400, 'unsupported-operation', `the stand-in has no ${method} ${rest.join('/')}`);
  }

  /** The entity of a REST resource name (lower case: bill, journalentry, …). */
  function entityOf(resource: string): Entity | null {
    return ENTITIES.find((e) => e.toLowerCase() === resource) ?? null;
  }

  function query(where: { method: string; path: string }, company: Company, url: URL): Answer {
    const text = url.searchParams.get('query') ?? '';
    try {
      const parsed = parseQuery(text, isEntity);
      const page = runQuery(parsed, company.list(parsed.entity));
      const response: Json = page.length === 0 ? {} : { [parsed.entity]: page, startPosition: parsed.startPosition, maxResults: page.length };
      const key = `${company.realmId}|${parsed.entity}`;
      const change = afterQuery.get(key);
      if (change !== undefined) {
        afterQuery.delete(key);
        change(company);
      }
      return { status: 200, body: { QueryResponse: response, time: time() } };
    } catch (error) {
      if (error instanceof QueryError) return refuse(where, 400, 'query-parser', `QueryParserError: ${error.message} in "${text}"`);
      throw error;
    }
  }

  function cdc(where: { method: string; path: string }, company: Company, url: URL): Answer {
    const entities = (url.searchParams.get('entities') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    const since = Date.parse(url.searchParams.get('changedSince') ?? '');
    if (entities.length === 0) return refuse(where, 400, 'required-param-missing', 'cdc needs entities', 'entities');
    if (Number.isNaN(since)) return refuse(where, 400, 'required-param-missing', 'cdc needs changedSince as a date-time', 'changedSince');
    if (now() - since > CDC_LOOKBACK_MS)
      return refuse(where, 400, 'required-param-missing', 'changedSince must be within the last 30 days', 'changedSince');
    const responses: Json[] = [];
    for (const entity of entities) {
      if (NOT_IN_CDC.has(entity) || !isEntity(entity))
        return refuse(where, 400, 'unsupported-operation', `ChangeDataCapture does not cover ${entity}`);
      const changed = company.changedSince(entity, since);
      responses.push(changed.length === 0 ? {} : { [entity]: changed, startPosition: 1, maxResults: changed.length });
    }
    return { status: 200, body: { CDCResponse: [{ QueryResponse: responses }], time: time() } };
  }

  function read(company: Company, entity: Entity, id: string): Answer {
    const record = company.find(entity, id);
    if (record === null) return fault(400, 'object-not-found', `Object Not Found : ${entity} ${id} does not exist or was deleted`);
    const key = `${company.realmId}|${entity}|${id}`;
    const change = afterRead.get(key);
    if (change !== undefined) {
      afterRead.delete(key);
      company.edit(entity, id, change);
    }
    return { status: 200, body: { [entity]: record, time: time() } };
  }

  /** GET download/{attachableId}: a presigned link to the file, as plain text. */
  function download(company: Company, id: string): Answer {
    const file = company.file(id);
    if (file === null) return fault(400, 'object-not-found', `Object Not Found : Attachable ${id} does not exist, was deleted or has no file`);
    const key = randomBytes(16).toString('hex');
    const expires = Math.floor(now() / 1000) + FILE_LINK_SECONDS;
    fileLinks.set(key, { realmId: company.realmId, id, expires });
    const link = `${stand.url}/attachments/${company.realmId}/${key}/${encodeURIComponent(file.fileName)}?Expires=${expires}&Signature=${key}`;
    return { status: 200, body: link, headers: { 'content-type': 'text/plain;charset=UTF-8' } };
  }

  /** The file store behind a download link: presigned, valid for FILE_LINK_SECONDS, refuses another credential. */
  function fileAtLink(req: IncomingMessage, url: URL, key: string): Answer {
    const where = { method: req.method ?? 'GET', path: url.pathname };
    const s3Error = (status: number, code: string, message: string): Answer => ({
      status,
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      headers: { 'content-type': 'application/xml' },
    });
    const link = fileLinks.get(key);
    if (link === undefined || url.searchParams.get('Signature') !== key || url.searchParams.get('Expires') !== String(link.expires)) {
      violations.push({ ...where, reason: 'file link that GET download/{id} did not answer (or altered)' });
      return s3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    if (req.headers.authorization !== undefined) {
      violations.push({ ...where, reason: 'Authorization header sent to a presigned file link' });
      return s3Error(
        400,
        'InvalidArgument',
        'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      );
    }
    if (now() / 1000 > link.expires) return s3Error(403, 'AccessDenied', 'Request has expired');
    const file = companies.get(link.realmId)?.file(link.id) ?? null;
    if (file === null) return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    return { status: 200, body: file.content, headers: { 'content-type': file.contentType } };
  }

  async function write(req: IncomingMessage, where: { method: string; path: string }, company: Company, entity: Entity, url: URL): Promise<Answer> {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req)) as unknown;
    } catch {
      return refuse(where, 400, 'required-param-missing', 'the request body is not JSON');
    }
    if (!isJson(body)) return refuse(where, 400, 'required-param-missing', 'the request body is not a JSON object');
    const operation = url.searchParams.get('operation') ?? (body.Id === undefined ? 'create' : 'update');
    const requestId = url.searchParams.get('requestid');
    const fingerprint = `${entity}|${operation}|${url.searchParams.get('include') ?? ''}`;
    if (requestId !== null) {
      const cached = requestIds.get(`${company.realmId}|${requestId}`);
      if (cached !== undefined) {
        if (cached.fingerprint !== fingerprint)
          return refuse(
            where,
            400,
            'required-param-missing',
            `requestid ${requestId} reused for another request (${cached.fingerprint}, now ${fingerprint})`,
          );
        repeated += 1;
        return cached.answer;
      }
    }
    const answer = apply(where, company, entity, operation, url.searchParams.get('include'), body);
    if (requestId !== null && answer.status === 200) requestIds.set(`${company.realmId}|${requestId}`, { fingerprint, answer });
    return answer;
  }

  function apply(
    where: { method: string; path: string },
    company: Company,
    entity: Entity,
    operation: string,
    include: string | null,
    body: Json,
  ): Answer {
    const ok = (record: Json): Answer => ({ status: 200, body: { [entity]: record, time: time() } });
    if (operation === 'create') {
      if (!WRITABLE.has(entity)) return refuse(where, 400, 'unsupported-operation', `the stand-in does not create ${entity}`);
      const problem = validate(company, entity, body);
      if (problem !== null) return refuse(where, 400, problem.fault, problem.detail, problem.element);
      return ok(company.insert(entity, body));
    }
    const id = typeof body.Id === 'string' ? body.Id : null;
    if (id === null) return refuse(where, 400, 'required-param-missing', `${operation} needs Id`, 'Id');
    if (typeof body.SyncToken !== 'string') return refuse(where, 400, 'required-param-missing', `${operation} needs SyncToken`, 'SyncToken');
    const current = company.find(entity, id);
    if (current === null) return fault(400, 'object-not-found', `Object Not Found : ${entity} ${id} does not exist or was deleted`);
    if (current.SyncToken !== body.SyncToken) return fault(400, 'stale-object');
    if (operation === 'delete') {
      if (!DELETABLE.has(entity)) return refuse(where, 400, 'unsupported-operation', `Operation Delete is not supported for ${entity}`);
      company.remove(entity, id);
      return ok({ status: 'Deleted', domain: 'QBO', Id: id });
    }
    if (operation !== 'update') return refuse(where, 400, 'unsupported-operation', `unknown operation ${operation}`);
    if (include === 'void') {
      if (!VOIDABLE.has(entity)) return refuse(where, 400, 'unsupported-operation', `${entity} cannot be voided`);
      return ok(company.void(entity, id));
    }
    if (!WRITABLE.has(entity)) return refuse(where, 400, 'unsupported-operation', `the stand-in does not update ${entity}`);
    const { sparse, ...fields } = body;
    // A sparse update changes the fields sent (an array such as Line as a whole); a full update replaces every writable field.
    const merged: Json = sparse === true ? { ...current, ...fields } : { ...fields, Id: id, MetaData: current.MetaData };
    const problem = validate(company, entity, merged);
    if (problem !== null) return refuse(where, 400, problem.fault, problem.detail, problem.element);
    return ok(company.replace(entity, merged));
  }

  // ---------------------------------------------------------------- plumbing

  async function route(req: IncomingMessage, url: URL): Promise<Answer> {
    const path = url.pathname;
    if (path === '/connect/oauth2' && (req.method === 'GET' || req.method === 'POST')) return authorize(req, url);
    if (path === '/oauth2/v1/tokens/bearer' && req.method === 'POST') return tokens(req, path);
    const link = /^\/attachments\/[^/]+\/([0-9a-f]{32})\/[^/]+$/.exec(path);
    if (link?.[1] !== undefined && req.method === 'GET') return fileAtLink(req, url, link[1]);
    const match = /^\/v3\/company\/([^/]+)\/(.+)$/.exec(path);
    if (match?.[1] !== undefined && match[2] !== undefined) {
      const rule = rules.take((r) => matchesLine(r.match, `${req.method ?? 'GET'} ${path}?${decodedQuery(url)}`));
      const failure =
        rule === undefined
          ? null
          : rule.status === 429
            ? { ...fault(429, 'throttle'), headers: { 'retry-after': String(rule.retryAfter ?? 1) } }
            : fault(rule.status, 'system');
      if (failure !== null && rule?.applied !== true) return failure;
      const realmId = decodeURIComponent(match[1]);
      const busy = (inFlight.get(realmId) ?? 0) + 1;
      inFlight.set(realmId, busy);
      try {
        if (busy > MAX_CONCURRENT)
          return refuse(
            { method: req.method ?? 'GET', path },
            429,
            'throttle',
            `more than ${MAX_CONCURRENT} concurrent requests to realm ${realmId}`,
          );
        const answer = await api(req, url, realmId, match[2].split('/').map(decodeURIComponent));
        if (expireAfter !== null && --expireAfter <= 0) {
          expireAfter = null;
          oauth.expireAccessTokens();
        }
        return failure ?? answer;
      } finally {
        inFlight.set(realmId, (inFlight.get(realmId) ?? 1) - 1);
      }
    }
    // The browser on the consent page asks for a favicon: not the connector's doing.
    if (path !== '/favicon.ico') violations.push({ method: req.method ?? 'GET', path, reason: 'no such endpoint' });
    return { status: 404, body: 'Not Found' };
  }

  const server = await serve(
    async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const at = now();
      const answer = await route(req, url);
      log.push({ method: req.method ?? 'GET', path: url.pathname, query: decodedQuery(url), status: answer.status, at });
      send(res, answer, INTUIT_TYPES);
    },
    (error, req, res) => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      violations.push({ method: req.method ?? 'GET', path, reason: `stand-in failure: ${error instanceof Error ? error.message : String(error)}` });
      send(res, fault(500, 'system'), INTUIT_TYPES);
    },
  );

  const stand: QuickBooksStandIn = {
    url: server.url,
    realmId: defaultRealm,
    consentRealm: defaultRealm,
    company(realmId = defaultRealm) {
      const company = companies.get(realmId);
      if (company === undefined) throw new Error(`the stand-in has no company ${realmId}`);
      return company;
    },
    addCompany,
    registerClient: (client) => {
      oauth.register(client);
    },
    issueTokens: ({ clientId, realmId = defaultRealm, expiresInSeconds }) => issueTokens(oauth, realmId, clientId, expiresInSeconds),
    expireAccessTokens: () => {
      oauth.expireAccessTokens();
    },
    expireAccessTokensAfter: (requests) => {
      expireAfter = requests;
    },
    revokeRefreshTokens: () => {
      oauth.revokeRefreshTokens();
    },
    failNext: (rule) => {
      rules.add({ ...rule }, rule.count);
    },
    editAfterNextRead(entity, id, change, realmId = defaultRealm) {
      afterRead.set(`${realmId}|${entity}|${id}`, change);
    },
    afterNextQuery(entity, change, realmId = defaultRealm) {
      afterQuery.set(`${realmId}|${entity}`, change);
    },
    violations,
    log,
    get tokenCalls() {
      return oauth.calls.total;
    },
    requests: (match) => log.filter((entry) => matchesLine(match, `${entry.method} ${entry.path}?${entry.query}`)).length,
    get repeatedRequestIds() {
      return repeated;
    },
    close: server.close,
  };
  return stand;
}

/**
 * Calls to the QuickBooks Online Accounting API: every call goes through
 * authorizedRequest (fresh token, one refresh and retry on a 401), to the
 * company of the connection's realm, with the pinned minor version, and has
 * its Fault classified. Reads page through the query endpoint; changes come
 * from ChangeDataCapture.
 */
import type { ConnectorContext, OAuthTokens } from '../connector.ts';
import { platformAddress } from '../addresses.ts';
import { classifyResponse, PlatformError } from '../errors.ts';
import type { PlatformRequest } from '../http.ts';
import { authorizedRequest, bearer } from '../oauth-request.ts';
import { classifyQboError, faultError, faultOf, type FaultContext } from './errors.ts';
import { parseEntity, parseRecords } from './contract.ts';
import type { QboPreferences } from './generated/native.ts';
import { isRecord, records, text } from '../readers.ts';

/** The API minor version every call pins (QBO serves the base version without one). */
export const MINOR_VERSION = 75;

/** QBO's largest MAXRESULTS for a query page, and the most objects a CDC answer holds. */
export const PAGE_SIZE = 1000;

/** The API host: QUICKBOOKS_API_URL, else Intuit's sandbox or production host for the connection's environment. */
export function apiUrl(environment: 'sandbox' | 'production'): string {
  return platformAddress(
    'QUICKBOOKS_API_URL',
    environment === 'production' ? 'https://quickbooks.api.intuit.com' : 'https://sandbox-quickbooks.api.intuit.com',
  );
}

/** The company (realm) the tokens were issued for; QBO's OAuth callback named it. */
export function realmOf(tokens: OAuthTokens): string {
  if (tokens.tenantId === null || tokens.tenantId === '') {
    throw new PlatformError({
      kind: 'unauthorized',
      message: 'The QuickBooks Online connection does not know its company (realmId): the end user must link it again.',
      requestSent: false,
    });
  }
  return tokens.tenantId;
}

export interface QboCall extends FaultContext {
  method: 'GET' | 'POST';
  /** Below /v3/company/{realmId}/ ("query", "bill/25", "reports/BalanceSheet"). */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as `requestid`: QBO answers a repeated request id with the outcome of the first, so such writes may be retried. */
  requestId?: string;
  /** For logs and metrics. */
  operation: string;
}

function qboRequest(
  ctx: ConnectorContext,
  tokens: OAuthTokens,
  call: QboCall,
  accept: string,
  responseType: 'auto' | 'text' | 'bytes',
): PlatformRequest {
  return {
    method: call.method,
    url: `${apiUrl(ctx.environment)}/v3/company/${encodeURIComponent(realmOf(tokens))}/${call.path}`,
    query: { ...call.query, minorversion: MINOR_VERSION, requestid: call.requestId },
    headers: bearer(tokens, { accept }),
    ...(call.body === undefined ? {} : { body: call.body }),
    idempotent: call.method === 'GET' || call.requestId !== undefined,
    responseType,
    operation: `quickbooks ${call.operation}`,
    classifyError: (error, res) => classifyQboError(error, res, call),
  };
}

/** Throws the Fault a 200 answer may carry, classified as an error status's would be (its status's kind: bad_request). */
function throwFault(body: unknown, status: number, call: QboCall): void {
  const fault = faultOf(body);
  if (fault !== null) throw faultError(fault, classifyResponse({ status, headers: {}, body }), call);
}

/** One API call; the parsed JSON answer. A Fault inside a 200 answer is thrown like an error status. */
export async function callQbo(ctx: ConnectorContext, call: QboCall): Promise<Record<string, unknown>> {
  const response = await authorizedRequest(ctx, (tokens) => qboRequest(ctx, tokens, call, 'application/json', 'auto'));
  const body = response.body;
  throwFault(body, response.status, call);
  if (!isRecord(body))
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `QuickBooks Online answered ${call.operation} with no JSON object`,
    });
  return body;
}

/**
 * The short-lived address of an attachable's file: GET download/{attachableId}
 * answers it as plain text (a presigned link, valid for minutes). Errors come
 * as Faults (610 when the attachable is gone).
 */
export async function temporaryDownloadUrl(ctx: ConnectorContext, attachableId: string): Promise<string> {
  const call: QboCall = { method: 'GET', path: `download/${encodeURIComponent(attachableId)}`, operation: 'download Attachable' };
  // Faults are JSON; the link itself is text.
  const response = await authorizedRequest(ctx, (tokens) => qboRequest(ctx, tokens, call, 'text/plain, application/json', 'text'));
  const text = typeof response.body === 'string' ? response.body.trim() : '';
  let answer: unknown = text;
  if (/^[{"]/.test(text)) {
    try {
      answer = JSON.parse(text);
    } catch {
      // Not JSON after all: judged as a link below.
    }
  }
  throwFault(answer, response.status, call);
  if (typeof answer !== 'string' || !URL.canParse(answer) || !/^https?:$/.test(new URL(answer).protocol)) {
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `QuickBooks Online answered ${call.operation} with no download link`,
      rawExcerpt: text.slice(0, 2000),
    });
  }
  return answer;
}

/**
 * The PDF QBO renders of an invoice: GET invoice/{invoiceId}/pdf with Accept: application/pdf answers the bytes;
 * errors come as Faults (610 when the invoice is gone). A 200 that is not a PDF is refused rather than passed on.
 */
export async function invoicePdf(ctx: ConnectorContext, invoiceId: string): Promise<Buffer> {
  const call: QboCall = { method: 'GET', path: `invoice/${encodeURIComponent(invoiceId)}/pdf`, operation: 'read Invoice PDF' };
  const response = await authorizedRequest(ctx, (tokens) => qboRequest(ctx, tokens, call, 'application/pdf', 'bytes'));
  const body = response.body instanceof Uint8Array ? Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength) : null;
  if (body === null || !(response.headers['content-type'] ?? '').startsWith('application/pdf')) {
    const text = body?.toString('utf8') ?? '';
    if (text.startsWith('{')) throwFault(safeJson(text), response.status, call);
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `QuickBooks Online answered ${call.operation} with no PDF`,
      rawExcerpt: text.slice(0, 2000),
    });
  }
  return body;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The company's Preferences (home currency, multicurrency), checked against the contract; undefined when not answered. */
export async function preferences(ctx: ConnectorContext): Promise<QboPreferences | undefined> {
  const body = await callQbo(ctx, { method: 'GET', path: 'preferences', operation: 'read Preferences' });
  return body.Preferences === undefined ? undefined : parseEntity('Preferences', body.Preferences);
}

/** A string literal of QBO's query language. */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An instant as QBO writes times in queries and CDC: whole seconds with an explicit offset. */
export function qboTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;
}

export interface QueryPage {
  records: Record<string, unknown>[];
  /** QBO's clock when it answered. */
  time: string | null;
}

/**
 * One page of `SELECT * FROM <entity>`: conditions joined with AND, ordered by Id (by nothing for entities without
 * one: `orderBy` null), STARTPOSITION is 1-based.
 */
export async function queryPage(
  ctx: ConnectorContext,
  entity: string,
  conditions: readonly string[],
  startPosition: number,
  maxResults = PAGE_SIZE,
  orderBy: string | null = 'Id',
): Promise<QueryPage> {
  const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  const query = `SELECT * FROM ${entity}${where}${orderBy === null ? '' : ` ORDERBY ${orderBy}`} STARTPOSITION ${startPosition} MAXRESULTS ${maxResults}`;
  const body = await callQbo(ctx, { method: 'GET', path: 'query', query: { query }, operation: `query ${entity}` });
  const list = isRecord(body.QueryResponse) ? body.QueryResponse[entity] : undefined;
  return { records: list === undefined ? [] : parseRecords(entity, list), time: text(body.time) };
}

/** ChangeDataCapture of one entity since `changedSince` (within the last 30 days): changed records and tombstones (status "Deleted"). */
export async function changes(ctx: ConnectorContext, entity: string, changedSince: string): Promise<QueryPage> {
  const body = await callQbo(ctx, {
    method: 'GET',
    path: 'cdc',
    query: { entities: entity, changedSince },
    operation: `cdc ${entity}`,
  });
  const found: Record<string, unknown>[] = [];
  for (const cdc of records(body.CDCResponse)) {
    for (const response of records(cdc.QueryResponse)) {
      const list = response[entity];
      if (list !== undefined) found.push(...parseRecords(entity, list));
    }
  }
  return { records: found, time: text(body.time) };
}

/**
 * Platform failures, in one place: how an HTTP answer or a network failure is
 * classified, whether it may be retried, whether a write that failed this way
 * may still have been applied, and which catalogued ServiceError it becomes.
 * Connectors never decide these themselves; they may throw a PlatformError of
 * their own for platform-specific cases (a billing message inside a 400 body).
 */
import { STATUS_CODES } from 'node:http';
import { ServiceError, type ErrorCode, type ErrorMetadata } from '../errors/catalogue.ts';

export type PlatformErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'billing'
  | 'duplicate';

interface KindRule {
  /** Worth another attempt after a delay. */
  retryable: boolean;
  /** A write that failed this way may have been applied, if the request reached the platform. */
  indeterminate: boolean;
  code: ErrorCode;
  summary: string;
}

/** The whole policy per kind. 429 is not indeterminate: the platform refused before acting. */
const KIND_RULES: Readonly<Record<PlatformErrorKind, KindRule>> = {
  bad_request: { retryable: false, indeterminate: false, code: 'PLATFORM_BAD_REQUEST', summary: 'The platform rejected the request' },
  unauthorized: { retryable: false, indeterminate: false, code: 'PLATFORM_UNAUTHORIZED', summary: 'The platform refused the credentials' },
  forbidden: { retryable: false, indeterminate: false, code: 'PLATFORM_UNAUTHORIZED', summary: 'The platform denied access' },
  not_found: { retryable: false, indeterminate: false, code: 'PLATFORM_BAD_REQUEST', summary: 'The platform did not find the record' },
  conflict: { retryable: false, indeterminate: false, code: 'PLATFORM_BAD_REQUEST', summary: 'The platform reported a conflict' },
  rate_limited: { retryable: true, indeterminate: false, code: 'PLATFORM_RATE_LIMITED', summary: 'The platform rate-limited the request' },
  server: { retryable: true, indeterminate: true, code: 'PLATFORM_ERROR', summary: 'The platform failed' },
  network: { retryable: true, indeterminate: true, code: 'PLATFORM_ERROR', summary: 'The platform could not be reached' },
  timeout: { retryable: true, indeterminate: true, code: 'PLATFORM_ERROR', summary: 'The platform did not answer in time' },
  billing: { retryable: false, indeterminate: false, code: 'PLATFORM_BILLING_ISSUE', summary: 'The platform account has a billing problem' },
  duplicate: {
    retryable: false,
    indeterminate: false,
    code: 'DUPLICATE_VALUE_CONFLICT',
    summary: 'A platform record with the same value already exists',
  },
};

export const PLATFORM_ERROR_KINDS = Object.keys(KIND_RULES) as PlatformErrorKind[];

/** HTTP statuses with a kind of their own; other 5xx are `server`, other 4xx `bad_request`. */
const STATUS_KINDS: Readonly<Partial<Record<number, PlatformErrorKind>>> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'billing',
  403: 'forbidden',
  404: 'not_found',
  408: 'timeout',
  409: 'conflict',
  410: 'not_found',
  422: 'bad_request',
  429: 'rate_limited',
};

/** Failures before any byte of the request left: even a create may be retried. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Response headers worth keeping in error_metadata.platform (retry and rate-limit info, request ids). */
const KEPT_HEADER = /^retry-after$|rate-?limit|limit-remaining|call-limit|^x-request-id$|^request-id$|^intuit_tid$|^x-correlation-id$/;

const MAX_MESSAGE = 1000;
const MAX_EXCERPT = 2000;

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  /** The platform's own message, kept for human_readable. */
  message: string;
  httpStatus?: number | null;
  code?: string | null;
  retryAfterMs?: number | null;
  rawExcerpt?: string | null;
  headers?: Record<string, string>;
  duplicateProperty?: string | null;
  /** Whether the request may have reached the platform; default true (the safe answer for writes). */
  requestSent?: boolean;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly httpStatus: number | null;
  readonly platformMessage: string;
  readonly platformCode: string | null;
  readonly retryAfterMs: number | null;
  readonly rawExcerpt: string | null;
  /** Subset of the response headers: Retry-After, rate-limit counters, request ids. */
  readonly headers: Record<string, string>;
  readonly duplicateProperty: string | null;
  readonly requestSent: boolean;

  constructor(init: PlatformErrorInit) {
    const status = init.httpStatus ?? null;
    super(
      `${KIND_RULES[init.kind].summary}${status === null ? '' : ` (HTTP ${status})`}: ${init.message}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = 'PlatformError';
    this.kind = init.kind;
    this.httpStatus = status;
    this.platformMessage = init.message;
    this.platformCode = init.code ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.rawExcerpt = init.rawExcerpt ?? null;
    this.headers = init.headers ?? {};
    this.duplicateProperty = init.duplicateProperty ?? null;
    this.requestSent = init.requestSent ?? true;
  }

  /** 429, 5xx, network and timeout failures are worth another attempt; the rest are final. */
  get retryable(): boolean {
    return KIND_RULES[this.kind].retryable;
  }

  /** A write that failed this way may have been applied: check before trying again. */
  get indeterminate(): boolean {
    return KIND_RULES[this.kind].indeterminate && this.requestSent;
  }

  toServiceError(): ServiceError {
    return toServiceError(this);
  }
}

/**
 * Whether the HTTP layer may try again by itself. A non-idempotent request is
 * retried only when it provably never left (connection refused, DNS): anything
 * else is handed to the write layer, which knows how to check what happened.
 */
export function mayRetry(error: PlatformError, idempotent: boolean): boolean {
  return error.retryable && (idempotent || !error.requestSent);
}

export function kindOfStatus(status: number): PlatformErrorKind {
  return STATUS_KINDS[status] ?? (status >= 500 ? 'server' : 'bad_request');
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Classifies a non-success HTTP answer. `now` dates an HTTP-date Retry-After. */
export function classifyResponse(response: ErrorResponse, now: number = Date.now()): PlatformError {
  const headers = keptHeaders(response.headers);
  const retryAfter = response.headers['retry-after'];
  return new PlatformError({
    kind: kindOfStatus(response.status),
    httpStatus: response.status,
    message: messageOf(response.body) ?? `HTTP ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trim(),
    code: codeOf(response.body),
    retryAfterMs: retryAfter === undefined ? null : parseRetryAfter(retryAfter, now),
    rawExcerpt: excerptOf(response.body),
    headers,
  });
}

/** Classifies what fetch threw. Timeouts count as sent: the platform may be working on it. */
export function classifyFailure(error: unknown): PlatformError {
  if (error instanceof PlatformError) return error;
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new PlatformError({ kind: 'timeout', message: 'No answer before the request timeout', requestSent: true, cause: error });
  }
  const code = systemCode(error);
  const detail = deepestMessage(error);
  return new PlatformError({
    kind: 'network',
    message: code === null || detail.includes(code) ? detail : `${code}: ${detail}`,
    code,
    requestSent: code === null || !NOT_SENT_CODES.has(code),
    cause: error,
  });
}

/** Retry-After as seconds (integer or decimal) or an HTTP date; null when unreadable. */
export function parseRetryAfter(value: string, now: number): number | null {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The catalogued error the API answers with; human_readable keeps the platform's message. */
export function toServiceError(error: PlatformError): ServiceError {
  const rule = KIND_RULES[error.kind];
  const platform: Record<string, unknown> = { status: error.httpStatus, code: error.platformCode, headers: error.headers };
  if (error.retryAfterMs !== null) platform.retry_after_ms = error.retryAfterMs;
  if (error.rawExcerpt !== null) platform.response_excerpt = error.rawExcerpt;
  const metadata: ErrorMetadata = { source: 'platform', human_readable: error.platformMessage, platform };
  if (error.duplicateProperty !== null) metadata.duplicate_property = error.duplicateProperty;
  const headers: Record<string, string> = error.retryAfterMs === null ? {} : { 'Retry-After': String(Math.ceil(error.retryAfterMs / 1000)) };
  return new ServiceError(rule.code, error.message, metadata, headers);
}

export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (KEPT_HEADER.test(name.toLowerCase())) kept[name.toLowerCase()] = value;
  }
  return kept;
}

type Path = readonly (string | number)[];

/** Where platforms put their message: OAuth, generic JSON APIs, JSON:API, QuickBooks Fault, Xero. */
const MESSAGE_PATHS: readonly Path[] = [
  ['error_description'],
  ['message'],
  ['Message'],
  ['error', 'message'],
  ['errors', 0, 'message'],
  ['errors', 0, 'detail'],
  ['Fault', 'Error', 0, 'Detail'],
  ['Fault', 'Error', 0, 'Message'],
  ['detail'],
  ['title'],
  ['error'],
  ['errors'],
];
const CODE_PATHS: readonly Path[] = [
  ['code'],
  ['error_code'],
  ['errorCode'],
  ['error', 'code'],
  ['errors', 0, 'code'],
  ['Fault', 'Error', 0, 'code'],
  ['Type'],
  ['error'],
];

function at(value: unknown, path: Path): unknown {
  let current = value;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}

function messageOf(body: unknown): string | null {
  if (typeof body === 'string') {
    const text = body.trim();
    // HTML error pages say nothing useful to an API client.
    return text === '' || text.startsWith('<') ? null : text.slice(0, MAX_MESSAGE);
  }
  for (const path of MESSAGE_PATHS) {
    const found = at(body, path);
    if (typeof found === 'string' && found.trim() !== '') return found.trim().slice(0, MAX_MESSAGE);
  }
  return null;
}

function codeOf(body: unknown): string | null {
  for (const path of CODE_PATHS) {
    const found = at(body, path);
    if (typeof found === 'number') return String(found);
    if (typeof found === 'string' && /^[\w.-]{1,64}$/.test(found)) return found;
  }
  return null;
}

function excerptOf(body: unknown): string | null {
  if (body === null || body === undefined || body === '') return null;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.slice(0, MAX_EXCERPT);
}

/** The system error code (ECONNREFUSED, UND_ERR_SOCKET, …) somewhere in the cause chain. */
function systemCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // Happy-eyeballs connects fail with an AggregateError of one error per address.
    const next: unknown = current instanceof AggregateError ? (current.errors as unknown[])[0] : undefined;
    current = next ?? current.cause;
  }
  return null;
}

function deepestMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return message;
}

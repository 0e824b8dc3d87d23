/**
 * QuickBooks Online Fault bodies → PlatformError. The data API answers errors
 * as {"Fault": {"Error": [{"Message", "Detail", "code", "element"}], "type"}};
 * the gateway in front of it writes the same with lower-case keys for
 * authentication failures. Codes with a kind of their own: 6240 duplicate
 * name, 5010 stale SyncToken, 610 object not found, 3001 throttled.
 */
import { PlatformError, type PlatformErrorKind } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { isRecord } from '../json.ts';

export interface FaultError {
  message: string;
  detail: string;
  code: string | null;
  element: string | null;
}
export interface Fault {
  type: string | null;
  errors: FaultError[];
}

function field(record: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return null;
}

/** The Fault of an answer body, whichever spelling QBO used; null when the body is no Fault. */
export function faultOf(body: unknown): Fault | null {
  if (!isRecord(body)) return null;
  const fault = body.Fault ?? body.fault;
  if (!isRecord(fault)) return null;
  const list = fault.Error ?? fault.error;
  const errors = (Array.isArray(list) ? list : []).filter(isRecord).map((e) => ({
    message: field(e, 'Message', 'message') ?? '',
    detail: field(e, 'Detail', 'detail') ?? '',
    code: field(e, 'code', 'Code'),
    element: field(e, 'element', 'Element'),
  }));
  return { type: field(fault, 'type', 'Type'), errors };
}

/** "Message: Detail (element)", without repeating a Detail that already starts with the Message. */
export function faultMessage(fault: Fault): string {
  const parts = fault.errors
    .map((e) => {
      const text = e.detail === '' ? e.message : e.message === '' || e.detail.startsWith(e.message) ? e.detail : `${e.message}: ${e.detail}`;
      return e.element === null ? text : `${text} (${e.element})`;
    })
    .filter((t) => t !== '');
  return parts.length === 0 ? `QuickBooks Online ${fault.type ?? 'Fault'}` : parts.join('; ');
}

/** Fault codes with a kind of their own. */
const CODE_KINDS: Readonly<Record<string, PlatformErrorKind>> = {
  '6240': 'duplicate',
  '5010': 'conflict',
  '610': 'not_found',
  '3001': 'rate_limited',
};
const TYPE_KINDS: Readonly<Record<string, PlatformErrorKind>> = {
  authenticationfault: 'unauthorized',
  authentication: 'unauthorized',
  authorizationfault: 'forbidden',
};

/** The code's kind; else the status's (../errors.ts) where it has one of its own; else the Fault's type's. */
function kindOf(fault: Fault, status: number | null, fallback: PlatformErrorKind): PlatformErrorKind {
  const type = (fault.type ?? '').toLowerCase();
  const byCode = CODE_KINDS[fault.errors[0]?.code ?? ''];
  if (byCode !== undefined) return byCode;
  if (status === 401 || status === 403 || status === 429) return fallback;
  const byType = TYPE_KINDS[type];
  if (byType !== undefined) return byType;
  return type === 'validationfault' && (status === null || status < 500) ? 'bad_request' : fallback;
}

export interface FaultContext {
  /** The unified field a 6240 "Duplicate Name Exists" is about (customer_name for customers). */
  duplicateProperty?: string;
}

/** Classifies a QBO error answer; answers that carry no Fault keep the shared classification. */
export function classifyQboError(base: PlatformError, response: PlatformResponse, context: FaultContext = {}): PlatformError {
  const fault = faultOf(response.body);
  if (fault === null) return base;
  return faultError(fault, base, context);
}

export function faultError(
  fault: Fault,
  base: Pick<PlatformError, 'kind' | 'httpStatus' | 'retryAfterMs' | 'rawExcerpt' | 'headers' | 'requestSent'>,
  context: FaultContext = {},
): PlatformError {
  const kind = kindOf(fault, base.httpStatus, base.kind);
  // The base's status, wait, excerpt, headers and whether the request was sent; the Fault's kind, message and code.
  return new PlatformError({
    ...base,
    kind,
    message: faultMessage(fault),
    code: fault.errors[0]?.code ?? fault.type,
    duplicateProperty: kind === 'duplicate' ? (context.duplicateProperty ?? null) : null,
  });
}

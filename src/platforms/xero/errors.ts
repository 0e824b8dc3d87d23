/**
 * Xero's error answers, classified beyond the status code: a 400
 * ValidationException keeps Xero's own validation messages (the generic
 * "A validation exception occurred" says nothing), a name already used by
 * another contact is a duplicate, and 401/403 carry their reason in `Detail`.
 */
import { PlatformError } from '../errors.ts';
import type { PlatformResponse } from '../http.ts';
import { at, records, text } from '../readers.ts';

/** Unique validation messages of a ValidationException, in order. */
export function validationMessages(body: unknown): string[] {
  const messages = records(at(body, 'Elements'))
    .flatMap((element) => records(element.ValidationErrors))
    .map((v) => text(v.Message)?.trim() ?? '')
    .filter((m) => m !== '');
  return [...new Set(messages)];
}

/** Xero refuses a second active contact with the same name. */
const DUPLICATE_NAME = /already assigned to another contact|must be unique/i;

export interface XeroErrorOptions {
  /** The unified field a duplicate-name refusal is about (customer_name on contacts). */
  duplicateProperty?: string;
}

export function classifyXeroError(options: XeroErrorOptions = {}) {
  return (error: PlatformError, response: PlatformResponse): PlatformError => {
    const body = response.body;
    const base = {
      httpStatus: error.httpStatus,
      code: error.platformCode,
      retryAfterMs: error.retryAfterMs,
      rawExcerpt: error.rawExcerpt,
      headers: error.headers,
      requestSent: error.requestSent,
    };
    if (response.status === 400) {
      const messages = validationMessages(body);
      if (messages.length === 0) return error;
      const message = messages.join('; ');
      if (options.duplicateProperty !== undefined && messages.some((m) => DUPLICATE_NAME.test(m))) {
        return new PlatformError({ ...base, kind: 'duplicate', message, duplicateProperty: options.duplicateProperty });
      }
      return new PlatformError({ ...base, kind: 'bad_request', message, code: text(at(body, 'Type')) ?? error.platformCode });
    }
    if (response.status === 401 || response.status === 403) {
      const detail = text(at(body, 'Detail')) ?? text(at(body, 'Title'));
      return detail === null ? error : new PlatformError({ ...base, kind: error.kind, message: detail });
    }
    if (response.status === 429) {
      const problem = response.headers['x-rate-limit-problem'];
      return new PlatformError({ ...base, kind: 'rate_limited', message: `Xero's ${problem ?? 'request'} limit was reached` });
    }
    return error;
  };
}

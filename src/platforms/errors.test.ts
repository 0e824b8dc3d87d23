import { describe, expect, it } from 'vitest';
import { PlatformError, classifyFailure, classifyResponse, mayRetry, parseRetryAfter, type PlatformErrorKind } from './errors.ts';

const NOW = Date.parse('2025-01-01T00:00:00Z');

function answer(status: number, body: unknown = { message: `platform says ${status}` }, headers: Record<string, string> = {}): PlatformError {
  return classifyResponse({ status, headers, body }, NOW);
}

function fetchFailed(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code }) });
}

describe('classification', () => {
  const cases: [string, PlatformError, PlatformErrorKind, boolean, boolean][] = [
    // label, error, kind, retryable, indeterminate (for a write)
    ['400', answer(400), 'bad_request', false, false],
    ['401', answer(401), 'unauthorized', false, false],
    ['402', answer(402), 'billing', false, false],
    ['403', answer(403), 'forbidden', false, false],
    ['404', answer(404), 'not_found', false, false],
    ['409', answer(409), 'conflict', false, false],
    ['422', answer(422), 'bad_request', false, false],
    ['429', answer(429), 'rate_limited', true, false],
    ['500', answer(500), 'server', true, true],
    ['503', answer(503), 'server', true, true],
    ['504', answer(504), 'server', true, true],
    ['ECONNRESET', classifyFailure(fetchFailed('ECONNRESET')), 'network', true, true],
    ['ECONNREFUSED', classifyFailure(fetchFailed('ECONNREFUSED')), 'network', true, false],
    ['ENOTFOUND', classifyFailure(fetchFailed('ENOTFOUND')), 'network', true, false],
    ['timeout', classifyFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), 'timeout', true, true],
  ];

  it.each(cases)('%s', (_label, error, kind, retryable, indeterminate) => {
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.indeterminate).toBe(indeterminate);
  });

  it('retries a non-idempotent request only when it never left', () => {
    expect(mayRetry(answer(500), false)).toBe(false);
    expect(mayRetry(answer(429), false)).toBe(false);
    expect(mayRetry(classifyFailure(fetchFailed('ECONNRESET')), false)).toBe(false);
    expect(mayRetry(classifyFailure(fetchFailed('ECONNREFUSED')), false)).toBe(true);
    expect(mayRetry(answer(500), true)).toBe(true);
    expect(mayRetry(answer(400), true)).toBe(false);
  });

  it('finds the message and code in common body shapes', () => {
    expect(answer(400, { error: 'invalid_grant', error_description: 'Token expired' })).toMatchObject({
      platformMessage: 'Token expired',
      platformCode: 'invalid_grant',
    });
    expect(answer(400, { Fault: { Error: [{ Message: 'Invalid', Detail: 'Name is required', code: '6000' }] } })).toMatchObject({
      platformMessage: 'Name is required',
      platformCode: '6000',
    });
    expect(answer(422, { errors: [{ message: 'Amount must be positive', code: 'amount_invalid' }] })).toMatchObject({
      platformMessage: 'Amount must be positive',
      platformCode: 'amount_invalid',
    });
    expect(answer(500, 'Internal failure in ledger')).toMatchObject({ platformMessage: 'Internal failure in ledger', platformCode: null });
    expect(answer(502, '<html><body>Bad gateway</body></html>').platformMessage).toBe('HTTP 502 Bad Gateway');
    expect(answer(503, null).platformMessage).toBe('HTTP 503 Service Unavailable');
  });

  it('keeps a raw excerpt and only the useful headers', () => {
    const error = answer(
      429,
      { message: 'slow down' },
      { 'retry-after': '3', 'x-rate-limit-problem': 'minute', 'set-cookie': 'secret=1', 'x-request-id': 'abc' },
    );
    expect(error.headers).toEqual({ 'retry-after': '3', 'x-rate-limit-problem': 'minute', 'x-request-id': 'abc' });
    expect(error.rawExcerpt).toBe('{"message":"slow down"}');
    expect(error.retryAfterMs).toBe(3000);
  });

  it('names the system error code of a network failure', () => {
    const error = classifyFailure(fetchFailed('ECONNRESET'));
    expect(error.platformCode).toBe('ECONNRESET');
    expect(error.platformMessage).toContain('ECONNRESET');
    expect(error.httpStatus).toBeNull();
  });
});

describe('Retry-After', () => {
  it('reads seconds, decimal seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeNull();
  });
});

describe('ServiceError conversion', () => {
  const cases: [number, string, number][] = [
    [400, 'PLATFORM_BAD_REQUEST', 450],
    [401, 'PLATFORM_UNAUTHORIZED', 451],
    [403, 'PLATFORM_UNAUTHORIZED', 451],
    [404, 'PLATFORM_BAD_REQUEST', 450],
    [402, 'PLATFORM_BILLING_ISSUE', 450],
    [429, 'PLATFORM_RATE_LIMITED', 452],
    [500, 'PLATFORM_ERROR', 550],
    [503, 'PLATFORM_ERROR', 550],
  ];

  it.each(cases)('platform %i becomes %s (%i)', (status, code, httpStatus) => {
    const service = answer(status, { message: 'The platform words', code: 'E42' }).toServiceError();
    expect(service.code).toBe(code);
    expect(service.status).toBe(httpStatus);
    expect(service.metadata).toMatchObject({ source: 'platform', human_readable: 'The platform words', platform: { status, code: 'E42' } });
    expect(service.message).toContain('The platform words');
  });

  it('carries rate-limit headers and tells the client when to retry', () => {
    const service = answer(429, { message: 'Too many' }, { 'retry-after': '2.2', 'x-minlimit-remaining': '0' }).toServiceError();
    expect(service.metadata?.platform).toMatchObject({ headers: { 'retry-after': '2.2', 'x-minlimit-remaining': '0' }, retry_after_ms: 2200 });
    expect(service.headers).toEqual({ 'Retry-After': '3' });
  });

  it('maps network failures and timeouts to PLATFORM_ERROR', () => {
    expect(classifyFailure(fetchFailed('ECONNRESET')).toServiceError().code).toBe('PLATFORM_ERROR');
    expect(classifyFailure(new DOMException('t', 'TimeoutError')).toServiceError().status).toBe(550);
  });

  it('lets connectors raise duplicates and billing problems themselves', () => {
    const duplicate = new PlatformError({
      kind: 'duplicate',
      httpStatus: 400,
      message: 'The name "Acme" is already used',
      duplicateProperty: 'name',
    }).toServiceError();
    expect(duplicate.code).toBe('DUPLICATE_VALUE_CONFLICT');
    expect(duplicate.status).toBe(409);
    expect(duplicate.metadata).toMatchObject({ source: 'platform', duplicate_property: 'name', human_readable: 'The name "Acme" is already used' });
    const billing = new PlatformError({ kind: 'billing', httpStatus: 400, message: 'Subscription expired' }).toServiceError();
    expect(billing.code).toBe('PLATFORM_BILLING_ISSUE');
    expect(billing.toBody()).toMatchObject({
      error_type: 'INVALID_REQUEST',
      error_metadata: { source: 'platform', human_readable: 'Subscription expired' },
    });
  });
});

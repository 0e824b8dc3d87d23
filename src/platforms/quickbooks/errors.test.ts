/** QBO Fault bodies (test/fixtures/quickbooks/faults) → the PlatformError kinds the service acts on. */
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/standins/quickbooks/fixtures.ts';
import { classifyResponse } from '../errors.ts';
import { tokensOf } from './auth.ts';
import { classifyQboError } from './errors.ts';

function classify(status: number, name: string, headers: Record<string, string> = {}, duplicateProperty?: string) {
  const response = { status, headers, body: fixture(`faults/${name}.json`) };
  return classifyQboError(classifyResponse(response, 0), response, duplicateProperty === undefined ? {} : { duplicateProperty });
}

describe('QuickBooks Online faults', () => {
  it("6240 Duplicate Name Exists is a duplicate of the given field, with QBO's words", () => {
    const error = classify(400, 'duplicate-name', {}, 'customer_name');
    expect(error.kind).toBe('duplicate');
    expect(error.duplicateProperty).toBe('customer_name');
    expect(error.platformCode).toBe('6240');
    expect(error.platformMessage).toBe(
      'Duplicate Name Exists Error: The name supplied already exists. : Another customer, vendor or employee is already using this name. Please use a different name.',
    );
    expect(error.toServiceError().code).toBe('DUPLICATE_VALUE_CONFLICT');
  });

  it('5010 stale object is a conflict, 610 a not-found, other ValidationFaults bad requests keeping Message and Detail', () => {
    expect(classify(400, 'stale-object').kind).toBe('conflict');
    expect(classify(400, 'object-not-found').kind).toBe('not_found');
    const missing = classify(400, 'required-param-missing');
    expect(missing.kind).toBe('bad_request');
    expect(missing.platformMessage).toBe(
      'Required param missing, need to supply the required value for the API: Required parameter Line is missing in the request (Line)',
    );
  });

  it('401 AuthenticationFault is unauthorized; 429 keeps Retry-After; SystemFault stays a retryable server error', () => {
    const auth = classify(401, 'authentication');
    expect(auth.kind).toBe('unauthorized');
    expect(auth.platformCode).toBe('3200');
    const throttled = classify(429, 'throttle', { 'retry-after': '1' });
    expect([throttled.kind, throttled.retryAfterMs, throttled.retryable]).toEqual(['rate_limited', 1000, true]);
    const system = classify(503, 'system');
    expect([system.kind, system.retryable]).toEqual(['server', true]);
  });

  it('reads the token endpoint answer: one-hour expiry, rotated refresh token, the realm kept as tenant', () => {
    expect(tokensOf(fixture('oauth/token.json'), '4620816365178424710', Date.parse('2025-01-01T00:00:00Z'))).toEqual({
      accessToken: 'eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..d7AVEt9b2qUOs1zt8j2PGQ.W8r3lA',
      refreshToken: 'AB11596469126nDZBx2K4qwsQM6yhxJgpDRBfKk1N7lnL9u7Ah',
      expiresAt: '2025-01-01T01:00:00.000Z',
      tenantId: '4620816365178424710',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { mismatchMessage } from './idempotency.ts';
import { redactUrl } from '../log/redaction.ts';

describe('mismatchMessage', () => {
  const first = { request_method: 'POST', request_path: '/versioned/accounting/bills?access_token=…' };
  const advice = 'use a new key for a different request.';

  it('names the method when the method differs', () => {
    expect(mismatchMessage('k', first, { method: 'PATCH', shownPath: first.request_path })).toBe(
      `Idempotency-Key "k" was first used for POST ${first.request_path}, not PATCH; ${advice}`,
    );
  });

  it('names the path when the path differs', () => {
    expect(mismatchMessage('k', first, { method: 'POST', shownPath: '/versioned/accounting/invoices' })).toBe(
      `Idempotency-Key "k" was first used for POST ${first.request_path}, not on /versioned/accounting/invoices; ${advice}`,
    );
  });

  it('says body when method and path are the same, or a masked query value when the path had one', () => {
    const plain = { request_method: 'POST', request_path: '/versioned/accounting/bills' };
    expect(mismatchMessage('k', plain, { method: 'POST', shownPath: plain.request_path })).toContain('with a different body;');
    const shownPath = redactUrl('/versioned/accounting/bills?access_token=secret-token');
    expect(mismatchMessage('k', { request_method: 'POST', request_path: shownPath }, { method: 'POST', shownPath })).toContain(
      'with a different body or masked query value;',
    );
  });
});

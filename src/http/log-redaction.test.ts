import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('logged URLs', () => {
  it('mask tokens in query strings and link paths', () => {
    expect(redactUrl('/versioned/connections/status?access_token=lpat_secret&x=1')).toBe('/versioned/connections/status?access_token=%E2%80%A6&x=1');
    expect(redactUrl('/link/lk_abc123/SANDBOX?redirect_url=https%3A%2F%2Fa.b')).toBe('/link/lk_…/SANDBOX?redirect_url=https%3A%2F%2Fa.b');
    expect(redactUrl('/link/done?public_token=lppt_x')).toBe('/link/done?public_token=%E2%80%A6');
    expect(redactUrl('/healthz')).toBe('/healthz');
  });
});

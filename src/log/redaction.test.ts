import { describe, expect, it } from 'vitest';
import { redactUrl } from './redaction.ts';

describe('logged URLs', () => {
  it('mask tokens in query strings and link paths', () => {
    expect(redactUrl('/versioned/connections/status?access_token=lpat_secret&x=1')).toBe('/versioned/connections/status?access_token=%E2%80%A6&x=1');
    expect(redactUrl('/link/lk_abc123/SANDBOX?redirect_url=https%3A%2F%2Fa.b')).toBe('/link/lk_…/SANDBOX?redirect_url=https%3A%2F%2Fa.b');
    expect(redactUrl('/link/done?public_token=lppt_x')).toBe('/link/done?public_token=%E2%80%A6');
    expect(redactUrl('/healthz')).toBe('/healthz');
    expect(redactUrl('/dashboard/sign-in/lplnk_abcDEF123')).toBe('/dashboard/sign-in/lplnk_…');
  });

  it('mask every credential-like parameter, whatever its case or encoding, and secrets hidden in another value', () => {
    const masked = (url: string): string => decodeURIComponent(redactUrl(url));
    expect(masked('/x?ACCESS_TOKEN=lpat_a&Refresh_Token=r&id_token=i&token=t&password=p&api_key=k&client_secret=s&code=c&state=st')).toBe(
      '/x?ACCESS_TOKEN=…&Refresh_Token=…&id_token=…&token=…&password=…&api_key=…&client_secret=…&code=…&state=…',
    );
    expect(masked('/x?access%5Ftoken=lpat_a')).toBe('/x?access_token=…');
    expect(masked('/x?a=1?access_token=lpat_a&b=2')).toBe('/x?a=…&b=2');
    expect(masked('/x?access_token=lpat_a&access_token=lpat_b')).toBe('/x?access_token=…&access_token=…');
    expect(masked('//link/lk_abc')).toBe('//link/lk_…');
    expect(redactUrl('/x?limit=5&cursor=abc')).toBe('/x?limit=5&cursor=abc');
  });
});

/** Pure parts of the link flow: escaping, kept parameters and destinations, CSRF tokens, messages. */
import { describe, expect, it } from 'vitest';
import type { Connector } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { formToken, formTokenValid, newOAuthState, oauthStateBound } from './csrf.ts';
import { escapeHtml, html } from './html.ts';
import { platformFailureMessage, splitLabel } from './messages.ts';
import { completionPath, destination, keptProblem, keptQuery, withPublicToken } from './params.ts';

describe('html', () => {
  it('escapes every interpolated string, keeps markup built by the tag, flattens lists', () => {
    const evil = `<script>alert("x")</script>'&\``;
    expect(escapeHtml(evil)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;');
    const inner = html`<b>${evil}</b>`;
    expect(html`<p title="${evil}">${inner}${[html`<i>${'<'}</i>`, '>']}${null}${false}${3}</p>`.text).toBe(
      `<p title="${escapeHtml(evil)}"><b>${escapeHtml(evil)}</b><i>&lt;</i>&gt;3</p>`,
    );
  });
});

describe('kept parameters and destinations', () => {
  it('accepts http(s) redirect_urls and bare origins only', () => {
    expect(keptProblem({ redirect_url: 'https://a.example/x?y=1' })).toBeNull();
    expect(keptProblem({ redirect_url: 'javascript:alert(1)' })).not.toBeNull();
    expect(keptProblem({ mode: 'popup', origin: 'https://App.example:8443' })).toBeNull();
    expect(keptProblem({ origin: 'https://a.example/' })).not.toBeNull();
    expect(keptProblem({ origin: 'https://a.example:443' })).not.toBeNull();
  });

  it('popup mode wins, then the vetted redirect (http(s) only), then the completion page', () => {
    const vetted = 'https://stored.example/cb';
    expect(destination(vetted, 'SANDBOX', { mode: 'popup', origin: 'https://host.example', redirect_url: 'https://x.example' })).toBe(
      '/link/done?platform=SANDBOX&mode=popup&origin=https%3A%2F%2Fhost.example',
    );
    // The kept redirect_url is only a candidate: what the flow uses is the redirect src/link/redirect.ts vetted.
    expect(destination(vetted, 'SANDBOX', { redirect_url: 'https://x.example/a' })).toBe('https://stored.example/cb');
    expect(destination(null, 'SANDBOX', { redirect_url: 'https://x.example/a' })).toBe(completionPath('SANDBOX', {}));
    expect(destination('javascript:alert(1)', 'SANDBOX', {})).toBe(completionPath('SANDBOX', {}));
    expect(destination(null, 'SANDBOX', { mode: 'popup' })).toBe('/link/done?platform=SANDBOX');
  });

  it('appends public_token and keeps the query already there', () => {
    expect(withPublicToken('https://a.example/cb?state=1&x=%20', 'lppt_t')).toBe('https://a.example/cb?state=1&x=+&public_token=lppt_t');
    expect(withPublicToken('https://a.example/cb?public_token=old', 'lppt_t')).toBe('https://a.example/cb?public_token=lppt_t');
    expect(withPublicToken('/link/done?platform=X', 'lppt_t')).toBe('/link/done?platform=X&public_token=lppt_t');
    expect(keptQuery({})).toBe('');
    expect(keptQuery({ store_name: 'a b', mode: 'popup', origin: 'https://h.example' })).toBe(
      '?store_name=a+b&mode=popup&origin=https%3A%2F%2Fh.example',
    );
  });
});

describe('CSRF tokens', () => {
  const secret = 'A'.repeat(43);
  const other = 'B'.repeat(43);

  it('form tokens are bound to the browser secret and to the flow', () => {
    const token = formToken(secret, 'link:lk_1');
    expect(formTokenValid(secret, 'link:lk_1', token)).toBe(true);
    expect(formTokenValid(other, 'link:lk_1', token)).toBe(false);
    expect(formTokenValid(secret, 'link:lk_2', token)).toBe(false);
    expect(formTokenValid(null, 'link:lk_1', token)).toBe(false);
    expect(formTokenValid(secret, 'link:lk_1', undefined)).toBe(false);
    expect(formTokenValid(secret, 'link:lk_1', `${token}x`)).toBe(false);
  });

  it('OAuth states are random and bound to the browser that started them', () => {
    const state = newOAuthState(secret);
    expect(newOAuthState(secret)).not.toBe(state);
    expect(oauthStateBound(secret, state)).toBe(true);
    expect(oauthStateBound(other, state)).toBe(false);
    expect(oauthStateBound(null, state)).toBe(false);
    expect(
      oauthStateBound(
        secret,
        state.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      ),
    ).toBe(false);
    expect(oauthStateBound(secret, 'no-dot')).toBe(false);
  });
});

describe('messages', () => {
  const connector = {
    id: 'SANDBOX',
    name: 'Sandbox',
    auth: {
      type: 'credentials',
      fields: [
        { field: 'basic_username', label: 'Username (user_good, or another documented test user)', required: true, secret: false },
        { field: 'basic_password', label: 'Password (pass_good)', required: true, secret: true },
        { field: 'api_key', label: 'API key', required: true, secret: true },
      ],
    },
  } satisfies Pick<Connector, 'id' | 'name' | 'auth'>;
  const asConnector = (partial: typeof connector): Connector => ({
    ...partial,
    kind: 'accounting',
    identify: () => Promise.reject(new Error('unused')),
    objects: {},
    limits: { requestsPerMinute: null, concurrentRequests: null },
  });

  it('say what to check, in plain words, without the label hints', () => {
    expect(splitLabel('Password (pass_good)')).toEqual({ label: 'Password', hint: 'pass_good' });
    expect(splitLabel('API key')).toEqual({ label: 'API key', hint: null });
    const unauthorized = new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'nope' });
    expect(platformFailureMessage(asConnector(connector), unauthorized)).toBe(
      'Those credentials were not accepted by Sandbox. Check the username, password and API key.',
    );
    expect(platformFailureMessage(asConnector(connector), new PlatformError({ kind: 'timeout', message: 'slow' }))).toBe(
      'Sandbox could not be reached just now. Please try again in a few minutes.',
    );
    expect(platformFailureMessage(asConnector(connector), new Error('bug'))).toMatch(/^Something went wrong on our side/);
  });
});

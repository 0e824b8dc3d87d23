import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlatformHttp, PlatformRequest } from './http.ts';
import { oauth2, pkceVerifier, type OAuth2Description } from './oauth2.ts';

const app = { clientId: 'client-1', clientSecret: 'secret-1', redirectUri: 'https://us.example/cb' };

function recording(body: unknown): { http: PlatformHttp; sent: PlatformRequest[] } {
  const sent: PlatformRequest[] = [];
  return {
    sent,
    http: {
      request: (input) => {
        sent.push(input);
        return Promise.resolve({ status: 200, headers: {}, body });
      },
    },
  };
}

const ctxOf = (http: PlatformHttp) => ({ http, signal: new AbortController().signal, environment: 'sandbox' as const });

const described: OAuth2Description = {
  name: 'example',
  authorizeUrl: (input) => `https://${input.region ?? 'eu'}.example.com/authorize`,
  tokenUrl: 'https://auth.example.com/token',
  clientAuth: 'post',
  scopes: ['read', 'write'],
  pkce: true,
  authorizeParams: { access_type: 'offline' },
  tenantFromCallback: 'realmId',
  refresh: { rotates: true },
};

describe('OAuth 2.0 as data', () => {
  it('builds the consent address: hosts from the input, scopes joined, extra parameters, an S256 challenge', () => {
    const auth = oauth2(described);
    const url = new URL(auth.authorizeUrl(app, 'state-1', null, { region: 'us' }));
    expect(url.origin + url.pathname).toBe('https://us.example.com/authorize');
    const verifier = pkceVerifier(app, 'state-1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      response_type: 'code',
      scope: 'read write',
      redirect_uri: app.redirectUri,
      state: 'state-1',
      access_type: 'offline',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkceVerifier(app, 'state-2')).not.toBe(verifier);
    expect(auth.callbackParams).toEqual(['realmId', 'state']);
  });

  it('exchanges a code once (never resent), credentials in the form, the verifier and the tenant from the callback', async () => {
    const { http, sent } = recording({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt' });
    const tokens = await oauth2(described).exchangeCode(ctxOf(http), app, 'c0de', { realmId: '42', state: 'state-1' });
    expect(tokens).toMatchObject({ accessToken: 'at', refreshToken: 'rt', tenantId: '42' });
    expect(Date.parse(tokens.expiresAt ?? '') - Date.now()).toBeGreaterThan(3590_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: 'https://auth.example.com/token',
      idempotent: false,
      operation: 'example token authorization_code',
    });
    expect(sent[0]?.headers?.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(String(sent[0]?.rawBody)))).toEqual({
      code: 'c0de',
      redirect_uri: app.redirectUri,
      code_verifier: pkceVerifier(app, 'state-1'),
      grant_type: 'authorization_code',
      client_id: 'client-1',
      client_secret: 'secret-1',
    });
  });

  it('refuses a callback without the tenant before any request, and an answer that is not a bearer token', async () => {
    const { http, sent } = recording({ access_token: 'at', token_type: 'mac' });
    await expect(oauth2(described).exchangeCode(ctxOf(http), app, 'c', { state: 's' })).rejects.toMatchObject({ kind: 'bad_request' });
    expect(sent).toHaveLength(0);
    await expect(oauth2(described).exchangeCode(ctxOf(http), app, 'c', { realmId: '1', state: 's' })).rejects.toMatchObject({ kind: 'server' });
  });

  it('refreshes with HTTP Basic of the raw credentials; resent only when the platform allows it', async () => {
    const { http, sent } = recording({ access_token: 'at2', token_type: 'bearer', account: 'acct_1' });
    const basic = oauth2({ ...described, clientAuth: 'basic', tenantFromCallback: undefined, tenantFromAnswer: 'account' });
    expect(await basic.refresh(ctxOf(http), app, 'rt')).toEqual({ accessToken: 'at2', refreshToken: null, expiresAt: null, tenantId: 'acct_1' });
    expect(sent[0]?.headers?.authorization).toBe(`Basic ${Buffer.from('client-1:secret-1').toString('base64')}`);
    expect(sent[0]).toMatchObject({ idempotent: false });
    expect(Object.fromEntries(new URLSearchParams(String(sent[0]?.rawBody)))).toEqual({ refresh_token: 'rt', grant_type: 'refresh_token' });
    await oauth2({ ...described, refresh: { rotates: true, resendable: true } }).refresh(ctxOf(http), app, 'rt');
    expect(sent[1]).toMatchObject({ idempotent: true });
    await expect(oauth2({ ...described, refresh: 'none' }).refresh(ctxOf(http), app, 'rt')).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(sent).toHaveLength(2);
  });

  it('takes the data centre named at the callback (checked), exchanges and refreshes there, and keeps it with the tokens', async () => {
    const zoho = oauth2({
      ...described,
      pkce: false,
      tenantFromCallback: undefined,
      tokenUrl: (_input, host) => `${host ?? 'https://accounts.zoho.com'}/oauth/v2/token`,
      hostFromCallback: { param: 'accounts-server', pattern: /^https:\/\/accounts\.zoho\.(com|eu|in|com\.au|jp|ca)$/ },
    });
    expect(zoho.callbackParams).toEqual(['accounts-server']);
    const { http, sent } = recording({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt' });
    await expect(zoho.exchangeCode(ctxOf(http), app, 'c', { 'accounts-server': 'https://evil.example' })).rejects.toMatchObject({
      kind: 'bad_request',
    });
    expect(sent).toHaveLength(0);
    const tokens = await zoho.exchangeCode(ctxOf(http), app, 'c', { 'accounts-server': 'https://accounts.zoho.eu' });
    expect(tokens).toMatchObject({ accessToken: 'at', host: 'https://accounts.zoho.eu' });
    const refreshed = await zoho.refresh(ctxOf(http), app, 'rt', {}, tokens);
    expect(refreshed.host).toBe('https://accounts.zoho.eu');
    expect(sent.map((request) => request.url)).toEqual(['https://accounts.zoho.eu/oauth/v2/token', 'https://accounts.zoho.eu/oauth/v2/token']);
    await expect(zoho.refresh(ctxOf(http), app, 'rt', {})).rejects.toMatchObject({ kind: 'bad_request' });
  });
});

import { describe, expect, it } from 'vitest';
import type { PlatformHttp, PlatformRequest } from './http.ts';
import { lwaAccessToken } from './oauth2.ts';
import { credentialHeaders } from './request-auth.ts';

describe('credentials on every request', () => {
  it('puts an API key in the header the platform names, with its prefix', () => {
    expect(credentialHeaders({ type: 'api_key', header: 'X-API-Key' }, { api_key: 'k1' })).toEqual({ 'x-api-key': 'k1' });
    expect(credentialHeaders({ type: 'api_key', header: 'Authorization', prefix: 'Zoho-oauthtoken ', field: 'key' }, { key: 'k2' })).toEqual({
      authorization: 'Zoho-oauthtoken k2',
    });
    expect(() => credentialHeaders({ type: 'api_key', header: 'x-api-key' }, {})).toThrow(/no api_key/);
  });

  it('sends HTTP Basic of the user name and password fields', () => {
    expect(credentialHeaders({ type: 'basic' }, { basic_username: 'ws-user', basic_password: 'p:ss' })).toEqual({
      authorization: `Basic ${Buffer.from('ws-user:p:ss').toString('base64')}`,
    });
    expect(credentialHeaders({ type: 'basic', username: 'api_key' }, { api_key: 'sk_test_1' })).toEqual({
      authorization: `Basic ${Buffer.from('sk_test_1:').toString('base64')}`,
    });
    expect(() => credentialHeaders({ type: 'basic' }, { basic_password: 'x' })).toThrow(/no basic_username/);
  });
});

describe('Login with Amazon', () => {
  it('refreshes at api.amazon.com/auth/o2/token with the client credentials in the form', async () => {
    const sent: PlatformRequest[] = [];
    const http: PlatformHttp = {
      request: (input) => {
        sent.push(input);
        return Promise.resolve({
          status: 200,
          headers: {},
          body: { access_token: 'Atza|x', refresh_token: 'Atzr|y', token_type: 'bearer', expires_in: 3600 },
        });
      },
    };
    const app = { clientId: 'amzn1.application-oa2-client.1', clientSecret: 's3cret', redirectUri: 'https://us.example/cb' };
    const tokens = await lwaAccessToken({ http, signal: new AbortController().signal, environment: 'production' }, app, 'Atzr|seller');
    expect(tokens).toMatchObject({ accessToken: 'Atza|x', refreshToken: 'Atzr|y', tenantId: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://api.amazon.com/auth/o2/token', idempotent: true });
    expect(sent[0]?.headers?.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(String(sent[0]?.rawBody)))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'Atzr|seller',
      client_id: app.clientId,
      client_secret: 's3cret',
    });
  });
});

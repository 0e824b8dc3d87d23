/**
 * The token manager against a real PostgreSQL and a counting OAuth platform:
 * twenty concurrent requests on a connection whose token just expired make
 * exactly one refresh call and all get its token; the rotated refresh token is
 * stored with it; a 401 refreshes once even when the token looks valid; a
 * revoked grant leaves the stored tokens as they were. A job's session
 * (authorizedRequest) refreshes once and retries once when the platform refuses
 * an access token mid-job, and refreshes ahead of expiry during long jobs.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import type { Connector, ConnectorContext, OAuthSession, OAuthTokens } from './connector.ts';
import { connectorContext, fixedTokenSession, openTokens, sealJson } from './context.ts';
import { PlatformError } from './errors.ts';
import type { PlatformHttp } from './http.ts';
import { authorizedRequest, bearer } from './oauth-request.ts';
import { freshTokens, jobTokens, REFRESH_MARGIN_MS } from './tokens.ts';

const platform = { refreshes: 0, revoked: false, seenRefreshTokens: [] as string[] };

const connector: Connector = {
  id: 'TOKENBOOKS',
  name: 'Token Books',
  kind: 'accounting',
  auth: {
    type: 'oauth2',
    authorizeUrl: () => 'https://example.com/authorize',
    exchangeCode: () => Promise.reject(new Error('not used')),
    async refresh(_ctx, app, refreshToken) {
      platform.refreshes += 1;
      platform.seenRefreshTokens.push(`${app.clientId}:${refreshToken}`);
      await sleep(50);
      if (platform.revoked) throw new PlatformError({ kind: 'bad_request', httpStatus: 400, message: 'invalid_grant' });
      return {
        accessToken: `access-${platform.refreshes}`,
        refreshToken: `refresh-${platform.refreshes}`,
        expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
        tenantId: null,
      };
    },
  },
  identify: () => Promise.resolve({ storeUniqueId: randomUUID(), storeName: null }),
  objects: {},
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await t.db.pool.query(
    `INSERT INTO oauth_apps (organization_id, environment, platform, client_id, client_secret_ciphertext, redirect_uri) VALUES ($1, 'sandbox', $2, 'app-id', $3, 'http://localhost:8080/link/oauth/callback')`,
    [t.org.organization.id, connector.id, t.services.cipher.encrypt('app-secret')],
  );
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  platform.refreshes = 0;
  platform.revoked = false;
  platform.seenRefreshTokens = [];
});

async function connectionWith(tokens: OAuthTokens): Promise<ConnectionRecord> {
  const { connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: t.org.organization.id, environment: 'sandbox' },
    {
      platform: connector.id,
      name: null,
      credentials: null,
      identity: { storeUniqueId: randomUUID(), storeName: null },
      syncConfig: null,
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [connection.id, sealJson(t.services.cipher, tokens)]);
  return connection;
}

async function stored(connection: ConnectionRecord): Promise<OAuthTokens | null> {
  const result = await t.db.pool.query<{ sealed: Buffer | null }>('SELECT oauth_tokens_ciphertext AS sealed FROM connections WHERE id = $1', [
    connection.id,
  ]);
  return openTokens(t.services.cipher, result.rows[0]?.sealed ?? null);
}

const deps = () => ({ pool: t.db.pool, cipher: t.services.cipher });
const expired = (): OAuthTokens => ({
  accessToken: 'access-0',
  refreshToken: 'refresh-0',
  expiresAt: new Date(Date.now() - 1_000).toISOString(),
  tenantId: 'tenant-1',
});

describe('OAuth token refresh', () => {
  it('makes exactly one refresh call for 20 concurrent requests on a token that just expired, and stores the rotated refresh token', async () => {
    const connection = await connectionWith(expired());
    const results = await Promise.all(Array.from({ length: 20 }, () => freshTokens(deps(), connection, connector)));
    expect(platform.refreshes).toBe(1);
    expect(platform.seenRefreshTokens).toEqual(['app-id:refresh-0']);
    expect(new Set(results.map((r) => r?.accessToken))).toEqual(new Set(['access-1']));
    expect(await stored(connection)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', tenantId: 'tenant-1' });
    // The next expiry uses the rotated refresh token.
    await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [
      connection.id,
      sealJson(t.services.cipher, { ...(await stored(connection)), expiresAt: new Date().toISOString() }),
    ]);
    await freshTokens(deps(), connection, connector);
    expect(platform.seenRefreshTokens).toEqual(['app-id:refresh-0', 'app-id:refresh-1']);
  });

  it('leaves a token alone until it is within the margin of its expiry', async () => {
    const connection = await connectionWith({ ...expired(), expiresAt: new Date(Date.now() + REFRESH_MARGIN_MS + 60_000).toISOString() });
    expect((await freshTokens(deps(), connection, connector))?.accessToken).toBe('access-0');
    const soon = await connectionWith({ ...expired(), expiresAt: new Date(Date.now() + REFRESH_MARGIN_MS - 5_000).toISOString() });
    expect((await freshTokens(deps(), soon, connector))?.accessToken).toBe('access-1');
    expect(platform.refreshes).toBe(1);
  });

  it('refreshes once after a 401 with the stored token, not again for a token already replaced', async () => {
    const connection = await connectionWith({ ...expired(), expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const results = await Promise.all(Array.from({ length: 5 }, () => freshTokens(deps(), connection, connector, { rejected: 'access-0' })));
    expect(platform.refreshes).toBe(1);
    expect(results.map((r) => r?.accessToken)).toEqual(Array(5).fill('access-1'));
  });

  it('leaves the stored tokens untouched when the platform refuses the refresh (revoked grant)', async () => {
    const connection = await connectionWith(expired());
    platform.revoked = true;
    const refused = await freshTokens(deps(), connection, connector).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused instanceof PlatformError ? [refused.kind, refused.httpStatus, refused.platformMessage] : refused).toEqual([
      'unauthorized',
      400,
      'The refresh token was refused: invalid_grant',
    ]);
    expect(await stored(connection)).toMatchObject({ accessToken: 'access-0', refreshToken: 'refresh-0' });
  });
});

/** A platform API that accepts only `valid` as the access token, counting calls per token. */
function apiAccepting(valid: () => string): { http: PlatformHttp; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    http: {
      request(request) {
        const token = (request.headers?.authorization ?? '').replace('Bearer ', '');
        calls.push(token);
        if (token !== valid()) return Promise.reject(new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'TokenExpired' }));
        return Promise.resolve({ status: 200, headers: {}, body: { ok: token } });
      },
    },
  };
}

function contextWith(connection: ConnectionRecord, http: PlatformHttp, oauth: OAuthSession | null): ConnectorContext {
  return {
    ...connectorContext({ connector, connectionId: connection.id, credentials: {}, tokens: null, environment: 'sandbox', db: t.db.pool }),
    http,
    oauth,
  };
}

const call = (ctx: ConnectorContext): Promise<unknown> =>
  authorizedRequest(ctx, (tokens) => ({ method: 'GET', url: 'https://api.example.com/things', idempotent: true, headers: bearer(tokens) })).then(
    (r) => r.body,
  );

describe('OAuth sessions of a job (authorizedRequest)', () => {
  it('refreshes once and retries once when the access token dies mid-job, then keeps the new token', async () => {
    const connection = await connectionWith({ ...expired(), expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const { tokens, oauth } = await jobTokens(deps(), connection, connector);
    expect(tokens?.accessToken).toBe('access-0');
    let valid = 'access-0';
    const api = apiAccepting(() => valid);
    const ctx = contextWith(connection, api.http, oauth);
    expect(await call(ctx)).toEqual({ ok: 'access-0' });
    valid = 'access-1'; // the platform expires the token before its stated expiry
    expect(await call(ctx)).toEqual({ ok: 'access-1' });
    expect(await call(ctx)).toEqual({ ok: 'access-1' });
    expect(api.calls).toEqual(['access-0', 'access-0', 'access-1', 'access-1']);
    expect(platform.refreshes).toBe(1);
    expect(await stored(connection)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('refreshes before a call when the token nears expiry during a long job', async () => {
    let now = Date.now();
    const connection = await connectionWith({ ...expired(), expiresAt: new Date(now + 10 * 60_000).toISOString() });
    const { oauth } = await jobTokens({ ...deps(), now: () => now }, connection, connector);
    const api = apiAccepting(() => (platform.refreshes === 0 ? 'access-0' : 'access-1'));
    const ctx = contextWith(connection, api.http, oauth);
    expect(await call(ctx)).toEqual({ ok: 'access-0' });
    now += 10 * 60_000 - REFRESH_MARGIN_MS + 1_000;
    expect(await call(ctx)).toEqual({ ok: 'access-1' });
    expect(api.calls).toEqual(['access-0', 'access-1']);
    expect(platform.refreshes).toBe(1);
  });

  it('gives up with the 401 when the refreshed token is refused too, or when there is nothing to refresh', async () => {
    const connection = await connectionWith({ ...expired(), expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const { oauth } = await jobTokens(deps(), connection, connector);
    const api = apiAccepting(() => 'never');
    const refused = await call(contextWith(connection, api.http, oauth)).catch((error: unknown) => error);
    expect(refused instanceof PlatformError ? refused.kind : refused).toBe('unauthorized');
    expect(api.calls).toEqual(['access-0', 'access-1']);
    expect(platform.refreshes).toBe(1);

    const fixed = fixedTokenSession(expired());
    const once = apiAccepting(() => 'never');
    await expect(call(contextWith(connection, once.http, fixed))).rejects.toThrow('TokenExpired');
    expect(once.calls).toEqual(['access-0']);
    await expect(call(contextWith(connection, once.http, null))).rejects.toThrow('no OAuth tokens');
  });
});

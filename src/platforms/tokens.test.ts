/**
 * The token manager against a real PostgreSQL and a counting OAuth platform:
 * twenty concurrent requests on a connection whose token just expired make
 * exactly one refresh call and all get its token; the rotated refresh token is
 * stored with it; a 401 refreshes once even when the token looks valid; a
 * revoked grant leaves the stored tokens as they were.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import type { Connector, OAuthTokens } from './connector.ts';
import { openTokens, sealJson } from './context.ts';
import { PlatformError } from './errors.ts';
import { freshTokens, REFRESH_MARGIN_MS } from './tokens.ts';

const platform = { refreshes: 0, revoked: false, seenRefreshTokens: [] as string[] };

const connector: Connector = {
  id: 'TOKENBOOKS', name: 'Token Books', kind: 'accounting',
  auth: {
    type: 'oauth2',
    authorizeUrl: () => 'https://example.com/authorize',
    exchangeCode: () => Promise.reject(new Error('not used')),
    async refresh(_ctx, app, refreshToken) {
      platform.refreshes += 1;
      platform.seenRefreshTokens.push(`${app.clientId}:${refreshToken}`);
      await sleep(50);
      if (platform.revoked) throw new PlatformError({ kind: 'bad_request', httpStatus: 400, message: 'invalid_grant' });
      return { accessToken: `access-${platform.refreshes}`, refreshToken: `refresh-${platform.refreshes}`, expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(), tenantId: null };
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
    [t.org.organization.id, connector.id, t.services.cipher.encrypt('app-secret')]);
});
afterAll(async () => { await t.close(); });
beforeEach(() => {
  platform.refreshes = 0;
  platform.revoked = false;
  platform.seenRefreshTokens = [];
});

async function connectionWith(tokens: OAuthTokens): Promise<ConnectionRecord> {
  const { connection } = await createConnection(t.db.pool, t.services.cipher, { organizationId: t.org.organization.id, environment: 'sandbox' }, {
    platform: connector.id, name: null, credentials: null, identity: { storeUniqueId: randomUUID(), storeName: null }, syncConfig: null, scope: null, marketplace: null, redirectUrl: null,
  });
  await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [connection.id, sealJson(t.services.cipher, tokens)]);
  return connection;
}

async function stored(connection: ConnectionRecord): Promise<OAuthTokens | null> {
  const result = await t.db.pool.query<{ sealed: Buffer | null }>('SELECT oauth_tokens_ciphertext AS sealed FROM connections WHERE id = $1', [connection.id]);
  return openTokens(t.services.cipher, result.rows[0]?.sealed ?? null);
}

const deps = () => ({ pool: t.db.pool, cipher: t.services.cipher });
const expired = (): OAuthTokens => ({ accessToken: 'access-0', refreshToken: 'refresh-0', expiresAt: new Date(Date.now() - 1_000).toISOString(), tenantId: 'tenant-1' });

describe('OAuth token refresh', () => {
  it('makes exactly one refresh call for 20 concurrent requests on a token that just expired, and stores the rotated refresh token', async () => {
    const connection = await connectionWith(expired());
    const results = await Promise.all(Array.from({ length: 20 }, () => freshTokens(deps(), connection, connector)));
    expect(platform.refreshes).toBe(1);
    expect(platform.seenRefreshTokens).toEqual(['app-id:refresh-0']);
    expect(new Set(results.map((r) => r?.accessToken))).toEqual(new Set(['access-1']));
    expect(await stored(connection)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', tenantId: 'tenant-1' });
    // The next expiry uses the rotated refresh token.
    await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [connection.id, sealJson(t.services.cipher, { ...(await stored(connection)), expiresAt: new Date().toISOString() })]);
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
    const refused = await freshTokens(deps(), connection, connector).then(() => null, (error: unknown) => error);
    expect(refused instanceof PlatformError ? [refused.kind, refused.httpStatus, refused.platformMessage] : refused)
      .toEqual(['unauthorized', 400, 'The refresh token was refused: invalid_grant']);
    expect(await stored(connection)).toMatchObject({ accessToken: 'access-0', refreshToken: 'refresh-0' });
  });
});

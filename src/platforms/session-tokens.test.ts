/**
 * Sessions obtained from credentials (Sage Intacct-style: a login call answers a session id and its expiry), kept
 * and renewed through the token manager against a real PostgreSQL: concurrent first calls log in once, an expiring
 * session is renewed once, a refused one (401) once, and a refused login asks the end user for new credentials.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { startTestApp, type TestApp } from '../../test/support/app.ts';
import type { Connector, Credentials, OAuthTokens } from './connector.ts';
import { sealJson } from './context.ts';
import { PlatformError } from './errors.ts';
import { freshTokens, jobTokens } from './tokens.ts';

const platform = { logins: 0, refused: false, seen: [] as Credentials[] };

const connector: Connector = {
  id: 'SESSIONBOOKS',
  name: 'Session Books',
  kind: 'accounting',
  auth: {
    type: 'credentials',
    fields: [
      { field: 'basic_username', label: 'User', required: true, secret: false },
      { field: 'basic_password', label: 'Password', required: true, secret: true },
    ],
    session: {
      async login(_ctx, credentials) {
        platform.logins += 1;
        platform.seen.push(credentials);
        await sleep(50);
        if (platform.refused) throw new PlatformError({ kind: 'unauthorized', httpStatus: 401, message: 'Invalid Web Services credentials' });
        return {
          accessToken: `session-${platform.logins}`,
          refreshToken: null,
          expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
          tenantId: null,
        };
      },
    },
  },
  identify: () => Promise.resolve({ storeUniqueId: randomUUID(), storeName: null }),
  objects: {},
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  platform.logins = 0;
  platform.refused = false;
  platform.seen = [];
});

async function connection(session: OAuthTokens | null = null): Promise<ConnectionRecord> {
  const { connection: created } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: t.org.organization.id, environment: 'sandbox' },
    {
      platform: connector.id,
      name: null,
      credentials: { basic_username: 'ws-user', basic_password: 'ws-secret' },
      identity: { storeUniqueId: randomUUID(), storeName: null },
      syncConfig: null,
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  if (session !== null)
    await t.db.pool.query('UPDATE connections SET oauth_tokens_ciphertext = $2 WHERE id = $1', [created.id, sealJson(t.services.cipher, session)]);
  return created;
}

const deps = () => ({ pool: t.db.pool, cipher: t.services.cipher });

describe('sessions from credentials', () => {
  it('logs in once for ten concurrent first calls, with the stored credentials, and keeps the session', async () => {
    const linked = await connection();
    const results = await Promise.all(Array.from({ length: 10 }, () => freshTokens(deps(), linked, connector)));
    expect(platform.logins).toBe(1);
    expect(platform.seen).toEqual([{ basic_username: 'ws-user', basic_password: 'ws-secret' }]);
    expect(new Set(results.map((r) => r?.accessToken))).toEqual(new Set(['session-1']));
    expect((await freshTokens(deps(), linked, connector))?.accessToken).toBe('session-1');
    expect(platform.logins).toBe(1);
  });

  it('renews an expiring session once, and once after the platform refuses it (401)', async () => {
    const linked = await connection({
      accessToken: 'session-0',
      refreshToken: null,
      expiresAt: new Date(Date.now() + 1_000).toISOString(),
      tenantId: null,
    });
    await Promise.all(Array.from({ length: 5 }, () => freshTokens(deps(), linked, connector)));
    expect(platform.logins).toBe(1);
    const job = await jobTokens(deps(), linked, connector);
    expect(job.tokens?.accessToken).toBe('session-1');
    const session = job.oauth;
    if (session === null) throw new Error('a session was expected');
    const renewed = await Promise.all(Array.from({ length: 5 }, () => session.rejected('session-1')));
    expect(renewed.map((r) => r.accessToken)).toEqual(Array(5).fill('session-2'));
    expect(platform.logins).toBe(2);
  });

  it('a refused login is unauthorized (the end user must give new credentials) and stores nothing', async () => {
    platform.refused = true;
    const linked = await connection();
    await expect(freshTokens(deps(), linked, connector)).rejects.toMatchObject({ kind: 'unauthorized' });
    platform.refused = false;
    expect((await freshTokens(deps(), linked, connector))?.accessToken).toBe('session-2');
  });
});

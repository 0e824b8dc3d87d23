import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { ConnectionRecord } from '../../../connections/types.ts';
import { findOAuthApp } from '../../../sql/oauth-apps.ts';
import type { Connector } from '../../../platforms/connector.ts';
import { getConnector, registerConnector } from '../../../platforms/registry.ts';
import type { Environment } from '../../../tenants/types.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { LinkBrowser } from '../../../../test/support/link-browser.ts';
import { ROOT } from '../../../../test/support/process.ts';
import { contract as setContract } from './set.ts';
import { contract as listContract } from './list.ts';
import { contract as deleteContract } from './delete.ts';

/** A minimal OAuth platform: only its auth type matters to these endpoints. */
const OAUTH = 'OAUTHAPPS_TEST';
const oauthConnector: Connector = {
  id: OAUTH,
  name: 'OAuth Apps Test',
  kind: 'accounting',
  auth: {
    type: 'oauth2',
    authorizeUrl: (app, state, scope) =>
      `https://login.example.com/authorize?client_id=${app.clientId}&state=${state}&scope=${encodeURIComponent(scope ?? 'connector-default')}`,
    exchangeCode: () => Promise.reject(new Error('not used')),
    refresh: () => Promise.reject(new Error('not used')),
  },
  identify: () => Promise.resolve({ storeUniqueId: 'x', storeName: null }),
  objects: {
    account: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'none',
        filter: false,
        fetchByPlatformId: false,
        create: false,
        update: false,
        delete: false,
      },
      handler: { read: () => Promise.resolve({ records: [], nextPageToken: null }), map: (record) => ({ platform_id: record.platformId }) },
    },
  },
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

let t: TestApp;
beforeAll(async () => {
  if (getConnector(OAUTH) === undefined) registerConnector(oauthConnector);
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const admin = () => ({ authorization: `Bearer ${t.adminToken}` });
const MISSING_ORG = '00000000-0000-4000-8000-000000000000';
const SECRET = 'oauth-app-secret-value-1234';

interface OAuthApp {
  platform: string;
  environment: Environment;
  client_id: string;
  redirect_uri: string;
  scope: string | null;
  calls_this_month: number;
  created_at: string;
  updated_at: string;
}

const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  environment: 'sandbox',
  client_id: 'app-client-id',
  client_secret: SECRET,
  redirect_uri: 'https://api.example.com/link/oauth/callback',
  ...overrides,
});

function put(orgId: string, payload: object, platform = OAUTH, headers: Record<string, string> = admin()) {
  return t.app.inject({ method: 'PUT', url: `/admin/organizations/${orgId}/oauth_apps/${platform}`, headers, payload });
}

async function list(orgId: string): Promise<OAuthApp[]> {
  const response = await t.app.inject({ method: 'GET', url: `/admin/organizations/${orgId}/oauth_apps`, headers: admin() });
  expect(response.statusCode, response.body).toBe(200);
  expect(Value.Check(listContract.success.schema, json(response))).toBe(true);
  return (json(response) as { oauth_apps: OAuthApp[] }).oauth_apps;
}

function remove(orgId: string, environment: string, platform = OAUTH) {
  return t.app.inject({ method: 'DELETE', url: `/admin/organizations/${orgId}/oauth_apps/${platform}?environment=${environment}`, headers: admin() });
}

async function storedRows(orgId: string) {
  const rows = await t.db.pool.query<{
    environment: string;
    platform: string;
    client_id: string;
    client_secret_ciphertext: Buffer;
    redirect_uri: string;
  }>('SELECT environment, platform, client_id, client_secret_ciphertext, redirect_uri FROM oauth_apps WHERE organization_id = $1', [orgId]);
  return rows.rows;
}

/** Just what the link flow's reader uses of a connection: its organisation and environment. */
function connectionOf(organizationId: string, environment: Environment): ConnectionRecord {
  const now = new Date();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    organizationId,
    environment,
    platform: OAUTH,
    name: null,
    simulated: false,
    status: 'not_ready',
    accessTokenCiphertext: Buffer.alloc(0),
    linkTokenCiphertext: Buffer.alloc(0),
    storeUniqueId: null,
    storeName: null,
    storeDomain: null,
    credentialsCiphertext: null,
    oauthTokensCiphertext: null,
    syncConfig: null,
    scope: null,
    redirectUrl: null,
    defaultSubsidiaryId: null,
    linkedAt: null,
    readyAt: null,
    disableError: null,
    disableMessage: null,
    createdAt: now,
    updatedAt: now,
  };
}

describe('PUT /admin/organizations/:id/oauth_apps/:platform', () => {
  it('stores the app with the secret only encrypted and shows it without the secret', async () => {
    const org = await t.newOrg('OAuth set');
    const id = org.organization.id;
    const response = await put(id, body());
    expect(response.statusCode, response.body).toBe(200);
    const created = json(response);
    expect(Value.Check(setContract.success.schema, created)).toBe(true);
    expect(created).toEqual({
      oauth_app: {
        platform: OAUTH,
        environment: 'sandbox',
        client_id: 'app-client-id',
        redirect_uri: 'https://api.example.com/link/oauth/callback',
        has_webhook_key: false,
        scope: null,
        calls_this_month: 0,
        created_at: expect.any(String) as string,
        updated_at: expect.any(String) as string,
      },
    });
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain('client_secret');

    const listed = await t.app.inject({ method: 'GET', url: `/admin/organizations/${id}/oauth_apps`, headers: admin() });
    expect(listed.body).not.toContain(SECRET);
    expect(listed.body).not.toContain('client_secret');
    expect(await list(id)).toEqual([(created as { oauth_app: OAuthApp }).oauth_app]);

    const rows = await storedRows(id);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(t.services.cipher.decrypt(row?.client_secret_ciphertext ?? Buffer.alloc(0))).toBe(SECRET);
    const plain = await t.db.pool.query(
      `SELECT 1 FROM oauth_apps WHERE organization_id = $1
          AND (position($2::bytea IN client_secret_ciphertext) > 0 OR client_id = $3 OR redirect_uri LIKE '%' || $3 || '%')`,
      [id, Buffer.from(SECRET), SECRET],
    );
    expect(plain.rowCount).toBe(0);
  });

  it('replaces the app on a second set (one row, new values, created_at kept)', async () => {
    const org = await t.newOrg('OAuth replace');
    const id = org.organization.id;
    const first = (json(await put(id, body())) as { oauth_app: OAuthApp }).oauth_app;
    const second = await put(
      id,
      body({ client_id: 'app-2', client_secret: 'second-secret', redirect_uri: 'http://localhost:8080/link/oauth/callback' }),
    );
    expect(second.statusCode, second.body).toBe(200);
    const updated = (json(second) as { oauth_app: OAuthApp }).oauth_app;
    expect(updated).toMatchObject({ client_id: 'app-2', redirect_uri: 'http://localhost:8080/link/oauth/callback', created_at: first.created_at });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    const rows = await storedRows(id);
    expect(rows).toHaveLength(1);
    expect(t.services.cipher.decrypt(rows[0]?.client_secret_ciphertext ?? Buffer.alloc(0))).toBe('second-secret');
  });

  it('keeps environments apart, lists by platform then environment, and feeds the link flow', async () => {
    const org = await t.newOrg('OAuth environments');
    const id = org.organization.id;
    expect((await put(id, body({ environment: 'sandbox', client_id: 'sb' }))).statusCode).toBe(200);
    expect(
      (await put(id, body({ environment: 'production', client_id: 'live', client_secret: 'live-secret', redirect_uri: 'http://127.0.0.1:3000/cb' })))
        .statusCode,
    ).toBe(200);
    expect((await list(id)).map((a) => [a.platform, a.environment, a.client_id])).toEqual([
      [OAUTH, 'production', 'live'],
      [OAUTH, 'sandbox', 'sb'],
    ]);

    const { pool, cipher } = t.services;
    expect(await findOAuthApp(pool, cipher, connectionOf(id, 'production'), OAUTH)).toEqual({
      clientId: 'live',
      clientSecret: 'live-secret',
      redirectUri: 'http://127.0.0.1:3000/cb',
      scope: null,
    });
    expect(await findOAuthApp(pool, cipher, connectionOf(id, 'sandbox'), OAUTH)).toEqual({
      clientId: 'sb',
      clientSecret: SECRET,
      redirectUri: 'https://api.example.com/link/oauth/callback',
      scope: null,
    });
    expect(await findOAuthApp(pool, cipher, connectionOf(t.org.organization.id, 'sandbox'), OAUTH)).toBeNull();
  });

  it("counts this month's platform calls of the app's connections: not a simulated one's, not another environment's", async () => {
    const org = await t.newOrg('OAuth calls');
    const id = org.organization.id;
    expect((await put(id, body())).statusCode).toBe(200);
    const connection = async (environment: string, simulated: boolean): Promise<string> => {
      const n = Math.random().toString(36);
      const row = await t.db.pool.query<{ id: string }>(
        `INSERT INTO connections (organization_id, environment, platform, simulated, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
         VALUES ($1, $2, $3, $4, sha256(convert_to('at' || $5, 'UTF8')), '\\x00'::bytea, sha256(convert_to('lk' || $5, 'UTF8')), '\\x00'::bytea) RETURNING id`,
        [id, environment, OAUTH, simulated, n],
      );
      return row.rows[0]?.id ?? '';
    };
    const calls = async (connectionId: string, count: number, monthsAgo = 0): Promise<void> => {
      await t.db.pool.query(
        `INSERT INTO platform_call_meters (connection_id, scope, day_started_at, day_calls, taken_at, last_take_granted, month_started_at, month_calls)
         VALUES ($1, '', now(), 1, now(), true, (date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') - make_interval(months => $3), $2)`,
        [connectionId, count, monthsAgo],
      );
    };
    await calls(await connection('sandbox', false), 120);
    await calls(await connection('sandbox', false), 30);
    await calls(await connection('sandbox', false), 999, 1);
    await calls(await connection('sandbox', true), 500);
    await calls(await connection('production', false), 70);
    expect((await list(id)).map((app) => [app.environment, app.calls_this_month])).toEqual([['sandbox', 150]]);
  });

  it("asks for the app's scopes at consent, unless the connection has its own; refuses a malformed scope", async () => {
    const org = await t.newOrg('OAuth scopes');
    const id = org.organization.id;
    const consentScope = async (connectionScope?: string): Promise<string | null> => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/versioned/connections/create',
        headers: clientHeaders(org),
        payload: connectionScope === undefined ? {} : { scope: connectionScope },
      });
      expect(created.statusCode, created.body).toBe(200);
      const path = new URL(created.json<{ connection: { link_url: string } }>().connection.link_url).pathname;
      const start = await new LinkBrowser(t.app).get(`${path}/${OAUTH}`);
      expect(start.statusCode, start.body).toBe(302);
      return new URL(String(start.headers.location)).searchParams.get('scope');
    };
    expect((await put(id, body())).statusCode).toBe(200);
    expect(await consentScope()).toBe('connector-default');
    const set = await put(id, body({ scope: '  accounting.invoices   offline_access ' }));
    expect(set.statusCode, set.body).toBe(200);
    expect((json(set) as { oauth_app: OAuthApp }).oauth_app.scope).toBe('accounting.invoices offline_access');
    expect(await consentScope()).toBe('accounting.invoices offline_access');
    expect(await consentScope('accounting.contacts')).toBe('accounting.contacts');
    for (const scope of ['bad"quote', 'x'.repeat(1001)]) {
      const refused = await put(id, body({ scope }));
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'scope' } });
    }
    expect((await list(id)).map((app) => app.scope)).toEqual(['accounting.invoices offline_access']);
  });

  it('answers 410 for an organisation that does not exist', async () => {
    const response = await put(MISSING_ORG, body());
    expect(response.statusCode).toBe(410);
    expect(errorBody(response).error_code).toBe('RESOURCE_NOT_FOUND');
  });

  it('refuses platforms that do not take an OAuth app, naming those that do', async () => {
    for (const platform of ['SANDBOX', 'NOPE']) {
      const response = await put(t.org.organization.id, body(), platform);
      expect(response.statusCode, platform).toBe(400);
      const error = errorBody(response);
      expect(error.error_code).toBe('VALIDATION_ERROR');
      expect(error.error_message).toContain(`platforms that take an OAuth app: ${OAUTH}`);
      expect(error.error_metadata).toMatchObject({ field: 'platform', location: 'params' });
    }
    expect(errorBody(await put(t.org.organization.id, body(), 'SANDBOX')).error_message).toContain('SANDBOX does not sign in with OAuth');
    expect(errorBody(await put(t.org.organization.id, body(), 'NOPE')).error_message).toContain('"NOPE" is not a known platform');
    expect(await storedRows(t.org.organization.id)).toEqual([]);
  });

  it('refuses malformed bodies and redirect URIs with the field named', async () => {
    const id = t.org.organization.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ environment: 'sandbox', client_secret: 's', redirect_uri: 'https://a.example/cb' }, '`client_id`'],
      [{ environment: 'sandbox', client_id: 'c', redirect_uri: 'https://a.example/cb' }, '`client_secret`'],
      [{ environment: 'sandbox', client_id: 'c', client_secret: 's' }, '`redirect_uri`'],
      [{ client_id: 'c', client_secret: 's', redirect_uri: 'https://a.example/cb' }, '`environment`'],
      [body({ environment: 'staging' }), '`environment`'],
      [body({ client_id: '' }), '`client_id` in the request body must be at least 1 characters long.'],
      [body({ client_secret: 'x'.repeat(501) }), '`client_secret` in the request body must be at most 500 characters long.'],
      [body({ extra: true }), '`extra` in the request body is not a known field; remove it.'],
      [body({ redirect_uri: 'http://example.com/cb' }), '`redirect_uri` in the request body must use https'],
      [body({ redirect_uri: 'http://10.0.0.1/cb' }), '`redirect_uri` in the request body must use https'],
      [body({ redirect_uri: '/link/oauth/callback' }), '`redirect_uri` in the request body must be an absolute http or https URL'],
      [body({ redirect_uri: 'ftp://example.com/cb' }), '`redirect_uri` in the request body must be an absolute http or https URL'],
      [body({ redirect_uri: 'https://user:pw@example.com/cb' }), 'must not contain credentials'],
      [body({ redirect_uri: 'https://example.com/cb#x' }), 'must not contain a #fragment'],
    ];
    for (const [payload, message] of cases) {
      const response = await put(id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(response).error_code).toBe('VALIDATION_ERROR');
      expect(errorBody(response).error_message).toContain(message);
    }
    const badId = await put('not-a-uuid', body());
    expect(badId.statusCode).toBe(400);
    expect(errorBody(badId).error_metadata).toMatchObject({ location: 'params', field: 'id' });
    const malformed = await t.app.inject({
      method: 'PUT',
      url: `/admin/organizations/${id}/oauth_apps/${OAUTH}`,
      headers: { ...admin(), 'content-type': 'application/json' },
      payload: '{"client_id":',
    });
    expect(errorBody(malformed).error_code).toBe('MALFORMED_JSON');
    expect(await storedRows(id)).toEqual([]);
  });
});

describe('DELETE /admin/organizations/:id/oauth_apps/:platform', () => {
  it("removes one environment's app, then answers 410", async () => {
    const org = await t.newOrg('OAuth delete');
    const id = org.organization.id;
    await put(id, body({ environment: 'sandbox' }));
    await put(id, body({ environment: 'production' }));
    const deleted = await remove(id, 'sandbox');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(Value.Check(deleteContract.success.schema, json(deleted))).toBe(true);
    expect(json(deleted)).toEqual({ deleted: true });
    expect((await list(id)).map((a) => a.environment)).toEqual(['production']);
    expect(await findOAuthApp(t.services.pool, t.services.cipher, connectionOf(id, 'sandbox'), OAUTH)).toBeNull();

    const again = await remove(id, 'sandbox');
    expect(again.statusCode).toBe(410);
    expect(errorBody(again).error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await remove(id, 'staging')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'DELETE', url: `/admin/organizations/${id}/oauth_apps/${OAUTH}`, headers: admin() })).statusCode).toBe(400);
  });
});

describe('organisations and the admin token', () => {
  it("answers 410 for an unknown organisation, and never reaches another organisation's app", async () => {
    const owner = await t.newOrg('OAuth owner');
    const other = await t.newOrg('OAuth other');
    await put(owner.organization.id, body());

    const missingList = await t.app.inject({ method: 'GET', url: `/admin/organizations/${MISSING_ORG}/oauth_apps`, headers: admin() });
    expect(missingList.statusCode).toBe(410);
    expect(errorBody(missingList).error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await remove(MISSING_ORG, 'sandbox')).statusCode).toBe(410);

    expect(await list(other.organization.id)).toEqual([]);
    const foreign = await remove(other.organization.id, 'sandbox');
    expect(foreign.statusCode).toBe(410);
    expect(errorBody(foreign).error_code).toBe('RESOURCE_NOT_FOUND');
    expect(await list(owner.organization.id)).toHaveLength(1);
  });

  it('every OAuth app endpoint refuses a missing, malformed or wrong token', async () => {
    const org = t.org.organization.id;
    const calls: { method: 'GET' | 'PUT' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'PUT', url: `/admin/organizations/${org}/oauth_apps/${OAUTH}`, payload: body() },
      { method: 'GET', url: `/admin/organizations/${org}/oauth_apps` },
      { method: 'DELETE', url: `/admin/organizations/${org}/oauth_apps/${OAUTH}?environment=sandbox` },
    ];
    for (const call of calls) {
      for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, { authorization: 'Bearer wrong-token-value' }]) {
        const response = await t.app.inject({ ...call, headers });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
        expect(errorBody(response).error_code).toBe('INVALID_ADMIN_TOKEN');
      }
    }
    expect(await storedRows(org)).toEqual([]);
  });
});

describe('ledgerport oauth-app (CLI)', () => {
  const run = promisify(execFile);
  const fixed = { ADMIN_TOKEN: `cli-test-${randomBytes(8).toString('hex')}`, ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['bin/ledgerport.js', 'oauth-app', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: t.db.url, ...fixed, DATA_DIR: '/tmp/ledgerport-test-data', LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it("sets an app's scopes and webhook key as the API does", async () => {
    const org = await t.newOrg('OAuth CLI scopes');
    const id = org.organization.id;
    const set = await cli([
      'set',
      ...['--id', id, '--platform', 'XERO', '--environment', 'sandbox', '--client-id', 'cli-xero', '--client-secret', 'cli-secret'],
      ...[
        '--redirect-uri',
        'https://api.example.com/link/oauth/callback',
        '--scope',
        'accounting.invoices offline_access',
        '--webhook-key',
        'cli-key',
      ],
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain('cli-key');
    expect(await list(id)).toMatchObject([{ platform: 'XERO', scope: 'accounting.invoices offline_access', has_webhook_key: true }]);
  });

  it('lists and deletes through the same functions as the API; set refuses platforms of the build without OAuth', async () => {
    const org = await t.newOrg('OAuth CLI');
    const id = org.organization.id;
    // The test platform is registered in this process only; the CLI process serves the build's platforms.
    await put(id, body());
    const listed = await cli(['list', '--id', id]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(SECRET);
    expect((JSON.parse(listed.stdout) as { oauth_apps: OAuthApp[] }).oauth_apps.map((a) => [a.platform, a.environment])).toEqual([
      [OAUTH, 'sandbox'],
    ]);

    const deleted = await cli(['delete', '--id', id, '--platform', OAUTH, '--environment', 'sandbox']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: true });
    expect(await list(id)).toEqual([]);
    expect((await cli(['delete', '--id', id, '--platform', OAUTH, '--environment', 'sandbox'])).code).toBe(1);

    const sandbox = await cli([
      'set',
      '--id',
      id,
      '--platform',
      'SANDBOX',
      '--environment',
      'sandbox',
      '--client-id',
      'c',
      '--client-secret',
      's',
      '--redirect-uri',
      'https://example.com/cb',
    ]);
    expect(sandbox.code).toBe(1);
    expect(sandbox.stderr).toContain(
      '`platform` SANDBOX does not sign in with OAuth; platforms that take an OAuth app: QUICKBOOKS, SHOPIFY, STRIPE, XERO.',
    );
  });

  it('refuses usage errors before touching the database', async () => {
    const missing = await cli(['set', '--id', t.org.organization.id, '--platform', OAUTH, '--environment', 'sandbox', '--client-id', 'c']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--client-secret');
    const badEnv = await cli(['delete', '--id', t.org.organization.id, '--platform', OAUTH, '--environment', 'staging']);
    expect(badEnv.code).toBe(2);
    const badId = await cli(['list', '--id', 'nope']);
    expect(badId.code).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { completeLink } from '../../connections/connections.ts';
import { findConnectionById } from '../../sql/connections.ts';
import { tryLockConnectionSync, unlockConnectionSync } from '../../sql/sync-locks.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { registerTestConnector, TEST_PLATFORM, testConnector } from '../../../test/support/test-connector.ts';
import { getConnector, registerConnector } from '../../platforms/registry.ts';
import { setOAuthApp } from '../../connections/oauth-apps.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';
import { contract as createContract } from './create.ts';
import { contract as fetchContract } from './get-by-token.ts';
import { contract as statusContract } from './status.ts';

let t: TestApp;
beforeAll(async () => {
  registerTestConnector();
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
const V = '/versioned';

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: { org?: CreatedOrganization; env?: 'sandbox' | 'production'; body?: unknown; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method,
    url: `${V}${url}`,
    headers: { ...clientHeaders(options.org ?? t.org, options.env), ...(options.headers ?? {}) },
    ...(options.body === undefined ? {} : { payload: options.body as Json }),
  });
}

async function createEmpty(org?: CreatedOrganization, env?: 'sandbox' | 'production') {
  const response = await call('POST', '/connections/create', { org, env, body: {} });
  expect(response.statusCode).toBe(200);
  return (json(response) as { connection: { id: string; access_token: string; link_url: string } }).connection;
}

async function createLinked(user: string, org?: CreatedOrganization) {
  const response = await call('POST', '/connections/create', {
    org,
    body: { platform: TEST_PLATFORM, basic_username: user, basic_password: 'secret' },
  });
  expect(response.statusCode).toBe(200);
  return (json(response) as { connection: { id: string; access_token: string; link_url: string } }).connection;
}

describe('POST /connections/create', () => {
  it('with an empty body creates a connection the end user links later', async () => {
    const response = await call('POST', '/connections/create', { body: {} });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Value.Check(createContract.success.schema, body)).toBe(true);
    const connection = body.connection as Json;
    expect(connection.access_token).toMatch(/^lpat_/);
    expect(connection.link_url).toMatch(/^http:\/\/localhost:8080\/link\/lk_/);
    expect(connection.name).toBeNull();
    const fetched = json(await call('GET', `/connections/access_token?access_token=${String(connection.access_token)}`));
    expect(fetched.connection).toMatchObject({ id: connection.id, platform: null, status: 'not_ready', is_ready: false });
    // No platform yet: what it can read, how far it synced and which account it is are not known.
    expect(fetched.connection).toMatchObject({
      store_unique_id: null,
      unavailable_objects: null,
      initial_orders_synced_count: null,
      last_sync_started_at: null,
      last_sync_completed_at: null,
    });
  });

  it('with platform credentials validates them against the platform and starts the initial sync', async () => {
    const created = await createLinked('alice');
    const fetched = json(await call('GET', `/connections/access_token?access_token=${created.access_token}`)).connection as Json;
    expect(fetched).toMatchObject({ platform: TEST_PLATFORM, store_unique_id: 'acct-alice', store_name: 'Books of alice', status: 'not_ready' });
    // The reference's view of what it can read: its connector reads accounts and bills, and no orders.
    const unavailable = fetched.unavailable_objects as string[];
    expect(unavailable.filter((name) => ['account', 'bill', 'accounting_customer', 'order', 'tax_area'].includes(name))).toEqual([
      'accounting_customer',
      'order',
      'tax_area',
    ]);
    expect(unavailable).toHaveLength(47);
    expect(fetched).toMatchObject({ initial_orders_synced_count: null, oldest_order_date: null, last_sync_completed_at: null });
    const runs = await t.db.pool.query(`SELECT kind, trigger, status FROM sync_runs WHERE connection_id = $1`, [created.id]);
    expect(runs.rows).toEqual([{ kind: 'initial', trigger: 'api', status: 'queued' }]);
    const jobs = await t.db.pool.query(`SELECT data FROM pgboss.job WHERE name = 'sync' AND data->>'connectionId' = $1`, [created.id]);
    expect(jobs.rowCount).toBe(1);
  });

  it('returns the existing connection for the same platform account (de-duplication)', async () => {
    const first = await createLinked('bob');
    const again = await Promise.all([createLinked('bob'), createLinked('bob')]);
    for (const c of again) expect(c.id).toBe(first.id);
    const count = await t.db.pool.query(`SELECT count(*)::int AS n FROM connections WHERE store_unique_id = 'acct-bob'`);
    expect(count.rows[0]).toEqual({ n: 1 });
    // Another organisation connecting the same account gets its own connection.
    const other = await t.newOrg();
    expect((await createLinked('bob', other)).id).not.toBe(first.id);
  });

  it('connecting a known account again stores the new credentials and recovers the connection', async () => {
    const first = await createLinked('ivy');
    await t.db.pool.query(`UPDATE connections SET status = 'needs_reauth', ready_at = now() WHERE id = $1`, [first.id]);
    const again = await createLinked('ivy');
    expect(again.id).toBe(first.id);
    expect(again.access_token).toBe(first.access_token);
    const state = await t.db.pool.query(`SELECT status FROM connections WHERE id = $1`, [first.id]);
    expect(state.rows[0]).toEqual({ status: 'active' });
    const updated = await t.db.pool.query(`SELECT payload FROM events WHERE connection_id = $1 AND code = 'CONNECTION_UPDATED'`, [first.id]);
    expect(updated.rows).toHaveLength(1);
  });

  it('gives an OAuth platform connection a platform_auth_url that starts the consent step', async () => {
    if (getConnector('OAUTHBOOKS') === undefined) {
      registerConnector({
        ...testConnector,
        id: 'OAUTHBOOKS',
        name: 'OAuth Books',
        auth: {
          type: 'oauth2',
          authorizeUrl: (app, state) => `https://login.example.test/authorize?client_id=${app.clientId}&state=${state}`,
          exchangeCode: () => Promise.reject(new Error('not used here')),
          refresh: () => Promise.reject(new Error('not used here')),
        },
      });
    }
    // Without an OAuth app the platform's sign-in form cannot be reached: nothing is created.
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM connections');
    const noApp = await call('POST', '/connections/create', { body: { platform: 'OAUTHBOOKS', redirect_url: 'https://app.example.test/done' } });
    expect(noApp.statusCode, noApp.body).toBe(409);
    expect(errorBody(noApp)).toMatchObject({
      error_type: 'CONNECTION_ERROR',
      error_code: 'ENDFORM_NOT_AVAILABLE',
      error_metadata: { field: 'platform' },
    });
    expect(errorBody(noApp).error_message).toContain('oauth_apps/OAUTHBOOKS');
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM connections')).rows[0]).toEqual(before.rows[0]);

    await setOAuthApp(t.db.pool, t.services.cipher, {
      organizationId: t.org.organization.id,
      platform: 'OAUTHBOOKS',
      environment: 'sandbox',
      clientId: 'oauth-books-client',
      clientSecret: 'oauth-books-secret',
      redirectUri: 'https://api.example.test/link/oauth/callback',
    });
    const response = await call('POST', '/connections/create', { body: { platform: 'OAUTHBOOKS', redirect_url: 'https://app.example.test/done' } });
    expect(response.statusCode, response.body).toBe(200);
    const connection = json(response).connection as { link_url: string; platform_auth_url?: string };
    expect(connection.platform_auth_url).toBe(`${connection.link_url}/OAUTHBOOKS`);
    // Without redirect_url or a marketplace there is no platform_auth_url: the end user starts at link_url.
    const plain = json(await call('POST', '/connections/create', { body: { platform: 'OAUTHBOOKS' } })).connection as Json;
    expect('platform_auth_url' in plain).toBe(false);
    // OAuth platforms take no credential fields in the body.
    const withCredentials = await call('POST', '/connections/create', { body: { platform: 'OAUTHBOOKS', basic_username: 'x', basic_password: 'y' } });
    expect(errorBody(withCredentials).error_message).toMatch(/connects through OAuth/);
  });

  it('answers 451 with the platform message when the platform refuses the credentials', async () => {
    const response = await call('POST', '/connections/create', { body: { platform: TEST_PLATFORM, basic_username: 'x', basic_password: 'wrong' } });
    expect(response.statusCode).toBe(451);
    const body = errorBody(response);
    expect(body.error_code).toBe('PLATFORM_UNAUTHORIZED');
    expect(body.error_metadata).toMatchObject({ source: 'platform', human_readable: 'Invalid username or password' });
  });

  it('refuses malformed bodies with what to fix', async () => {
    const cases: [unknown, RegExp][] = [
      [{ platform: 'NOPE' }, /"NOPE" is not offered/],
      [{ platform: 'lower' }, /`platform`/],
      [{ basic_username: 'x' }, /need `platform`/],
      [{ platform: TEST_PLATFORM, basic_username: 'x' }, /needs basic_password/],
      [{ syncConfig: { incremental_sync_frequency_minutes: 30 } }, /incremental_sync_frequency_minutes.*>= 60/],
      [{ syncConfig: { incremental_sync_frequency_minutes: 20161 } }, /<= 20160/],
      [{ platform: TEST_PLATFORM, syncConfig: { entities: ['INVOICE'] } }, /"INVOICE", which this platform does not sync/],
      [{ syncConfig: { data_batching: { months: [6, 1] } } }, /strictly ascending/],
      [{ syncConfig: { unknown: true } }, /not a known field/],
      [{ redirect_url: 'not a url' }, /redirect_url/],
      [{ marketplace_seller_marketplace: 'MARS' }, /must be one of/],
      // No platform offered is a marketplace: the field is refused, never silently ignored.
      [{ marketplace_seller_marketplace: 'GERMANY' }, /`marketplace_seller_marketplace` cannot be used here: it needs `platform`/],
      [{ platform: TEST_PLATFORM, marketplace_seller_marketplace: 'GERMANY' }, /is not a marketplace platform/],
      [{ surprise: 1 }, /`surprise`.*not a known field/],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/connections/create', { body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).error_message).toMatch(message);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: `${V}/connections/create`,
      headers: { ...clientHeaders(t.org), 'content-type': 'application/json' },
      payload: '{',
    });
    expect(errorBody(malformed).error_code).toBe('MALFORMED_JSON');
  });
});

describe('connection-scoped endpoints', () => {
  it('need client credentials', async () => {
    const { access_token: token, id } = await createEmpty();
    const requests: [string, string][] = [
      ['GET', `/connections?limit=1`],
      ['GET', `/connections/access_token?access_token=${token}`],
      ['GET', `/connections/status?access_token=${token}`],
      ['PATCH', `/connections/${id}`],
      ['DELETE', `/connections/${id}`],
      ['POST', `/connections/access_token/invalidate?access_token=${token}`],
      ['POST', `/connections/incremental_sync?access_token=${token}`],
      ['POST', `/connections/backfill?access_token=${token}`],
      ['POST', '/connections/create'],
      ['POST', '/item/public_token/exchange'],
    ];
    for (const [method, url] of requests) {
      const response = await t.app.inject({
        method: method as 'GET',
        url: `${V}${url}`,
        headers: { 'x-service-version': '2024-08-31' },
        payload: {},
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(errorBody(response).error_code).toBe('INVALID_CREDENTIALS');
    }
  });

  it('answer MISSING_ACCESS_TOKEN without access_token', async () => {
    for (const [method, url] of [
      ['GET', '/connections/access_token'],
      ['GET', '/connections/status'],
      ['POST', '/connections/access_token/invalidate'],
      ['POST', '/connections/incremental_sync'],
    ] as const) {
      const response = await call(method, url, { body: method === 'POST' ? {} : undefined });
      expect(response.statusCode, url).toBe(401);
      expect(errorBody(response)).toMatchObject({ error_code: 'MISSING_ACCESS_TOKEN', error_type: 'INVALID_REQUEST' });
    }
  });

  it("never accept another organisation's or environment's token or id", async () => {
    const other = await t.newOrg();
    const theirs = await createEmpty(other);
    const ourProduction = await createEmpty(t.org, 'production');
    for (const token of [theirs.access_token, ourProduction.access_token, 'lpat_made_up']) {
      for (const [method, url] of [
        ['GET', '/connections/access_token'],
        ['GET', '/connections/status'],
        ['POST', '/connections/access_token/invalidate'],
        ['POST', '/connections/incremental_sync'],
        ['POST', '/connections/backfill'],
      ] as const) {
        const response = await call(method, `${url}?access_token=${token}`, {
          body:
            method === 'POST' ? (url.endsWith('backfill') ? { entity: 'BILL', start_date: '2024-01-01', end_date: '2024-02-01' } : {}) : undefined,
        });
        expect(response.statusCode, `${url} ${token.slice(0, 12)}`).toBe(401);
        expect(errorBody(response).error_code).toBe('INVALID_CREDENTIALS');
      }
    }
    for (const id of [theirs.id, ourProduction.id, '00000000-0000-4000-8000-000000000000']) {
      expect((await call('PATCH', `/connections/${id}`, { body: { name: 'x' } })).statusCode).toBe(410);
      expect((await call('DELETE', `/connections/${id}`)).statusCode).toBe(410);
    }
    // Their connection is untouched.
    const still = json(await call('GET', `/connections/access_token?access_token=${theirs.access_token}`, { org: other }));
    expect((still.connection as Json).name).toBeNull();
  });

  it('fetch and status have the documented shapes', async () => {
    const created = await createLinked('carol');
    const fetched = json(await call('GET', `/connections/access_token?access_token=${created.access_token}`));
    expect(Value.Check(fetchContract.success.schema, fetched)).toBe(true);
    expect((fetched.connection as Json).orgId).toBe(t.org.organization.id);
    const status = json(await call('GET', `/connections/status?access_token=${created.access_token}`));
    expect(Value.Check(statusContract.success.schema, status)).toBe(true);
    // The reference's nesting: {status: {...}, connection: {id, platform, orgId}}.
    expect(status.connection).toEqual({ id: created.id, platform: TEST_PLATFORM, orgId: t.org.organization.id });
    const inner = status.status as Json;
    expect(inner).toMatchObject({
      platform: TEST_PLATFORM,
      connection_status: 'not_ready',
      is_ready: false,
      is_healthy: true,
      default_subsidiary_id: null,
      last_sync_completed_at: null,
      needs_update_status: { needs_update: false },
      disabled_status: { is_disabled: false, disabled_reason: null },
      link_url: (fetched.connection as Json).link_url,
    });
    expect((inner.historical_sync_status as Json).historical_sync_completed).toBe(false);
    expect((inner.latest_syncs as Json[])[0]).toMatchObject({ kind: 'initial', status: 'queued' });
  });

  it("status gives each entity's oldest and newest entity date: business date, else created, else updated; null with nothing stored", async () => {
    const created = await createLinked('erin');
    const totalOf = async (): Promise<Record<string, Json>> => {
      const status = json(await call('GET', `/connections/status?access_token=${created.access_token}`)).status as Json;
      return (status.historical_sync_status as { total: Record<string, Json> }).total;
    };
    expect(await totalOf()).toEqual({
      ACCOUNT: { oldest_entity_date: null, newest_entity_date: null, ready: false, synced_count: 0 },
      BILL: { oldest_entity_date: null, newest_entity_date: null, ready: false, synced_count: 0 },
    });
    const store = (
      type: string,
      platformId: string,
      dates: { created: string | null; updated: string | null; business: string | null },
      deleted = false,
    ) =>
      t.db.pool.query(
        `INSERT INTO records (connection_id, object_type, id, platform_id, data, content_hash, created_at, updated_at, business_date, last_synced_at, deleted_at)
         VALUES ($1, $2, gen_random_uuid(), $3, '{}', '\\x00', $4, $5, $6, now(), CASE WHEN $7 THEN now() END)`,
        [created.id, type, platformId, dates.created, dates.updated, dates.business, deleted],
      );
    // Accounts carry no business date: their creation on the platform, else their last update there.
    await store('account', 'A1', { created: '2025-03-01T00:00:00Z', updated: '2025-06-01T00:00:00Z', business: null });
    await store('account', 'A2', { created: null, updated: '2025-02-01T00:00:00Z', business: null });
    // Bills by their business date; a deleted bill does not count.
    await store('bill', 'B1', { created: '2026-02-01T00:00:00Z', updated: '2026-02-02T00:00:00Z', business: '2026-01-05T00:00:00Z' });
    await store('bill', 'B2', { created: '2026-01-01T00:00:00Z', updated: null, business: '2026-01-20T00:00:00Z' });
    await store('bill', 'B3', { created: null, updated: null, business: '2024-01-01T00:00:00Z' }, true);
    expect(await totalOf()).toEqual({
      ACCOUNT: { oldest_entity_date: '2025-02-01T00:00:00.000Z', newest_entity_date: '2025-03-01T00:00:00.000Z', ready: false, synced_count: 2 },
      BILL: { oldest_entity_date: '2026-01-05T00:00:00.000Z', newest_entity_date: '2026-01-20T00:00:00.000Z', ready: false, synced_count: 2 },
    });
  });

  it("status says a disabled or re-authentication-needing connection is unhealthy, in the reference's words", async () => {
    const created = await createLinked('dora');
    const statusOf = async (): Promise<Json> => json(await call('GET', `/connections/status?access_token=${created.access_token}`)).status as Json;
    await t.db.pool.query(`UPDATE connections SET status = 'needs_reauth' WHERE id = $1`, [created.id]);
    expect(await statusOf()).toMatchObject({
      is_healthy: false,
      needs_update_status: { needs_update: true },
      disabled_status: { is_disabled: false, disabled_reason: null },
    });
    await t.db.pool.query(
      `UPDATE connections SET status = 'disabled', disable_error = 'PERSISTENT_PLATFORM_ERROR', disable_message = 'failed 10 syncs' WHERE id = $1`,
      [created.id],
    );
    expect(await statusOf()).toMatchObject({
      is_healthy: false,
      connection_status: 'disabled',
      needs_update_status: { needs_update: false },
      disabled_status: { is_disabled: true, disabled_reason: 'UNKNOWN' },
      disable_error: 'PERSISTENT_PLATFORM_ERROR',
      disable_message: 'failed 10 syncs',
    });
  });

  it('creating a SANDBOX connection for the test user user_link_error answers 550 PLATFORM_ERROR and creates nothing', async () => {
    const before = (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM connections')).rows[0]?.n;
    const response = await call('POST', '/connections/create', {
      body: { platform: 'SANDBOX', basic_username: 'user_link_error', basic_password: 'pass_good' },
    });
    expect(response.statusCode, response.body).toBe(550);
    expect(errorBody(response)).toMatchObject({ error_type: 'PLATFORM_ERROR', error_code: 'PLATFORM_ERROR', error_metadata: { source: 'platform' } });
    expect((await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM connections')).rows[0]?.n).toBe(before);
  });

  it('refuses SANDBOX credential fields it does not take with 400 naming the field, and creates nothing', async () => {
    const count = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM connections')).rows[0]?.n;
    const before = await count();
    const login = { platform: 'SANDBOX', basic_username: 'user_good', basic_password: 'pass_good' };
    for (const [field, value] of [
      ['api_key', 'sk_test'],
      ['marketplace_seller_region', 'xx'],
    ] as const) {
      const response = await call('POST', '/connections/create', { body: { ...login, [field]: value } });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field } });
      expect(errorBody(response).error_message).toBe(`\`${field}\` is not taken by SANDBOX: it signs in with basic_username, basic_password.`);
    }
    expect(await count()).toBe(before);
  });

  it('PATCH renames and refuses malformed bodies', async () => {
    const { id, access_token: token } = await createEmpty();
    const renamed = await call('PATCH', `/connections/${id}`, { body: { name: 'Main books' } });
    expect(renamed.statusCode).toBe(200);
    expect((json(renamed).connection as Json).name).toBe('Main books');
    expect((json(await call('GET', `/connections/access_token?access_token=${token}`)).connection as Json).name).toBe('Main books');
    expect((await call('PATCH', `/connections/${id}`, { body: { name: 7 } })).statusCode).toBe(400);
    const unknown = await call('PATCH', `/connections/${id}`, { body: { platform: 'X' } });
    expect(unknown.statusCode).toBe(400);
    // The unknown field is named, not only the missing `name`.
    expect(errorBody(unknown).error_message).toBe('`name` in the request body is required; `platform` is not a known field there.');
    expect(errorBody(unknown).error_metadata).toMatchObject({ field: 'name', location: 'body' });
    expect((await call('PATCH', '/connections/not-a-uuid', { body: { name: 'x' } })).statusCode).toBe(400);
  });

  it('DELETE removes the connection, and answers 409 while a sync runs', async () => {
    const busy = await createLinked('dave');
    // A worker syncing this connection holds its sync lock.
    const worker = await t.db.pool.connect();
    expect(await tryLockConnectionSync(worker, busy.id)).toBe(true);
    const refused = await call('DELETE', `/connections/${busy.id}`);
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).error_code).toBe('SYNC_IN_PROGRESS');
    await unlockConnectionSync(worker, busy.id);
    worker.release();
    const deleted = await call('DELETE', `/connections/${busy.id}`);
    expect(json(deleted)).toEqual({ success: true, connection_id: busy.id });
    expect((await call('GET', `/connections/access_token?access_token=${busy.access_token}`)).statusCode).toBe(401);
    expect((await call('DELETE', `/connections/${busy.id}`)).statusCode).toBe(410);
  });

  it('invalidating the access token issues a new one and the old one stops working at once', async () => {
    const { access_token: old, id } = await createEmpty();
    const response = await call('POST', `/connections/access_token/invalidate?access_token=${old}`);
    expect(response.statusCode).toBe(200);
    const body = json(response) as { connection_id: string; access_token: string; new_access_token: string };
    expect(body.connection_id).toBe(id);
    expect(body.access_token).not.toBe(old);
    // The reference names the replacement new_access_token; ours carries it under both names.
    expect(body.new_access_token).toBe(body.access_token);
    expect((await call('GET', `/connections/access_token?access_token=${old}`)).statusCode).toBe(401);
    expect((await call('GET', `/connections/access_token?access_token=${body.access_token}`)).statusCode).toBe(200);
  });
});

describe('POST /connections/incremental_sync and /connections/backfill', () => {
  it('queue a sync with the requested entities', async () => {
    const c = await createLinked('erin');
    for (const [body, expected] of [
      [{}, null],
      [{ object_types: [] }, []],
      [{ object_types: ['BILL'] }, ['BILL']],
    ] as const) {
      const response = await call('POST', `/connections/incremental_sync?access_token=${c.access_token}`, { body });
      expect(response.statusCode).toBe(200);
      const answer = json(response) as { success: boolean; incremental_sync: { id: string; status: string; object_types: unknown } };
      expect(answer.success).toBe(true);
      const run = answer.incremental_sync;
      expect(run).toMatchObject({ status: 'queued', object_types: expected });
      const row = await t.db.pool.query(`SELECT kind, trigger, request FROM sync_runs WHERE id = $1`, [run.id]);
      expect(row.rows[0]).toEqual({ kind: 'incremental', trigger: 'manual', request: { object_types: expected } });
    }
    const backfill = await call('POST', `/connections/backfill?access_token=${c.access_token}`, {
      body: { entity: 'BILL', start_date: '2023-01-01', end_date: '2023-06-30' },
    });
    expect(backfill.statusCode).toBe(200);
    expect(json(backfill).success).toBe(true);
    expect(json(backfill).backfill).toMatchObject({ status: 'queued', entity: 'BILL', start_date: '2023-01-01', end_date: '2023-06-30' });
  });

  it('refuse entities the platform does not sync, bad dates and unlinked connections', async () => {
    const c = await createLinked('frank');
    const sync = await call('POST', `/connections/incremental_sync?access_token=${c.access_token}`, { body: { object_types: ['BILL', 'NOPE'] } });
    expect(errorBody(sync).error_message).toMatch(/"NOPE", not synced for this platform\. Allowed: ACCOUNT, BILL/);
    expect((await call('POST', `/connections/incremental_sync?access_token=${c.access_token}`, { body: { object_types: 'BILL' } })).statusCode).toBe(
      400,
    );
    for (const body of [
      { entity: 'BILL', start_date: '2023-02-01', end_date: '2023-01-01' },
      { entity: 'BILL', start_date: '2023-13-01', end_date: '2023-12-31' },
      { entity: 'INVOICE', start_date: '2023-01-01', end_date: '2023-02-01' },
      { entity: 'BILL' },
    ]) {
      expect((await call('POST', `/connections/backfill?access_token=${c.access_token}`, { body })).statusCode, JSON.stringify(body)).toBe(400);
    }
    const unlinked = await createEmpty();
    const notLinked = await call('POST', `/connections/incremental_sync?access_token=${unlinked.access_token}`, { body: {} });
    expect(notLinked.statusCode).toBe(409);
    expect(errorBody(notLinked).error_code).toBe('NO_CREDENTIALS');
  });
});

describe('a connection never linked says where its link stands', () => {
  async function codes(token: string): Promise<string[]> {
    const answers = await Promise.all([
      call('GET', `/accounting/bills?access_token=${token}`),
      call('GET', `/accounting/bills?access_token=${token}&force_fetch=true`),
      call('POST', `/accounting/vendors?access_token=${token}`, { body: { vendor: { vendor_name: 'Never written' } } }),
      call('POST', `/connections/incremental_sync?access_token=${token}`, { body: {} }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(409);
    return answers.map((a) => errorBody(a).error_code);
  }

  it('NO_CREDENTIALS, then PENDING while the end user signs in at the platform, then LINK_ERROR once an attempt failed', async () => {
    const c = await createEmpty();
    expect(await codes(c.access_token)).toEqual(['NO_CREDENTIALS', 'NO_CREDENTIALS', 'NO_CREDENTIALS', 'NO_CREDENTIALS']);
    await t.db.pool.query(
      `INSERT INTO events (organization_id, environment, connection_id, type, code, payload)
       VALUES ($1, 'sandbox', $2, 'CONNECTION', 'CONNECTION_LINK_ERROR', '{"message": "Those credentials were not accepted."}'::json)`,
      [t.org.organization.id, c.id],
    );
    expect(await codes(c.access_token)).toEqual(['LINK_ERROR', 'LINK_ERROR', 'LINK_ERROR', 'LINK_ERROR']);
    const body = errorBody(await call('GET', `/accounting/bills?access_token=${c.access_token}`));
    expect(body).toMatchObject({ error_type: 'CONNECTION_ERROR' });
    expect(body.error_message).toContain('Those credentials were not accepted.');
    await t.db.pool.query(
      `INSERT INTO oauth_states (state_sha256, connection_id, platform, expires_at) VALUES (sha256('st-pending'::bytea), $1, 'XERO', now() + interval '10 minutes')`,
      [c.id],
    );
    expect(await codes(c.access_token)).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING']);
  });
});

describe('POST /item/public_token/exchange', () => {
  async function linkThroughFlow(user: string) {
    const created = await createEmpty();
    const record = await findConnectionById(t.db.pool, { organizationId: t.org.organization.id, environment: 'sandbox' }, created.id);
    if (record === null) throw new Error('connection missing');
    const done = await completeLink(t.db.pool, t.services.cipher, record, {
      platform: TEST_PLATFORM,
      credentials: { basic_username: user, basic_password: 'secret' },
      tokens: null,
      identity: { storeUniqueId: `acct-${user}`, storeName: `Books of ${user}` },
    });
    return { created, publicToken: done.publicToken };
  }
  const exchangeBody = (org: CreatedOrganization, publicToken: string) => ({
    client_id: org.credentials.sandbox.client_id,
    secret: org.credentials.sandbox.client_secret,
    public_token: publicToken,
  });

  it('exchanges once for the access token; a second exchange fails', async () => {
    const { created, publicToken } = await linkThroughFlow('gina');
    const response = await call('POST', '/item/public_token/exchange', { body: exchangeBody(t.org, publicToken) });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({
      connection_id: created.id,
      access_token: created.access_token,
      is_ready: false,
      platform: TEST_PLATFORM,
      name: 'Books of gina',
      store_unique_name: 'acct-gina',
    });
    const again = await call('POST', '/item/public_token/exchange', { body: exchangeBody(t.org, publicToken) });
    expect(again.statusCode).toBe(400);
    expect(errorBody(again).error_code).toBe('INVALID_PUBLIC_TOKEN');
  });

  it('refuses an expired token, another tenant, and body credentials that differ from the header', async () => {
    const { publicToken } = await linkThroughFlow('hank');
    const other = await t.newOrg();
    const cross = await call('POST', '/item/public_token/exchange', { org: other, body: exchangeBody(other, publicToken) });
    expect(errorBody(cross).error_code).toBe('INVALID_PUBLIC_TOKEN');
    const mismatch = await call('POST', '/item/public_token/exchange', { body: exchangeBody(other, publicToken) });
    expect(mismatch.statusCode).toBe(401);
    await t.db.pool.query(`UPDATE public_tokens SET expires_at = now() - interval '1 second'`);
    const expired = await call('POST', '/item/public_token/exchange', { body: exchangeBody(t.org, publicToken) });
    expect(errorBody(expired).error_message).toMatch(/30 minutes/);
    expect((await call('POST', '/item/public_token/exchange', { body: { public_token: 'x' } })).statusCode).toBe(400);
  });
});

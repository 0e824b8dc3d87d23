import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { createConnection, accessTokenOf } from '../../connections/connections.ts';
import { requestSync } from '../../sync/requests.ts';
import { runSync } from '../../sync/runner.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { books, MEMORY_PLATFORM, registerMemoryConnector, resetBooks } from '../../../test/support/memory-platform.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';
import { contract } from './list.ts';
import { contract as statusContract } from '../connections/status.ts';

let t: TestApp;
let token: string;
let connectionId: string;
beforeAll(async () => {
  registerMemoryConnector();
  // The memory platform maps only the fields these tests read (test/support/memory-platform.ts): lenient mapping.
  t = await startTestApp({ config: { strictMapping: false } });
  resetBooks();
  for (let i = 1; i <= 6; i++) books.addAccount(`A${i}`, `Account ${i}`);
  for (let i = 1; i <= 6; i++) books.addBill(`B${i}`, i, '2026-01-01T00:00:00.000Z');
  const { connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: t.org.organization.id, environment: 'sandbox' },
    {
      platform: MEMORY_PLATFORM,
      name: null,
      credentials: { api_key: 'events' },
      identity: { storeUniqueId: 'mem-events', storeName: null },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  connectionId = connection.id;
  token = accessTokenOf(t.services.cipher, connection);
  const sync = async (kind: 'initial' | 'incremental') => {
    const run = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind, trigger: 'api', details: {} });
    expect(await runSync(t.services, run.id, new AbortController().signal)).toBe('completed');
  };
  await sync('initial');
  books.remove('bills', 'B2');
  books.remove('bills', 'B4');
  books.remove('accounts', 'A1');
  await sync('incremental');
});
afterAll(async () => {
  await t.close();
});

const get = (query: string, org: CreatedOrganization = t.org) =>
  t.app.inject({ method: 'GET', url: `/versioned/events${query}`, headers: clientHeaders(org) });

describe('GET /events', () => {
  it('lists deletions with the last known object and the connection', async () => {
    const response = await get(`?type=object_deleted&access_token=${token}`);
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Value.Check(contract.success.schema, body)).toBe(true);
    const events = body.events as { resource: string; object: { platform_id: string; name?: string } }[];
    expect(events.map((e) => `${e.resource}:${e.object.platform_id}`).sort()).toEqual(['accounts:A1', 'bills:B2', 'bills:B4']);
    expect(events.find((e) => e.resource === 'accounts')?.object.name).toBe('Account 1');
    expect(body.next_cursor).toBeNull();
    expect(body.connection).toEqual({ id: connectionId, platform: MEMORY_PLATFORM, orgId: t.org.organization.id });
  });

  it('pages with a cursor and filters by resource and time', async () => {
    const first = json(await get(`?type=object_deleted&access_token=${token}&limit=2`));
    expect(first.events).toHaveLength(2);
    const second = json(await get(`?type=object_deleted&access_token=${token}&limit=2&cursor=${String(first.next_cursor)}`));
    expect(second.events).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    const bills = json(await get(`?type=object_deleted&access_token=${token}&resources=bills`));
    expect((bills.events as unknown[]).length).toBe(2);
    const future = json(await get(`?type=object_deleted&access_token=${token}&last_synced_at_min=${Date.now() + 60_000}`));
    expect(future.events).toEqual([]);
  });

  it('refuses bad input, missing auth and other tenants', async () => {
    expect((await get(`?type=object_deleted&access_token=${token}&resources=nope`)).statusCode).toBe(400);
    expect((await get(`?type=created&access_token=${token}`)).statusCode).toBe(400);
    // The reference makes `type` optional: without it the same log is served.
    expect(json(await get(`?access_token=${token}`)).events).toEqual(json(await get(`?type=object_deleted&access_token=${token}`)).events);
    expect((await get(`?type=object_deleted&access_token=${token}&limit=501`)).statusCode).toBe(400);
    expect(errorBody(await get(`?type=object_deleted&access_token=${token}&cursor=zzz`)).error_code).toBe('INVALID_CURSOR');
    expect(errorBody(await get('?type=object_deleted')).error_code).toBe('MISSING_ACCESS_TOKEN');
    const other = await t.newOrg();
    expect((await get(`?type=object_deleted&access_token=${token}`, other)).statusCode).toBe(401);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/versioned/events?type=object_deleted&access_token=${token}`,
      headers: { 'x-service-version': '2024-08-31' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /connections/status after syncs', () => {
  it('reports per-object progress and counts', async () => {
    const body = json(
      await t.app.inject({ method: 'GET', url: `/versioned/connections/status?access_token=${token}`, headers: clientHeaders(t.org) }),
    );
    expect(Value.Check(statusContract.success.schema, body)).toBe(true);
    expect(Object.keys(body).sort()).toEqual(['connection', 'status']);
    expect(body.connection).toEqual({ id: connectionId, platform: expect.any(String) as string, orgId: t.org.organization.id });
    const status = body.status as Record<string, unknown>;
    expect(status.initial_sync).toEqual({ status: 'completed', objects_total: 2, objects_completed: 2, progress: 1 });
    const objects = status.objects as { entity: string; status: string; synced_count: number; oldest_record_at: string | null }[];
    expect(objects.map((o) => [o.entity, o.status, o.synced_count])).toEqual([
      ['ACCOUNT', 'completed', 5],
      ['BILL', 'completed', 4],
    ]);
    expect(objects.find((o) => o.entity === 'BILL')?.oldest_record_at).toBe('2026-01-01T00:00:00.000Z');
    expect(status).toMatchObject({
      connection_status: 'active',
      is_ready: true,
      is_healthy: true,
      needs_update_status: { needs_update: false },
      disabled_status: { is_disabled: false, disabled_reason: null },
    });
    expect(typeof status.last_sync_completed_at).toBe('string');
    // The reference's per-entity totals, from the same counts.
    const history = status.historical_sync_status as {
      historical_sync_completed: boolean;
      total: Record<string, unknown>;
      num_batches_completed: number | null;
    };
    expect(history.historical_sync_completed).toBe(true);
    expect(history.num_batches_completed).toBeNull();
    expect(history.total).toEqual({
      // Accounts carry no business date.
      ACCOUNT: { oldest_entity_date: null, newest_entity_date: null, ready: true, synced_count: 5 },
      BILL: { oldest_entity_date: '2026-01-01T00:00:00.000Z', newest_entity_date: expect.any(String) as string, ready: true, synced_count: 4 },
    });
  });
});

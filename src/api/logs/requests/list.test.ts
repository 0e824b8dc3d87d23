import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf } from '../../../connections/connections.ts';
import { clientHeaders, errorBody, startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { sandboxConnection } from '../../../../test/support/sandbox-connection.ts';
import type { CreatedOrganization } from '../../../tenants/organizations.ts';
import { pruneRequestLogs } from '../../../sql/prune-request-logs.ts';
import { runMaintenance } from '../../../jobs/queues.ts';
import { RequestLogWriter } from '../../../http/request-log.ts';
import { silentLogger } from '../../../log/logger.ts';
import { requestLogRowsDropped } from '../../../metrics/registry.ts';

interface LogRow {
  id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  request_id: string;
  connection_id: string | null;
  error_code: string | null;
}
interface LogPage {
  request_logs: LogRow[];
  next_cursor: string | null;
}

let t: TestApp;
let other: CreatedOrganization;
let connectionId: string;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  other = await t.newOrg('Other tenant');
  const connection = await sandboxConnection(t, 'user_request_log');
  connectionId = connection.id;
  token = accessTokenOf(t.services.cipher, connection);
});
afterAll(async () => {
  await t.close();
});

async function call(url: string, requestId: string, org: CreatedOrganization = t.org) {
  return t.app.inject({ method: 'GET', url, headers: { ...clientHeaders(org), 'x-request-id': requestId } });
}

async function logs(query: string, org: CreatedOrganization = t.org) {
  await t.app.requestLog.flush();
  return t.app.inject({ method: 'GET', url: `/versioned/logs/requests${query}`, headers: clientHeaders(org) });
}

async function page(query: string, org: CreatedOrganization = t.org): Promise<LogPage> {
  const response = await logs(query, org);
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as LogPage;
}

describe('GET /logs/requests', () => {
  it('answers 401 without client credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/versioned/logs/requests' });
    expect(response.statusCode).toBe(401);
    expect(errorBody(response).error_code).toBe('INVALID_CREDENTIALS');
  });

  it('finds a request by its request id: method, route template, status, duration, connection', async () => {
    const requestId = `ok-${randomUUID()}`;
    expect((await call(`/versioned/events?type=object_deleted&access_token=${token}`, requestId)).statusCode).toBe(200);
    const { request_logs: rows } = await page(`?request_id=${requestId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      method: 'GET',
      route: '/versioned/events',
      status: 200,
      request_id: requestId,
      connection_id: connectionId,
      error_code: null,
    });
    expect(rows[0]?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('keeps the error code of an error answer, and the route template rather than the path', async () => {
    const requestId = `missing-${randomUUID()}`;
    expect((await call(`/versioned/jobs/${randomUUID()}`, requestId)).statusCode).toBe(410);
    const { request_logs: rows } = await page(`?request_id=${requestId}`);
    expect(rows).toMatchObject([{ route: '/versioned/jobs/:id', status: 410, error_code: 'RESOURCE_NOT_FOUND', connection_id: null }]);
  });

  it('filters by status, exact or by class', async () => {
    await call(`/versioned/events?type=object_deleted&access_token=wrong`, `bad-token-${randomUUID()}`);
    const fourXx = await page('?status=4xx&limit=200');
    expect(fourXx.request_logs.length).toBeGreaterThan(0);
    expect(fourXx.request_logs.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
    const exact = await page('?status=401&limit=200');
    expect(exact.request_logs.length).toBeGreaterThan(0);
    expect(exact.request_logs.every((r) => r.status === 401)).toBe(true);
    const ok = await page('?status=200&limit=200');
    expect(ok.request_logs.every((r) => r.status === 200)).toBe(true);
  });

  it('filters by connection', async () => {
    await call(`/versioned/events?type=object_deleted&access_token=${token}`, `conn-${randomUUID()}`);
    const { request_logs: rows } = await page(`?connection_id=${connectionId}&limit=200`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.connection_id === connectionId)).toBe(true);
    expect((await page(`?connection_id=${randomUUID()}`)).request_logs).toEqual([]);
  });

  it('pages with a cursor, newest first, without repeating a row', async () => {
    for (let i = 0; i < 5; i++) await call('/versioned/connections?limit=1', `page-${i}-${randomUUID()}`);
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 50; i++) {
      const next = await page(`?limit=2${cursor === '' ? '' : `&cursor=${cursor}`}`);
      seen.push(...next.request_logs.map((r) => r.id));
      if (next.next_cursor === null) break;
      cursor = next.next_cursor;
    }
    const all = await page('?limit=200');
    expect(seen).toEqual(all.request_logs.map((r) => r.id).filter((id) => seen.includes(id)));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });

  it("never shows another organisation's requests, by request id or by connection", async () => {
    const requestId = `private-${randomUUID()}`;
    await call(`/versioned/events?type=object_deleted&access_token=${token}`, requestId);
    expect((await page(`?request_id=${requestId}`)).request_logs).toHaveLength(1);
    expect((await page(`?request_id=${requestId}`, other)).request_logs).toEqual([]);
    expect((await page(`?connection_id=${connectionId}`, other)).request_logs).toEqual([]);
    const everything = await page('?limit=200', other);
    expect(everything.request_logs.some((r) => r.request_id === requestId || r.connection_id === connectionId)).toBe(false);
  });

  it('refuses a malformed status, connection id, cursor or limit with a 400 naming the field', async () => {
    for (const status of ['abc', '600', '4x', '2xxx', '099']) {
      const response = await logs(`?status=${status}`);
      expect(response.statusCode, status).toBe(400);
      expect(errorBody(response)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'status' } });
    }
    const badConnection = await logs('?connection_id=not-a-uuid');
    expect(badConnection.statusCode).toBe(400);
    expect(errorBody(badConnection).error_code).toBe('VALIDATION_ERROR');
    const badCursor = await logs('?cursor=not-a-cursor');
    expect(badCursor.statusCode).toBe(400);
    expect(errorBody(badCursor).error_code).toBe('INVALID_CURSOR');
    const badLimit = await logs('?limit=0');
    expect(badLimit.statusCode).toBe(400);
  });
});

describe('GET /logs/requests/:id', () => {
  it('fetches the row of one request by its request id', async () => {
    const requestId = `fetch-${randomUUID()}`;
    await call(`/versioned/events?type=object_deleted&access_token=${token}`, requestId);
    await t.app.requestLog.flush();
    const response = await t.app.inject({ method: 'GET', url: `/versioned/logs/requests/${requestId}`, headers: clientHeaders(t.org) });
    expect(response.statusCode, response.body).toBe(200);
    expect((JSON.parse(response.body) as { request_log: LogRow }).request_log).toMatchObject({
      request_id: requestId,
      route: '/versioned/events',
      status: 200,
      connection_id: connectionId,
    });
  });

  it("answers 401 without credentials, 410 for another organisation's request or an unknown one, 400 for a malformed id", async () => {
    const requestId = `mine-${randomUUID()}`;
    await call(`/versioned/events?type=object_deleted&access_token=${token}`, requestId);
    await t.app.requestLog.flush();
    expect((await t.app.inject({ method: 'GET', url: `/versioned/logs/requests/${requestId}` })).statusCode).toBe(401);
    const theirs = await t.app.inject({ method: 'GET', url: `/versioned/logs/requests/${requestId}`, headers: clientHeaders(other) });
    expect(theirs.statusCode).toBe(410);
    expect(errorBody(theirs).error_code).toBe('RESOURCE_NOT_FOUND');
    const unknown = await t.app.inject({ method: 'GET', url: `/versioned/logs/requests/${randomUUID()}`, headers: clientHeaders(t.org) });
    expect(unknown.statusCode).toBe(410);
    const malformed = await t.app.inject({ method: 'GET', url: '/versioned/logs/requests/has%20space', headers: clientHeaders(t.org) });
    expect(malformed.statusCode).toBe(400);
    expect(errorBody(malformed).error_code).toBe('VALIDATION_ERROR');
  });
});

describe('the request log bounds', () => {
  it('prunes rows past the retention and keeps the newest rows of each organisation', async () => {
    const fresh = await t.newOrg('Pruned');
    const kept = await t.newOrg('Untouched');
    const insert = (organizationId: string, ageHours: number, requestId: string) =>
      t.db.pool.query(
        `INSERT INTO request_logs (id, organization_id, environment, created_at, method, route, status, duration_ms, request_id)
         VALUES ($1, $2, 'sandbox', clock_timestamp() - make_interval(hours => $3), 'GET', '/versioned/connections', 200, 1, $4)`,
        [randomUUID(), organizationId, ageHours, requestId],
      );
    await insert(fresh.organization.id, 100, 'too-old');
    for (let i = 1; i <= 5; i++) await insert(fresh.organization.id, i, `recent-${i}`);
    await insert(kept.organization.id, 2, 'other-org');
    await pruneRequestLogs(t.db.pool, { retentionHours: 72, maxRowsPerOrganization: 3 });
    const left = await t.db.pool.query<{ organization_id: string; request_id: string }>(
      `SELECT organization_id::text, request_id FROM request_logs WHERE organization_id = ANY($1::uuid[]) ORDER BY created_at DESC`,
      [[fresh.organization.id, kept.organization.id]],
    );
    expect(left.rows.filter((r) => r.organization_id === fresh.organization.id).map((r) => r.request_id)).toEqual([
      'recent-1',
      'recent-2',
      'recent-3',
    ]);
    expect(left.rows.filter((r) => r.organization_id === kept.organization.id).map((r) => r.request_id)).toEqual(['other-org']);
  });

  it('is pruned by the periodic maintenance job, with the configured retention', async () => {
    const org = await t.newOrg('Maintained');
    await t.db.pool.query(
      `INSERT INTO request_logs (id, organization_id, environment, created_at, method, route, status, duration_ms, request_id)
       VALUES ($1, $2, 'sandbox', clock_timestamp() - interval '5 hours', 'GET', '/versioned/connections', 200, 1, 'five-hours-old')`,
      [randomUUID(), org.organization.id],
    );
    const services = { ...t.services, config: { ...t.services.config, requestLog: { ...t.services.config.requestLog, retentionHours: 4 } } };
    const result = await runMaintenance(services);
    expect(result.requestLogRowsPruned).toBeGreaterThanOrEqual(1);
    const left = await t.db.pool.query('SELECT 1 FROM request_logs WHERE organization_id = $1', [org.organization.id]);
    expect(left.rowCount).toBe(0);
  });
});

describe('RequestLogWriter', () => {
  const entry = () => ({
    id: randomUUID(),
    organizationId: randomUUID(),
    environment: 'sandbox',
    createdAt: new Date(),
    method: 'GET',
    route: '/versioned/connections',
    status: 200,
    durationMs: 1,
    requestId: randomUUID(),
    connectionId: null,
    errorCode: null,
  });
  const settings = { enabled: true, retentionHours: 72, maxRowsPerOrganization: 10, flushIntervalMs: 60_000, flushRows: 3 };

  it('writes a full batch in one statement, without being asked', async () => {
    const batches: number[] = [];
    const writer = new RequestLogWriter(
      (entries) => {
        batches.push(entries.length);
        return Promise.resolve();
      },
      settings,
      silentLogger(),
    );
    writer.record(entry());
    writer.record(entry());
    expect(batches).toEqual([]);
    writer.record(entry());
    await writer.flush();
    expect(batches).toEqual([3]);
    await writer.close();
  });

  it('drops a batch PostgreSQL refuses instead of failing anyone', async () => {
    const writer = new RequestLogWriter(() => Promise.reject(new Error('database away')), settings, silentLogger());
    for (let i = 0; i < 10; i++) {
      expect(() => {
        writer.record(entry());
      }).not.toThrow();
    }
    await expect(writer.flush()).resolves.toBeUndefined();
    await writer.close();
  });

  it('holds at most 20 batches while a write is slow, dropping the oldest', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written = 0;
    const writer = new RequestLogWriter(
      async (entries) => {
        await held;
        written += entries.length;
      },
      settings,
      silentLogger(),
    );
    const droppedBefore = (await requestLogRowsDropped.get()).values[0]?.value ?? 0;
    for (let i = 0; i < 1000; i++) writer.record(entry());
    release();
    await writer.close();
    // The first batch of 3 was on its way; of the 997 after it, the newest 20 × 3 were kept, the rest counted.
    expect(written).toBe(63);
    expect(((await requestLogRowsDropped.get()).values[0]?.value ?? 0) - droppedBefore).toBe(937);
    await writer.close();
  });
});

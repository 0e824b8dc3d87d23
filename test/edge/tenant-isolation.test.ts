/**
 * One organisation cannot starve another (issue 19, item 6, reads): what one read may cost (filter caps, statement
 * timeout, platform_data bytes per page) and how many requests of one organisation may hold API database
 * connections at once. Statuses are asserted, never times.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Type } from 'typebox';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { ApiPool } from '../../src/db/api-pool.ts';
import { defineContract, defineEndpoint } from '../../src/http/contract.ts';
import type { CreatedOrganization } from '../../src/tenants/organizations.ts';
import { clientHeaders, errorBody, json, startTestApp, type TestApp } from '../support/app.ts';
import { accessTokenOf } from '../../src/connections/connections.ts';
import { sandboxConnection, syncedSandboxConnection, type SyncedConnection } from '../support/sandbox-connection.ts';

/** A client endpoint whose work is one statement holding an API connection for `seconds`. */
const busyEndpoint = defineEndpoint(
  defineContract({
    method: 'GET',
    url: '/_probe/busy',
    auth: 'client',
    tags: ['Probe'],
    summary: 'probe',
    querystring: Type.Object({ seconds: Type.Number({ minimum: 0, maximum: 10 }) }),
    success: { status: 200, schema: Type.Object({ done: Type.Boolean() }) },
    errors: ['RATE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE'],
  }),
  async (request) => {
    await request.server.services.pool.query('SELECT pg_sleep($1)', [request.query.seconds]);
    return { done: true };
  },
);

type Answer = LightMyRequestResponse;

function get(t: TestApp, org: CreatedOrganization, url: string): Promise<Answer> {
  return t.app.inject({ method: 'GET', url, headers: clientHeaders(org) });
}

describe('per-organisation cap on requests holding API connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      config: {
        databasePools: { api: 4, worker: 2, webhooks: 1 },
        organizationDatabase: { concurrency: 2, waitMs: 200, costlyConcurrency: 1, largeAnswerBytesPerSecond: 16 * 2 ** 20 },
      },
      extraVersionedEndpoints: [busyEndpoint],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a flooding organisation waits in its own queue and gets 429; another organisation gets every answer, and no 5xx appears', async () => {
    const flooder = await t.newOrg('Flooder');
    const other = await t.newOrg('Bystander');
    // Warm both organisations' credentials, so the flood below is about database connections only.
    expect((await get(t, flooder, '/versioned/_probe/busy?seconds=0')).statusCode).toBe(200);
    expect((await get(t, other, '/versioned/_probe/busy?seconds=0')).statusCode).toBe(200);

    const flood = Array.from({ length: 40 }, () => get(t, flooder, '/versioned/_probe/busy?seconds=3'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The bystander within its own cap (two at a time), three times over while the flood goes on.
    const bystander: Answer[] = [];
    for (let round = 0; round < 3; round++) {
      bystander.push(...(await Promise.all(Array.from({ length: 2 }, () => get(t, other, '/versioned/_probe/busy?seconds=0')))));
    }
    const flooded = await Promise.all(flood);

    expect(bystander.map((r) => r.statusCode)).toEqual(Array.from({ length: 6 }, () => 200));
    const statuses = new Set(flooded.map((r) => r.statusCode));
    expect([...statuses].every((s) => s === 200 || s === 429)).toBe(true);
    const refused = flooded.filter((r) => r.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe('1');
      const body = errorBody(answer);
      expect(body.error_code).toBe('RATE_LIMIT_EXCEEDED');
      expect(body.error_metadata?.reason).toBe('organization_concurrency');
    }
    // Never more than its cap at once: the two that ran, plus those that got a turn before their wait ran out.
    expect(flooded.filter((r) => r.statusCode === 200).length).toBeLessThan(40);
    expect(t.services.pool.totalCount).toBeLessThanOrEqual(4);
  });

  it('gives every slot back: once the flood is over, the flooding organisation is served again', async () => {
    const org = await t.newOrg('Recovered');
    await Promise.all(Array.from({ length: 10 }, () => get(t, org, '/versioned/_probe/busy?seconds=0.2')));
    const again = await Promise.all(Array.from({ length: 2 }, () => get(t, org, '/versioned/_probe/busy?seconds=0')));
    expect(again.map((r) => r.statusCode)).toEqual([200, 200]);
    const { pool } = t.services;
    if (!(pool instanceof ApiPool)) throw new Error('the test app runs without the API pool');
    expect(pool.gate.usage(org.organization.id)).toEqual({ active: 0, waiting: 0 });
  });
});

describe('an exhausted API pool', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      config: {
        databasePools: { api: 2, worker: 2, webhooks: 1 },
        databaseAcquireTimeoutMs: 300,
        organizationDatabase: { concurrency: 2, waitMs: 200, costlyConcurrency: 1, largeAnswerBytesPerSecond: 16 * 2 ** 20 },
      },
      extraVersionedEndpoints: [busyEndpoint],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500, when no connection comes free', async () => {
    // Held outside any request, as another process's or a runaway job's would be.
    const { pool } = t.services;
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      const answer = await get(t, t.org, '/versioned/_probe/busy?seconds=0');
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers['x-request-id']).toBeDefined();
      expect(errorBody(answer).error_code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      for (const client of held) client.release();
    }
    expect((await get(t, t.org, '/versioned/_probe/busy?seconds=0')).statusCode).toBe(200);
  });
});

describe('lists with a "~" filter (costly reads)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      config: { organizationDatabase: { concurrency: 2, waitMs: 200, costlyConcurrency: 1, largeAnswerBytesPerSecond: 16 * 2 ** 20 } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('run one at a time per organisation; the same organisation\'s other reads and another organisation\'s "~" lists are served meanwhile', async () => {
    const scanner = await t.newOrg('Scanner');
    const neighbour = await t.newOrg('Neighbour');
    const [mine, theirs] = await Promise.all([sandboxConnection(t, 'user_costly_a', scanner), sandboxConnection(t, 'user_costly_b', neighbour)]);
    const list = (org: CreatedOrganization, connection: typeof mine, query: string): Promise<Answer> =>
      get(t, org, `/versioned/accounting/customers?force_fetch=true&access_token=${accessTokenOf(t.services.cipher, connection)}&${query}`);
    const substring = `filter=${encodeURIComponent('customer_name ~ "a"')}`;
    const exact = `filter=${encodeURIComponent('status = "active"')}`;
    const { pool } = t.services;
    if (!(pool instanceof ApiPool)) throw new Error('the test app runs without the API pool');

    // One of the scanner's costly reads is running (held open here).
    const { promise: held, resolve: finish } = Promise.withResolvers<undefined>();
    const running = pool.gate.costly(scanner.organization.id, () => held);
    try {
      const refused = await list(scanner, mine, substring);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      const body = errorBody(refused);
      expect(body.error_code).toBe('RATE_LIMIT_EXCEEDED');
      expect(body.error_metadata).toMatchObject({ reason: 'organization_costly_reads', field: 'filter', location: 'query', concurrency: 1 });
      expect((await list(scanner, mine, exact)).statusCode).toBe(200);
      expect((await list(neighbour, theirs, substring)).statusCode).toBe(200);
    } finally {
      finish(undefined);
      await running;
    }
    expect((await list(scanner, mine, substring)).statusCode).toBe(200);
    expect(pool.gate.costlyUsage(scanner.organization.id)).toEqual({ active: 0, waiting: 0 });
  });

  // Issue 32: pages with platform data are CPU to parse and serialise; one organisation's moved another's p99 10-51×.
  it('lists with expand=platform_data run one at a time per organisation until their answer is sent; others are served meanwhile', async () => {
    const reader = await t.newOrg('Reader');
    const neighbour = await t.newOrg('Quiet neighbour');
    const [mine, theirs] = await Promise.all([sandboxConnection(t, 'user_large_a', reader), sandboxConnection(t, 'user_large_b', neighbour)]);
    const list = (org: CreatedOrganization, connection: typeof mine, query: string): Promise<Answer> =>
      get(t, org, `/versioned/accounting/customers?force_fetch=true&access_token=${accessTokenOf(t.services.cipher, connection)}&${query}`);
    const { pool } = t.services;
    if (!(pool instanceof ApiPool)) throw new Error('the test app runs without the API pool');

    const release = await pool.gate.holdLargeAnswer(reader.organization.id);
    try {
      const refused = await list(reader, mine, 'expand=platform_data');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(errorBody(refused).error_metadata).toMatchObject({
        reason: 'organization_large_answers',
        field: 'expand',
        location: 'query',
        concurrency: 1,
      });
      expect((await list(reader, mine, 'limit=5')).statusCode).toBe(200);
      expect((await list(neighbour, theirs, 'expand=platform_data')).statusCode).toBe(200);
    } finally {
      release();
    }
    // Served, and its slot given back once the answer was sent and its bytes fit the organisation's rate.
    expect((await list(reader, mine, 'expand=platform_data')).statusCode).toBe(200);
    await vi.waitFor(() => {
      expect(pool.gate.largeAnswerUsage(reader.organization.id)).toEqual({ active: 0, waiting: 0 });
    });
  });
});

describe('lists with expand=platform_data: paced by their size', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 1 byte a second: any answer (a hundred bytes or more) holds the slot for minutes, far past the 200 ms wait.
    t = await startTestApp({
      config: { organizationDatabase: { concurrency: 2, waitMs: 200, costlyConcurrency: 1, largeAnswerBytesPerSecond: 1 } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("an organisation's next large answer waits until the last one's bytes fit its rate; other reads and other organisations do not", async () => {
    const reader = await t.newOrg('Paced reader');
    const neighbour = await t.newOrg('Paced neighbour');
    const [mine, theirs] = await Promise.all([sandboxConnection(t, 'user_paced_a', reader), sandboxConnection(t, 'user_paced_b', neighbour)]);
    const list = (org: CreatedOrganization, connection: typeof mine, query: string): Promise<Answer> =>
      get(t, org, `/versioned/accounting/customers?force_fetch=true&access_token=${accessTokenOf(t.services.cipher, connection)}&${query}`);
    const { pool } = t.services;
    if (!(pool instanceof ApiPool)) throw new Error('the test app runs without the API pool');

    // Over a real socket: Node writes the headers Fastify hands it without keeping them on the response.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const first = await fetch(
      `http://127.0.0.1:${port}/versioned/accounting/customers?force_fetch=true&access_token=${accessTokenOf(t.services.cipher, mine)}&expand=platform_data&limit=5`,
      { headers: clientHeaders(reader) },
    );
    expect(first.status).toBe(200);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(100);
    // Sent, yet its slot is still held: its bytes at 1 a second take longer than the wait.
    await vi.waitFor(() => {
      expect(pool.gate.largeAnswerUsage(reader.organization.id)).toEqual({ active: 1, waiting: 0 });
    });
    const paced = await list(reader, mine, 'expand=platform_data&limit=5');
    expect(paced.statusCode).toBe(429);
    expect(errorBody(paced).error_metadata).toMatchObject({ reason: 'organization_large_answers', field: 'expand' });
    expect((await list(reader, mine, 'limit=5')).statusCode).toBe(200);
    expect((await list(neighbour, theirs, 'expand=platform_data&limit=5')).statusCode).toBe(200);
  });
});

describe('what one read may cost', () => {
  let t: TestApp;
  let synced: SyncedConnection;
  beforeAll(async () => {
    t = await startTestApp({ config: { readLimits: { statementTimeoutMs: 300, pagePlatformDataBytes: 1 } } });
    synced = await syncedSandboxConnection(t, 'user_read_costs');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const list = (query: string): Promise<Answer> => get(t, t.org, `/versioned/accounting/customers?access_token=${synced.token}&${query}`);

  it('refuses a filter with more than 10 "~" comparisons: 400 INVALID_FILTER naming filter and the position', async () => {
    const terms = (n: number): string => encodeURIComponent(Array.from({ length: n }, (_, i) => `customer_name ~ "w${i}"`).join(' OR '));
    expect((await list(`filter=${terms(10)}`)).statusCode).toBe(200);
    const answer = await list(`filter=${terms(11)}`);
    expect(answer.statusCode).toBe(400);
    const body = errorBody(answer);
    expect(body.error_code).toBe('INVALID_FILTER');
    expect(body.error_message).toMatch(/more than 10 "~" comparisons/);
    expect(body.error_metadata).toMatchObject({ field: 'filter', location: 'query' });
    expect(typeof body.error_metadata?.position).toBe('number');
  });

  it('stops a read that runs past READ_STATEMENT_TIMEOUT_MS: 400 QUERY_TIMEOUT naming the field, never a 500', async () => {
    // A lock held elsewhere keeps the read waiting: its statement time runs out deterministically.
    const blocker = new pg.Client({ connectionString: t.db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE records IN ACCESS EXCLUSIVE MODE');
    const unblock = setTimeout(() => {
      void blocker.query('ROLLBACK');
    }, 3000);
    try {
      const filtered = await list(`filter=${encodeURIComponent('customer_name ~ "a"')}`);
      expect(filtered.statusCode).toBe(400);
      const body = errorBody(filtered);
      expect(body.error_code).toBe('QUERY_TIMEOUT');
      expect(body.error_metadata).toMatchObject({ field: 'filter', location: 'query', statement_timeout_ms: 300 });
      const plain = await list('limit=5');
      expect(plain.statusCode).toBe(400);
      expect(errorBody(plain).error_metadata).toMatchObject({ field: 'limit' });
      const fetched = await get(
        t,
        t.org,
        `/versioned/accounting/customers/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}?access_token=${synced.token}`,
      );
      expect(fetched.statusCode).toBe(400);
      expect(errorBody(fetched).error_metadata).toMatchObject({ field: 'id', location: 'params' });
    } finally {
      clearTimeout(unblock);
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    expect((await list('limit=5')).statusCode).toBe(200);
  });

  it('bounds the events list the same way', async () => {
    const blocker = new pg.Client({ connectionString: t.db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    const unblock = setTimeout(() => {
      void blocker.query('ROLLBACK');
    }, 3000);
    try {
      const answer = await get(t, t.org, `/versioned/events?type=object_deleted&access_token=${synced.token}`);
      expect(answer.statusCode).toBe(400);
      expect(errorBody(answer).error_code).toBe('QUERY_TIMEOUT');
    } finally {
      clearTimeout(unblock);
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    expect((await get(t, t.org, `/versioned/events?type=object_deleted&access_token=${synced.token}`)).statusCode).toBe(200);
  });

  it('ends a page with platform_data early at LIST_PLATFORM_DATA_MAX_BYTES; next_cursor continues, nothing is skipped', async () => {
    const all = json(await list('limit=500'));
    const expected = (all.customers as { id: string }[]).map((c) => c.id);
    expect(expected.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await list(`limit=5&expand=platform_data${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(answer.statusCode).toBe(200);
      const page = json(answer) as { customers: { id: string; platform_data?: unknown }[]; next_cursor: string | null };
      // Every record is larger than the 1-byte bound: each comes alone, with its platform data.
      expect(page.customers).toHaveLength(1);
      expect(page.customers[0]?.platform_data).toBeDefined();
      seen.push(...page.customers.map((c) => c.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected);
    // Without platform_data the bound does not apply.
    expect((json(await list('limit=5')).customers as unknown[]).length).toBe(5);
  });
});

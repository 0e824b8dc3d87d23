/**
 * Issue 33, item 3: what an operator sees of the API. The request histogram by route template, the 429 counter by
 * reason and the queue gauges are scraped from GET /metrics; a burst of 429s for one organisation leaves log lines
 * that name it; a request about a connection names the connection on its lines; platform calls are counted by
 * outcome, webhook deliveries by their lag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { capturedLog } from '../support/captured-log.ts';
import { syncedSandboxConnection } from '../support/sandbox-connection.ts';
import { queueGaugeLines, QUEUE_GAUGE_TTL_MS } from '../../src/api/metrics/queue-gauges.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import { observePlatformCall } from '../../src/platforms/context.ts';
import { startWebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { emitEvents } from '../../src/events/emit.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const captured = capturedLog({ level: 'info' });
const { lines } = captured;

/** Per organisation and window: the burst below goes over it, the other tests stay under it. */
const RATE_LIMIT = 40;
const QUEUE = 'observability-test';
/** Failed authentications from one address before the next wrong one is answered 429. */
const AUTH_FAILURES = 3;

let t: TestApp;
beforeAll(async () => {
  const { log } = captured;
  t = await startTestApp({
    log,
    config: {
      rateLimit: { limit: RATE_LIMIT, windowSeconds: 600 },
      authFailures: { perAddress: AUTH_FAILURES, perTarget: 1_000, windowSeconds: 600, webhookRefusalDelayMs: 0 },
    },
  });
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function scrape(): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${t.adminToken}` } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of one series (labels in the order prom-client writes them), 0 when the series is absent. */
function sample(body: string, series: string): number {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('queue gauges', () => {
  // First in the file: the gauges are cached for a few seconds after a scrape.
  it('count the waiting jobs of each pg-boss queue, ready and deferred, and the age of the oldest ready one', async () => {
    await t.boss.createQueue(QUEUE);
    await t.boss.send(QUEUE, { n: 1 });
    await t.boss.send(QUEUE, { n: 2 });
    await t.boss.send(QUEUE, { n: 3 }, { startAfter: 3600 });
    // The oldest ready job has waited ten minutes (as if no worker had fetched it).
    await t.db.pool.query(`UPDATE pgboss.job SET start_after = now() - interval '10 minutes' WHERE name = $1 AND data->>'n' = '1'`, [QUEUE]);
    const body = await scrape();
    expect(body).toContain('# TYPE ledgerport_queue_jobs_waiting gauge');
    expect(sample(body, `ledgerport_queue_jobs_waiting{queue="${QUEUE}",state="ready"}`)).toBe(2);
    expect(sample(body, `ledgerport_queue_jobs_waiting{queue="${QUEUE}",state="deferred"}`)).toBe(1);
    const age = sample(body, `ledgerport_queue_oldest_ready_job_age_seconds{queue="${QUEUE}"}`);
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3600);

    // Read again only once the cache has aged: a scrape right after answers what the last one read.
    await t.boss.send(QUEUE, { n: 4 });
    expect(sample(await scrape(), `ledgerport_queue_jobs_waiting{queue="${QUEUE}",state="ready"}`)).toBe(2);
    const later = (await queueGaugeLines(t.services.pool, Date.now() + QUEUE_GAUGE_TTL_MS)).join('\n');
    expect(sample(later, `ledgerport_queue_jobs_waiting{queue="${QUEUE}",state="ready"}`)).toBe(3);
  });
});

describe('the request histogram', () => {
  it('labels requests by route template, method and status; unmatched paths share one label', async () => {
    const before = await scrape();
    const unmatched = 'ledgerport_http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}';
    const statuses = new Set<number>();
    for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/versioned/connections/${id}`,
        headers: clientHeaders(t.org),
        payload: { name: 'x' },
      });
      statuses.add(response.statusCode);
    }
    // Unknown ids: both answered alike, whatever the status.
    expect(statuses.size).toBe(1);
    const series = `ledgerport_http_request_duration_seconds_count{route="/versioned/connections/:id",method="PATCH",status="${[...statuses][0]}"}`;
    for (const path of ['/no-such-path-1', '/no-such-path-2', '/no-such-path-3']) {
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    }
    const after = await scrape();
    expect(sample(after, series) - sample(before, series)).toBe(2);
    expect(sample(after, unmatched) - sample(before, unmatched)).toBe(3);
    // Never the raw path: the ids and unknown paths stay out of the labels.
    expect(after).not.toContain('00000000-0000-4000-8000-000000000001');
    expect(after).not.toContain('no-such-path');
    expect(after).toContain('# TYPE ledgerport_http_request_duration_seconds histogram');
  });
});

describe('a burst of 429s', () => {
  it('is counted by reason, and each of its log lines names the organisation', async () => {
    const other = await t.newOrg('Throttled Org');
    const orgId = other.organization.id;
    const before = sample(await scrape(), 'ledgerport_http_throttled_total{reason="rate_limit"}');
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) {
      statuses.push((await t.app.inject({ method: 'GET', url: '/versioned/connections', headers: clientHeaders(other) })).statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const after = await scrape();
    expect(sample(after, 'ledgerport_http_throttled_total{reason="rate_limit"}') - before).toBe(10);
    expect(sample(after, 'ledgerport_http_request_duration_seconds_count{route="/versioned/connections",method="GET",status="429"}')).toBe(10);

    const throttled = lines().filter((l) => l.msg === 'request completed' && (l.res as { statusCode?: number } | undefined)?.statusCode === 429);
    expect(throttled).toHaveLength(10);
    for (const line of throttled) expect(line.organization_id).toBe(orgId);
  });
});

describe('failed authentications over the limit', () => {
  it('are counted as auth_throttle', async () => {
    const before = sample(await scrape(), 'ledgerport_http_throttled_total{reason="auth_throttle"}');
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURES + 2; i++) {
      const response = await t.app.inject({ method: 'GET', url: '/admin/organizations', headers: { authorization: 'Bearer not-the-admin-token' } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(sample(await scrape(), 'ledgerport_http_throttled_total{reason="auth_throttle"}') - before).toBe(2);
  });
});

describe('a request about a connection', () => {
  it('names the connection on its log lines once the handler has resolved it', async () => {
    const { connection, token } = await syncedSandboxConnection(t, 'user_good');
    const response = await t.app.inject({
      method: 'GET',
      url: `/versioned/connections/access_token?access_token=${token}`,
      headers: { ...clientHeaders(t.org), 'x-request-id': 'obs-connection-line' },
    });
    expect(response.statusCode).toBe(200);
    const completed = lines().filter((l) => l.msg === 'request completed' && l.request_id === 'obs-connection-line');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ organization_id: t.org.organization.id, connection_id: connection.id });

    // The sync that made it counted its wait for a worker.
    expect(sample(await scrape(), 'ledgerport_sync_start_delay_seconds_count{platform="SANDBOX",kind="initial"}')).toBe(1);
  });
});

describe('platform calls', () => {
  it('are counted by platform and outcome: ok, 4xx, 429, 5xx, network_error', async () => {
    const answers: (number | 'refused')[] = [200, 404, 429, 503, 'refused', 201];
    const http = createPlatformHttp({
      maxAttempts: 1,
      onAttempt: observePlatformCall(undefined, 'OBSERVED'),
      fetch: () => {
        const next = answers.shift() ?? 200;
        if (next === 'refused') return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
        return Promise.resolve(new Response('{}', { status: next, headers: { 'content-type': 'application/json', 'retry-after': '0' } }));
      },
    });
    for (let i = 0; i < 6; i++)
      await http.request({ method: 'GET', url: 'https://platform.example/api/things', idempotent: true }).catch(() => undefined);
    const body = await scrape();
    const count = (outcome: string): number => sample(body, `ledgerport_platform_call_outcomes_total{platform="OBSERVED",outcome="${outcome}"}`);
    expect({ ok: count('ok'), '4xx': count('4xx'), '429': count('429'), '5xx': count('5xx'), network_error: count('network_error') }).toEqual({
      ok: 2,
      '4xx': 1,
      '429': 1,
      '5xx': 1,
      network_error: 1,
    });
  });
});

describe('webhook deliveries', () => {
  it("observe the lag from the event's creation to its delivery", async () => {
    const orgId = t.org.organization.id;
    await t.db.pool.query(
      `INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, 'sandbox', 'https://hooks.example.com/in')`,
      [orgId],
    );
    const before = sample(await scrape(), 'ledgerport_webhook_delivery_lag_seconds_count');
    await emitEvents(t.db.pool, t.services.cipher, { organizationId: orgId, environment: 'sandbox' }, [
      { connectionId: null, type: 'BILL', code: 'BILL_LAG_A', payload: {} },
      { connectionId: null, type: 'BILL', code: 'BILL_LAG_B', payload: {} },
    ]);
    // The events were created a minute ago, as if the dispatcher had been down since.
    await t.db.pool.query(`UPDATE events SET created_at = created_at - interval '1 minute' WHERE code LIKE 'BILL_LAG_%'`);
    const dispatcher = startWebhookDispatcher(t.services, {
      pollMs: 20,
      send: () => Promise.resolve({ kind: 'success', statusCode: 204, error: null, excerpt: null, durationMs: 1 }),
    });
    try {
      for (let waited = 0; waited < 10_000; waited += 50) {
        const open = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`);
        if (open.rows[0]?.n === 0) break;
        await sleep(50);
      }
      const after = await scrape();
      expect(sample(after, 'ledgerport_webhook_delivery_lag_seconds_count') - before).toBe(2);
      // Both took over a minute: none falls in the buckets up to 15 s.
      expect(sample(after, 'ledgerport_webhook_delivery_lag_seconds_bucket{le="15"}')).toBe(0);
    } finally {
      await dispatcher.stop();
    }
  });
});

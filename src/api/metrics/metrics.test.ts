import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvents } from '../../events/emit.ts';
import { webhookAttempts, webhookDeliveries, webhookLatency } from '../../metrics/registry.ts';
import { errorBody, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { processRole } from '../../metrics/registry.ts';
import { startMetricsListener } from './listener.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const scrape = () => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${t.adminToken}` } });

function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('needs the admin token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-value' }, { authorization: 'Basic abc' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).error_code).toBe('INVALID_ADMIN_TOKEN');
      expect(response.body).not.toContain('ledgerport_');
    }
  });

  it('answers the Prometheus text format, as is, with the process counters and histograms', async () => {
    webhookDeliveries.inc({ outcome: 'delivered' }, 3);
    webhookAttempts.inc({ result: 'timeout' });
    webhookLatency.observe(0.2);
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = response.body;
    expect(body.startsWith('# HELP ')).toBe(true);
    expect(body.endsWith('\n')).toBe(true);
    expect(body).toContain('# TYPE ledgerport_webhook_deliveries_total counter');
    expect(sample(body, 'ledgerport_webhook_deliveries_total{outcome="delivered"}')).toBe(3);
    expect(sample(body, 'ledgerport_webhook_attempts_total{result="timeout"}')).toBe(1);
    expect(sample(body, 'ledgerport_webhook_attempt_duration_seconds_bucket{le="0.25"}')).toBe(1);
    expect(sample(body, 'ledgerport_process_info{role="all"}')).toBe(1);
    expect(body).toContain('# TYPE ledgerport_process_info gauge');
  });

  it('reads the delivery gauges from the database at scrape time', async () => {
    const before = await scrape();
    expect(sample(before.body, 'ledgerport_webhook_deliveries_open{status="pending"}')).toBe(0);
    expect(sample(before.body, 'ledgerport_webhook_deliveries_open{status="delivering"}')).toBe(0);
    expect(sample(before.body, 'ledgerport_webhook_deliveries_failed_recent')).toBe(0);
    expect(before.body).toContain('# TYPE ledgerport_webhook_deliveries_open gauge');

    const orgId = t.org.organization.id;
    await t.db.pool.query(`INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, 'sandbox', 'https://example.com/m')`, [
      orgId,
    ]);
    await emitEvents(
      t.db.pool,
      t.services.cipher,
      { organizationId: orgId, environment: 'sandbox' },
      ['A', 'B', 'C', 'D', 'E', 'F'].map((x) => ({
        connectionId: null,
        type: 'BILL',
        code: `BILL_${x}`,
        payload: {},
      })),
    );
    const ids = (await t.db.pool.query<{ id: string }>('SELECT id FROM webhook_deliveries ORDER BY created_at, id')).rows.map((r) => r.id);
    expect(ids).toHaveLength(6);
    await t.db.pool.query(
      `UPDATE webhook_deliveries SET status = 'delivering', locked_until = clock_timestamp() + interval '30 seconds' WHERE id = $1`,
      [ids[0]],
    );
    await t.db.pool.query(`UPDATE webhook_deliveries SET status = 'failed', finished_at = clock_timestamp() - interval '5 minutes' WHERE id = $1`, [
      ids[1],
    ]);
    await t.db.pool.query(`UPDATE webhook_deliveries SET status = 'failed', finished_at = clock_timestamp() - interval '2 hours' WHERE id = $1`, [
      ids[2],
    ]);
    await t.db.pool.query(`UPDATE webhook_deliveries SET status = 'delivered', finished_at = clock_timestamp() WHERE id = $1`, [ids[3]]);

    const after = await scrape();
    expect(sample(after.body, 'ledgerport_webhook_deliveries_open{status="pending"}')).toBe(2);
    expect(sample(after.body, 'ledgerport_webhook_deliveries_open{status="delivering"}')).toBe(1);
    expect(sample(after.body, 'ledgerport_webhook_deliveries_failed_recent')).toBe(1);
  });

  it('is documented as an admin endpoint', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      paths: Record<string, { get?: { security?: unknown; responses?: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    expect(doc.paths['/metrics']?.get?.security).toEqual([{ adminToken: [] }]);
    // 400, 500 and 503 on every route, 403 with a refused dashboard session (docs/reference.md, "Declared statuses").
    expect(Object.keys(doc.paths['/metrics']?.get?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '429', '500', '503']);
    // Declared as the text it is, not as JSON.
    expect(Object.keys(doc.paths['/metrics']?.get?.responses?.['200']?.content ?? {})).toEqual(['text/plain']);
  });
});

describe("a worker process's metrics listener (METRICS_PORT)", () => {
  it('answers GET /metrics under the admin token with the same text as the API, and nothing else', async () => {
    const listener = await startMetricsListener(t.services, 0, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${listener.port}`;
      const refused = await fetch(`${url}/metrics`);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error_code: string }).error_code).toBe('INVALID_ADMIN_TOKEN');
      const wrong = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
      expect(wrong.status).toBe(401);
      const other = await fetch(`${url}/admin/organizations`, { headers: { authorization: `Bearer ${t.adminToken}` } });
      expect(other.status).toBe(404);
      expect(((await other.json()) as { error_code: string }).error_code).toBe('ROUTE_NOT_FOUND');

      const scraped = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${t.adminToken}` } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const body = await scraped.text();
      for (const family of [
        'ledgerport_sync_runs_total',
        'ledgerport_write_attempts_total',
        'ledgerport_platform_calls_total',
        'ledgerport_token_refreshes_total',
        'ledgerport_webhook_deliveries_open',
        'ledgerport_process_resident_memory_bytes',
        'ledgerport_process_info',
      ]) {
        expect(body, family).toContain(`# TYPE ${family} `);
      }
    } finally {
      await listener.close();
    }
  });
});

describe('processRole', () => {
  it('reads --role=… or --role …, defaulting to all', () => {
    expect(processRole(['node', 'src/main.ts', '--role=worker'])).toBe('worker');
    expect(processRole(['node', 'src/main.ts', '--role', 'api'])).toBe('api');
    expect(processRole(['node', 'src/main.ts'])).toBe('all');
  });
});

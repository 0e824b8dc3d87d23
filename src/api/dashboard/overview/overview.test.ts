import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApp, type TestApp } from '../../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../../test/support/dashboard.ts';
import { incrementalSync, sandboxConnection, syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import type { CreatedOrganization } from '../../../tenants/organizations.ts';
import { requestSync } from '../../../sync/requests.ts';
import { runSync } from '../../../sync/runner.ts';

let t: TestApp;
let synced: SyncedConnection;
let viewer: DashboardSession;
let other: CreatedOrganization;
let otherViewer: DashboardSession;

beforeAll(async () => {
  // user_slow's full reads wait this long before each page: long enough to watch a real initial sync run.
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } }, sandbox: { slowPageDelayMs: 150 } });
  synced = await syncedSandboxConnection(t, 'user_overview');
  viewer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
  other = await t.newOrg('Other organisation');
  otherViewer = await signedInUser(t.app, t.db.pool, other.organization.id, 'viewer');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const get = (url: string, session: DashboardSession | null = viewer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(session === null ? {} : { cookie: session.cookie }), ...headers } });

/** A running sync of the connection, as the runner leaves it mid-way: its run row and the objects it has begun. */
async function holdRunningSync(
  connectionId: string,
  objects: { type: string; status: string; records: number; pages: number; lastFull: number | null; startedSecondsAgo: number }[],
  kind: 'initial' | 'incremental' = 'initial',
): Promise<string> {
  const run = await t.db.pool.query<{ id: string }>(
    `INSERT INTO sync_runs (connection_id, kind, trigger, status, started_at) VALUES ($1, $2, 'manual', 'running', clock_timestamp() - interval '1 minute') RETURNING id`,
    [connectionId, kind],
  );
  const runId = run.rows[0]?.id ?? '';
  for (const o of objects) {
    await t.db.pool.query(
      `INSERT INTO sync_objects (connection_id, object_type, status, run_id, last_full_read_records, last_started_at)
       VALUES ($1, $2, $3, $4, $5, clock_timestamp() - make_interval(secs => $6))
       ON CONFLICT (connection_id, object_type) DO UPDATE SET status = EXCLUDED.status, run_id = EXCLUDED.run_id,
         last_full_read_records = EXCLUDED.last_full_read_records, last_started_at = EXCLUDED.last_started_at`,
      [connectionId, o.type, o.status, runId, o.lastFull, o.startedSecondsAgo],
    );
    await t.db.pool.query(`INSERT INTO sync_run_objects (run_id, object_type, pages_read, records_read) VALUES ($1, $2, $3, $4)`, [
      runId,
      o.type,
      o.pages,
      o.records,
    ]);
  }
  return runId;
}

async function insertDelivery(
  organizationId: string,
  status: 'delivered' | 'failed' | 'pending',
  finishedHoursAgo: number,
  environment = 'sandbox',
): Promise<void> {
  const event = await t.db.pool.query<{ id: string }>(
    `INSERT INTO events (organization_id, environment, type, code, payload) VALUES ($1, $2, 'test', 'BILL_CREATED', '{}') RETURNING id`,
    [organizationId, environment],
  );
  await t.db.pool.query(
    `INSERT INTO webhook_deliveries (event_id, organization_id, environment, code, status, attempts, deadline_at, created_at, finished_at, last_status_code)
     VALUES ($1, $2, $3, 'BILL_CREATED', $4, 1, clock_timestamp(), clock_timestamp() - make_interval(hours => $5),
             CASE WHEN $4 = 'pending' THEN NULL ELSE clock_timestamp() - make_interval(hours => $5) END, CASE WHEN $4 = 'failed' THEN 500 ELSE 200 END)`,
    [event.rows[0]?.id, organizationId, environment, status, finishedHoursAgo],
  );
}

describe('the sync runner keeps each object progress of the run (sync_run_objects) and its last full read (migration 0035)', () => {
  it('counts the records and pages of the run, and a full read becomes the next estimate total', async () => {
    const rows = await t.db.pool.query<{ run_records_read: number; run_pages_read: number; last_full_read_records: number | null; live: number }>(
      `SELECT ro.records_read AS run_records_read, ro.pages_read AS run_pages_read, o.last_full_read_records,
              (SELECT count(*)::int FROM records r WHERE r.connection_id = o.connection_id AND r.object_type = 'bill' AND r.deleted_at IS NULL) AS live
         FROM sync_objects o JOIN sync_run_objects ro ON ro.run_id = o.run_id AND ro.object_type = o.object_type
        WHERE o.connection_id = $1 AND o.object_type = 'bill'`,
      [synced.connection.id],
    );
    const bill = rows.rows[0];
    expect(bill?.live).toBeGreaterThan(0);
    expect(bill?.run_records_read).toBe(bill?.live);
    expect(bill?.run_pages_read).toBeGreaterThanOrEqual(1);
    expect(bill?.last_full_read_records).toBe(bill?.live);

    // The next run starts its own count; an incremental read (from the cursor) keeps the last full read's total.
    await incrementalSync(t, synced.connection.id);
    const after = await t.db.pool.query<{ run_records_read: number; last_full_read_records: number | null; run_id: string }>(
      `SELECT ro.records_read AS run_records_read, o.last_full_read_records, o.run_id
         FROM sync_objects o JOIN sync_run_objects ro ON ro.run_id = o.run_id AND ro.object_type = o.object_type
        WHERE o.connection_id = $1 AND o.object_type = 'bill'`,
      [synced.connection.id],
    );
    const latest = await t.db.pool.query<{ id: string }>(`SELECT id FROM sync_runs WHERE connection_id = $1 AND kind = 'incremental'`, [
      synced.connection.id,
    ]);
    expect(after.rows[0]?.run_id).toBe(latest.rows[0]?.id);
    expect(after.rows[0]?.run_records_read).toBeLessThan(bill?.live ?? 0);
    expect(after.rows[0]?.last_full_read_records).toBe(bill?.live);
  });
});

describe('GET /dashboard/api/overview', () => {
  it('counts the connections of the organisation by status in the environment', async () => {
    await sandboxConnection(t, 'user_overview_not_ready');
    const answer = await get('/dashboard/api/overview');
    expect(answer.statusCode).toBe(200);
    const body = json(answer) as { connections_by_status: Record<string, number> };
    expect(body.connections_by_status).toEqual({ active: 1, unhealthy: 0, not_ready: 1, needs_reauth: 0, disabled: 0 });
    // The production environment has none.
    const production = json(await get('/dashboard/api/overview', viewer, { 'x-ledgerport-environment': 'production' })) as typeof body;
    expect(production.connections_by_status.active).toBe(0);
  });

  it('lists the latest errors newest first, of the organisation only', async () => {
    const failing = await sandboxConnection(t, 'user_overview_failing');
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, error, finished_at) VALUES ($1, 'initial', 'link', 'failed', 'older failure', clock_timestamp() - interval '1 hour')`,
      [failing.id],
    );
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, error, finished_at) VALUES ($1, 'initial', 'link', 'failed', 'the platform said no', clock_timestamp())`,
      [failing.id],
    );
    await t.db.pool.query(`UPDATE connections SET status = 'needs_reauth' WHERE id = $1`, [failing.id]);
    await insertDelivery(t.org.organization.id, 'failed', 0);
    const otherConnection = await sandboxConnection(t, 'user_other_failing', other);
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, error, finished_at) VALUES ($1, 'initial', 'link', 'failed', 'not yours', clock_timestamp())`,
      [otherConnection.id],
    );

    const body = json(await get('/dashboard/api/overview?errors=5')) as {
      latest_errors: {
        sync_runs: { error: string; connection: { id: string } }[];
        webhook_deliveries: { last_status_code: number }[];
        needs_reauth: { connection: { id: string } }[];
      };
    };
    expect(body.latest_errors.sync_runs.map((r) => r.error)).toEqual(['the platform said no', 'older failure']);
    expect(body.latest_errors.sync_runs[0]?.connection.id).toBe(failing.id);
    expect(body.latest_errors.webhook_deliveries.map((d) => d.last_status_code)).toEqual([500]);
    expect(body.latest_errors.needs_reauth.map((c) => c.connection.id)).toEqual([failing.id]);

    const theirs = json(await get('/dashboard/api/overview', otherViewer)) as typeof body;
    expect(theirs.latest_errors.sync_runs.map((r) => r.error)).toEqual(['not yours']);
    expect(theirs.latest_errors.webhook_deliveries).toEqual([]);

    const page = await get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('the platform said no');
    expect(page.body).toContain(`href="/dashboard/connections/${failing.id}"`);
    expect(page.body).not.toContain('not yours');
    await t.db.pool.query(`UPDATE connections SET status = 'active' WHERE id = $1`, [failing.id]);
  });

  it('refuses a malformed query with 400, no session with 401, and a bad environment with 400', async () => {
    const malformed = await get('/dashboard/api/overview?errors=lots');
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed).error_code).toBe('VALIDATION_ERROR');
    expect((await get('/dashboard/api/overview?errors=99')).statusCode).toBe(400);
    const anonymous = await get('/dashboard/api/overview', null);
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous).error_code).toBe('SESSION_REQUIRED');
    const environment = await get('/dashboard/api/overview', viewer, { 'x-ledgerport-environment': 'staging' });
    expect(environment.statusCode).toBe(400);
  });

  it('gives a viewer nothing to change: a forged write of the same session to the API is refused', async () => {
    const forged = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/incremental_sync?access_token=unused',
      headers: { ...viewer.headers, 'content-type': 'application/json', 'x-service-version': '2024-08-31' },
      payload: '{}',
    });
    expect(forged.statusCode).toBe(403);
    expect(json(forged).error_code).toBe('ROLE_NOT_ALLOWED');
  });
});

describe('running syncs', () => {
  it('shows each running object progress with an estimated completion, live, and drops a finished sync', async () => {
    const before = json(await get('/dashboard/api/syncs/running')) as { runs: unknown[] };
    expect(before.runs).toEqual([]);
    expect((await get('/dashboard/fragments/running-syncs')).body).toContain('No sync is running');

    // Held mid-way: 40 bills of the 100 the last full read found, in 20 s; invoices with no earlier full read.
    const runId = await holdRunningSync(synced.connection.id, [
      { type: 'bill', status: 'in_progress', records: 40, pages: 2, lastFull: 100, startedSecondsAgo: 20 },
      { type: 'invoice', status: 'in_progress', records: 7, pages: 1, lastFull: null, startedSecondsAgo: 5 },
    ]);
    const answer = await get('/dashboard/api/syncs/running');
    expect(answer.statusCode).toBe(200);
    const body = json(answer) as {
      runs: {
        id: string;
        connection: { id: string };
        objects: {
          object_type: string;
          records_read: number;
          pages_read: number;
          expected_records: number | null;
          estimated_completion_at: string | null;
        }[];
      }[];
    };
    expect(body.runs).toHaveLength(1);
    expect(body.runs[0]?.id).toBe(runId);
    expect(body.runs[0]?.connection.id).toBe(synced.connection.id);
    const [bill, invoice] = body.runs[0]?.objects ?? [];
    expect(bill).toMatchObject({ object_type: 'bill', records_read: 40, pages_read: 2, expected_records: 100 });
    // 60 records to go at 2 per second: about 30 s from now.
    const eta = Date.parse(bill?.estimated_completion_at ?? '') - Date.now();
    expect(eta).toBeGreaterThan(20_000);
    expect(eta).toBeLessThan(40_000);
    expect(invoice).toMatchObject({ object_type: 'invoice', records_read: 7, expected_records: null, estimated_completion_at: null });

    const page = await get('/dashboard');
    expect(page.body).toContain('data-live="/dashboard/fragments/running-syncs"');
    const fragment = await get('/dashboard/fragments/running-syncs');
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).toContain('<progress max="100" value="40" aria-label="bill: 40 of about 100 records">');
    expect(fragment.body).toContain('aria-label="invoice: 7 records read, total not known yet"');
    expect(fragment.body).not.toContain('No sync is running');
    // Another organisation sees none of it.
    expect((json(await get('/dashboard/api/syncs/running', otherViewer)) as typeof body).runs).toEqual([]);
    expect((await get('/dashboard/fragments/running-syncs', otherViewer)).body).toContain('No sync is running');

    await t.db.pool.query(`UPDATE sync_runs SET status = 'completed', finished_at = clock_timestamp() WHERE id = $1`, [runId]);
    expect((await get('/dashboard/fragments/running-syncs')).body).toContain('No sync is running');

    // An incremental run reads the changes only: the last full read says nothing of how many, so no estimate.
    const incremental = await holdRunningSync(
      synced.connection.id,
      [{ type: 'bill', status: 'in_progress', records: 3, pages: 1, lastFull: 100, startedSecondsAgo: 2 }],
      'incremental',
    );
    const changes = json(await get('/dashboard/api/syncs/running')) as typeof body;
    expect(changes.runs[0]?.objects[0]).toMatchObject({
      object_type: 'bill',
      records_read: 3,
      expected_records: null,
      estimated_completion_at: null,
    });
    await t.db.pool.query(`UPDATE sync_runs SET status = 'completed', finished_at = clock_timestamp() WHERE id = $1`, [incremental]);
  });

  it('follows a real initial sync while it runs (SANDBOX user_slow), and drops it when it completes', async () => {
    const org = await t.newOrg('Slow sync');
    const user = await signedInUser(t.app, t.db.pool, org.organization.id, 'viewer');
    const connection = await sandboxConnection(t, 'user_slow', org);
    const run = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
    const running = runSync(t.services, run.id, new AbortController().signal);
    type Runs = { runs: { id: string; objects: { object_type: string; records_read: number; pages_read: number }[] }[] };
    let seen: Runs['runs'][number]['objects'] = [];
    for (let i = 0; i < 200 && !seen.some((o) => o.records_read > 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = (json(await get('/dashboard/api/syncs/running', user)) as Runs).runs.find((r) => r.id === run.id)?.objects ?? [];
    }
    const reading = seen.find((o) => o.records_read > 0);
    expect(reading?.pages_read).toBeGreaterThanOrEqual(1);
    const fragment = await get('/dashboard/fragments/running-syncs', user);
    expect(fragment.body).toContain(`data-run-id="${run.id}"`);
    expect(fragment.body).toContain(`<th scope="row">${reading?.object_type ?? ''}</th>`);
    expect(fragment.body).toContain('<progress');
    expect(await running).toBe('completed');
    expect((await get('/dashboard/fragments/running-syncs', user)).body).toContain('No sync is running');
  }, 120_000);

  it('answers the fragment 401 and the endpoint 401 without a session', async () => {
    expect((await get('/dashboard/fragments/running-syncs', null)).statusCode).toBe(401);
    expect((await get('/dashboard/api/syncs/running', null)).statusCode).toBe(401);
  });
});

describe('webhook deliveries per hour', () => {
  it('counts the delivered and failed deliveries of the last 24 hours, per hour, of the organisation and environment', async () => {
    const org = await t.newOrg('Deliveries');
    const user = await signedInUser(t.app, t.db.pool, org.organization.id, 'viewer');
    for (let i = 0; i < 3; i++) await insertDelivery(org.organization.id, 'delivered', 0);
    await insertDelivery(org.organization.id, 'failed', 0);
    await insertDelivery(org.organization.id, 'delivered', 5);
    await insertDelivery(org.organization.id, 'failed', 5);
    await insertDelivery(org.organization.id, 'failed', 5);
    await insertDelivery(org.organization.id, 'pending', 0); // not finished: not counted
    await insertDelivery(org.organization.id, 'delivered', 30); // older than the chart
    await insertDelivery(org.organization.id, 'delivered', 0, 'production'); // the other environment
    await insertDelivery(other.organization.id, 'delivered', 0); // another organisation

    const answer = await get('/dashboard/api/webhooks/delivery_stats', user);
    expect(answer.statusCode).toBe(200);
    const body = json(answer) as { hours: { hour: string; delivered: number; failed: number }[]; delivered: number; failed: number };
    expect(body.hours).toHaveLength(24);
    expect(body.hours[23]).toMatchObject({ delivered: 3, failed: 1 });
    expect(body.hours[18]).toMatchObject({ delivered: 1, failed: 2 });
    expect({ delivered: body.delivered, failed: body.failed }).toEqual({ delivered: 4, failed: 3 });

    const page = await get('/dashboard', user);
    expect(page.body).toContain('4 delivered, 3 failed in the last 24 hours.');
    expect(page.body).toContain('role="img"');
    const fragment = await get('/dashboard/fragments/delivery-chart', user);
    expect(fragment.body).toContain('<td class="num">3</td><td class="num">1</td>');
    // A new delivery appears on the next refresh.
    await insertDelivery(org.organization.id, 'failed', 0);
    expect((await get('/dashboard/fragments/delivery-chart', user)).body).toContain('4 delivered, 4 failed in the last 24 hours.');
  });

  it('refuses hours out of range with 400', async () => {
    const answer = await get('/dashboard/api/webhooks/delivery_stats?hours=0');
    expect(answer.statusCode).toBe(400);
    expect(json(answer).error_code).toBe('VALIDATION_ERROR');
  });
});

describe('the overview page', () => {
  it('sends a visitor without a session to sign in', async () => {
    const answer = await get('/dashboard', null);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/login?next=%2Fdashboard');
  });

  it('shows the connections by status to a viewer, with the section current', async () => {
    const answer = await get('/dashboard');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(/data-testid="connections-active"><a href="\/dashboard\/connections\?status=active"><span class="n">\d+<\/span>/);
    expect(answer.body).toContain('<a href="/dashboard" aria-current="page">Overview</a>');
    expect(answer.body).not.toMatch(/style=/);
  });

  it('shows another organisation its own counts, none of this one', async () => {
    const answer = await get('/dashboard', otherViewer);
    expect(answer.body).toContain('data-testid="connections-active"><a href="/dashboard/connections?status=active"><span class="n">0</span>');
    expect(answer.body).not.toContain(synced.connection.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';
import { syncedSandboxConnection, sandboxConnection } from '../../../test/support/sandbox-connection.ts';
import { runSync } from '../../sync/runner.ts';
import { LinkBrowser } from '../../../test/support/link-browser.ts';
import { tryLockConnectionSync, unlockConnectionSync } from '../../sql/sync-locks.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';
import { setRedirectUrls } from '../../connections/redirect-urls.ts';

let t: TestApp;
let developer: DashboardSession;
let viewer: DashboardSession;
let other: CreatedOrganization;
let stranger: DashboardSession;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  developer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'developer');
  viewer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
  other = await t.newOrg('Another organisation');
  stranger = await signedInUser(t.app, t.db.pool, other.organization.id, 'admin');
});
afterAll(async () => {
  await t.close();
});

const page = (who: DashboardSession, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
const post = (who: DashboardSession, url: string, fields: [string, string][] = []) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams([['_csrf', who.csrfToken], ...fields]).toString(),
  });
const messageOf = (location: string | undefined, name: 'notice' | 'problem') => new URL(location ?? '/', 'http://x').searchParams.get(name) ?? '';

async function seedConnections(organizationId: string, count: number, prefix: string): Promise<void> {
  await t.db.pool.query(
    `INSERT INTO connections (organization_id, environment, platform, status, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext, created_at, name)
     SELECT $1::uuid, 'sandbox', CASE WHEN i % 2 = 0 THEN 'XERO' ELSE 'QUICKBOOKS' END, CASE WHEN i % 3 = 0 THEN 'disabled' ELSE 'active' END,
            sha256(convert_to('at_' || $2 || i, 'UTF8')), $3::bytea, sha256(convert_to('lk_' || $2 || i, 'UTF8')), $3::bytea,
            timestamptz '2025-01-01' + make_interval(mins => i), $2 || '-' || i
       FROM generate_series(1, $4::int) AS i`,
    [organizationId, prefix, t.services.cipher.encrypt('unused'), count],
  );
}

describe('Connections list', () => {
  it('sends a visitor without a session to sign in', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/dashboard/connections' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Fconnections');
    expect((await t.app.inject({ method: 'GET', url: `/dashboard/connections/${crypto.randomUUID()}` })).statusCode).toBe(303);
  });

  it('lists, searches, filters and pages real rows, and shows none of another organisation', async () => {
    await seedConnections(t.org.organization.id, 60, 'acme');
    await seedConnections(other.organization.id, 3, 'rival');
    const first = await page(viewer, '/dashboard/connections?search=acme');
    expect(first.statusCode).toBe(200);
    expect(first.body.match(/data-testid="connection-row"/g)).toHaveLength(25);
    expect(first.body).toContain('acme-60'); // newest first
    expect(first.body).not.toContain('rival-');
    const next = /href="([^"]+)" rel="next"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBeDefined();
    const second = await page(viewer, next ?? '');
    expect(second.body).toContain('acme-35');
    expect(second.body).not.toContain('acme-60');
    const third = await page(viewer, /href="([^"]+)" rel="next"/.exec(second.body)?.[1]?.replaceAll('&amp;', '&') ?? '');
    expect(third.body.match(/data-testid="connection-row"/g)).toHaveLength(10);
    expect(third.body).not.toContain('rel="next"');

    const one = await page(viewer, '/dashboard/connections?search=acme-42');
    expect(one.body.match(/data-testid="connection-row"/g)).toHaveLength(1);
    const disabledXero = await page(viewer, '/dashboard/connections?search=acme&status=disabled&platform=XERO');
    // i divisible by 6 among 1..60: 10 rows, all disabled XERO.
    expect(disabledXero.body.match(/data-testid="connection-row"/g)).toHaveLength(10);
    expect(disabledXero.body).not.toContain('QUICKBOOKS</td>');
    const theirs = await page(stranger, '/dashboard/connections');
    expect(theirs.body).toContain('rival-1');
    expect(theirs.body).not.toContain('acme-');
  });

  it('answers a bad filter with the API message, not a 500', async () => {
    const answer = await page(viewer, '/dashboard/connections?status=sleeping');
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('VALIDATION_ERROR');
    expect((await page(viewer, '/dashboard/connections?cursor=%25%25')).statusCode).toBe(400);
  });
});

describe('New connection', () => {
  it('creates a SANDBOX connection whose page shows the link URL, returning to the dashboard after the flow', async () => {
    const form = await page(developer, '/dashboard/connections/new');
    expect(form.body).toContain('value="SANDBOX"');
    const created = await post(developer, '/dashboard/connections/new', [
      ['platform', 'SANDBOX'],
      ['name', 'Browser books'],
    ]);
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toMatch(/^\/dashboard\/connections\/[0-9a-f-]{36}\?notice=/);
    const id = /\/dashboard\/connections\/([0-9a-f-]{36})/.exec(created.headers.location ?? '')?.[1] ?? '';
    const stored = await t.db.pool.query<{ redirect_url: string; platform: string; name: string }>(
      'SELECT redirect_url, platform, name FROM connections WHERE id = $1 AND organization_id = $2',
      [id, t.org.organization.id],
    );
    expect(stored.rows[0]).toEqual({
      redirect_url: `${t.services.config.publicUrl}/dashboard/connections/linked`,
      platform: 'SANDBOX',
      name: 'Browser books',
    });
    const shown = await page(developer, `/dashboard/connections/${id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('data-testid="connection-status">not_ready');
    expect(shown.body).toMatch(/id="link-url"[^>]*>http/);
    expect(shown.body).toContain('data-copy="link-url"');
    expect(shown.body).toContain('Open the link flow');
    expect(shown.body).not.toContain('lpat_');
  });

  it('still creates when the environment has a redirect list without the dashboard: the flow then ends on its own page', async () => {
    const org = await t.newOrg('Listed redirects');
    const dev = await signedInUser(t.app, t.db.pool, org.organization.id, 'developer');
    await setRedirectUrls(t.db.pool, { organizationId: org.organization.id, environment: 'sandbox', urls: ['https://app.example.com/done'] });
    const created = await post(dev, '/dashboard/connections/new', [['platform', 'SANDBOX']]);
    expect(created.headers.location).toMatch(/^\/dashboard\/connections\/[0-9a-f-]{36}\?notice=/);
    const id = /\/dashboard\/connections\/([0-9a-f-]{36})/.exec(created.headers.location ?? '')?.[1] ?? '';
    const stored = await t.db.pool.query<{ redirect_url: string | null }>('SELECT redirect_url FROM connections WHERE id = $1', [id]);
    expect(stored.rows[0]?.redirect_url).toBeNull();
  });

  it('is refused for a viewer, by the page and by the API (forged)', async () => {
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM connections WHERE organization_id = $1', [t.org.organization.id]);
    const refused = await post(viewer, '/dashboard/connections/new', [['platform', 'SANDBOX']]);
    expect(messageOf(refused.headers.location, 'problem')).toContain('ROLE_NOT_ALLOWED');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/create',
      headers: { ...viewer.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ platform: 'SANDBOX' }),
    });
    expect(forged.statusCode).toBe(403);
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM connections WHERE organization_id = $1', [t.org.organization.id]);
    expect(after.rows).toEqual(before.rows);
  });

  it('completes the hosted SANDBOX link flow back to the dashboard, on to the connection page', async () => {
    const created = await post(developer, '/dashboard/connections/new', [['platform', 'SANDBOX']]);
    const id = /\/dashboard\/connections\/([0-9a-f-]{36})/.exec(created.headers.location ?? '')?.[1] ?? '';
    const shown = await page(developer, `/dashboard/connections/${id}`);
    const linkUrl = (/id="link-url"[^>]*>([^<]+)</.exec(shown.body)?.[1] ?? '').replaceAll('&amp;', '&');
    const browser = new LinkBrowser(t.app);
    let form = await browser.get(new URL(linkUrl).pathname);
    for (let hops = 0; form.statusCode >= 300 && form.statusCode < 400 && hops < 3; hops++) form = await browser.get(String(form.headers.location));
    expect(form.statusCode, form.body).toBe(200);
    const action = (/<form method="post" action="([^"]+)"/.exec(form.body)?.[1] ?? '').replaceAll('&amp;', '&');
    const fields: Record<string, string> = {};
    for (const [input] of form.body.matchAll(/<input [^>]*>/g)) {
      const name = / name="([^"]*)"/.exec(input)?.[1];
      if (name !== undefined) fields[name] = (/ value="([^"]*)"/.exec(input)?.[1] ?? '').replaceAll('&amp;', '&');
    }
    const done = await browser.post(action, { ...fields, basic_username: 'user_dash_flow_size_20', basic_password: 'pass_good' });
    expect(done.statusCode, done.body).toBe(303);
    const landing = String(done.headers.location);
    expect(landing.startsWith(`${t.services.config.publicUrl}/dashboard/connections/linked?public_token=`)).toBe(true);
    const back = await page(developer, landing.slice(t.services.config.publicUrl.length));
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(new RegExp(`^/dashboard/connections/${id}\\?notice=`));
    const after = await page(developer, `/dashboard/connections/${id}`);
    expect(after.body).toMatch(/data-kind="initial" data-status="queued"/);
    expect(after.body).toContain('data-testid="connection-platform">SANDBOX');
  });

  it('goes from the link flow back to the connection page by its public_token', async () => {
    const connection = await sandboxConnection(t, 'user_dash_linked');
    const { insertPublicToken } = await import('../../sql/public-tokens.ts');
    const { sha256 } = await import('../../crypto/secrets.ts');
    await insertPublicToken(t.db.pool, sha256('pt_dashboard_test'), connection.id, 600);
    const back = await page(developer, '/dashboard/connections/linked?public_token=pt_dashboard_test');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(new RegExp(`^/dashboard/connections/${connection.id}\\?notice=`));
    const theirs = await page(stranger, '/dashboard/connections/linked?public_token=pt_dashboard_test');
    expect(theirs.headers.location).toMatch(/^\/dashboard\/connections\?problem=/);
  });
});

describe('Connection page', () => {
  it('shows the status, object states and the sync history of a real SANDBOX sync, also as its live fragment', async () => {
    const { connection } = await syncedSandboxConnection(t, 'user_dash_page_size_20');
    const shown = await page(viewer, `/dashboard/connections/${connection.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('data-testid="connection-status">active');
    expect(shown.body).toMatch(/data-testid="sync-state" data-ready="true">ready</);
    expect(shown.body).toMatch(/data-testid="sync-run" data-kind="initial" data-status="completed"/);
    expect(shown.body).toContain('data-testid="sync-object" data-entity="ACCOUNT"');
    expect(shown.body).toContain(`data-live="/dashboard/fragments/connections/${connection.id}/syncs"`);
    expect(shown.body).toContain('Your role (viewer) reads only');
    const stored = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = 'account' AND deleted_at IS NULL",
      [connection.id],
    );
    expect(stored.rows[0]?.n).toBeGreaterThan(0);
    expect(shown.body).toMatch(new RegExp(`data-entity="ACCOUNT">[\\s\\S]*?<td class="num">${stored.rows[0]?.n}</td>`));
    const fragment = await page(viewer, `/dashboard/fragments/connections/${connection.id}/syncs`);
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).toMatch(/data-kind="initial" data-status="completed"/);
    expect(fragment.body).not.toContain('<html');
    expect(fragment.body).not.toMatch(/<\/table>\s*}/);
  });

  it('shows a running sync’s progress per object, then its end, in the live fragment without a reload', async () => {
    const { connection } = await syncedSandboxConnection(t, 'user_dash_live_size_20');
    const run = await t.db.pool.query<{ id: string }>(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, request, started_at) VALUES ($1, 'incremental', 'manual', 'running', '{"object_types":["ACCOUNT"]}', clock_timestamp()) RETURNING id`,
      [connection.id],
    );
    const runId = run.rows[0]?.id ?? '';
    await t.db.pool.query(
      `INSERT INTO sync_run_objects (run_id, object_type, pages_read, records_read, created, updated) VALUES ($1, 'account', 3, 117, 2, 5)`,
      [runId],
    );
    const live = `/dashboard/fragments/connections/${connection.id}/syncs`;
    const during = await page(viewer, live);
    expect(during.body).toContain('incremental sync running: 117 records in 3 pages so far');
    expect(during.body).toMatch(
      /data-testid="progress-object" data-entity="ACCOUNT"><th scope="row">ACCOUNT<\/th><td class="num">117<\/td><td class="num">3<\/td><td class="num">2 new, 5 changed, 0 deleted/,
    );
    expect(during.body).toMatch(/data-kind="incremental" data-status="running"/);
    await t.db.pool.query(`UPDATE sync_runs SET status = 'completed', finished_at = clock_timestamp() WHERE id = $1`, [runId]);
    const after = await page(viewer, live);
    expect(after.body).not.toContain('data-testid="sync-progress"');
    expect(after.body).toMatch(/data-kind="incremental" data-status="completed"/);
    expect(after.body).toContain('2 new, 5 changed, 0 deleted');
  });

  it('pages long sync histories and event logs', async () => {
    const { connection } = await syncedSandboxConnection(t, 'user_dash_paging_size_20');
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, created_at, started_at, finished_at, error)
       SELECT $1, 'incremental', 'schedule', 'failed', timestamptz '2024-01-01' + make_interval(mins => i), timestamptz '2024-01-01', timestamptz '2024-01-01', 'old failure ' || i
         FROM generate_series(1, 30) AS i`,
      [connection.id],
    );
    await t.db.pool.query(
      `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, created_at)
       SELECT $1, 'sandbox', $2, 'CONNECTION', 'CONNECTION_UPDATED', jsonb_build_object('store_unique_id', 'store-' || i), timestamptz '2024-01-01' + make_interval(mins => i)
         FROM generate_series(1, 40) AS i`,
      [t.org.organization.id, connection.id],
    );
    const shown = await page(viewer, `/dashboard/connections/${connection.id}`);
    expect(shown.body.match(/data-testid="sync-run"/g)).toHaveLength(20);
    const olderSyncs = /href="(\/dashboard\/connections\/[^"]+\/history\?cursor=[^"]+)"/.exec(shown.body)?.[1] ?? '';
    const history = await page(viewer, olderSyncs.replaceAll('&amp;', '&'));
    expect(history.statusCode).toBe(200);
    // 31 runs: 20 on the connection page, the other 11 (the oldest, old failure 1 among them) here.
    expect(history.body.match(/data-testid="sync-run"/g)).toHaveLength(11);
    expect(history.body).toContain('old failure 1<');
    const olderEvents = /href="(\/dashboard\/connections\/[^"]+\/events\?cursor=[^"]+)"/.exec(shown.body)?.[1] ?? '';
    const events = await page(viewer, olderEvents.replaceAll('&amp;', '&'));
    expect(events.statusCode).toBe(200);
    expect(events.body).toContain('store-1&quot;');
    expect((await page(viewer, `/dashboard/connections/${connection.id}/history?cursor=garbage`)).body).toContain('INVALID_CURSOR');
    const live = await page(viewer, `/dashboard/fragments/connections/${connection.id}/events`);
    expect(live.body).toContain('store-40&quot;');
  });

  it('answers another organisation’s connection and a malformed id with a 404 page', async () => {
    const { connection } = await syncedSandboxConnection(t, 'user_dash_theirs', other);
    const mine = await page(developer, `/dashboard/connections/${connection.id}`);
    expect(mine.statusCode).toBe(404);
    expect(mine.body).toContain('connection-not-found');
    expect(mine.body).not.toContain('user_dash_theirs');
    expect((await page(developer, '/dashboard/connections/not-a-uuid')).statusCode).toBe(404);
    const action = await post(developer, `/dashboard/connections/${connection.id}/rename`, [['name', 'hijacked']]);
    expect(messageOf(action.headers.location, 'problem')).toContain('No connection');
    const name = await t.db.pool.query('SELECT name FROM connections WHERE id = $1', [connection.id]);
    expect(name.rows[0]).toEqual({ name: null });
  });
});

describe('Connection actions', () => {
  it('runs an incremental sync of the chosen objects, which ends in INCREMENTAL_SYNC_COMPLETED with the spec’s fields', async () => {
    const { connection } = await syncedSandboxConnection(t, 'user_dash_sync_size_20');
    const answer = await post(developer, `/dashboard/connections/${connection.id}/sync`, [
      ['object_types', 'ACCOUNT'],
      ['object_types', 'BILL'],
    ]);
    expect(messageOf(answer.headers.location, 'notice'), answer.headers.location).toContain('Incremental sync queued (ACCOUNT, BILL)');
    const run = await t.db.pool.query<{ id: string; trigger: string }>(
      "SELECT id, trigger FROM sync_runs WHERE connection_id = $1 AND kind = 'incremental' ORDER BY created_at DESC LIMIT 1",
      [connection.id],
    );
    expect(run.rows[0]?.trigger).toBe('manual');
    const running = await page(developer, `/dashboard/fragments/connections/${connection.id}/syncs`);
    expect(running.body).toMatch(/data-kind="incremental" data-status="queued"/);
    expect(await runSync(t.services, run.rows[0]?.id ?? '', new AbortController().signal)).toBe('completed');
    const events = await t.db.pool.query<{ payload: Record<string, unknown> }>(
      "SELECT payload FROM events WHERE connection_id = $1 AND code = 'INCREMENTAL_SYNC_COMPLETED'",
      [connection.id],
    );
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]?.payload).toMatchObject({
      type: 'CONNECTION',
      code: 'INCREMENTAL_SYNC_COMPLETED',
      incremental_sync_type: 'manual',
      entities: ['ACCOUNT', 'BILL'],
    });
    const shown = await page(developer, `/dashboard/connections/${connection.id}`);
    expect(shown.body).toMatch(/data-kind="incremental" data-status="completed"/);
    expect(shown.body).toContain('data-code="INCREMENTAL_SYNC_COMPLETED"');
  });

  it('refuses every action to a viewer, through the page and forged straight to the API, changing nothing', async () => {
    const { connection, token } = await syncedSandboxConnection(t, 'user_dash_viewer_size_20');
    const runsBefore = await t.db.pool.query('SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1', [connection.id]);
    for (const [action, fields] of [
      ['sync', [['object_types', 'ACCOUNT']]],
      [
        'backfill',
        [
          ['entity', 'ACCOUNT'],
          ['start_date', '2024-01-01'],
          ['end_date', '2024-02-01'],
        ],
      ],
      ['rename', [['name', 'viewer was here']]],
      ['delete', []],
    ] as [string, [string, string][]][]) {
      const answer = await post(viewer, `/dashboard/connections/${connection.id}/${action}`, fields);
      expect(messageOf(answer.headers.location, 'problem'), action).toContain('ROLE_NOT_ALLOWED');
    }
    const invalidate = await post(viewer, `/dashboard/connections/${connection.id}/invalidate-token`);
    expect(invalidate.statusCode).toBe(403);
    expect(invalidate.body).not.toContain('new-access-token');
    const forged = await t.app.inject({
      method: 'POST',
      url: `/versioned/connections/incremental_sync?access_token=${token}`,
      headers: { ...viewer.headers, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error_code: 'ROLE_NOT_ALLOWED' });
    const forgedDelete = await t.app.inject({ method: 'DELETE', url: `/versioned/connections/${connection.id}`, headers: viewer.headers });
    expect(forgedDelete.statusCode).toBe(403);
    const after = await t.db.pool.query<{ name: string | null }>('SELECT name FROM connections WHERE id = $1', [connection.id]);
    expect(after.rows).toEqual([{ name: null }]);
    const runsAfter = await t.db.pool.query('SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1', [connection.id]);
    expect(runsAfter.rows).toEqual(runsBefore.rows);
  });

  it('renames, backfills, shows a new access token once, and deletes (409 explained while a sync runs)', async () => {
    const { connection, token } = await syncedSandboxConnection(t, 'user_dash_actions_size_20');
    const base = `/dashboard/connections/${connection.id}`;
    const renamed = await post(developer, `${base}/rename`, [['name', 'Renamed books']]);
    expect(messageOf(renamed.headers.location, 'notice'), renamed.headers.location).toBe('Renamed to Renamed books.');
    expect((await page(developer, base)).body).toContain('<h1>Renamed books</h1>');

    const badBackfill = await post(developer, `${base}/backfill`, [
      ['entity', 'ACCOUNT'],
      ['start_date', 'yesterday'],
      ['end_date', '2024-01-01'],
    ]);
    expect(messageOf(badBackfill.headers.location, 'problem')).toContain('VALIDATION_ERROR');
    const backfill = await post(developer, `${base}/backfill`, [
      ['entity', 'INVOICE'],
      ['start_date', '2024-01-01'],
      ['end_date', '2024-03-31'],
    ]);
    expect(messageOf(backfill.headers.location, 'notice')).toContain('Backfill queued');
    const queued = await page(developer, `/dashboard/fragments/connections/${connection.id}/syncs`);
    expect(queued.body).toContain('INVOICE 2024-01-01 – 2024-03-31');
    await t.db.pool.query("UPDATE sync_runs SET status = 'cancelled' WHERE connection_id = $1 AND status = 'queued'", [connection.id]);

    const invalidated = await post(developer, `${base}/invalidate-token`);
    expect(invalidated.statusCode).toBe(200);
    const fresh = /data-testid="new-access-token">([^<]+)</.exec(invalidated.body)?.[1] ?? '';
    expect(fresh).not.toBe('');
    expect(fresh).not.toBe(token);
    expect(invalidated.headers.location).toBeUndefined();
    const old = await t.app.inject({
      method: 'GET',
      url: `/versioned/connections/access_token?access_token=${token}`,
      headers: { cookie: developer.cookie, 'x-service-version': '2024-08-31' },
    });
    expect(old.statusCode).toBe(401);
    expect((await page(developer, base)).body).not.toContain(fresh);

    const worker = await t.db.pool.connect();
    try {
      expect(await tryLockConnectionSync(worker, connection.id)).toBe(true);
      const busy = await post(developer, `${base}/delete`);
      expect(busy.headers.location).toMatch(new RegExp(`^${base}\\?`));
      expect(messageOf(busy.headers.location, 'problem')).toContain('Not deleted: a sync of this connection is running');
      expect(messageOf(busy.headers.location, 'problem')).toContain('SYNC_IN_PROGRESS');
    } finally {
      await unlockConnectionSync(worker, connection.id);
      worker.release();
    }
    const deleted = await post(developer, `${base}/delete`);
    expect(deleted.headers.location).toMatch(/^\/dashboard\/connections\?notice=/);
    expect((await t.db.pool.query('SELECT 1 FROM connections WHERE id = $1', [connection.id])).rowCount).toBe(0);
  });
});

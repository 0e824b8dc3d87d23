/**
 * The dashboard's request log and the details of issue 33 (item 8) in Chromium: each test drives the page a user
 * sees and fails on the behaviour the issue describes. Screenshots go to /tmp (ledgerport-dashboard-*.png).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { signedInUser } from '../support/dashboard.ts';
import { sandboxConnection, syncedSandboxConnection } from '../support/sandbox-connection.ts';
import { launchChromium, runBrowserTests } from '../support/chromium.ts';
import { seriousViolations } from '../support/dashboard-browser.ts';
import { accessTokenOf } from '../../src/connections/connections.ts';

describe.skipIf(!runBrowserTests)('dashboard details in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base = '';
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    browser = await launchChromium();
    const user = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'developer');
    const context = await browser.newContext();
    await context.addCookies([{ name: 'lp_session', value: user.token, url: base }]);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await t.close();
  });

  it('prompts an organisation without connections to create its first one, and leads there', async () => {
    await page.goto(`${base}/dashboard`);
    const prompt = page.locator('[data-testid=create-first-connection]');
    expect(await prompt.count()).toBe(1);
    await Promise.all([page.waitForURL(/\/dashboard\/connections\/new$/), prompt.click()]);
    expect(await page.locator('[data-testid=new-connection-form]').count()).toBe(1);
    await page.screenshot({ path: '/tmp/ledgerport-dashboard-first-connection.png', fullPage: true });
  });

  it('finds an API request in the request log by its request id, with a link to its connection', async () => {
    const connection = await sandboxConnection(t, 'user_browser_request_log');
    const token = accessTokenOf(t.services.cipher, connection);
    const wanted = `browser-${randomUUID()}`;
    for (const requestId of [`noise-${randomUUID()}`, wanted, `noise-${randomUUID()}`]) {
      await t.app.inject({
        method: 'GET',
        url: `/versioned/events?type=object_deleted&access_token=${token}`,
        headers: { ...clientHeaders(t.org), 'x-request-id': requestId },
      });
    }
    await t.app.requestLog.flush();
    await page.goto(`${base}/dashboard/request-logs`);
    expect(await page.locator('[data-testid=request-log-row]').count()).toBeGreaterThanOrEqual(3);
    await page.fill('[data-testid=request-log-request-id]', wanted);
    await Promise.all([page.waitForURL(/request_id=/), page.click('[data-testid=request-log-form] button[type=submit]')]);
    const rows = page.locator('[data-testid=request-log-row]');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-request-id')).toBe(wanted);
    const text = await rows.first().innerText();
    expect(text).toContain('/versioned/events');
    expect(text).toContain('200');
    expect(await rows.first().locator(`a[href="/dashboard/connections/${connection.id}"]`).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/ledgerport-dashboard-request-log.png', fullPage: true });

    await page.goto(`${base}/dashboard/request-logs?status=9xx`);
    expect(await page.locator('[role=alert]').innerText()).toContain('VALIDATION_ERROR');
  }, 60_000);
  it('shows deliveries that fail and are still retried, not only "0 failed"', async () => {
    const event = await t.db.pool.query<{ id: string }>(
      `INSERT INTO events (organization_id, environment, type, code, payload) VALUES ($1, 'sandbox', 'test', 'BILL_CREATED', '{}') RETURNING id`,
      [t.org.organization.id],
    );
    await t.db.pool.query(
      `INSERT INTO webhook_deliveries (event_id, organization_id, environment, code, status, attempts, deadline_at, next_attempt_at, last_error)
       VALUES ($1, $2, 'sandbox', 'BILL_CREATED', 'pending', 3, clock_timestamp() + interval '10 minutes', clock_timestamp() + interval '1 minute',
               'connect ECONNREFUSED 127.0.0.1:9')`,
      [event.rows[0]?.id, t.org.organization.id],
    );
    await page.goto(`${base}/dashboard`);
    const retrying = page.locator('[data-testid=deliveries-retrying]');
    expect(await retrying.count()).toBe(1);
    const text = await retrying.innerText();
    expect(text).toContain('1 delivery is failing and being retried');
    expect(text).toContain('ECONNREFUSED');
    await page.screenshot({ path: '/tmp/ledgerport-dashboard-retrying.png', fullPage: true });
  });

  it("names the connection in the overview's error lists, linked to it", async () => {
    const failing = await sandboxConnection(t, 'user_browser_named_failure');
    await t.db.pool.query(`UPDATE connections SET name = NULL, store_name = 'Acme Trading Ltd' WHERE id = $1`, [failing.id]);
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, error, finished_at) VALUES ($1, 'initial', 'link', 'failed', 'the platform said no', clock_timestamp())`,
      [failing.id],
    );
    const event = await t.db.pool.query<{ id: string }>(
      `INSERT INTO events (organization_id, environment, type, code, payload) VALUES ($1, 'sandbox', 'test', 'BILL_CREATED', '{}') RETURNING id`,
      [t.org.organization.id],
    );
    await t.db.pool.query(
      `INSERT INTO webhook_deliveries (event_id, organization_id, environment, connection_id, code, status, attempts, deadline_at, finished_at, last_status_code)
       VALUES ($1, $2, 'sandbox', $3, 'BILL_CREATED', 'failed', 5, clock_timestamp(), clock_timestamp(), 500)`,
      [event.rows[0]?.id, t.org.organization.id, failing.id],
    );
    await page.goto(`${base}/dashboard`);
    for (const list of ['failed-syncs', 'failed-deliveries']) {
      const link = page.locator(`[data-testid=${list}] a[href="/dashboard/connections/${failing.id}"]`);
      expect(await link.count(), list).toBe(1);
      expect(await link.innerText(), list).toBe('Acme Trading Ltd');
    }
  });

  it('updates "Last completed sync" when a sync completes, without a reload', async () => {
    const connection = await sandboxConnection(t, 'user_browser_last_sync');
    const run = await t.db.pool.query<{ id: string }>(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, started_at) VALUES ($1, 'initial', 'link', 'running', clock_timestamp()) RETURNING id`,
      [connection.id],
    );
    await page.goto(`${base}/dashboard/connections/${connection.id}`);
    const last = page.locator('[data-testid=last-completed-sync]');
    expect(await last.innerText()).toBe('never');
    await t.db.pool.query(`UPDATE sync_runs SET status = 'completed', finished_at = clock_timestamp() WHERE id = $1`, [run.rows[0]?.id]);
    // The fragment's script re-fetches the live part every 2 s; a date appears as a <time>.
    await page.locator('[data-testid=last-completed-sync] time').waitFor({ timeout: 15_000 });
  }, 30_000);

  it("shows a disabled connection's link URL", async () => {
    const connection = await sandboxConnection(t, 'user_browser_disabled');
    await t.db.pool.query(
      `UPDATE connections SET status = 'disabled', disable_error = 'ACCOUNT_CLOSED', disable_message = 'closed by the business' WHERE id = $1`,
      [connection.id],
    );
    await page.goto(`${base}/dashboard/connections/${connection.id}`);
    const link = page.locator('[data-testid=link-url]');
    expect(await link.count()).toBe(1);
    expect(await link.innerText()).toMatch(/^http/);
    expect(await page.locator('[data-testid=sync-state]').innerText()).toContain('disabled');
  });

  it('says a connection whose last sync failed is not simply "ready"', async () => {
    const synced = await syncedSandboxConnection(t, 'user_browser_failed_state');
    await t.db.pool.query(
      `INSERT INTO sync_runs (connection_id, kind, trigger, status, error, finished_at) VALUES ($1, 'incremental', 'schedule', 'failed', 'the platform said no', clock_timestamp())`,
      [synced.connection.id],
    );
    await t.db.pool.query(`UPDATE connections SET status = 'unhealthy' WHERE id = $1`, [synced.connection.id]);
    await page.goto(`${base}/dashboard/connections/${synced.connection.id}`);
    const state = await page.locator('[data-testid=sync-state]').innerText();
    expect(state).not.toBe('ready');
    expect(state).toContain('failed');
    await t.db.pool.query(`UPDATE connections SET status = 'active' WHERE id = $1`, [synced.connection.id]);
  }, 60_000);

  it('shows the data of the connection and resource the explorer shows chosen, instead of asking to choose them', async () => {
    await page.goto(`${base}/dashboard/explorer`);
    expect(await page.locator('text=Choose a connection and a resource').count()).toBe(0);
    const chosen = await page.locator('#explorer-connection').inputValue();
    const resource = await page.locator('#explorer-resource').inputValue();
    expect(chosen).not.toBe('');
    expect(resource).toBe('bill');
    expect(await page.locator('[data-testid=explorer-results]').count()).toBe(1);
    expect(
      await page
        .locator('h2')
        .filter({ hasText: chosen.slice(0, 8) })
        .count(),
    ).toBe(1);
  });

  it("shows our name and icon on /docs, not Fastify's", async () => {
    await page.goto(`${base}/docs`);
    expect(await page.title()).toBe('Ledgerport API reference');
    const logo = page.locator('#swagger-ui .topbar img');
    // Swagger UI draws its top bar only once it has read the whole document (about 5 s alone, three times that under a
    // loaded CI): the wait is for the page to finish, not a measure of its speed.
    await logo.waitFor({ timeout: 60_000 });
    const src = (await logo.getAttribute('src')) ?? '';
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(src.split(',')[1] ?? '', 'base64').toString('utf8')).toContain('Ledgerport');
    await page.screenshot({ path: '/tmp/ledgerport-docs.png' });
  }, 90_000);
});

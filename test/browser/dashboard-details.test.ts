/**
 * The dashboard's request log and the details of issue 33 (item 8) in Chromium: each test drives the page a user
 * sees and fails on the behaviour the issue describes. Screenshots go to /tmp (ledgerport-dashboard-*.png).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { signedInUser } from '../support/dashboard.ts';
import { sandboxConnection } from '../support/sandbox-connection.ts';
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
});

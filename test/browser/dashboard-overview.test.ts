/**
 * The dashboard's overview and data explorer in a real browser (Chromium through playwright-core): no serious axe-core
 * violation, a running sync appearing and leaving without a reload (the page's live fragment), and bills filtered
 * through the explorer's form. Screenshots go to /tmp (ledgerport-dashboard-*.png).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInUser } from '../support/dashboard.ts';
import { sandboxConnection, syncedSandboxConnection, type SyncedConnection } from '../support/sandbox-connection.ts';
import { launchChromium, runBrowserTests } from '../support/chromium.ts';
import { requestSync } from '../../src/sync/requests.ts';
import { runSync } from '../../src/sync/runner.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Serious and critical violations, as text (run in the page; axe is injected with the CSP bypassed for the check only). */
const AXE_RUN = `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.html).join(' | ')))`;

describe.skipIf(!runBrowserTests)('the dashboard overview and explorer in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base = '';
  let synced: SyncedConnection;
  let page: Page;

  beforeAll(async () => {
    // user_slow's full reads wait this long before each page: time to watch its initial sync from the page.
    t = await startTestApp({ sandbox: { slowPageDelayMs: 300 } });
    synced = await syncedSandboxConnection(t, 'user_browser_size_300');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    browser = await launchChromium();
    const user = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
    const context = await browser.newContext({ bypassCSP: true });
    await context.addCookies([{ name: 'lp_session', value: user.token, url: base }]);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await t.close();
  });

  it('has no serious accessibility violation on the overview and the explorer', async () => {
    const paths = [
      '/dashboard',
      '/dashboard/explorer',
      `/dashboard/explorer?connection=${synced.connection.id}&resource=bill`,
      `/dashboard/explorer?connection=${synced.connection.id}&resource=bill&filter=${encodeURIComponent('due_date >=')}`,
    ];
    for (const path of paths) {
      await page.goto(base + path);
      await page.addScriptTag({ content: AXE });
      expect(await page.evaluate(AXE_RUN), path).toEqual([]);
    }
  });

  it('filters bills in the explorer', async () => {
    await page.goto(`${base}/dashboard/explorer`);
    await page.selectOption('#explorer-resource', 'bill');
    await Promise.all([page.waitForURL(/filter=/), page.click('[data-testid=explorer-form] button[type=submit]')]);
    const all = await page.locator('[data-testid=explorer-results] tbody tr').count();
    await page.fill('[data-testid=explorer-filter]', 'status = "paid"');
    await Promise.all([page.waitForURL(/paid/), page.click('[data-testid=explorer-form] button[type=submit]')]);
    const statuses = await page.locator('[data-testid=explorer-results] tbody tr td:nth-child(3)').allInnerTexts();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.length).toBeLessThanOrEqual(all);
    expect(new Set(statuses)).toEqual(new Set(['paid']));
    await page.screenshot({ path: '/tmp/ledgerport-dashboard-explorer.png', fullPage: true });
  });

  it('shows a running sync without a reload, and drops it when it completes', async () => {
    await page.goto(`${base}/dashboard`);
    await page.waitForSelector('[data-testid=no-running-sync]');
    const slow = await sandboxConnection(t, 'user_slow');
    const run = await requestSync(t.db.pool, t.services.jobs, slow.id, { kind: 'initial', trigger: 'api', details: {} });
    const running = runSync(t.services, run.id, new AbortController().signal);
    await page.waitForSelector(`[data-run-id="${run.id}"] progress`, { timeout: 20_000 });
    await page.screenshot({ path: '/tmp/ledgerport-dashboard-running-sync.png', fullPage: true });
    expect(await running).toBe('completed');
    await page.waitForSelector('[data-testid=no-running-sync]', { timeout: 10_000 });
  }, 120_000);
});

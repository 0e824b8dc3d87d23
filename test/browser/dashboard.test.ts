/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the service started as
 * `npm start` starts it on a fresh data directory: the newcomer's path from the first start's sign-in link to a
 * finished SANDBOX sync, then the daily work (a manual incremental sync whose INCREMENTAL_SYNC_COMPLETED reaches a
 * receiver, the explorer, the webhook address, a failed delivery retried, a secret rotated), and signing out.
 * Every page is screenshotted into test-artifacts/dashboard/ (kept by CI), checked with axe-core (no serious or
 * critical violation) and watched for console errors.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, runBrowserTests } from '../support/chromium.ts';
import { randomPort, startService, stopServices, waitForOk, type ServiceProcess } from '../support/process.ts';
import {
  ARTIFACTS,
  collectConsoleErrors,
  firstStartSecrets,
  screenshot,
  seriousViolations,
  type FirstStartSecrets,
} from '../support/dashboard-browser.ts';
import { expectedWebhookSignature } from '../support/webhook-receiver.ts';

const PASSWORD = 'a long and memorable passphrase';

/** A webhook receiver that answers 500 until told to accept, recording every body it was sent. */
class Receiver {
  accepting = false;
  readonly received: { code: string; body: Record<string, unknown>; status: number; signed: boolean }[] = [];
  secrets: string[] = [];
  private readonly server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      const signature = request.headers['x-service-signature'];
      const signed = this.secrets.some((secret) => signature === expectedWebhookSignature(raw, secret));
      const status = this.accepting ? 200 : 500;
      this.received.push({ code: String(body.code), body, status, signed });
      response.writeHead(status).end(status === 200 ? 'ok' : 'not yet');
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}

describe.runIf(runBrowserTests)('the dashboard in a browser', () => {
  let folder = '';
  let service: ServiceProcess | undefined;
  let base = '';
  let secrets: FirstStartSecrets;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[] = [];
  let connectionId = '';
  const receiver = new Receiver();
  const startedAt = Date.now();
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-dashboard-'));
    const port = randomPort();
    base = `http://127.0.0.1:${port}`;
    await receiver.start();
    service = startService([], {
      DATA_DIR: path.join(folder, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      EMBEDDED_POSTGRES_PORT: String(randomPort()),
      LOG_LEVEL: 'warn',
      // Deliveries that keep failing give up after 18 s instead of 15 minutes, so a failed one can be retried.
      WEBHOOK_SCHEDULE_SCALE: '0.02',
    });
    await waitForOk(`${base}/readyz`, 120_000, service);
    timings.ready_ms = Date.now() - startedAt;
    const found = firstStartSecrets(service.output());
    if (found === null) throw new Error(`the first start printed no dashboard sign-in link:\n${service.output()}`);
    secrets = found;
    receiver.secrets = [secrets.clientSecret];
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    consoleErrors = collectConsoleErrors(page);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await receiver.close();
    if (service !== undefined) await stopServices([service]);
    await rm(folder, { recursive: true, force: true });
    process.stdout.write(`dashboard browser timings: ${JSON.stringify(timings)}\n`);
  });

  /** Follows the dashboard's navigation (page bodies link to each other too). */
  async function nav(name: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  }

  /** Screenshot, accessibility check and the page's own heading: every page the suite visits goes through here. */
  async function check(name: string, heading: string | RegExp): Promise<void> {
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await screenshot(page, name);
    const violations = await seriousViolations(page);
    expect(violations.map((v) => `${v.id} (${v.impact ?? ''}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  it('signs the first admin in through the link the first start printed, and in again with the password', async () => {
    expect(secrets.signInUrl.startsWith(`${base}/dashboard/sign-in/lplnk_`)).toBe(true);
    await page.goto(secrets.signInUrl);
    await check('01-set-password', 'Set your password');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`${base}/dashboard?**`);
    await page.getByRole('status').filter({ hasText: 'Welcome to Ledgerport' }).waitFor();
    // The link works once.
    const again = await context.newPage();
    const answer = await again.goto(secrets.signInUrl);
    expect(answer?.status()).toBe(410);
    await again.close();
    // Out, and in with the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/dashboard/login**`);
    await check('02-sign-in', 'Sign in to the dashboard');
    await page.getByLabel('Email').fill(secrets.adminEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/dashboard`);
    timings.signed_in_ms = Date.now() - startedAt;
  }, 60_000);

  it('sets the webhook address of the sandbox environment', async () => {
    await nav('Webhooks');
    await check('30-webhooks', 'Webhooks');
    const form = page.getByTestId('webhook-url-form');
    await form.getByLabel('Environment').selectOption('sandbox');
    await form.getByLabel(/Address/).fill(receiver.url);
    await form.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.locator('main').textContent()).toContain(receiver.url);
  }, 30_000);

  it('connects SANDBOX through the hosted link flow and watches its initial sync finish, live', async () => {
    await nav('Connections');
    await check('10-connections-empty', 'Connections');
    await page.getByTestId('new-connection').click();
    await check('11-new-connection', /connection/i);
    await page.getByLabel('Platform').selectOption('SANDBOX');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.waitForURL(/\/dashboard\/connections\/[0-9a-f-]{36}/);
    connectionId = /connections\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
    await page.getByTestId('open-link-flow').click();
    await page.getByLabel('Username').fill('user_good');
    await page.getByLabel('Password').fill('pass_good');
    await page.getByRole('button', { name: 'Connect' }).click();
    // The flow's redirect brings the browser back to the connection's page.
    await page.waitForURL(new RegExp(`/dashboard/connections/${connectionId}`));
    timings.linked_ms = Date.now() - startedAt;
    await screenshot(page, '12-connection-syncing');
    // The page is not reloaded from here on: the sync state arrives through its live region.
    await page.evaluate('window.ledgerportNoReload = true');
    await page.locator('[data-testid="sync-state"][data-ready="true"]').waitFor({ timeout: 180_000 });
    timings.initial_sync_done_ms = Date.now() - startedAt;
    expect(await page.evaluate('window.ledgerportNoReload')).toBe(true);
    await expect
      .poll(() => page.locator('[data-testid="sync-run"][data-kind="initial"][data-status="completed"]').count(), { timeout: 30_000 })
      .toBe(1);
    await check('13-connection-synced', /.+/);
    // The README's picture: the page as a newcomer finds it when the sync is done (the first screenful).
    await page.reload();
    await page.screenshot({ path: path.join(ARTIFACTS, 'readme-connection.png') });
    await nav('Overview');
    await check('14-overview', 'Overview');
    expect(await page.locator('main').textContent()).toMatch(/active/i);
  }, 240_000);

  it('retries a failed delivery, which then arrives', async () => {
    await page.goto(`${base}/dashboard/webhooks`);
    // The receiver refused everything so far: the log shows failed attempts, live.
    const log = page.getByTestId('delivery-log');
    await expect.poll(() => log.locator('.badge.failed').count(), { timeout: 90_000 }).toBeGreaterThan(0);
    await screenshot(page, '31-webhooks-failed');
    receiver.accepting = true;
    const before = receiver.received.filter((r) => r.status === 200).length;
    await log
      .locator('tr', { has: page.locator('.badge.failed') })
      .first()
      .getByRole('button', { name: /Retry/ })
      .click();
    await page.getByRole('status').waitFor();
    await expect.poll(() => receiver.received.filter((r) => r.status === 200).length, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(receiver.received.filter((r) => r.status === 200).every((r) => r.signed)).toBe(true);
    await expect.poll(() => log.locator('.badge.delivered').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await check('32-webhooks-retried', 'Webhooks');
  }, 150_000);

  it('runs a manual incremental sync of bills, whose INCREMENTAL_SYNC_COMPLETED reaches the receiver', async () => {
    await page.goto(`${base}/dashboard/connections/${connectionId}`);
    const form = page.getByTestId('sync-form');
    for (const box of await form.getByRole('checkbox').all()) await box.uncheck();
    await form.getByRole('checkbox', { name: 'BILL', exact: true }).check();
    await form.getByRole('button', { name: 'Sync now' }).click();
    await page.getByRole('status').waitFor();
    const completed = (): Record<string, unknown> | undefined =>
      receiver.received.find((r) => r.code === 'INCREMENTAL_SYNC_COMPLETED' && r.status === 200)?.body;
    await expect.poll(completed, { timeout: 120_000 }).toBeDefined();
    expect(completed()).toMatchObject({
      type: 'CONNECTION',
      code: 'INCREMENTAL_SYNC_COMPLETED',
      connection_id: connectionId,
      incremental_sync_type: 'manual',
      entities: ['BILL'],
    });
    await expect
      .poll(() => page.locator('[data-testid="sync-run"][data-kind="incremental"][data-status="completed"]').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await check('40-connection-incremental', /.+/);
  }, 180_000);

  it('filters bills in the data explorer and shows one with its platform data', async () => {
    await nav('Data explorer');
    await check('41-explorer', 'Data explorer');
    const form = page.getByTestId('explorer-form');
    await form.getByLabel('Resource').selectOption('bill');
    await form.getByRole('button', { name: 'Show' }).click();
    const rows = page.getByTestId('explorer-results').locator('tbody tr');
    await rows.first().waitFor();
    const all = await rows.count();
    await page.getByTestId('explorer-filter').fill('status = "paid"');
    await page.getByTestId('explorer-form').getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('explorer-results').waitFor();
    const paid = await rows.count();
    expect(paid).toBeGreaterThan(0);
    expect(paid).toBeLessThanOrEqual(all);
    for (const row of await rows.all()) expect(await row.textContent()).toContain('paid');
    await check('42-explorer-filtered', 'Data explorer');
    await rows.first().getByRole('link').click();
    const platformData = await page.getByTestId('explorer-platform-data').textContent();
    expect(JSON.parse(platformData ?? 'null')).toEqual(expect.any(Object));
    await check('43-explorer-bill', 'Data explorer');
    await page.goBack();
    await page.getByTestId('explorer-filter').fill('status = ');
    await page.getByTestId('explorer-form').getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('explorer-error').waitFor();
    await rows.first().waitFor({ state: 'detached' });
  }, 60_000);

  it('rotates the sandbox secret, shows the new one once, and the API takes it', async () => {
    await nav('API keys');
    await check('50-api-keys', 'API keys');
    const form = page.getByTestId('rotate-secret');
    await form.getByLabel('Environment').selectOption('sandbox');
    page.once('dialog', (dialog) => void dialog.accept());
    await form.getByRole('button', { name: 'Rotate the secret' }).click();
    const secret = (await page.locator('#new-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^lpsk_/);
    await check('51-api-keys-rotated', 'API keys');
    const answer = await fetch(`${base}/versioned/connections`, {
      headers: { authorization: `Basic ${Buffer.from(`${secrets.clientId}:${secret}`).toString('base64')}`, 'x-service-version': '2024-08-31' },
    });
    expect(answer.status).toBe(200);
    receiver.secrets.push(secret);
    // Shown once: the page itself no longer has it.
    await page.goto(`${base}/dashboard/api-keys`);
    expect(await page.content()).not.toContain(secret);
  }, 30_000);

  it('shows the platforms page', async () => {
    await nav('Platforms');
    await check('60-platforms', 'Platforms');
  }, 30_000);

  it('shows users, the audit log and the account', async () => {
    await page.goto(`${base}/dashboard/users`);
    await check('20-users', 'Users');
    expect(await page.getByTestId('user-row').count()).toBe(1);
    await page.goto(`${base}/dashboard/audit`);
    await check('21-audit', 'Audit log');
    await expect.poll(() => page.getByTestId('audit-row').filter({ hasText: 'SIGN_IN' }).count()).toBeGreaterThanOrEqual(2);
    await page.goto(`${base}/dashboard/account`);
    await check('22-account', 'Your account');
  }, 60_000);

  it('signs out, and has seen no console error on any page', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${base}/dashboard/login**`);
    await page.getByRole('status').filter({ hasText: 'Signed out.' }).waitFor();
    const after = await page.goto(`${base}/dashboard/users`);
    expect(new URL(after?.url() ?? '').pathname).toBe('/dashboard/login');
    expect(consoleErrors).toEqual([]);
  }, 30_000);
});

/**
 * Xero and QuickBooks Online end to end, in a real browser (Chromium through
 * playwright-core), against their stand-ins (test/standins): the organisation
 * registers its OAuth app through the admin API; the end user picks the
 * platform in the hosted link flow, consents on the stand-in's consent page
 * (and picks an organisation when the login reaches several); the worker runs
 * the initial sync; an incremental sync picks up a change made on the
 * platform; a bill created through the API lands on the platform. The
 * stand-ins check every request against the platform's contract and record
 * any breach: there must be none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { setRedirectUrls } from '../../src/connections/redirect-urls.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSync } from '../../src/sync/requests.ts';
import { startSyncWorkers } from '../../src/sync/worker.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, runBrowserTests } from '../support/chromium.ts';
import { setEnv } from '../support/env.ts';
import { PLATFORM_CASES, type PlatformCase, type RunningStandIn } from './platform-cases.ts';

const SCREENSHOTS = '/tmp';

type Json = Record<string, unknown>;

let t: TestApp | undefined;
let base = '';
let receiver: Server | undefined;
let receiverBase = '';
let browser: Browser | undefined;

describe.skipIf(!runBrowserTests)('OAuth platforms in a browser', () => {
  beforeAll(async () => {
    const started = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
    t = started;
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`;
    started.services.config.publicUrl = base;
    await startSyncWorkers(started.boss, started.services, { concurrency: 1 });
    await startWriteWorkers(started.boss, started.services, { concurrency: 1 });
    const client = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Receiver</title><h1>Back at the client</h1>');
    });
    receiver = client;
    await new Promise<void>((resolve) => client.listen(0, '127.0.0.1', resolve));
    receiverBase = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
    // The client app's landing page is an allowed redirect URL of the organisation (src/connections/redirect-urls.ts).
    await setRedirectUrls(started.db.pool, {
      organizationId: started.org.organization.id,
      environment: 'sandbox',
      urls: [`${receiverBase}/receiver`],
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (receiver !== undefined) await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
  });

  function app(): TestApp {
    if (t === undefined) throw new Error('the test app did not start');
    return t;
  }

  async function api(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    headers: Record<string, string> = clientHeaders(app().org),
  ): Promise<Json> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(200);
    return JSON.parse(text) as Json;
  }

  /** Waits for the connection's latest sync run to complete; fails on a failed run. */
  async function syncCompleted(connectionId: string, after: Date): Promise<void> {
    await expect
      .poll(
        async () => {
          const result = await app().db.pool.query<{ status: string; error: unknown }>(
            'SELECT status, error FROM sync_runs WHERE connection_id = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 1',
            [connectionId, after],
          );
          const run = result.rows[0];
          if (run?.status === 'failed') throw new Error(`sync failed: ${JSON.stringify(run.error)}`);
          return run?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('completed');
  }

  async function consent(page: Page, platform: PlatformCase, standIn: RunningStandIn, connection: { link_url: string }): Promise<string> {
    await page.goto(`${connection.link_url}?redirect_url=${encodeURIComponent(`${receiverBase}/receiver`)}`);
    await page.getByRole('link', { name: platform.pickerName }).click();
    await page.waitForURL(`${standIn.url}/**`);
    await page.locator('#allow').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/ledgerport-${platform.platform.toLowerCase()}-consent.png` });
    await page.locator('#allow').click();
    await standIn.afterConsent(page);
    await page.waitForURL(`${receiverBase}/receiver?**`);
    const publicToken = new URL(page.url()).searchParams.get('public_token') ?? '';
    expect(publicToken).toMatch(/^lppt_/);
    return publicToken;
  }

  for (const platform of PLATFORM_CASES) {
    it(`${platform.platform}: link in the browser, initial sync, incremental sync, bill create, all within the platform's contract`, async () => {
      const standIn = await platform.start();
      const restoreEnv = setEnv(standIn.env);
      try {
        const redirectUri = `${base}/link/oauth/callback`;
        const clientId = `lp-${platform.platform.toLowerCase()}-app`;
        const clientSecret = `${clientId}-secret-0123456789`;
        standIn.registerClient({ clientId, clientSecret, redirectUri });
        await api(
          'PUT',
          `/admin/organizations/${app().org.organization.id}/oauth_apps/${platform.platform}`,
          { environment: 'sandbox', client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri },
          { authorization: `Bearer ${app().adminToken}` },
        );

        // The stand-ins' books reach back years (the platforms' own example data): sync all of it.
        const created = (await api('POST', '/versioned/connections/create', { syncConfig: { historical_months: 0 } })).connection as {
          id: string;
          link_url: string;
        };
        const linkStarted = new Date();
        if (browser === undefined) throw new Error('Chromium did not start');
        const context = await browser.newContext({ viewport: { width: 1100, height: 820 } });
        const page = await context.newPage();
        const publicToken = await consent(page, platform, standIn, created);
        await context.close();

        const { client_id, client_secret } = app().org.credentials.sandbox;
        const exchanged = await api('POST', '/versioned/item/public_token/exchange', { client_id, public_token: publicToken, secret: client_secret });
        const token = String(exchanged.access_token);
        const fetched = (await api('GET', `/versioned/connections/access_token?access_token=${encodeURIComponent(token)}`)).connection as Json;
        expect(fetched).toMatchObject({ id: created.id, platform: platform.platform, store_unique_id: standIn.expectedStoreId });

        // The link started the initial sync; the worker runs it.
        await syncCompleted(created.id, linkStarted);
        const bills = async (): Promise<Json[]> => {
          const all: Json[] = [];
          let cursor: string | null = null;
          do {
            const page = await api(
              'GET',
              `/versioned/accounting/bills?access_token=${token}&limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
            );
            all.push(...(page.bills as Json[]));
            cursor = page.next_cursor as string | null;
          } while (cursor !== null);
          return all;
        };
        const synced = await bills();
        expect(synced.length).toBe(standIn.billCount());

        // A change on the platform arrives with an incremental sync.
        const changed = standIn.changeABill();
        const incrementalStarted = new Date();
        await requestSync(app().db.pool, app().services.jobs, created.id, { kind: 'incremental', trigger: 'api', details: {} });
        await syncCompleted(created.id, incrementalStarted);
        const afterChange = (await bills()).find((b) => b.platform_id === changed.platformId);
        expect(afterChange?.[changed.field]).toBe(changed.expected);

        // A bill created through the API lands on the platform.
        const vendor = ((await api('GET', `/versioned/accounting/vendors?access_token=${token}&limit=1`)).vendors as Json[])[0];
        const account = ((await api('GET', `/versioned/accounting/accounts?access_token=${token}&limit=500`)).accounts as Json[]).find(
          (a) => a.category === 'expense' && a.status === 'active',
        );
        const marker = `Browser test bill ${Date.now()}`;
        const day = new Date().toISOString().slice(0, 10);
        const written = await api('POST', `/versioned/accounting/bills?access_token=${token}`, {
          bill: {
            vendor_id: vendor?.id,
            issue_date: day,
            due_date: day,
            [standIn.markerField]: marker,
            line_items: [{ account_id: account?.id, total_amount: 125.5, description: 'Browser test line' }],
          },
        });
        expect((written.bill as Json)[standIn.markerField]).toBe(marker);
        expect((written.bill as Json).total_amount).toBe(125.5);
        expect(standIn.billWithMarker(marker)).toBe(true);
        expect(standIn.violations()).toEqual([]);
      } finally {
        restoreEnv();
        await standIn.close();
      }
    }, 180_000);
  }
});

/**
 * The hosted link flow in a real browser (Chromium through playwright-core)
 * against the real server on a real port: the full-page flow with redirect_url,
 * and /link.js driving the flow in a popup from a host page on another origin.
 * Screenshots of the pages go to /tmp (ledgerport-link-*.png).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { setRedirectUrls } from '../../src/connections/redirect-urls.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConnector } from '../../src/platforms/index.ts';
import { DEFAULT_OPTIONS } from '../../packages/sandbox/src/options.ts';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium, runBrowserTests } from '../support/chromium.ts';

const SCREENSHOTS = '/tmp';

let t: TestApp | undefined;
let base = '';
let receiver: Server | undefined;
let receiverBase = '';
let browser: Browser | undefined;
/** Whether SANDBOX is a platform before anything hosts it: it is not, the process hosting the plugin registers it. */
const sandboxRegisteredByCatalogue = getConnector('SANDBOX') !== undefined;

/** A client's web app on another origin: a redirect_url landing page and a page embedding /link.js. */
function clientApp(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', receiverBase);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/receiver') {
      res.end('<!doctype html><title>Receiver</title><h1>Back at the client</h1>');
    } else if (url.pathname === '/host') {
      const linkUrl = url.searchParams.get('link') ?? '';
      res.end(`<!doctype html><title>Host</title><button id="connect">Connect your books</button>
<script src="${base}/link.js"></script>
<script>
  window.results = [];
  document.getElementById('connect').addEventListener('click', function () {
    Ledgerport.open({
      linkUrl: ${JSON.stringify(linkUrl)},
      onSuccess: function (token) { window.results.push('success:' + token); },
      onExit: function (info) { window.results.push('exit:' + info.reason); },
    });
  });
</script>`);
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
}

describe.skipIf(!runBrowserTests)('with Chromium', () => {
  beforeAll(async () => {
    // SANDBOX with its default options, as a user of the service first meets it (its time moves on its own).
    const started = await startTestApp({ sandbox: { tickIntervalMs: DEFAULT_OPTIONS.tickIntervalMs } });
    t = started;
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`;
    // link_url is built from publicUrl when a connection is created or fetched.
    started.services.config.publicUrl = base;
    const client = clientApp();
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
    // Whatever beforeAll got to start, in reverse.
    await browser?.close();
    if (receiver !== undefined) await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
  });

  function app(): TestApp {
    if (t === undefined) throw new Error('the test app did not start');
    return t;
  }

  function chrome(): Browser {
    if (browser === undefined) throw new Error('Chromium did not start');
    return browser;
  }

  async function api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${base}/versioned${path}`, {
      method,
      headers: { ...clientHeaders(app().org), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text) as Record<string, unknown>;
  }

  async function createConnection(): Promise<{ id: string; link_url: string }> {
    const created = await api('POST', '/connections/create', {});
    return created.connection as { id: string; link_url: string };
  }

  /** Exchanges a public token and fetches the connection it names. */
  async function connectionOf(publicToken: string): Promise<Record<string, unknown>> {
    const { client_id, client_secret } = app().org.credentials.sandbox;
    const exchanged = await api('POST', '/item/public_token/exchange', { client_id, public_token: publicToken, secret: client_secret });
    const fetched = await api('GET', `/connections/access_token?access_token=${encodeURIComponent(String(exchanged.access_token))}`);
    return { ...exchanged, ...(fetched.connection as Record<string, unknown>) };
  }

  /** What the host page's onSuccess / onExit callbacks recorded. */
  function results(host: Page): Promise<string[]> {
    return host.evaluate<string[]>('window.results');
  }

  async function signIn(page: Page, username: string, password: string): Promise<void> {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Connect' }).click();
  }

  describe('hosted link flow in a browser', () => {
    it('SANDBOX is registered by the process that hosts it (packages/sandbox/src/plugin.ts), not by the catalogue', () => {
      expect(sandboxRegisteredByCatalogue, 'SANDBOX is an optional plugin: keep it out of CONNECTORS in src/platforms/index.ts').toBe(false);
      expect(getConnector('SANDBOX')?.auth.type).toBe('credentials');
    });

    it('picker → SANDBOX form → wrong then right credentials → redirect_url with a public token that exchanges', async () => {
      const connection = await createConnection();
      expect(connection.link_url.startsWith(`${base}/link/lk_`)).toBe(true);
      const context = await chrome().newContext({ viewport: { width: 1100, height: 820 } });
      const page = await context.newPage();
      await page.goto(`${connection.link_url}?redirect_url=${encodeURIComponent(`${receiverBase}/receiver?from=ledgerport`)}`);
      await expect.poll(() => page.title()).toBe('Choose your platform · Ledgerport');
      await page.screenshot({ path: `${SCREENSHOTS}/ledgerport-link-picker.png` });

      await page.getByRole('link', { name: /Sandbox/ }).click();
      await page.getByLabel('Username').waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/ledgerport-link-form.png` });

      await signIn(page, 'user_good', 'wrong_password');
      await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
      expect(await page.getByRole('alert').textContent()).toBe('Those credentials were not accepted by Sandbox. Check the username and password.');
      await page.screenshot({ path: `${SCREENSHOTS}/ledgerport-link-error.png` });

      await signIn(page, 'user_good', 'pass_good');
      await page.waitForURL(`${receiverBase}/receiver?**`);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('from')).toBe('ledgerport');
      const publicToken = landed.searchParams.get('public_token') ?? '';
      expect(publicToken).toMatch(/^lppt_/);

      const linked = await connectionOf(publicToken);
      expect(linked).toMatchObject({ connection_id: connection.id, platform: 'SANDBOX' });

      await page.goto(`${base}/link/done?platform=SANDBOX`);
      await page.getByRole('heading', { name: "You're connected" }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}/ledgerport-link-done.png` });
      await context.close();
    }, 90_000);

    it('/link.js opens the flow in a popup and hands the public token to onSuccess', async () => {
      const connection = await createConnection();
      const context = await chrome().newContext({ viewport: { width: 1100, height: 820 } });
      const host = await context.newPage();
      await host.goto(`${receiverBase}/host?link=${encodeURIComponent(connection.link_url)}`);
      const [popup] = await Promise.all([context.waitForEvent('page'), host.getByRole('button', { name: 'Connect your books' }).click()]);
      await popup.waitForLoadState();
      const opened = new URL(popup.url());
      expect(opened.searchParams.get('mode')).toBe('popup');
      expect(opened.searchParams.get('origin')).toBe(receiverBase);

      // A message from anywhere but the popup's origin is ignored.
      await host.evaluate("window.postMessage({ type: 'ledgerport:success', public_token: 'lppt_forged' }, '*')");
      await popup.getByRole('link', { name: /Sandbox/ }).click();
      await signIn(popup, 'user_popup', 'pass_good');
      await popup.waitForEvent('close');

      await expect.poll(() => results(host), { timeout: 10_000 }).toEqual([expect.stringMatching(/^success:lppt_/)]);
      const [result] = await results(host);
      const linked = await connectionOf((result ?? '').slice('success:'.length));
      expect(linked).toMatchObject({ connection_id: connection.id, platform: 'SANDBOX' });
      await context.close();
    }, 90_000);

    it('/link.js calls onExit when the end user closes the popup', async () => {
      const connection = await createConnection();
      const context = await chrome().newContext();
      const host = await context.newPage();
      await host.goto(`${receiverBase}/host?link=${encodeURIComponent(connection.link_url)}`);
      const [popup] = await Promise.all([context.waitForEvent('page'), host.getByRole('button', { name: 'Connect your books' }).click()]);
      await popup.waitForLoadState();
      await popup.close();
      await expect.poll(() => results(host), { timeout: 10_000 }).toEqual(['exit:closed']);
      await context.close();
    }, 60_000);
  });
});

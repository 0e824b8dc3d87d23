/**
 * The sandbox environment connects XERO and QUICKBOOKS to their simulators (docs/simulators.md), end to end on the
 * real server: the hosted link flow sends the browser to the simulator's consent page, the callback exchanges the code
 * with the simulator, the sync reads SANDBOX's books in the platform's own shapes through the real connector, and
 * what we store ties out with the same business connected as SANDBOX. A write goes through to the simulated books.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf } from '../../src/connections/connections.ts';
import { findConnectionForService } from '../../src/sql/connections.ts';
import { clientHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { LinkBrowser } from '../support/link-browser.ts';
import { expectSynced, registerOAuthApp } from '../support/oauth-connection.ts';
import { sandboxConnection } from '../support/sandbox-connection.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';

type Json = Record<string, unknown>;

const PLATFORMS = [
  { platform: 'XERO', consent: '/simulators/xero/identity/connect/authorize', realConsent: 'https://login.xero.com/' },
  { platform: 'QUICKBOOKS', consent: '/simulators/quickbooks/connect/oauth2', realConsent: 'https://appcenter.intuit.com/' },
] as const;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  await startWriteWorkers(t.boss, t.services, { concurrency: 2 });
});
afterAll(async () => {
  await t.close();
});

async function createLink(environment: 'sandbox' | 'production' = 'sandbox'): Promise<{ id: string; path: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/versioned/connections/create',
    headers: clientHeaders(t.org, environment),
    payload: {},
  });
  expect(response.statusCode, response.body).toBe(200);
  const { connection } = response.json<{ connection: { id: string; link_url: string } }>();
  return { id: connection.id, path: new URL(connection.link_url).pathname };
}

/** Links `platform` through its simulator as a person would: consent page, SANDBOX test account, Allow. */
async function linkSimulated(platform: string, consentPath: string, username: string): Promise<{ id: string; token: string; path: string }> {
  const link = await createLink();
  const browser = new LinkBrowser(t.app);
  const start = await browser.get(`${link.path}/${platform}`);
  expect(start.statusCode, start.body).toBe(302);
  const consent = String(start.headers.location);
  expect(consent.startsWith(`${consentPath}?`), consent).toBe(true);
  const page = await browser.get(consent);
  expect(page.statusCode, page.body).toBe(200);
  expect(page.body).toContain('user_good');
  const params = Object.fromEntries(new URL(consent, 'http://service.test').searchParams);
  const allowed = await browser.post(consentPath, { ...params, username, password: 'pass_good', decision: 'allow' });
  expect(allowed.statusCode, allowed.body).toBe(302);
  const callback = String(allowed.headers.location);
  expect(callback.startsWith('/link/oauth/callback?'), callback).toBe(true);
  const done = await browser.get(callback);
  expect(done.statusCode, done.body).toBeLessThan(400);
  const connection = await findConnectionForService(t.db.pool, link.id);
  expect(connection).toMatchObject({ platform, simulated: true, status: expect.any(String) as string });
  if (connection === null) throw new Error('unreachable');
  return { id: link.id, token: accessTokenOf(t.services.cipher, connection), path: link.path };
}

async function listAll(token: string, path: string): Promise<Json[]> {
  const records: Json[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ access_token: token, limit: '500', ...(cursor === null ? {} : { cursor }) });
    const response: LightMyRequestResponse = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/${path}?${query.toString()}`,
      headers: clientHeaders(t.org),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body: Json & { next_cursor?: string | null } = response.json();
    const key = Object.keys(body).find((k) => Array.isArray(body[k]));
    records.push(...((key === undefined ? [] : body[key]) as Json[]));
    cursor = body.next_cursor ?? null;
  } while (cursor !== null);
  return records;
}

const cents = (value: unknown): number => Math.round(Number(value) * 100);
const byNumber = (records: Json[]): Map<string, Json> => new Map(records.map((r) => [String(r.document_number), r]));

describe.each(PLATFORMS)('$platform in the sandbox environment', ({ platform, consent, realConsent }) => {
  const username = `user_sim_${platform.toLowerCase()}_size_400`;
  let linked: { id: string; token: string; path: string };
  let sandbox: { token: string };

  beforeAll(async () => {
    linked = await linkSimulated(platform, consent, username);
    await expectSynced(t, linked.id, 'initial');
    // The same business (same SANDBOX user), connected as SANDBOX itself.
    const own = await sandboxConnection(t, username);
    await expectSynced(t, own.id, 'initial');
    sandbox = { token: accessTokenOf(t.services.cipher, own) };
  });

  it('syncs invoices and bills that tie out with the same business connected as SANDBOX', async () => {
    for (const path of ['invoices', 'bills']) {
      const simulated = byNumber(await listAll(linked.token, path));
      const original = byNumber(await listAll(sandbox.token, path));
      expect(simulated.size, path).toBeGreaterThan(0);
      for (const [number, record] of original) {
        if (record.status === 'DRAFT' || record.status === 'VOID') continue;
        const twin = simulated.get(number);
        expect(twin, `${path} ${number}`).toBeDefined();
        expect(cents(twin?.total_amount), `${path} ${number} total`).toBe(cents(record.total_amount));
        expect(cents(twin?.amount_due), `${path} ${number} amount due`).toBe(cents(record.amount_due));
      }
    }
  });

  it('writes a bill through to the simulated books', async () => {
    const first = async (path: string, filter?: string): Promise<Json> => {
      const query = new URLSearchParams({ access_token: linked.token, limit: '1', ...(filter === undefined ? {} : { filter }) });
      const response = await t.app.inject({ method: 'GET', url: `/versioned/accounting/${path}?${query.toString()}`, headers: clientHeaders(t.org) });
      const body: Json = response.json();
      return ((body[path] as Json[] | undefined) ?? [])[0] ?? {};
    };
    const vendor = await first('vendors');
    const expense = await first('accounts', 'account_type = "expense"');
    const number = `SIM-${platform}-1`;
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${linked.token}`,
      headers: { ...clientHeaders(t.org), 'idempotency-key': `sim-bill-${platform}` },
      payload: {
        bill: {
          vendor_id: vendor.id,
          document_number: number,
          issue_date: '2026-11-02T00:00:00.000Z',
          due_date: '2026-12-02T00:00:00.000Z',
          line_items: [{ account_id: expense.id, total_amount: 120.5, description: 'Office chairs' }],
        },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ bill: Json }>().bill).toMatchObject({ document_number: number, total_amount: 120.5 });
    // On the simulated platform: a SANDBOX bill of the platform's own account for this user.
    const stored = await t.db.pool.query<{ total: string }>(
      `SELECT r.data->>'Total' AS total FROM sandbox_platform.records r JOIN sandbox_platform.accounts_state a ON a.id = r.account_id
        WHERE a.account_key = $1 AND r.object_type = 'bill' AND r.data->>'DocNumber' = $2`,
      [`${platform.toLowerCase()}:${username}`, number],
    );
    expect(stored.rows.map((r) => Number(r.total))).toEqual([120.5]);
  });

  it('keeps platform_data in the platform’s own shapes', async () => {
    const query = new URLSearchParams({ access_token: linked.token, limit: '1', expand: 'platform_data' });
    const response = await t.app.inject({ method: 'GET', url: `/versioned/accounting/invoices?${query.toString()}`, headers: clientHeaders(t.org) });
    const [invoice] = response.json<{ invoices: Json[] }>().invoices;
    const raw = invoice?.platform_data as Json | undefined;
    expect(Object.keys(raw ?? {})).toContain(platform === 'XERO' ? 'InvoiceID' : 'TxnDate');
  });

  it('sends the consent to the real platform once the organisation registers its own app', async () => {
    const org = await t.newOrg(`Own ${platform} app`);
    await registerOAuthApp(
      t,
      platform,
      { clientId: 'own-app', clientSecret: 'own-secret', redirectUri: 'https://ledgerport.example/link/oauth/callback' },
      org,
    );
    const response = await t.app.inject({ method: 'POST', url: '/versioned/connections/create', headers: clientHeaders(org), payload: {} });
    const path = new URL(response.json<{ connection: { link_url: string } }>().connection.link_url).pathname;
    const start = await new LinkBrowser(t.app).get(`${path}/${platform}`);
    expect(start.statusCode).toBe(302);
    expect(String(start.headers.location).startsWith(realConsent)).toBe(true);
  });

  it("offers the platform's sign-in form with a redirect_url, through the simulator", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/versioned/connections/create',
      headers: clientHeaders(t.org),
      payload: { platform, redirect_url: 'https://app.example.test/done' },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('has no simulator in the production environment', async () => {
    const link = await createLink('production');
    const start = await new LinkBrowser(t.app).get(`${link.path}/${platform}`);
    expect(start.statusCode).toBe(503);
  });
  it('keeps a linked connection on the simulator when the organisation registers its own app; new links go to the platform', async () => {
    await registerOAuthApp(t, platform, {
      clientId: 'own-app',
      clientSecret: 'own-secret',
      redirectUri: 'https://ledgerport.example/link/oauth/callback',
    });
    const relink = await new LinkBrowser(t.app).get(`${linked.path}/${platform}`);
    expect(relink.statusCode, relink.body).toBe(302);
    expect(String(relink.headers.location).startsWith(`${consent}?`)).toBe(true);
    expect((await findConnectionForService(t.db.pool, linked.id))?.simulated).toBe(true);
    const fresh = await createLink();
    const start = await new LinkBrowser(t.app).get(`${fresh.path}/${platform}`);
    expect(String(start.headers.location).startsWith(realConsent)).toBe(true);
    // Starting a flow changes nothing on the connection: only a completed link says which side it is on.
    expect((await findConnectionForService(t.db.pool, fresh.id))?.simulated).toBe(false);
  });
});

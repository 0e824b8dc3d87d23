import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, json, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { signedInUser, type DashboardSession } from '../../../test/support/dashboard.ts';
import { syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';
import type { CreatedOrganization } from '../../tenants/organizations.ts';
import { escapeHtml } from '../../html/tag.ts';

let t: TestApp;
let synced: SyncedConnection;
let viewer: DashboardSession;
let other: CreatedOrganization;
let otherSynced: SyncedConnection;
type Bill = { id: string; status: string };
let allBills: Bill[];

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 } } });
  synced = await syncedSandboxConnection(t, 'user_explorer_size_600');
  viewer = await signedInUser(t.app, t.db.pool, t.org.organization.id, 'viewer');
  other = await t.newOrg('Other organisation');
  otherSynced = await syncedSandboxConnection(t, 'user_explorer_other', other);
  const answer = await t.app.inject({
    method: 'GET',
    url: `/versioned/accounting/bills?access_token=${synced.token}&limit=500`,
    headers: clientHeaders(t.org),
  });
  allBills = json(answer).bills as Bill[];
}, 120_000);
afterAll(async () => {
  await t.close();
});

const explore = (query: Record<string, string>, session: DashboardSession | null = viewer) =>
  t.app.inject({
    method: 'GET',
    url: `/dashboard/explorer?${new URLSearchParams(query).toString()}`,
    headers: session === null ? {} : { cookie: session.cookie },
  });

/** The ids of the results table's rows. */
function rowIds(body: string): string[] {
  const table = /<table data-testid="explorer-results">[\s\S]*?<\/table>/.exec(body)?.[0] ?? '';
  return [...table.matchAll(/<th scope="row"><a href="[^"]*" class="mono">([^<]+)<\/a>/g)].map((m) => m[1] ?? '');
}

describe('the data explorer', () => {
  it('sends a visitor without a session to sign in', async () => {
    const answer = await explore({});
    expect((await explore({}, null)).statusCode).toBe(303);
    expect(answer.statusCode).toBe(200);
  });

  it("offers the organisation's connections and every resource, without any access token in the page", async () => {
    const answer = await explore({});
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('data-testid="explorer-form"');
    expect(answer.body).toContain(`<option value="${synced.connection.id}"`);
    expect(answer.body).not.toContain(otherSynced.connection.id);
    expect(answer.body).toContain('<option value="bill" selected>/accounting/bills</option>');
    expect(answer.body).toContain('<option value="employee">/hris/employees</option>');
    expect(answer.body).not.toContain(synced.token);
    expect(answer.body).toContain('<a href="/dashboard/explorer" aria-current="page">Data explorer</a>');
  });

  it('lists the bills of the connection, a page at a time', async () => {
    // More than a page, so the cursor is used.
    expect(allBills.length).toBeGreaterThan(25);
    const answer = await explore({ connection: synced.connection.id, resource: 'bill' });
    expect(answer.statusCode).toBe(200);
    const ids = rowIds(answer.body);
    expect(ids.length).toBe(Math.min(25, allBills.length));
    expect(ids.every((id) => allBills.some((b) => b.id === id))).toBe(true);
    expect(answer.body).not.toContain(synced.token);
    const next = /href="([^"]+)" rel="next"/.exec(answer.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(next).toContain('cursor=');
    const second = await t.app.inject({ method: 'GET', url: next, headers: { cookie: viewer.cookie } });
    const more = rowIds(second.body);
    expect(more.length).toBeGreaterThan(0);
    expect(more.some((id) => ids.includes(id))).toBe(false);
    expect(second.body).toContain('>First page</a>');
  });

  it('narrows the bills with a filter in the API filter language, and sorts them', async () => {
    const open = allBills.filter((b) => b.status === 'open');
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(allBills.length);
    const answer = await explore({ connection: synced.connection.id, resource: 'bill', filter: 'status = "open"', sort: 'due_date ASC' });
    expect(answer.statusCode).toBe(200);
    const shown = rowIds(answer.body);
    expect(shown.length).toBe(Math.min(25, open.length));
    expect(shown.every((id) => open.some((b) => b.id === id))).toBe(true);
    expect(answer.body).toContain('value="status = &quot;open&quot;"');
  });

  it('shows the API own message of a malformed filter, in an alert', async () => {
    const filter = 'due_date >=';
    const api = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bills?access_token=${synced.token}&filter=${encodeURIComponent(filter)}`,
      headers: clientHeaders(t.org),
    });
    expect(api.statusCode).toBe(400);
    const message = String(json(api).error_message);
    const answer = await explore({ connection: synced.connection.id, resource: 'bill', filter });
    expect(answer.body).toContain('role="alert" data-testid="explorer-error"');
    expect(message).toContain('Expected a value');
    expect(answer.body).toContain(escapeHtml(message));
    expect(rowIds(answer.body)).toEqual([]);
  });

  it('shows one bill with its platform_data, pretty-printed', async () => {
    const bill = allBills[0];
    const answer = await explore({ connection: synced.connection.id, resource: 'bill', id: bill?.id ?? '' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('data-testid="explorer-platform-data"');
    const platformData = /<pre [^>]*data-testid="explorer-platform-data">([\s\S]*?)<\/pre>/.exec(answer.body)?.[1] ?? '';
    expect(platformData).toMatch(/^\{\n {2}&quot;/);
    expect(answer.body).toContain(`&quot;id&quot;: &quot;${bill?.id ?? ''}&quot;`);
  });

  it('shows nothing of another organisation connection: 404', async () => {
    const answer = await explore({ connection: otherSynced.connection.id, resource: 'bill' });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toContain(`No connection ${otherSynced.connection.id} in this organisation`);
    expect(rowIds(answer.body)).toEqual([]);
    expect(answer.body).not.toContain('explorer-platform-data');
    // Nor its bill by id through this organisation's own connection.
    const theirBill = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bills?access_token=${otherSynced.token}&limit=1`,
      headers: clientHeaders(other),
    });
    const theirId = (json(theirBill).bills as Bill[])[0]?.id ?? '';
    const crossed = await explore({ connection: synced.connection.id, resource: 'bill', id: theirId });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.body).toContain(`No bill with id ${theirId} in this connection.`);
    expect(crossed.body).not.toContain('explorer-platform-data');
  });

  it('refuses an unknown resource with 400', async () => {
    const answer = await explore({ connection: synced.connection.id, resource: 'unicorns' });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('Unknown resource');
  });

  it('shows the connection of the other environment as unknown', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/dashboard/explorer?connection=${synced.connection.id}&resource=bill`,
      headers: { cookie: `${viewer.cookie}; lp_env=production` },
    });
    expect(answer.statusCode).toBe(404);
  });
});

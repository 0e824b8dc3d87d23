/**
 * GET /accounting/reports through the real server: SANDBOX's report address opens a download of its company info and
 * stored statements (TREE and FLAT); QuickBooks Online's through its stand-in; a platform without statements refused;
 * auth, other organisations, malformed filters and tampered or expired addresses refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import { oauthConnection } from '../../../../test/support/oauth-connection.ts';
import type { SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { startReadApp, type ReadApp } from '../../../../test/support/read-app.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  r = await startReadApp('user_reports_size_400');
  ({ t, c } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

/** Follows a report_url as a browser would: no credentials, only the signed address. */
async function download(url: string) {
  const address = new URL(url);
  return t.app.inject({ method: 'GET', url: `${address.pathname}${address.search}` });
}

const accountRows = (rows: Json[]): Json[] =>
  rows.flatMap((row) => [...(row.account_id === '' ? [] : [{ ...row, items: [] }]), ...accountRows(row.items as Json[])]);

describe('GET /accounting/reports', () => {
  it("answers a signed address of the connection's company info and stored statements, valid for an hour", async () => {
    const body = await r.ok('/accounting/reports');
    expect(Object.keys(body).sort()).toEqual(['connection', 'report']);
    const report = body.report as Json;
    const company = (await r.ok('/accounting/company_info')).company_info as Json;
    expect(report.company_info).toEqual({
      ...company,
      base_currency_code: company.currency_code,
      createdAt: company.created_at,
      updatedAt: company.updated_at,
    });
    const expiresIn = Date.parse(String(report.expires_at)) - Date.now();
    expect(expiresIn).toBeGreaterThan(59 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);

    const file = await download(String(report.report_url));
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="financial-report-${c.connection.id}.json"`);
    const document = json(file);
    expect(document.structure).toBe('TREE');
    expect(document.company_info).toEqual(company);
    for (const [path, key] of [
      ['balance_sheets', 'balance_sheets'],
      ['income_statements', 'income_statements'],
      ['cash_flow_statements', 'cash_flows'],
    ] as const) {
      const stored = (await r.ok(`/accounting/${path}?limit=500&sort=end_date%20DESC`))[key] as Json[];
      expect(stored.length, key).toBeGreaterThan(0);
      expect(document[key], key).toEqual(stored);
    }
  });

  it("FLAT lists each statement's account rows only, without children, in the tree's order", async () => {
    const report = (await r.ok('/accounting/reports?filter=FLAT')).report as Json;
    const flat = json(await download(String(report.report_url)));
    const tree = json(await download(String(((await r.ok('/accounting/reports?filter=TREE')).report as Json).report_url)));
    expect(flat.structure).toBe('FLAT');
    const [first] = tree.balance_sheets as Json[];
    const [flatFirst] = flat.balance_sheets as Json[];
    const assets = first?.assets as Json;
    expect(flatFirst?.assets).toEqual({ ...assets, items: accountRows(assets.items as Json[]) });
    expect(((flatFirst?.assets as Json).items as Json[]).length).toBeGreaterThan(0);
    expect(flatFirst?.total_assets).toBe(first?.total_assets);
  });

  it('refuses a tampered, re-purposed or expired address', async () => {
    const url = new URL(String(((await r.ok('/accounting/reports')).report as Json).report_url));
    const flat = new URL(url);
    flat.pathname = flat.pathname.replace('.TREE', '.FLAT');
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const asFile = new URL(url);
    asFile.pathname = `/files/${c.connection.id}`;
    for (const changed of [flat, later]) {
      const refused = await download(changed.toString());
      expect(refused.statusCode, changed.toString()).toBe(401);
      expect(errorBody(refused).error_code).toBe('INVALID_CREDENTIALS');
    }
    expect((await download(asFile.toString())).statusCode).toBe(401);
    const expired = new URL(url);
    expired.searchParams.set('expires', '1');
    expect((await download(expired.toString())).statusCode).toBe(401);
  });

  it("serves QuickBooks Online's from its statements synced through the stand-in", async () => {
    const { token, connection } = await r.quickbooks();
    const report = (await r.ok('/accounting/reports', token)).report as Json;
    expect((report.company_info as Json).id).toBe(((await r.ok('/accounting/company_info', token)).company_info as Json).id);
    const document = json(await download(String(report.report_url)));
    expect((document.income_statements as Json[]).length).toBe(24);
    expect(String(report.report_url)).toContain(connection.id);
    expect(r.qbo.violations).toEqual([]);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on a platform without financial statements', async () => {
    const { connection, token } = await oauthConnection(t, {
      platform: 'STRIPE',
      app: { clientId: 'ca_reports', clientSecret: 'sk_reports', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' },
      tokens: { accessToken: 'sk_test_reports', refreshToken: null, expiresAt: null, tenantId: null },
      identity: { storeUniqueId: 'acct_reports', storeName: 'Stripe reports' },
    });
    await t.db.pool.query('UPDATE connections SET ready_at = now() WHERE id = $1', [connection.id]);
    const response = await r.get('/accounting/reports', token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it('refuses missing auth, another organisation and a malformed filter', async () => {
    expect((await r.get('/accounting/reports', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Reports other');
    expect(errorBody(await r.get('/accounting/reports', c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    const refused = await r.get('/accounting/reports?filter=tree', c.token);
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'filter' } });
  });
});

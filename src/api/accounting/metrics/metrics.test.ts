/**
 * GET /accounting/metrics/:metricName through the real server: SANDBOX's monthly income statements give each metric
 * month by month; QuickBooks Online's through its stand-in; a platform without statements refused; auth, other
 * organisations and unknown metric names refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, type TestApp } from '../../../../test/support/app.ts';
import { oauthConnection } from '../../../../test/support/oauth-connection.ts';
import type { SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import type { QuickBooksStandIn } from '../../../../test/standins/quickbooks/index.ts';
import { startReadApp, type ReadApp } from '../../../../test/support/read-app.ts';

type Json = Record<string, unknown>;

let r: ReadApp;
let t: TestApp;
let c: SyncedConnection;
let qbo: QuickBooksStandIn;
const get = (url: string, token: string, headers?: Record<string, string>) => r.get(url, token, headers);
const ok = (url: string, token?: string) => r.ok(url, token);

beforeAll(async () => {
  r = await startReadApp('user_metrics_size_400');
  ({ t, c, qbo } = r);
}, 120_000);
afterAll(async () => {
  await r.close();
});

async function statements(token = c.token): Promise<Json[]> {
  const list = (await ok('/accounting/income_statements?limit=500', token)).income_statements as Json[];
  return list.sort((a, b) => String(a.start_date).localeCompare(String(b.start_date)));
}

describe('GET /accounting/metrics/:metricName', () => {
  it('answers the metric under its own name, a value per month of the stored income statements', async () => {
    const months = await statements();
    expect(months.length).toBeGreaterThan(0);
    const body = await ok('/accounting/metrics/net_income');
    expect(Object.keys(body).sort()).toEqual(['checkpoint', 'connection', 'net_income']);
    expect(body.connection).toMatchObject({ id: c.connection.id, platform: 'SANDBOX' });
    const latest = Math.max(...months.map((m) => Date.parse(String(m.last_synced_at))));
    expect(body.checkpoint).toBe(new Date(latest).toISOString());
    expect(body.net_income).toEqual(
      months
        .filter((m) => typeof m.net_income === 'number')
        .map((m) => ({
          start_date: m.start_date,
          end_date: m.end_date,
          currency: m.currency_code,
          value: Number(m.net_income).toFixed(4),
        })),
    );
    const margins = (await ok('/accounting/metrics/gross_profit_margin')).gross_profit_margin as Json[];
    const withSales = months.filter((m) => typeof m.net_sales === 'number' && m.net_sales !== 0 && typeof m.gross_profit === 'number');
    expect(margins.map((v) => v.value)).toEqual(withSales.map((m) => (Number(m.gross_profit) / Number(m.net_sales)).toFixed(4)));
    const revenue = (await ok('/accounting/metrics/total_revenue')).total_revenue as Json[];
    expect(revenue.some((v) => Number(v.value) > 0)).toBe(true);
  });

  it("computes QuickBooks Online's from its ProfitAndLoss reports through the stand-in", async () => {
    const { token } = await r.quickbooks();
    const months = await statements(token);
    const body = await ok('/accounting/metrics/total_expenses', token);
    expect((body.total_expenses as Json[]).length).toBe(24);
    expect((body.total_expenses as Json[]).map((v) => [v.start_date, v.value, v.currency])).toEqual(
      months.filter((m) => typeof m.total_expenses === 'number').map((m) => [m.start_date, Number(m.total_expenses).toFixed(4), 'USD']),
    );
    expect(qbo.violations).toEqual([]);
  });

  it('answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM on a platform without income statements', async () => {
    const { connection, token } = await oauthConnection(t, {
      platform: 'STRIPE',
      app: { clientId: 'ca_metrics', clientSecret: 'sk_metrics', redirectUri: 'http://127.0.0.1:9/link/oauth/callback' },
      tokens: { accessToken: 'sk_test_metrics', refreshToken: null, expiresAt: null, tenantId: null },
      identity: { storeUniqueId: 'acct_metrics', storeName: 'Stripe metrics' },
    });
    await t.db.pool.query('UPDATE connections SET ready_at = now() WHERE id = $1', [connection.id]);
    const response = await get('/accounting/metrics/net_income', token);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it('refuses missing auth, another organisation and metric names it does not compute', async () => {
    expect((await get('/accounting/metrics/net_income', c.token, { 'x-service-version': '2024-08-31' })).statusCode).toBe(401);
    const other = await t.newOrg('Metrics other');
    expect(errorBody(await get('/accounting/metrics/net_income', c.token, clientHeaders(other))).error_code).toBe('INVALID_CREDENTIALS');
    for (const name of ['ebitda', 'not_a_metric', 'constructor']) {
      const response = await get(`/accounting/metrics/${name}`, c.token);
      expect(response.statusCode, name).toBe(400);
      expect(errorBody(response)).toMatchObject({ error_code: 'VALIDATION_ERROR', error_metadata: { field: 'metricName' } });
      expect(errorBody(response).error_message).toContain('net_income');
    }
    expect((await get('/accounting/metrics/net_income?force_fetch=maybe', c.token)).statusCode).toBe(400);
  });
});

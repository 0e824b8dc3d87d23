/** AP and AR aging summaries through the real server, against SANDBOX books and documents written for the test. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import { incrementalSync, storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { line, sender, startWriteTestApp, type Json, type Send } from '../../../../test/support/writes.ts';

let t: TestApp;
let c: SyncedConnection;
let send: Send;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_aging_size_400');
  send = sender(t, c.token);
}, 120_000);
afterAll(async () => {
  await t.close();
});

const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const cents = (value: number): number => Math.round(value * 100);

async function aging(side: 'ap' | 'ar', query = ''): Promise<Json> {
  const response = await send('GET', `/accounting/${side}_aging_report_summaries${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return json(response)[`${side}_aging_report_summary`] as Json;
}

async function openAmounts(type: 'bill' | 'invoice'): Promise<number> {
  const rows = await t.db.pool.query<{ data: Json }>(
    `SELECT data FROM records WHERE connection_id = $1 AND object_type = $2 AND deleted_at IS NULL`,
    [c.connection.id, type],
  );
  return rows.rows
    .map((r) => r.data)
    .filter((d) => d.status !== 'void' && d.status !== 'draft')
    .reduce((sum, d) => sum + cents(d.amount_due as number), 0);
}

describe('aging summaries', () => {
  it('as of now add up to what the open bills and invoices still owe, every row totalling its buckets', async () => {
    for (const [side, type, rowsKey] of [
      ['ap', 'bill', 'vendors'],
      ['ar', 'invoice', 'customers'],
    ] as const) {
      const summary = await aging(side);
      const rows = summary[rowsKey] as Json[];
      expect(rows.length, side).toBeGreaterThan(0);
      for (const row of rows) {
        const buckets = ['current', 'days30', 'days60', 'days90', 'days91plus'].map((b) => cents(row[b] as number));
        expect(
          buckets.reduce((a, b) => a + b, 0),
          JSON.stringify(row),
        ).toBe(cents(row.total as number));
      }
      expect(
        rows.reduce((sum, row) => sum + cents(row.total as number), 0),
        side,
      ).toBe(await openAmounts(type));
    }
  });

  it('puts a bill in the bucket of its days past due, and as of a date before a payment counts the amount paid since', async () => {
    const vendor = await send('POST', '/accounting/vendors', { vendor: { vendor_name: `Aging vendor ${Date.now()}` } });
    const vendorId = (json(vendor).vendor as Json).id;
    const expense = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
    const bank = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'bank' && a.status === 'active')).id;
    const bill = json(
      await send('POST', '/accounting/bills', {
        bill: { vendor_id: vendorId, issue_date: day(-60), due_date: day(-45), line_items: [line(expense, 300)] },
      }),
    ).bill as Json;
    const payment = await send('POST', '/accounting/bill_payments', {
      bill_payment: { vendor_id: vendorId, account_id: bank, transaction_date: day(0), linked_bills: [{ id: bill.id, allocated_amount: 100 }] },
    });
    expect(payment.statusCode, payment.body).toBe(200);
    await incrementalSync(t, c.connection.id);

    const rowOf = (summary: Json) => (summary.vendors as Json[]).find((row) => row.vendor_id === vendorId);
    expect(rowOf(await aging('ap'))).toMatchObject({ current: 0, days30: 0, days60: 200, days90: 0, days91plus: 0, total: 200 });
    // Yesterday the payment had not been made, and the bill was 44 days past due.
    const yesterday = await aging('ap', `?end_date=${day(-1)}`);
    expect(yesterday.end_date).toBe(`${day(-1)}T23:59:59.999Z`);
    expect(rowOf(yesterday)).toMatchObject({ days60: 300, total: 300 });
    // Before the bill was issued it owed nothing.
    expect(rowOf(await aging('ap', `?end_date=${day(-61)}`))).toBeUndefined();
  });

  it("refuses missing credentials, another organisation's access token and malformed dates", async () => {
    const url = `/versioned/accounting/ap_aging_report_summaries?access_token=${c.token}`;
    expect((await t.app.inject({ method: 'GET', url, headers: { 'x-service-version': '2024-08-31' } })).statusCode).toBe(401);
    const other = await t.newOrg('Aging stranger');
    const stranger = await t.app.inject({ method: 'GET', url, headers: clientHeaders(other) });
    expect(stranger.statusCode).toBe(401);
    expect(errorBody(stranger).error_code).toBe('INVALID_CREDENTIALS');
    for (const query of ['?end_date=2025-13-01', '?start_date=yesterday', `?start_date=${day(0)}&end_date=${day(-1)}`, '?expand=platform_data']) {
      const refused = await send('GET', `/accounting/ar_aging_report_summaries${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(errorBody(refused).error_code).toBe('VALIDATION_ERROR');
    }
  });
});

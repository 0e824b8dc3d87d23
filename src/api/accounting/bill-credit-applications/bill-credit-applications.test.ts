/** Applying a bill credit memo to bills and undoing it, through the real server, against SANDBOX. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import {
  eventsOf,
  incrementalSync,
  storedWhere,
  syncedSandboxConnection,
  type SyncedConnection,
} from '../../../../test/support/sandbox-connection.ts';
import { jobIdOf, line, sender, startWriteTestApp, today, type Json, type Send } from '../../../../test/support/writes.ts';

let t: TestApp;
let c: SyncedConnection;
let send: Send;
let vendor: string;
let otherVendor: string;
let expense: string;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_credits_size_500');
  send = sender(t, c.token);
  vendor = (await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active')).id;
  otherVendor = (await storedWhere(t, c.connection.id, 'vendor', (v) => v.status === 'active' && v.id !== vendor)).id;
  expense = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

async function create(path: string, key: string, object: Json): Promise<Json> {
  const response = await send('POST', path, { [key]: object });
  expect(response.statusCode, response.body).toBe(200);
  return json(response)[key] as Json;
}

async function stored(type: string, id: unknown): Promise<Json> {
  return storedWhere(t, c.connection.id, type, (d) => d.id === id);
}

const apply = (memo: unknown, bills: Json[]) =>
  send('POST', '/accounting/bill_credit_applications', { bill_credit_application: { bill_credit_memo_id: memo, linked_bills: bills } });
const unapply = (memo: unknown, bills: Json[]) =>
  send('POST', '/accounting/bill_credit_applications/unapply', { bill_credit_application: { bill_credit_memo_id: memo, linked_bills: bills } });

describe('bill credit applications', () => {
  it('apply credit to a bill, add more, and undo it; bills follow after the follow-up sync', async () => {
    const bill = await create('/accounting/bills', 'bill', { vendor_id: vendor, issue_date: today(), line_items: [line(expense, 250)] });
    const memo = await create('/accounting/bill_credit_memos', 'bill_credit_memo', {
      vendor_id: vendor,
      issue_date: today(),
      line_items: [line(expense, 80)],
    });

    const first = await apply(memo.id, [{ id: bill.id, allocated_amount: 50 }]);
    expect(first.statusCode, first.body).toBe(200);
    const afterFirst = json(first).bill_credit_memo as Json;
    expect(afterFirst.remaining_amount).toBe(30);
    expect(json(first).bill_credit_application).toEqual({ success: true });
    expect((afterFirst.linked_bills as Json[]).map((l) => [l.id, l.allocated_amount])).toEqual([[bill.id, 50]]);
    const job = jobIdOf(first);
    const updated = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'BILL_CREDIT_MEMO_UPDATED' && e.payload.job_id === job);
    expect(updated).toHaveLength(1);

    const second = await apply(memo.id, [{ id: bill.id, allocated_amount: 20 }]);
    expect(second.statusCode, second.body).toBe(200);
    expect((json(second).bill_credit_memo as Json).remaining_amount).toBe(10);
    expect(((json(second).bill_credit_memo as Json).linked_bills as Json[]).map((l) => l.allocated_amount)).toEqual([70]);

    await incrementalSync(t, c.connection.id);
    const paidDown = await stored('bill', bill.id);
    expect(paidDown.amount_due).toBe(180);
    expect((paidDown.linked_credit_memos as Json[]).map((l) => [l.id, l.allocated_amount])).toEqual([[memo.id, 70]]);

    const over = await apply(memo.id, [{ id: bill.id, allocated_amount: 20 }]);
    expect(over.statusCode).toBe(400);
    expect(errorBody(over).error_metadata?.field).toBe('bill_credit_application.linked_bills');

    const undone = await unapply(memo.id, [{ id: bill.id }]);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(json(undone).bill_credit_memo).toMatchObject({ remaining_amount: 80, linked_bills: [] });
    // The reference's answer, beside the credit memo.
    expect(json(undone).bill_credit_unapplication).toEqual({ success: true });
    await incrementalSync(t, c.connection.id);
    expect((await stored('bill', bill.id)).amount_due).toBe(250);

    const notApplied = await unapply(memo.id, [{ id: bill.id }]);
    expect(notApplied.statusCode).toBe(400);
    expect(errorBody(notApplied).error_metadata?.field).toBe('bill_credit_application.linked_bills[0].id');
  });

  it('refuse bills of another vendor, unknown ids and malformed bodies before calling the platform', async () => {
    const memo = await create('/accounting/bill_credit_memos', 'bill_credit_memo', {
      vendor_id: vendor,
      issue_date: today(),
      line_items: [line(expense, 10)],
    });
    const foreignBill = await create('/accounting/bills', 'bill', { vendor_id: otherVendor, issue_date: today(), line_items: [line(expense, 10)] });
    const cases: [Json, string][] = [
      [
        { bill_credit_application: { bill_credit_memo_id: memo.id, linked_bills: [{ id: foreignBill.id, allocated_amount: 5 }] } },
        'bill_credit_application.linked_bills[0].id',
      ],
      [
        { bill_credit_application: { bill_credit_memo_id: randomUUID(), linked_bills: [{ id: foreignBill.id, allocated_amount: 5 }] } },
        'bill_credit_application.bill_credit_memo_id',
      ],
      [
        { bill_credit_application: { bill_credit_memo_id: memo.id, linked_bills: [{ id: 'x', allocated_amount: 5 }] } },
        'bill_credit_application.linked_bills[0].id',
      ],
      [{ bill_credit_application: { bill_credit_memo_id: memo.id, linked_bills: [] } }, 'bill_credit_application.linked_bills'],
      [
        { bill_credit_application: { bill_credit_memo_id: memo.id, linked_bills: [{ id: foreignBill.id, allocated_amount: -1 }] } },
        'bill_credit_application.linked_bills[0].allocated_amount',
      ],
      [{ bill_credit_application: { bill_credit_memo_id: memo.id } }, 'bill_credit_application.linked_bills'],
    ];
    for (const [payload, field] of cases) {
      const response = await send('POST', '/accounting/bill_credit_applications', payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).error_metadata?.field).toBe(field);
    }
  });

  it("refuse missing auth, other tenants and another connection's memo", async () => {
    const body = { bill_credit_application: { bill_credit_memo_id: randomUUID(), linked_bills: [{ id: randomUUID(), allocated_amount: 1 }] } };
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bill_credit_applications?access_token=${c.token}`,
      headers: { 'x-service-version': '2024-08-31' },
      payload: body,
    });
    expect(noAuth.statusCode).toBe(401);
    const other = await t.newOrg('Credits other');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bill_credit_applications?access_token=${c.token}`,
      headers: clientHeaders(other),
      payload: body,
    });
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    const otherConnection = await syncedSandboxConnection(t, 'user_credits_other_size_300');
    const theirMemo = await storedWhere(t, otherConnection.connection.id, 'bill_credit_memo', () => true);
    const response = await unapply(theirMemo.id, [{ id: randomUUID() }]);
    expect(errorBody(response).error_metadata?.field).toBe('bill_credit_application.bill_credit_memo_id');
  });
});

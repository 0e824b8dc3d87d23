/**
 * Invoice payments, invoice credit memos and applying the memos to invoices, through the real server, against
 * SANDBOX: the reference's names taken and checked, invoices' amount_due following, and the refusals.
 */
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
let customer: string;
let otherCustomer: string;
let income: string;
let bank: string;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_invoice_credits_size_500');
  send = sender(t, c.token);
  customer = (await storedWhere(t, c.connection.id, 'customer', (v) => v.status === 'active')).id;
  otherCustomer = (await storedWhere(t, c.connection.id, 'customer', (v) => v.status === 'active' && v.id !== customer)).id;
  income = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'income' && a.status === 'active')).id;
  bank = (await storedWhere(t, c.connection.id, 'account', (a) => a.account_type === 'bank' && a.status === 'active')).id;
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
const newInvoice = (amount: number, to = customer) =>
  create('/accounting/invoices', 'invoice', { customer_id: to, issue_date: today(), line_items: [line(income, amount)] });
const newMemo = (amount: number) =>
  create('/accounting/invoice_credit_memos', 'invoice_credit_memo', {
    customer_id: customer,
    issue_date: today(),
    line_items: [line(income, amount)],
  });
const apply = (memo: unknown, invoices: Json[], extra: Json = {}) =>
  send('POST', '/accounting/invoice_credit_applications', {
    invoice_credit_application: { invoice_credit_memo_id: memo, linked_invoices: invoices, ...extra },
  });
const unapply = (memo: unknown, invoices: Json[]) =>
  send('POST', '/accounting/invoice_credit_applications/unapply', {
    invoice_credit_application: { invoice_credit_memo_id: memo, linked_invoices: invoices },
  });

describe('invoice credit applications', () => {
  it('apply credit to an invoice, add more, and undo it; invoices follow after the follow-up sync', async () => {
    const invoice = await newInvoice(250);
    const memo = await newMemo(80);
    // The reference's fields, checked against the memo.
    const first = await apply(memo.id, [{ id: invoice.id, allocated_amount: 50 }], {
      customer_id: customer,
      currency_code: memo.currency_code,
      transaction_date: today(),
    });
    expect(first.statusCode, first.body).toBe(200);
    const afterFirst = json(first).invoice_credit_memo as Json;
    expect(afterFirst.remaining_amount).toBe(30);
    expect(json(first).invoice_credit_application).toEqual({ success: true });
    expect((afterFirst.linked_invoices as Json[]).map((l) => [l.id, l.allocated_amount])).toEqual([[invoice.id, 50]]);
    const job = jobIdOf(first);
    const updated = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'INVOICE_CREDIT_MEMO_UPDATED' && e.payload.job_id === job);
    expect(updated).toHaveLength(1);

    const second = await apply(memo.id, [{ id: invoice.id, allocated_amount: 20 }]);
    expect(second.statusCode, second.body).toBe(200);
    expect((json(second).invoice_credit_memo as Json).remaining_amount).toBe(10);
    await incrementalSync(t, c.connection.id);
    expect((await stored('invoice', invoice.id)).amount_due).toBe(180);

    const over = await apply(memo.id, [{ id: invoice.id, allocated_amount: 20 }]);
    expect(over.statusCode).toBe(400);
    expect(errorBody(over).error_metadata?.field).toBe('invoice_credit_application.linked_invoices');

    const undone = await unapply(memo.id, [{ id: invoice.id }]);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(json(undone).invoice_credit_memo).toMatchObject({ remaining_amount: 80, linked_invoices: [] });
    expect(json(undone).invoice_credit_unapplication).toEqual({ success: true });
    await incrementalSync(t, c.connection.id);
    expect((await stored('invoice', invoice.id)).amount_due).toBe(250);
    const notApplied = await unapply(memo.id, [{ id: invoice.id }]);
    expect(errorBody(notApplied).error_metadata?.field).toBe('invoice_credit_application.linked_invoices[0].id');
  });

  it("refuse invoices of another customer, unknown ids, the reference's fields that disagree, and malformed bodies", async () => {
    const memo = await newMemo(10);
    const foreign = await newInvoice(10, otherCustomer);
    const mine = await newInvoice(10);
    const key = 'invoice_credit_application';
    const cases: [Json, string][] = [
      [{ invoice_credit_memo_id: memo.id, linked_invoices: [{ id: foreign.id, allocated_amount: 5 }] }, `${key}.linked_invoices[0].id`],
      [{ invoice_credit_memo_id: randomUUID(), linked_invoices: [{ id: mine.id, allocated_amount: 5 }] }, `${key}.invoice_credit_memo_id`],
      [{ invoice_credit_memo_id: memo.id, linked_invoices: [{ id: 'x', allocated_amount: 5 }] }, `${key}.linked_invoices[0].id`],
      [{ invoice_credit_memo_id: memo.id, linked_invoices: [] }, `${key}.linked_invoices`],
      [{ invoice_credit_memo_id: memo.id, linked_invoices: [{ id: mine.id, allocated_amount: -1 }] }, `${key}.linked_invoices[0].allocated_amount`],
      [{ invoice_credit_memo_id: memo.id, linked_invoices: [{ id: mine.id, allocated_amount: 11 }] }, `${key}.linked_invoices[0].allocated_amount`],
      [
        { invoice_credit_memo_id: memo.id, customer_id: otherCustomer, linked_invoices: [{ id: mine.id, allocated_amount: 5 }] },
        `${key}.customer_id`,
      ],
      [
        { invoice_credit_memo_id: memo.id, transaction_date: '2020-01-01', linked_invoices: [{ id: mine.id, allocated_amount: 5 }] },
        `${key}.transaction_date`,
      ],
      [{ invoice_credit_memo_id: memo.id }, `${key}.linked_invoices`],
    ];
    for (const [payload, field] of cases) {
      const response = await send('POST', '/accounting/invoice_credit_applications', { [key]: payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).error_metadata?.field).toBe(field);
    }
    expect((await stored('invoice', mine.id)).amount_due).toBe(10);
  });

  it("refuse missing auth, other tenants and another connection's memo", async () => {
    const application = { invoice_credit_memo_id: randomUUID(), linked_invoices: [{ id: randomUUID(), allocated_amount: 1 }] };
    const unapplication = { invoice_credit_memo_id: randomUUID(), linked_invoices: [{ id: randomUUID() }] };
    const bodies: [string, Json][] = [
      ['/accounting/invoice_credit_applications', { invoice_credit_application: application }],
      ['/accounting/invoice_credit_applications/unapply', { invoice_credit_application: unapplication }],
    ];
    for (const [path, body] of bodies) {
      const noAuth = await t.app.inject({
        method: 'POST',
        url: `/versioned${path}?access_token=${c.token}`,
        headers: { 'x-service-version': '2024-08-31' },
        payload: body,
      });
      expect(noAuth.statusCode).toBe(401);
      const other = await t.newOrg(`Invoice credits other ${path.length}`);
      const foreign = await t.app.inject({
        method: 'POST',
        url: `/versioned${path}?access_token=${c.token}`,
        headers: clientHeaders(other),
        payload: body,
      });
      expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    }
    const otherConnection = await syncedSandboxConnection(t, 'user_invoice_credits_other_size_300');
    const theirMemo = await storedWhere(t, otherConnection.connection.id, 'invoice_credit_memo', () => true);
    const response = await unapply(theirMemo.id, [{ id: randomUUID() }]);
    expect(errorBody(response).error_metadata?.field).toBe('invoice_credit_application.invoice_credit_memo_id');
  });
});

describe('invoice payments', () => {
  it("take the reference's names, refuse them when they disagree with ours, and move amount_due", async () => {
    const invoice = await newInvoice(400);
    const pay = (object: Json) =>
      send('POST', '/accounting/invoice_payments', { invoice_payment: { customer_id: customer, account_id: bank, ...object } });
    const refusals: [Json, string][] = [
      [{ linked_invoices: [{ id: invoice.id, amount: 10 }] }, 'invoice_payment.transaction_date'],
      [{ transaction_date: today(), txn_date: '2020-01-01', linked_invoices: [{ id: invoice.id, amount: 10 }] }, 'invoice_payment.txn_date'],
      [{ txn_date: today(), linked_invoices: [{ id: invoice.id }] }, 'invoice_payment.linked_invoices[0].allocated_amount'],
      [{ txn_date: today(), linked_invoices: [{ id: invoice.id, amount: 10, allocated_amount: 11 }] }, 'invoice_payment.linked_invoices[0].amount'],
      [{ txn_date: today(), total_amount: 11, linked_invoices: [{ id: invoice.id, amount: 10 }] }, 'invoice_payment.total_amount'],
      [
        { txn_date: today(), linked_invoices: [{ id: invoice.id, amount: 10, allocated_at: '2020-01-01' }] },
        'invoice_payment.linked_invoices[0].allocated_date',
      ],
      [{ txn_date: today(), payment_method_id: 'x', linked_invoices: [{ id: invoice.id, amount: 10 }] }, 'invoice_payment.payment_method_id'],
      [{ txn_date: today(), linked_invoices: [{ id: randomUUID(), amount: 10 }] }, 'invoice_payment.linked_invoices[0].id'],
    ];
    for (const [object, field] of refusals) {
      const response = await pay(object);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBody(response).error_metadata?.field).toBe(field);
    }
    const paid = await pay({ txn_date: today(), total_amount: 150.5, linked_invoices: [{ id: invoice.id, amount: 150.5, allocated_at: today() }] });
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = json(paid).invoice_payment as Json;
    expect(payment).toMatchObject({ total_amount: 150.5, account_id: bank, txn_date: payment.transaction_date });
    await incrementalSync(t, c.connection.id);
    expect((await stored('invoice', invoice.id)).amount_due).toBe(249.5);
    const removed = await send('DELETE', `/accounting/invoice_payments/${String(payment.id)}`);
    expect(removed.statusCode, removed.body).toBe(200);
    await incrementalSync(t, c.connection.id);
    expect((await stored('invoice', invoice.id)).amount_due).toBe(400);
  });
});

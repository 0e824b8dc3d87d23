/**
 * Every writable resource against SANDBOX through the real server and real
 * PostgreSQL: create, read back, update (with an array replaced whole),
 * delete; each step checked in the stored copy, on the platform, and in the
 * events (entity events carry the job id of X-Service-Job-Id, JOB_COMPLETED
 * names the same job).
 */
import { randomUUID } from 'node:crypto';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../model/index.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import { clientHeaders, errorBody, json, type TestApp } from '../../../test/support/app.ts';
import { jobIdOf, line, orderCreateBody, sender, startWriteTestApp, type Json } from '../../../test/support/writes.ts';
import { accessTokenOf } from '../../connections/connections.ts';
import applyBillCredit from '../accounting/bill-credit-applications/apply.ts';
import unapplyBillCredit from '../accounting/bill-credit-applications/unapply.ts';
import applyInvoiceCredit from '../accounting/invoice-credit-applications/apply.ts';
import unapplyInvoiceCredit from '../accounting/invoice-credit-applications/unapply.ts';
import bankFeedMappingLink from '../accounting/bank-feeds/mapping-link.ts';
import sendBankFeedTransactions from '../accounting/bank-feeds/transactions.ts';
import { objectWriteEndpoints } from './objects.ts';
import fulfillOrder from '../commerce/orders/fulfillments.ts';
import { nestedWriteEndpoints } from './nested.ts';
import {
  eventsOf,
  incrementalSync,
  sandboxConnection as linkedSandbox,
  storedWhere,
  syncedSandboxConnection,
  type SyncedConnection,
} from '../../../test/support/sandbox-connection.ts';
import { requestSync } from '../../sync/requests.ts';
import { runSync } from '../../sync/runner.ts';

let t: TestApp;
let c: SyncedConnection;
const f: Record<'expense' | 'income' | 'bank' | 'bank2' | 'vendor' | 'customer', string> = {
  expense: '',
  income: '',
  bank: '',
  bank2: '',
  vendor: '',
  customer: '',
};
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_writes_size_800');
  const id = c.connection.id;
  f.expense = (await storedWhere(t, id, 'account', (a) => a.account_type === 'expense' && a.status === 'active')).id;
  f.income = (await storedWhere(t, id, 'account', (a) => a.account_type === 'income' && a.status === 'active')).id;
  const bank = await storedWhere(t, id, 'account', (a) => a.account_type === 'bank' && a.status === 'active');
  f.bank = bank.id;
  f.bank2 = (
    await storedWhere(
      t,
      id,
      'account',
      (a) => a.account_type === 'bank' && a.status === 'active' && a.id !== bank.id && a.currency_code === bank.currency_code,
    )
  ).id;
  f.vendor = (await storedWhere(t, id, 'vendor', (v) => v.status === 'active')).id;
  f.customer = (await storedWhere(t, id, 'customer', (v) => v.status === 'active')).id;
}, 120_000);
afterAll(async () => {
  await t.close();
});

const send = (...args: Parameters<ReturnType<typeof sender>>): ReturnType<ReturnType<typeof sender>> => sender(t, c.token)(...args);

interface Lifecycle {
  type: UnifiedObjectType;
  /** Runs first (a bill to pay, …); its result goes to create. */
  prepare?: () => Promise<Json>;
  create: (prep: Json) => Json;
  /** Fields to change; `array` names the array field the update replaces. */
  update?: (created: Json, prep: Json) => { patch: Json; array?: string; expect: (updated: Json) => void };
  expectCreated: (created: Json, prep: Json) => void;
  remove?: boolean;
}

const uniq = (): string => randomUUID().slice(0, 8);

async function createdBill(): Promise<Json> {
  const response = await send('POST', '/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, line_items: [line(f.expense, 250)] } });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).bill as Json;
}

async function createdInvoice(): Promise<Json> {
  const response = await send('POST', '/accounting/invoices', {
    invoice: { customer_id: f.customer, issue_date: today, line_items: [line(f.income, 250)] },
  });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).invoice as Json;
}

const LIFECYCLES: Lifecycle[] = [
  {
    type: 'bill',
    create: () => ({ vendor_id: f.vendor, issue_date: today, memo: 'First', line_items: [line(f.expense, 100)] }),
    expectCreated: (b) => {
      expect(b).toMatchObject({ vendor_id: f.vendor, memo: 'First', total_amount: 100, amount_due: 100, status: 'open' });
      expect((b.line_items as Json[]).map((l) => l.account_id)).toEqual([f.expense]);
    },
    update: () => ({
      patch: { memo: 'Second', line_items: [line(f.expense, 40, 'A'), line(f.expense, 60.5, 'B')] },
      array: 'line_items',
      expect: (b) => {
        expect(b).toMatchObject({ memo: 'Second', total_amount: 100.5, vendor_id: f.vendor });
      },
    }),
    remove: true,
  },
  {
    type: 'invoice',
    create: () => ({ customer_id: f.customer, issue_date: today, line_items: [line(f.income, 300)] }),
    expectCreated: (i) => {
      expect(i).toMatchObject({ customer_id: f.customer, total_amount: 300, status: 'open' });
    },
    update: () => ({
      patch: { line_items: [line(f.income, 10), line(f.income, 20), line(f.income, 30)] },
      array: 'line_items',
      expect: (i) => {
        expect(i.total_amount).toBe(60);
      },
    }),
    remove: true,
  },
  {
    type: 'bill_credit_memo',
    create: () => ({ vendor_id: f.vendor, issue_date: today, line_items: [line(f.expense, 80)] }),
    expectCreated: (m) => {
      expect(m).toMatchObject({ vendor_id: f.vendor, total_amount: 80, remaining_amount: 80 });
    },
    update: () => ({
      patch: { memo: 'Corrected', line_items: [line(f.expense, 30), line(f.expense, 20)] },
      array: 'line_items',
      expect: (m) => {
        expect(m).toMatchObject({ memo: 'Corrected', total_amount: 50, remaining_amount: 50 });
      },
    }),
    remove: true,
  },
  {
    type: 'bill_payment',
    prepare: async () => ({ bill: await createdBill() }),
    create: (p) => ({
      vendor_id: f.vendor,
      account_id: f.bank,
      transaction_date: today,
      linked_bills: [{ id: (p.bill as Json).id, allocated_amount: 100 }],
    }),
    expectCreated: (pay, p) => {
      expect(pay).toMatchObject({ vendor_id: f.vendor, account_id: f.bank, total_amount: 100, status: 'active' });
      expect((pay.linked_bills as Json[]).map((l) => [l.id, l.allocated_amount])).toEqual([[(p.bill as Json).id, 100]]);
    },
    update: (_created, p) => ({
      patch: { linked_bills: [{ id: (p.bill as Json).id, allocated_amount: 150 }] },
      array: 'linked_bills',
      expect: (pay) => {
        expect(pay.total_amount).toBe(150);
      },
    }),
    remove: true,
  },
  {
    type: 'invoice_credit_memo',
    create: () => ({ customer_id: f.customer, issue_date: today, line_items: [line(f.income, 80)] }),
    expectCreated: (m) => {
      expect(m).toMatchObject({ customer_id: f.customer, total_amount: 80, remaining_amount: 80 });
    },
    update: () => ({
      patch: { memo: 'Corrected', line_items: [line(f.income, 30), line(f.income, 20)] },
      array: 'line_items',
      expect: (m) => {
        expect(m).toMatchObject({ memo: 'Corrected', total_amount: 50, remaining_amount: 50 });
      },
    }),
    remove: true,
  },
  {
    type: 'invoice_payment',
    prepare: async () => ({ invoice: await createdInvoice() }),
    // The reference's names: txn_date, and amount on each invoice.
    create: (p) => ({
      customer_id: f.customer,
      account_id: f.bank,
      txn_date: today,
      total_amount: 100,
      linked_invoices: [{ id: (p.invoice as Json).id, amount: 100 }],
    }),
    expectCreated: (pay, p) => {
      expect(pay).toMatchObject({ customer_id: f.customer, account_id: f.bank, total_amount: 100, status: 'active' });
      expect((pay.linked_invoices as Json[]).map((l) => [l.id, l.allocated_amount, l.amount])).toEqual([[(p.invoice as Json).id, 100, 100]]);
    },
    update: (_created, p) => ({
      patch: { linked_invoices: [{ id: (p.invoice as Json).id, allocated_amount: 150 }] },
      array: 'linked_invoices',
      expect: (pay) => {
        expect(pay.total_amount).toBe(150);
      },
    }),
    remove: true,
  },
  {
    type: 'bank_deposit',
    create: () => ({ account_id: f.bank, transaction_date: today, memo: 'Cash sales', line_items: [line(f.income, 120)] }),
    expectCreated: (d) => {
      expect(d).toMatchObject({ account_id: f.bank, total_amount: 120, memo: 'Cash sales' });
    },
    update: () => ({
      patch: { line_items: [line(f.income, 70), line(f.income, 5)] },
      array: 'line_items',
      expect: (d) => {
        expect(d.total_amount).toBe(75);
      },
    }),
    remove: true,
  },
  {
    type: 'bank_transfer',
    create: () => ({ credit_account_id: f.bank, debit_account_id: f.bank2, transaction_date: today, total_amount: 55, memo: 'Move' }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ credit_account_id: f.bank, debit_account_id: f.bank2, total_amount: 55 });
    },
    update: () => ({
      patch: { total_amount: 65.25 },
      expect: (x) => {
        expect(x.total_amount).toBe(65.25);
      },
    }),
    remove: true,
  },
  {
    type: 'journal_entry',
    create: () => ({ transaction_date: today, memo: 'Accrual', line_items: [line(f.expense, 90), line(f.bank, -90)] }),
    expectCreated: (j) => {
      expect(j).toMatchObject({ memo: 'Accrual' });
      expect((j.line_items as Json[]).map((l) => l.total_amount)).toEqual([90, -90]);
    },
    update: () => ({
      patch: { line_items: [line(f.expense, 50), line(f.expense, 25), line(f.bank, -75)] },
      array: 'line_items',
      expect: (j) => {
        expect((j.line_items as Json[]).map((l) => l.total_amount)).toEqual([50, 25, -75]);
      },
    }),
    remove: true,
  },
  {
    type: 'customer',
    create: () => ({
      customer_name: `Customer ${uniq()}`,
      email: 'ap@example.com',
      addresses: [{ type: 'billing', address1: '1 Main St', city: 'Springfield', country: 'US', postal_code: '11111', region: 'IL' }],
    }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ email: 'ap@example.com', status: 'active' });
      expect(x.addresses).toHaveLength(1);
    },
    update: () => ({
      patch: {
        phone: '+1 555 0100',
        addresses: [
          { type: 'billing', address1: '2 Oak Ave', city: 'Shelbyville' },
          { type: 'shipping', address1: '3 Elm Rd', city: 'Ogdenville' },
        ],
      },
      array: 'addresses',
      expect: (x) => {
        expect(x.phone).toBe('+1 555 0100');
        expect((x.addresses as Json[]).map((a) => a.city)).toEqual(['Shelbyville', 'Ogdenville']);
      },
    }),
  },
  {
    type: 'vendor',
    create: () => ({ vendor_name: `Vendor ${uniq()}`, email: 'billing@example.com' }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ email: 'billing@example.com', status: 'active' });
    },
    update: () => ({
      patch: { status: 'archived', addresses: [{ type: 'remittance', address1: '9 Pay Ln', city: 'Capital City' }] },
      array: 'addresses',
      expect: (x) => {
        expect(x.status).toBe('archived');
        expect((x.addresses as Json[]).map((a) => a.city)).toEqual(['Capital City']);
      },
    }),
    // SANDBOX deletes a vendor nothing uses (one in use is refused: archive it instead).
    remove: true,
  },
  {
    type: 'class',
    create: () => ({ name: `Class ${uniq()}` }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ status: 'active', parent_id: null });
    },
  },
  {
    type: 'department',
    create: () => ({ name: `Department ${uniq()}`, status: 'archived' }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ status: 'archived', parent_id: null });
    },
  },
  {
    type: 'payment_term',
    create: () => ({ name: `Net 45 ${uniq()}`, due_days: 45, discount_days: 10, discount_percentage: 2 }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ due_days: 45, discount_days: 10, discount_percentage: 2, discount_percent: 2, status: 'active' });
      expect(x.term_name).toBe(x.name);
    },
    remove: true,
  },
  {
    type: 'account',
    create: () => ({ name: `Travel ${uniq()}`, account_type: 'expense', nominal_code: `T${uniq()}` }),
    expectCreated: (a) => {
      expect(a).toMatchObject({ account_type: 'expense', category: 'expense', status: 'active' });
    },
    update: () => ({
      patch: { status: 'inactive' },
      expect: (a) => {
        expect(a.status).toBe('inactive');
      },
    }),
  },
  {
    type: 'tax_rate',
    create: () => ({ name: `Levy ${uniq()}`, components: [{ name: 'Levy', rate: 7.5, is_compound: false }] }),
    expectCreated: (r) => {
      expect(r.total_tax_rate).toBe(7.5);
      expect((r.components as Json[]).map((x) => x.rate)).toEqual([7.5]);
    },
  },
  {
    type: 'item',
    create: () => ({
      name: `Consulting ${uniq()}`,
      code: `SKU-${uniq()}`,
      type: 'service',
      invoice_item: { unit_price: 120, account_id: f.income, description: 'Consulting hour' },
      bill_item: { unit_price: 80.5, account_id: f.expense },
    }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ type: 'service', status: 'active' });
      expect(x.invoice_item).toMatchObject({ unit_price: 120, account_id: f.income, description: 'Consulting hour' });
      expect(x.bill_item).toMatchObject({ unit_price: 80.5, account_id: f.expense });
    },
    update: () => ({
      patch: { status: 'archived', invoice_item: { unit_price: 135.25 } },
      expect: (x) => {
        expect(x.status).toBe('archived');
        // A side sent sparse keeps what it leaves out.
        expect(x.invoice_item).toMatchObject({ unit_price: 135.25, account_id: f.income });
      },
    }),
    remove: true,
  },
  {
    type: 'purchase_order',
    create: () => ({ vendor_id: f.vendor, issue_date: today, memo: 'Paper', line_items: [line(f.expense, 240)] }),
    expectCreated: (po) => {
      expect(po).toMatchObject({ vendor_id: f.vendor, memo: 'Paper', total_amount: 240, status: 'open', linked_bills: [] });
    },
    update: () => ({
      patch: { status: 'closed', line_items: [line(f.expense, 100), line(f.expense, 45.5)] },
      array: 'line_items',
      expect: (po) => {
        expect(po).toMatchObject({ status: 'closed', total_amount: 145.5, vendor_id: f.vendor });
      },
    }),
    remove: true,
  },
  {
    type: 'bank_feed_account',
    create: () => ({
      name: `Feed ${uniq()}`,
      bank_account_type: 'checking',
      currency_code: 'USD',
      bank_account_number: '000123',
      current_balance: 10,
    }),
    expectCreated: (x) => {
      expect(x).toMatchObject({ bank_account_type: 'checking', current_balance: 10 });
    },
    update: () => ({
      patch: { name: 'Renamed feed', payment_network_ids: ['ach', 'wire'] },
      array: 'payment_network_ids',
      expect: (x) => {
        expect(x).toMatchObject({ name: 'Renamed feed', payment_network_ids: ['ach', 'wire'] });
      },
    }),
    remove: true,
  },
  {
    type: 'expense',
    create: () => ({ account_id: f.bank, vendor_id: f.vendor, transaction_date: today, memo: 'Stamps', line_items: [line(f.expense, 42.5)] }),
    expectCreated: (x) => {
      expect(x).toMatchObject({
        account_id: f.bank,
        vendor_id: f.vendor,
        memo: 'Stamps',
        total_amount: 42.5,
        expense_type: 'expense',
        payment_type: 'cash',
      });
    },
    update: () => ({
      patch: { payment_type: 'check', document_number: 'CHK 88', line_items: [line(f.expense, 10), line(f.expense, 5.25)] },
      array: 'line_items',
      expect: (x) => {
        expect(x).toMatchObject({ payment_type: 'check', document_number: 'CHK 88', total_amount: 15.25, memo: 'Stamps' });
      },
    }),
    remove: true,
  },
  {
    type: 'sales_receipt',
    create: () => ({ customer_id: f.customer, account_id: f.bank, issue_date: today, reference: 'CARD-1', line_items: [line(f.income, 75)] }),
    expectCreated: (r) => {
      expect(r).toMatchObject({ customer_id: f.customer, account_id: f.bank, reference: 'CARD-1', total_amount: 75, amount_due: 0 });
    },
  },
  {
    type: 'customer_refund',
    create: () => ({
      customer_id: f.customer,
      account_id: f.bank,
      transaction_date: today,
      document_number: `RF-${uniq()}`,
      line_items: [line(f.income, 40)],
    }),
    expectCreated: (r) => {
      expect(r).toMatchObject({
        customer_id: f.customer,
        account_id: f.bank,
        total_amount: 40,
        line_items: [{ account_id: f.income, total_amount: 40 }],
      });
    },
    remove: true,
  },
  {
    type: 'sales_order',
    create: () => ({
      customer_id: f.customer,
      issue_date: today,
      reference_number: 'PO-7',
      line_items: [{ description: 'Consulting', total_amount: 120 }],
    }),
    expectCreated: (o) => {
      expect(o).toMatchObject({ customer_id: f.customer, reference_number: 'PO-7', status: 'open', total_amount: 120 });
    },
    update: () => ({
      patch: {
        status: 'pending_approval',
        line_items: [
          { description: 'Half day', total_amount: 60 },
          { description: 'Travel', total_amount: 15 },
        ],
      },
      array: 'line_items',
      expect: (o) => {
        expect(o).toMatchObject({ status: 'pending_approval', total_amount: 75, reference_number: 'PO-7' });
      },
    }),
  },
];

describe.each(LIFECYCLES)('$type', (life) => {
  const names = OBJECT_TYPES[life.type];
  const schema = MODEL[life.type].schema;

  it('is created, read back, updated (arrays replaced whole) and deleted, with stored copy and events in step', async () => {
    const prep = life.prepare === undefined ? {} : await life.prepare();
    const created = await send('POST', names.path, { [names.singular]: life.create(prep) });
    expect(created.statusCode, created.body).toBe(200);
    const createJob = jobIdOf(created);
    const object = json(created)[names.singular] as Json;
    expect(Value.Check(schema, object), JSON.stringify([...Value.Errors(schema, object)].slice(0, 2))).toBe(true);
    life.expectCreated(object, prep);

    // Read back from the stored copy: the same object.
    const fetched = await send('GET', `${names.path}/${String(object.id)}`);
    expect(fetched.statusCode).toBe(200);
    expect(json(fetched)[names.singular]).toEqual(object);

    const events = await eventsOf(t, c.connection.id);
    const createdEvents = events.filter((e) => e.code === `${names.entity}_CREATED` && (e.payload[names.singular] as Json).id === object.id);
    expect(createdEvents).toHaveLength(1);
    expect(createdEvents[0]?.payload.job_id).toBe(createJob);
    const completed = events.filter((e) => e.code === 'JOB_COMPLETED' && (e.payload.job as Json).id === createJob);
    expect(completed).toHaveLength(1);
    expect((completed[0]?.payload.job as Json).status).toBe('success');

    if (life.update !== undefined) {
      const { patch, array, expect: check } = life.update(object, prep);
      const updated = await send('PATCH', `${names.path}/${String(object.id)}`, { [names.singular]: patch });
      expect(updated.statusCode, updated.body).toBe(200);
      const updateJob = jobIdOf(updated);
      const after = json(updated)[names.singular] as Json;
      check(after);
      expect(after.id).toBe(object.id);
      if (array !== undefined) expect((after[array] as unknown[]).length).toBe((patch[array] as unknown[]).length);
      expect(json(await send('GET', `${names.path}/${String(object.id)}`))[names.singular]).toEqual(after);
      const updatedEvents = (await eventsOf(t, c.connection.id)).filter(
        (e) => e.code === `${names.entity}_UPDATED` && e.payload.job_id === updateJob,
      );
      expect(updatedEvents.map((e) => (e.payload[names.singular] as Json).id)).toEqual([object.id]);
    }

    if (life.remove === true) {
      const deleted = await send('DELETE', `${names.path}/${String(object.id)}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(json(deleted)).toEqual({ code: 'deleted', success: true });
      const deleteJob = jobIdOf(deleted);
      expect((await send('GET', `${names.path}/${String(object.id)}`)).statusCode).toBe(410);
      const deletedEvents = (await eventsOf(t, c.connection.id)).filter(
        (e) => e.code === `${names.entity}_DELETED` && e.payload.job_id === deleteJob,
      );
      expect(deletedEvents.map((e) => (e.payload[names.singular] as Json).id)).toEqual([object.id]);
    }

    // The follow-up sync re-reads what was written: no second CREATED, and the stored copy stays as written.
    await incrementalSync(t, c.connection.id);
    const again = (await eventsOf(t, c.connection.id)).filter(
      (e) => e.code === `${names.entity}_CREATED` && (e.payload[names.singular] as Json).id === object.id,
    );
    expect(again).toHaveLength(1);
  });
});

describe('write answers', () => {
  it('answers 202 with async_response in async mode; the job completes and GET /jobs/:id shows the result', async () => {
    const response = await send('POST', '/accounting/bills', {
      response_mode: 'async',
      bill: { vendor_id: f.vendor, issue_date: today, line_items: [line(f.expense, 12)] },
    });
    expect(response.statusCode, response.body).toBe(202);
    const body = json(response).async_response as Json;
    expect(body.id).toBe(jobIdOf(response));
    expect(body.response_url).toBe(`${t.services.config.publicUrl}/versioned/jobs/${String(body.id)}`);
    let job: Json = {};
    for (let i = 0; i < 100; i++) {
      // The reference's job object, at the top level (docs/reference.md, "Jobs").
      job = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${String(body.id)}`, headers: clientHeaders(t.org) }));
      if (job.status === 'success' || job.status === 'failure') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body.status).toBe('pending');
    expect(job.id).toBe(body.id);
    expect(job.status).toBe('success');
    expect(job.request).toMatchObject({ method: 'POST', url: `${t.services.config.publicUrl}/versioned/accounting/bills` });
    expect(JSON.stringify(job.request)).not.toContain('access_token');
    const result = job.response as { http_status: number; body: { bill: Json } };
    expect(result.http_status).toBe(200);
    expect(result.body.bill.total_amount).toBe(12);
  });

  it('keeps a write to one job and one record when the same Idempotency-Key is sent again', async () => {
    const key = randomUUID();
    const payload = { bill: { vendor_id: f.vendor, issue_date: today, memo: `idem ${key}`, line_items: [line(f.expense, 33)] } };
    const [first, second] = await Promise.all([
      send('POST', '/accounting/bills', payload, { 'idempotency-key': key }),
      send('POST', '/accounting/bills', payload, { 'idempotency-key': key }),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(jobIdOf(first)).toBe(jobIdOf(second));
    expect((json(second).bill as Json).id).toBe((json(first).bill as Json).id);
    const jobs = await t.db.pool.query('SELECT id FROM write_jobs WHERE idempotency_key = $1', [key]);
    expect(jobs.rowCount).toBe(1);
    const stored = await t.db.pool.query(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND data->>'memo' = $2`, [
      c.connection.id,
      `idem ${key}`,
    ]);
    expect(stored.rowCount).toBe(1);
  });

  it('joins the first job when a retry comes after our process died between the platform call and the answer', async () => {
    const key = randomUUID();
    const payload = {
      response_mode: 'async',
      bill: { vendor_id: f.vendor, issue_date: today, memo: `crash ${key}`, line_items: [line(f.expense, 44)] },
    };
    const first = await send('POST', '/accounting/bills', payload, { 'idempotency-key': key });
    expect(first.statusCode).toBe(202);
    // The process that answered died before storing its answer: its claim on the key is gone.
    await t.db.pool.query('DELETE FROM idempotency_keys WHERE key = $1', [key]);
    const retry = await send('POST', '/accounting/bills', { ...payload, response_mode: 'prefer_sync' }, { 'idempotency-key': key });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(jobIdOf(retry)).toBe(jobIdOf(first));
    const jobs = await t.db.pool.query('SELECT id FROM write_jobs WHERE idempotency_key = $1', [key]);
    expect(jobs.rowCount).toBe(1);
    const stored = await t.db.pool.query(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'bill' AND data->>'memo' = $2`, [
      c.connection.id,
      `crash ${key}`,
    ]);
    expect(stored.rowCount).toBe(1);
    // The same key on a different write is refused, not joined.
    const other = await send('POST', '/accounting/vendors', { vendor: { vendor_name: `Other ${key}` } }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
    expect(errorBody(other).error_code).toBe('IDEMPOTENCY_KEY_MISMATCH');
  });

  it('shapes the written object like reads of the requested version', async () => {
    const older = await send(
      'POST',
      '/accounting/journal_entries',
      { journal_entry: { transaction_date: today, line_items: [line(f.expense, 5), line(f.bank, -5)] } },
      { 'x-service-version': '2023-02-07' },
    );
    expect(older.statusCode, older.body).toBe(200);
    const entry = json(older).journal_entry as Json;
    expect('platform_url' in entry).toBe(false);
    expect(typeof entry.currency_rate).toBe('string');
    const newest = json(await send('GET', `/accounting/journal_entries/${String(entry.id)}`)).journal_entry as Json;
    expect('platform_url' in newest).toBe(true);
    expect(typeof newest.currency_rate).toBe('number');
  });

  it('answers PRODUCT_NOT_READY before the initial sync has finished', async () => {
    const fresh = await linkedSandbox(t, 'user_writes_fresh_size_100');
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/vendors?access_token=${accessTokenOf(t.services.cipher, fresh)}`,
      headers: clientHeaders(t.org),
      payload: { vendor: { vendor_name: 'Too early' } },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).error_code).toBe('PRODUCT_NOT_READY');
  });

  it('refuses bodies that would be wrong before calling the platform, naming the field', async () => {
    const cases: [string, Json, string][] = [
      [
        '/accounting/journal_entries',
        { journal_entry: { transaction_date: today, line_items: [line(f.expense, 100), line(f.bank, -90)] } },
        'journal_entry.line_items',
      ],
      ['/accounting/journal_entries', { journal_entry: { transaction_date: today, line_items: [line(f.expense, 100)] } }, 'journal_entry.line_items'],
      ['/accounting/bills', { bill: { issue_date: today, line_items: [line(f.expense, 1)] } }, 'bill.vendor_id'],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, line_items: [] } }, 'bill.line_items'],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, line_items: [{ total_amount: 5 }] } }, 'bill.line_items[0].account_id'],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: '2026-02-30', line_items: [line(f.expense, 1)] } }, 'bill.issue_date'],
      [
        '/accounting/bills',
        { bill: { vendor_id: f.vendor, issue_date: today, currency_code: 'XYZ', line_items: [line(f.expense, 1)] } },
        'bill.currency_code',
      ],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, amount_due: 5, line_items: [line(f.expense, 1)] } }, 'bill.amount_due'],
      ['/accounting/bills', { bill: { vendor_id: randomUUID(), issue_date: today, line_items: [line(f.expense, 1)] } }, 'bill.vendor_id'],
      ['/accounting/bills', { bill: { vendor_id: '', issue_date: today, line_items: [line(f.expense, 1)] } }, 'bill.vendor_id'],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, line_items: [line('', 1)] } }, 'bill.line_items[0].account_id'],
      ['/accounting/bills', { bill: { vendor_id: f.customer, issue_date: today, line_items: [line(f.expense, 1)] } }, 'bill.vendor_id'],
      ['/accounting/bills', { bill: { vendor_id: f.vendor, issue_date: today, line_items: [line('nope', 1)] } }, 'bill.line_items[0].account_id'],
      [
        '/accounting/bills',
        { response_mode: 'later', bill: { vendor_id: f.vendor, issue_date: today, line_items: [line(f.expense, 1)] } },
        'response_mode',
      ],
      ['/accounting/bills', { vendor_id: f.vendor }, 'bill'],
      [
        '/accounting/bank_transfers',
        { bank_transfer: { credit_account_id: f.bank, debit_account_id: f.bank, transaction_date: today, total_amount: 5 } },
        'bank_transfer.debit_account_id',
      ],
      ['/accounting/bank_deposits', { bank_deposit: { account_id: f.bank, transaction_date: today } }, 'bank_deposit.line_items'],
      ['/accounting/customers', { customer: { email: 'x@example.com' } }, 'customer.customer_name'],
    ];
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs');
    for (const [path, payload, field] of cases) {
      const response = await send('POST', path, payload);
      expect(response.statusCode, `${path} ${JSON.stringify(payload)}: ${response.body}`).toBe(400);
      const error = errorBody(response);
      expect(error.error_code).toBe('VALIDATION_ERROR');
      expect(error.error_metadata?.field, error.error_message).toBe(field);
      expect(error.error_message).toContain(field);
    }
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs');
    expect(after.rows).toEqual(before.rows);
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${c.token}`,
      headers: { ...clientHeaders(t.org), 'content-type': 'application/json' },
      payload: '{"bill": ',
    });
    expect(errorBody(malformed).error_code).toBe('MALFORMED_JSON');
    const emptyPatch = await send('PATCH', `/accounting/bills/${randomUUID()}`, { bill: {} });
    expect(emptyPatch.statusCode).toBe(400);
  });

  it('refuses missing auth, another tenant and ids of other connections', async () => {
    const body = { bill: { vendor_id: f.vendor, issue_date: today, line_items: [line(f.expense, 1)] } };
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${c.token}`,
      headers: { 'x-service-version': '2024-08-31' },
      payload: body,
    });
    expect(noAuth.statusCode).toBe(401);
    const noToken = await t.app.inject({ method: 'POST', url: '/versioned/accounting/bills', headers: clientHeaders(t.org), payload: body });
    expect(errorBody(noToken).error_code).toBe('MISSING_ACCESS_TOKEN');
    const otherOrg = await t.newOrg('Writes other');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bills?access_token=${c.token}`,
      headers: clientHeaders(otherOrg),
      payload: body,
    });
    expect(foreign.statusCode).toBe(401);
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');

    const other = await syncedSandboxConnection(t, 'user_writes_other_size_300');
    const theirBill = await storedWhere(t, other.connection.id, 'bill', () => true);
    const theirAccount = await storedWhere(t, other.connection.id, 'account', (a) => a.account_type === 'expense');
    const patch = await send('PATCH', `/accounting/bills/${theirBill.id}`, { bill: { memo: 'not yours' } });
    expect(patch.statusCode).toBe(410);
    expect(errorBody(patch).error_code).toBe('RESOURCE_NOT_FOUND');
    const remove = await send('DELETE', `/accounting/bills/${theirBill.id}`);
    expect(remove.statusCode).toBe(410);
    const crossLink = await send('POST', '/accounting/bills', {
      bill: { vendor_id: f.vendor, issue_date: today, line_items: [line(theirAccount.id, 1)] },
    });
    expect(errorBody(crossLink).error_metadata?.field).toBe('bill.line_items[0].account_id');

    const job = jobIdOf(await send('POST', '/accounting/bills', body));
    const theirView = await t.app.inject({ method: 'GET', url: `/versioned/jobs/${job}`, headers: clientHeaders(otherOrg) });
    expect(theirView.statusCode).toBe(410);
    const unauthenticated = await t.app.inject({ method: 'GET', url: `/versioned/jobs/${job}`, headers: { 'x-service-version': '2024-08-31' } });
    expect(unauthenticated.statusCode).toBe(401);
    const malformedId = await t.app.inject({ method: 'GET', url: '/versioned/jobs/not-a-uuid', headers: clientHeaders(t.org) });
    expect(malformedId.statusCode).toBe(410);
  });

  it('every write route refuses missing auth, another tenant and malformed bodies', async () => {
    const routes = [
      ...objectWriteEndpoints,
      ...nestedWriteEndpoints,
      applyBillCredit,
      unapplyBillCredit,
      applyInvoiceCredit,
      unapplyInvoiceCredit,
      sendBankFeedTransactions,
      bankFeedMappingLink,
      fulfillOrder,
    ].map((e) => e.contract);
    expect(routes.length).toBeGreaterThan(30);
    const otherOrg = await t.newOrg('Sweep other');
    for (const route of routes) {
      const url = `/versioned${route.url.replace(':id', f.vendor)}?access_token=${c.token}`;
      const payload = route.method === 'DELETE' ? {} : { unexpected: true };
      const noAuth = await t.app.inject({ method: route.method, url, headers: { 'x-service-version': '2024-08-31' }, payload });
      expect(noAuth.statusCode, `${route.method} ${route.url}`).toBe(401);
      const foreign = await t.app.inject({
        method: route.method,
        url,
        headers: clientHeaders(otherOrg),
        payload: route.method === 'DELETE' ? {} : validBodyFor(route.url),
      });
      expect(errorBody(foreign).error_code, `${route.method} ${route.url}: ${foreign.body}`).toBe('INVALID_CREDENTIALS');
      if (route.method === 'DELETE') continue;
      const malformed = await t.app.inject({
        method: route.method,
        url,
        headers: { ...clientHeaders(t.org), 'content-type': 'application/json' },
        payload: '{"oops"',
      });
      expect(errorBody(malformed).error_code, `${route.method} ${route.url}`).toBe('MALFORMED_JSON');
      const wrongShape = await t.app.inject({ method: route.method, url, headers: clientHeaders(t.org), payload });
      expect(errorBody(wrongShape).error_code, `${route.method} ${route.url}`).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses a payment term or vendor in use (450, nothing deleted) and a term without whole due days (400)', async () => {
    const term = await send('POST', '/accounting/payment_terms', { payment_term: { name: `Net 7 ${uniq()}`, due_days: 7 } });
    expect(term.statusCode, term.body).toBe(200);
    const termId = String((json(term).payment_term as Json).id);
    const bill = await send('POST', '/accounting/bills', {
      bill: { vendor_id: f.vendor, payment_terms_id: termId, issue_date: today, line_items: [line(f.expense, 10)] },
    });
    expect(bill.statusCode, bill.body).toBe(200);
    for (const path of [`/accounting/payment_terms/${termId}`, `/accounting/vendors/${f.vendor}`]) {
      const refused = await send('DELETE', path);
      expect(refused.statusCode, refused.body).toBe(450);
      expect(String(errorBody(refused).error_metadata?.human_readable)).toContain('archive it instead');
      expect((await send('GET', path)).statusCode).toBe(200);
    }
    for (const due_days of [-1, 1.5, '30']) {
      const bad = await send('POST', '/accounting/payment_terms', { payment_term: { name: `Bad ${uniq()}`, due_days } });
      expect([bad.statusCode, errorBody(bad).error_code], String(due_days)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const nameless = await send('POST', '/accounting/classes', { class: { status: 'active' } });
    expect([nameless.statusCode, errorBody(nameless).error_code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it("refuses another connection's expenses and sales orders, and expense, receipt and order bodies before anything is queued", async () => {
    const other = await syncedSandboxConnection(t, 'user_writes_other_size_300');
    const theirExpense = await storedWhere(t, other.connection.id, 'expense', () => true);
    const theirOrder = await storedWhere(t, other.connection.id, 'sales_order', () => true);
    for (const [method, path] of [
      ['PATCH', `/accounting/expenses/${theirExpense.id}`],
      ['DELETE', `/accounting/expenses/${theirExpense.id}`],
      ['PATCH', `/accounting/sales_orders/${theirOrder.id}`],
    ] as const) {
      const response = await send(
        method,
        path,
        method === 'DELETE' ? undefined : { [path.includes('expenses') ? 'expense' : 'sales_order']: { memo: 'not yours' } },
      );
      expect([response.statusCode, errorBody(response).error_code], `${method} ${path}`).toEqual([410, 'RESOURCE_NOT_FOUND']);
    }
    const theirBank = await storedWhere(t, other.connection.id, 'account', (a) => a.account_type === 'bank');
    const refused: [string, Json, string][] = [
      [
        '/accounting/expenses',
        { expense: { account_id: theirBank.id, transaction_date: today, line_items: [line(f.expense, 1)] } },
        'expense.account_id',
      ],
      [
        '/accounting/expenses',
        { expense: { account_id: f.bank, transaction_date: today, expense_type: 'refund', line_items: [line(f.expense, 1)] } },
        'expense.expense_type',
      ],
      [
        '/accounting/expenses',
        { expense: { account_id: f.bank, transaction_date: today, line_items: [{ total_amount: 1 }] } },
        'expense.line_items[0].account_id',
      ],
      [
        '/accounting/sales_receipts',
        { sales_receipt: { issue_date: today, line_items: [{ total_amount: 5 }] } },
        'sales_receipt.line_items[0].account_id',
      ],
      [
        '/accounting/sales_receipts',
        { sales_receipt: { issue_date: today, amount_due: 0, line_items: [line(f.income, 5)] } },
        'sales_receipt.amount_due',
      ],
      [
        '/accounting/sales_orders',
        { sales_order: { customer_id: f.customer, issue_date: today, status: 'closed', line_items: [{ total_amount: 1 }] } },
        'sales_order.status',
      ],
      [
        '/accounting/sales_orders',
        { sales_order: { customer_id: f.vendor, issue_date: today, line_items: [{ total_amount: 1 }] } },
        'sales_order.customer_id',
      ],
    ];
    for (const [path, body, field] of refused) {
      const response = await send('POST', path, body);
      expect([response.statusCode, errorBody(response).error_metadata?.field], `${path} ${field}`).toEqual([400, field]);
      expect(response.headers['x-service-job-id'], field).toBeUndefined();
    }
  });

  it('answers route-not-found for operations the contract does not have', async () => {
    const response = await send('DELETE', `/accounting/customers/${f.customer}`);
    expect(response.statusCode).toBe(404);
  });
});

/** A body that passes the schema of a write route, so that the request reaches the access-token check. */
function validBodyFor(url: string): Json {
  if (url.includes('bill_credit_applications'))
    return {
      bill_credit_application: {
        bill_credit_memo_id: f.vendor,
        linked_bills: [{ id: f.vendor, ...(url.endsWith('unapply') ? {} : { allocated_amount: 1 }) }],
      },
    };
  if (url.includes('invoice_credit_applications'))
    return {
      invoice_credit_application: {
        invoice_credit_memo_id: f.customer,
        linked_invoices: [{ id: f.customer, ...(url.endsWith('unapply') ? {} : { allocated_amount: 1 }) }],
      },
    };
  if (url.endsWith('/bank_feeds/transactions'))
    return {
      bank_feed_transactions: {
        bank_feed_account_id: f.vendor,
        transactions: [{ internal_transaction_id: 'x', transaction_date: today, amount: 1, description: 'x' }],
      },
    };
  if (url.endsWith('/mapping_link')) return { mapping_link: { bank_feed_account_id: f.vendor } };
  if (url.endsWith('/fulfillments')) return { fulfillment: { carrier: 'UPS', tracking_number: '1', line_items: [] } };
  if (url === '/commerce/orders') return orderCreateBody('variant', 'buyer@example.com');
  if (url === '/commerce/orders/:id') return { order: { status: 'archived' } };
  // Commerce products and their variants: src/api/writes/products.test.ts writes them.
  if (url === '/commerce/products') return { product: { name: 'x', variants: [{ sku: 'x', price: 1 }] } };
  if (url === '/commerce/products/:id') return { product: { name: 'x' } };
  if (url === '/commerce/products/:id/variants') return { variant: { sku: 'x', price: 1 } };
  if (url === '/commerce/products/:id/variants/:variantId') return { variant: { price: 1 } };
  const life = LIFECYCLES.find((l) => url === OBJECT_TYPES[l.type].path || url === `${OBJECT_TYPES[l.type].path}/:id`);
  if (life === undefined) throw new Error(`no body for ${url}`);
  const patch: Json = ['customer', 'vendor'].includes(life.type)
    ? { phone: '1' }
    : ['account', 'bank_feed_account', 'item'].includes(life.type)
      ? { name: 'x' }
      : { memo: 'x' };
  const create =
    life.type === 'bill_payment'
      ? { vendor_id: f.vendor, account_id: f.bank, transaction_date: today, linked_bills: [{ id: f.vendor, allocated_amount: 1 }] }
      : life.type === 'invoice_payment'
        ? { customer_id: f.customer, account_id: f.bank, transaction_date: today, linked_invoices: [{ id: f.customer, allocated_amount: 1 }] }
        : life.create({});
  return { [OBJECT_TYPES[life.type].singular]: url.endsWith(':id') ? patch : create };
}

describe('platform errors', () => {
  it('keeps the platform message: 450 for a rejected write, 409 DUPLICATE_VALUE_CONFLICT with the field', async () => {
    const bill = await createdBill();
    const overpay = await send('POST', '/accounting/bill_payments', {
      bill_payment: { vendor_id: f.vendor, account_id: f.bank, transaction_date: today, linked_bills: [{ id: bill.id, allocated_amount: 9999 }] },
    });
    expect(overpay.statusCode, overpay.body).toBe(450);
    const error = errorBody(overpay);
    expect(error.error_code).toBe('PLATFORM_BAD_REQUEST');
    expect(error.error_metadata?.source).toBe('platform');
    expect(String(error.error_metadata?.human_readable)).toContain('only 250.00 is due');
    expect(jobIdOf(overpay)).toMatch(/^[0-9a-f-]{36}$/);

    const name = `Dup ${uniq()}`;
    expect((await send('POST', '/accounting/vendors', { vendor: { vendor_name: name } })).statusCode).toBe(200);
    const duplicate = await send('POST', '/accounting/vendors', { vendor: { vendor_name: name } });
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(errorBody(duplicate)).toMatchObject({
      error_type: 'INVALID_INPUT',
      error_code: 'DUPLICATE_VALUE_CONFLICT',
      error_metadata: { duplicate_property: 'vendor_name', source: 'platform' },
    });
  });

  it('answers PLATFORM_BILLING_ISSUE when the platform subscription lapsed', async () => {
    const billing = await syncedSandboxConnection(t, 'user_billing');
    const vendor = await storedWhere(t, billing.connection.id, 'vendor', () => true);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/versioned/accounting/vendors/${vendor.id}?access_token=${billing.token}`,
      headers: clientHeaders(t.org),
      payload: { vendor: { email: 'new@example.com' } },
    });
    expect(response.statusCode, response.body).toBe(450);
    expect(errorBody(response)).toMatchObject({ error_code: 'PLATFORM_BILLING_ISSUE', error_metadata: { source: 'platform' } });
  });

  it("answers 450 PLATFORM_BAD_REQUEST with the platform's message for the documented test user user_write_invalid", async () => {
    const invalid = await syncedSandboxConnection(t, 'user_write_invalid');
    const vendor = await storedWhere(t, invalid.connection.id, 'vendor', () => true);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/versioned/accounting/vendors/${vendor.id}?access_token=${invalid.token}`,
      headers: clientHeaders(t.org),
      payload: { vendor: { email: 'new@example.com' } },
    });
    expect(response.statusCode, response.body).toBe(450);
    const body = errorBody(response);
    expect(body).toMatchObject({ error_type: 'PLATFORM_ERROR', error_code: 'PLATFORM_BAD_REQUEST', error_metadata: { source: 'platform' } });
    expect(body.error_message).toContain('the vendor is locked for editing');
  });
  it('answers 451 PLATFORM_UNAUTHORIZED for the documented test user user_write_forbidden, and the connection then needs re-authentication', async () => {
    const forbidden = await syncedSandboxConnection(t, 'user_write_forbidden');
    const vendor = await storedWhere(t, forbidden.connection.id, 'vendor', () => true);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/versioned/accounting/vendors/${vendor.id}?access_token=${forbidden.token}`,
      headers: clientHeaders(t.org),
      payload: { vendor: { email: 'new@example.com' } },
    });
    expect(response.statusCode, response.body).toBe(451);
    expect(errorBody(response)).toMatchObject({
      error_type: 'PLATFORM_ERROR',
      error_code: 'PLATFORM_UNAUTHORIZED',
      error_metadata: { source: 'platform' },
    });
    expect((await eventsOf(t, forbidden.connection.id)).map((e) => e.code)).toContain('CONNECTION_NEEDS_UPDATE');
  });

  it('disables the connection of the documented test user user_suspended at its first incremental sync', async () => {
    const suspended = await syncedSandboxConnection(t, 'user_suspended');
    const run = await requestSync(t.db.pool, t.services.jobs, suspended.connection.id, { kind: 'incremental', trigger: 'api', details: {} });
    expect(await runSync(t.services, run.id, new AbortController().signal)).toBe('failed');
    const disabled = (await eventsOf(t, suspended.connection.id)).filter((e) => e.code === 'CONNECTION_DISABLED');
    expect(disabled).toHaveLength(1);
    expect(disabled[0]?.payload.disable_error).toBe('PLATFORM_BILLING_ISSUE');
    const read = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/vendors?access_token=${suspended.token}`,
      headers: clientHeaders(t.org),
    });
    expect(read.statusCode, read.body).toBe(409);
    expect(errorBody(read).error_code).toBe('CONNECTION_DISABLED');
  });
});

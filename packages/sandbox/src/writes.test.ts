import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import type { ObjectHandler, PlatformRecord } from '../../../src/platforms/connector.ts';
import { auditBooks, auditRef } from './audit.ts';
import { acc } from './generator/chart.ts';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { mapRecord } from './mapping/index.ts';
import type { NativeBalanceSheet, NativeOf, NativeType } from './native.ts';
import { readAll, rejection, testContext, writeContext } from './testkit.ts';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';

const USER = 'user_writer_size_2000';
let db: TestDatabase;
let platform: SandboxPlatform;
let keys = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { asOf: '2025-06-15', tickIntervalMs: 0, now: () => Date.parse('2025-06-16T09:00:00Z') });
});
afterAll(async () => {
  await db.close();
});

const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const ctx = testContext({ basic_username: USER, basic_password: 'pass_good' });
const wctx = (key = `k-${++keys}`) => writeContext(ctx, key);

function handler(type: UnifiedObjectType): Required<Omit<ObjectHandler, 'businessDate'>> {
  const found = connector.objects[type]?.handler;
  if (found?.create === undefined || found.update === undefined || found.delete === undefined || found.findCreated === undefined) {
    throw new Error(`${type} is not writable`);
  }
  return found as Required<Omit<ObjectHandler, 'businessDate'>>;
}
const unified = (type: UnifiedObjectType, record: PlatformRecord) => mapRecord(type, record.raw, auditRef);

async function books() {
  return (await readAll(connector, ctx)).records;
}
const native = <K extends NativeType>(records: Awaited<ReturnType<typeof books>>, type: K, id: string): NativeOf[K] => {
  const found = records.find((r) => r.type === type && r.raw.Id === id);
  if (found === undefined) throw new Error(`${type} ${id} not found`);
  // The reader hands out the native records of the collection it read.
  return found.raw as NativeOf[K];
};

const billInput = (documentNumber: string) => ({
  vendor_id: 'vendor:VEN-000001',
  issue_date: '2025-06-16T00:00:00Z',
  currency_code: 'USD',
  document_number: documentNumber,
  line_items: [
    { account_id: 'account:ACC-000030', description: 'Rent June', total_amount: 1200 },
    { account_id: 'account:ACC-000032', description: 'Paper', item: null, sub_total: 80.5, discount_amount: 5.5 },
  ],
});

describe('sandbox writes', () => {
  it('creates a bill the ledger sees: totals computed, AP and balance sheet move, books add up', async () => {
    const ap = native(await books(), 'account', 'ACC-000013');
    const created = await handler('bill').create(wctx(), billInput('TEST-0001'));
    const bill = unified('bill', created);
    expect(bill).toMatchObject({
      document_number: 'TEST-0001',
      sub_total: 1280.5,
      total_discount: 5.5,
      total_amount: 1275,
      amount_due: 1275,
      status: 'open',
    });
    const after = await books();
    expect(auditBooks(after)).toEqual([]);
    const apAfter = native(after, 'account', 'ACC-000013');
    expect(Math.round((Number(apAfter.Balance) - Number(ap.Balance)) * 100)).toBe(127_500);
    const sheets = after
      .filter((r) => r.type === 'balance_sheet')
      .map((r) => r.raw as NativeBalanceSheet)
      .sort((a, b) => (a.PeriodEnd < b.PeriodEnd ? -1 : 1));
    expect(sheets.at(-1)?.UpdatedAt).toBe('2025-06-16T09:00:00.000Z');
  });

  it('refuses a duplicate document number with kind duplicate and the unified field name', async () => {
    const error = await rejection(handler('bill').create(wctx(), billInput('TEST-0001')));
    expect(error.kind).toBe('duplicate');
    expect(error.duplicateProperty).toBe('document_number');
    expect(error.toServiceError().code).toBe('DUPLICATE_VALUE_CONFLICT');
  });

  it('refuses an unbalanced journal entry as a bad request with the platform message', async () => {
    const error = await rejection(
      handler('journal_entry').create(wctx(), {
        transaction_date: '2025-06-16T00:00:00Z',
        currency_code: 'USD',
        memo: 'oops',
        line_items: [
          { account_id: 'account:ACC-000001', total_amount: 100 },
          { account_id: 'account:ACC-000002', total_amount: -99.99 },
        ],
      }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.platformMessage).toMatch(/Debits \(100\.00\) and credits \(99\.99\) must be equal/);
    expect(error.toServiceError().code).toBe('PLATFORM_BAD_REQUEST');
  });

  it('writes once per idempotency key: a repeat answers the first result, a different body with the key is refused', async () => {
    const count = async () => (await books()).filter((r) => r.type === 'bill').length;
    const before = await count();
    const first = await handler('bill').create(wctx('same-key'), billInput('TEST-0002'));
    const second = await handler('bill').create(wctx('same-key'), billInput('TEST-0002'));
    expect(second.platformId).toBe(first.platformId);
    expect(await count()).toBe(before + 1);
    const conflict = await rejection(handler('bill').create(wctx('same-key'), billInput('TEST-0003')));
    expect(conflict.kind).toBe('conflict');
    expect(await handler('bill').findCreated(wctx('same-key'), billInput('TEST-0002'))).toMatchObject({ platformId: first.platformId });
    expect(await handler('bill').findCreated(wctx('never-used'), billInput('TEST-0002'))).toBeNull();
  });

  it('pays a bill partly, then fully; voiding and deleting payments reopen it', async () => {
    const bill = await handler('bill').create(wctx(), billInput('TEST-0004'));
    const pay = (amount: number) =>
      handler('bill_payment').create(wctx(), {
        vendor_id: 'vendor:VEN-000001',
        account_id: 'account:ACC-000001',
        transaction_date: '2025-06-16T00:00:00Z',
        currency_code: 'USD',
        linked_bills: [{ id: `bill:${bill.platformId}`, allocated_amount: amount }],
      });
    const billNow = async () => unified('bill', { platformId: bill.platformId, raw: native(await books(), 'bill', bill.platformId) });
    const first = await pay(275);
    expect(await billNow()).toMatchObject({ amount_due: 1000, status: 'partially_paid' });
    const second = await pay(1000);
    expect(await billNow()).toMatchObject({ amount_due: 0, status: 'paid' });
    expect((await rejection(pay(1))).kind).toBe('bad_request');
    const voided = await handler('bill_payment').update(wctx(), second.platformId, { status: 'void' });
    expect(unified('bill_payment', voided)).toMatchObject({ status: 'void' });
    expect(await billNow()).toMatchObject({ amount_due: 1000, status: 'partially_paid' });
    await handler('bill_payment').delete(wctx(), first.platformId);
    expect(await billNow()).toMatchObject({ amount_due: 1275, status: 'open' });
    expect(auditBooks(await books())).toEqual([]);
  });

  it('applies a vendor credit to a bill, updates and deletes bills; deletions show as tombstones', async () => {
    const cursors = (await readAll(connector, ctx, {}, ['bill'])).cursors;
    const bill = await handler('bill').create(wctx(), billInput('TEST-0005'));
    const credit = await handler('bill_credit_memo').create(wctx(), {
      vendor_id: 'vendor:VEN-000001',
      issue_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      line_items: [{ account_id: 'account:ACC-000030', total_amount: 200, description: 'Refund' }],
      linked_bills: [{ id: `bill:${bill.platformId}`, allocated_amount: 150 }],
    });
    expect(unified('bill_credit_memo', credit)).toMatchObject({ total_amount: 200, remaining_amount: 50, status: 'partially_paid' });
    const updated = await handler('bill').update(wctx(), bill.platformId, {
      memo: 'corrected',
      line_items: [{ account_id: 'account:ACC-000030', total_amount: 500 }],
    });
    expect(unified('bill', updated)).toMatchObject({
      memo: 'corrected',
      total_amount: 500,
      amount_due: 350,
      status: 'partially_paid',
      document_number: 'TEST-0005',
    });
    expect((await rejection(handler('bill').delete(wctx(), bill.platformId))).kind).toBe('bad_request');
    await handler('bill_credit_memo').delete(wctx(), credit.platformId);
    await handler('bill').delete(wctx(), bill.platformId);
    const changes = await readAll(connector, ctx, cursors, ['bill']);
    expect(changes.deleted).toContainEqual({ type: 'bill', id: bill.platformId });
    expect(auditBooks(await books())).toEqual([]);
  });

  it('takes an invoice payment from receivable into the bank and a credit memo off revenue; books tie out throughout', async () => {
    const balance = async (accountId: string) => Math.round(Number(native(await books(), 'account', accountId).Balance) * 100);
    const [bank, ar, revenue] = ['ACC-000001', 'ACC-000004', 'ACC-000023'];
    const customer = (await books()).find((r) => r.type === 'customer' && r.raw.Status === 'Active')?.raw.Id;
    if (typeof customer !== 'string') throw new Error('fixture lacks an active customer');
    const invoice = await handler('invoice').create(wctx(), {
      customer_id: `customer:${customer}`,
      issue_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      line_items: [{ account_id: `account:${revenue}`, description: 'Consulting', total_amount: 900 }],
    });
    const before = { bank: await balance(bank), ar: await balance(ar), revenue: await balance(revenue) };
    const invoiceNow = async () => unified('invoice', { platformId: invoice.platformId, raw: native(await books(), 'invoice', invoice.platformId) });
    const payment = await handler('invoice_payment').create(wctx(), {
      customer_id: `customer:${customer}`,
      account_id: `account:${bank}`,
      transaction_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      linked_invoices: [{ id: `invoice:${invoice.platformId}`, allocated_amount: 300 }],
    });
    expect(unified('invoice_payment', payment)).toMatchObject({ total_amount: 300, status: 'active' });
    expect(await invoiceNow()).toMatchObject({ amount_due: 600, status: 'partially_paid' });
    expect(await balance(bank)).toBe(before.bank + 30_000);
    expect(await balance(ar)).toBe(before.ar - 30_000);
    expect(auditBooks(await books())).toEqual([]);

    const credit = await handler('invoice_credit_memo').create(wctx(), {
      customer_id: `customer:${customer}`,
      issue_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      line_items: [{ account_id: `account:${revenue}`, total_amount: 200, description: 'Goodwill' }],
      linked_invoices: [{ id: `invoice:${invoice.platformId}`, allocated_amount: 150 }],
    });
    expect(unified('invoice_credit_memo', credit)).toMatchObject({ total_amount: 200, remaining_amount: 50 });
    expect(await invoiceNow()).toMatchObject({ amount_due: 450 });
    // Revenue (a credit balance) is 200 lower; receivable, net of the payment, 200 lower too.
    expect(Math.abs(await balance(revenue)) - Math.abs(before.revenue)).toBe(-20_000);
    expect(await balance(ar)).toBe(before.ar - 50_000);
    expect(auditBooks(await books())).toEqual([]);

    // More than is due, or the invoice of another customer, is refused and changes nothing.
    expect(
      (
        await rejection(
          handler('invoice_payment').update(wctx(), payment.platformId, {
            linked_invoices: [{ id: `invoice:${invoice.platformId}`, allocated_amount: 900 }],
          }),
        )
      ).kind,
    ).toBe('bad_request');
    expect(await invoiceNow()).toMatchObject({ amount_due: 450 });
    await handler('invoice_credit_memo').update(wctx(), credit.platformId, { linked_invoices: [] });
    expect(await invoiceNow()).toMatchObject({ amount_due: 600 });
    expect(unified('invoice_payment', await handler('invoice_payment').update(wctx(), payment.platformId, { status: 'void' }))).toMatchObject({
      status: 'void',
    });
    expect(await invoiceNow()).toMatchObject({ amount_due: 900, status: 'open' });
    await handler('invoice_payment').delete(wctx(), payment.platformId);
    await handler('invoice_credit_memo').delete(wctx(), credit.platformId);
    await handler('invoice').delete(wctx(), invoice.platformId);
    expect({ bank: await balance(bank), ar: await balance(ar) }).toEqual({ bank: before.bank, ar: before.ar - 90_000 });
    expect(auditBooks(await books())).toEqual([]);
  });

  it('records deposits, transfers and balanced journal entries, and edits and removes them', async () => {
    const deposit = await handler('bank_deposit').create(wctx(), {
      account_id: 'account:ACC-000001',
      transaction_date: '2025-06-16T00:00:00Z',
      memo: 'Owner top-up',
      line_items: [{ account_id: 'account:ACC-000019', total_amount: 5000, description: 'Capital' }],
    });
    expect(unified('bank_deposit', deposit)).toMatchObject({ total_amount: 5000 });
    const transfer = await handler('bank_transfer').create(wctx(), {
      credit_account_id: 'account:ACC-000001',
      debit_account_id: 'account:ACC-000002',
      transaction_date: '2025-06-16T00:00:00Z',
      total_amount: 250,
      memo: 'Save',
    });
    expect((await handler('bank_transfer').update(wctx(), transfer.platformId, { total_amount: 300 })).raw.Amount).toBe('300.00');
    const entry = await handler('journal_entry').create(wctx(), {
      transaction_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      memo: 'Accrual',
      line_items: [
        { account_id: 'account:ACC-000040', total_amount: 120.25 },
        { account_id: 'account:ACC-000017', total_amount: -120.25 },
      ],
    });
    expect(unified('journal_entry', entry)).toMatchObject({ line_items: [{ total_amount: 120.25 }, { total_amount: -120.25 }] });
    expect(auditBooks(await books())).toEqual([]);
    await handler('journal_entry').delete(wctx(), entry.platformId);
    await handler('bank_transfer').delete(wctx(), transfer.platformId);
    await handler('bank_deposit').delete(wctx(), deposit.platformId);
    expect(auditBooks(await books())).toEqual([]);
  });

  it('posts expenses and sales receipts with balanced books, and sales orders without posting', async () => {
    const account = (code: string) => `account:${acc(code)}`;
    const balance = (records: Awaited<ReturnType<typeof books>>, code: string) =>
      Math.round(Number(native(records, 'account', acc(code)).Balance) * 100);
    const before = await books();
    const expense = await handler('expense').create(wctx(), {
      account_id: account('2100'),
      vendor_id: 'vendor:VEN-000001',
      transaction_date: '2025-06-16T00:00:00Z',
      line_items: [{ account_id: account('6100'), total_amount: 19.99, description: 'Fee' }],
    });
    expect(unified('expense', expense)).toMatchObject({ total_amount: 19.99, payment_type: 'credit_card', expense_type: 'expense' });
    const receipt = await handler('sales_receipt').create(wctx(), {
      account_id: account('1000'),
      issue_date: '2025-06-16T00:00:00Z',
      line_items: [{ account_id: account('4000'), total_amount: 250, description: 'Counter sale' }],
    });
    expect(unified('sales_receipt', receipt)).toMatchObject({ total_amount: 250, amount_due: 0, account_id: account('1000') });
    const order = await handler('sales_order').create(wctx(), {
      customer_id: 'customer:CUS-000001',
      issue_date: '2025-06-16T00:00:00Z',
      line_items: [{ description: 'Later', total_amount: 1000 }],
    });
    expect(unified('sales_order', order)).toMatchObject({ status: 'open', total_amount: 1000 });
    const after = await books();
    expect(auditBooks(after)).toEqual([]);
    // The card owes the expense, the bank holds the sale, and the order moved nothing.
    expect(balance(after, '2100') - balance(before, '2100')).toBe(1999);
    expect(balance(after, '1000') - balance(before, '1000')).toBe(25_000);
    expect(balance(after, '4000') - balance(before, '4000')).toBe(25_000);

    await handler('expense').update(wctx(), expense.platformId, { line_items: [{ account_id: account('6100'), total_amount: 5 }] });
    expect(balance(await books(), '2100') - balance(before, '2100')).toBe(500);
    await handler('expense').delete(wctx(), expense.platformId);
    await handler('sales_receipt').delete(wctx(), receipt.platformId);
    await handler('sales_order').delete(wctx(), order.platformId);
    const end = await books();
    expect(auditBooks(end)).toEqual([]);
    expect([balance(end, '2100'), balance(end, '1000')]).toEqual([balance(before, '2100'), balance(before, '1000')]);
  });

  it('refuses an expense paid from no bank or card account, a sale into no income account and a refund', async () => {
    const account = (code: string) => `account:${acc(code)}`;
    const fromIncome = await rejection(
      handler('expense').create(wctx(), {
        account_id: account('4000'),
        transaction_date: '2025-06-16T00:00:00Z',
        line_items: [{ account_id: account('6100'), total_amount: 1 }],
      }),
    );
    expect(fromIncome.platformMessage).toMatch(/expected Bank or CreditCard/);
    const intoExpense = await rejection(
      handler('sales_receipt').create(wctx(), {
        issue_date: '2025-06-16T00:00:00Z',
        line_items: [{ account_id: account('6100'), total_amount: 1 }],
      }),
    );
    expect(intoExpense.platformMessage).toMatch(/expected Income or OtherIncome/);
    await expect(
      handler('expense').create(wctx(), { expense_type: 'refund', account_id: account('1000'), transaction_date: '2025-06-16', line_items: [] }),
    ).rejects.toThrow(/refunds/);
  });

  it('pays a customer refund out of the bank against income with the books balanced, deletes it, and refuses bad ones', async () => {
    const account = (code: string) => `account:${acc(code)}`;
    const balance = (records: Awaited<ReturnType<typeof books>>, code: string) =>
      Math.round(Number(native(records, 'account', acc(code)).Balance) * 100);
    const refunds = connector.objects.customer_refund;
    const writer = refunds?.handler;
    if (writer?.create === undefined || writer.delete === undefined) throw new Error('customer refunds are not writable');
    const create: NonNullable<ObjectHandler['create']> = (context, input) =>
      writer.create?.(context, input) ?? Promise.reject(new Error('no create'));
    const remove: NonNullable<ObjectHandler['delete']> = (context, id) => writer.delete?.(context, id) ?? Promise.reject(new Error('no delete'));
    expect([refunds?.capabilities.create, refunds?.capabilities.update, refunds?.capabilities.delete]).toEqual([true, false, true]);
    const before = await books();
    const refund = await create(wctx(), {
      account_id: account('1000'),
      customer_id: 'customer:CUS-000001',
      transaction_date: '2025-06-16T00:00:00Z',
      document_number: 'RF-TEST-1',
      line_items: [
        { account_id: account('4000'), total_amount: 120, description: 'Returned goods' },
        { account_id: account('4000'), total_amount: 30.5, description: 'Restocking waived' },
      ],
    });
    expect(unified('customer_refund', refund)).toMatchObject({
      total_amount: 150.5,
      account_id: account('1000'),
      customer_id: 'customer:CUS-000001',
      document_number: 'RF-TEST-1',
      transaction_date: '2025-06-16T00:00:00.000Z',
    });
    const after = await books();
    expect(auditBooks(after)).toEqual([]);
    // Money left the bank and the sale came back out of income.
    expect(balance(after, '1000') - balance(before, '1000')).toBe(-15_050);
    expect(balance(after, '4000') - balance(before, '4000')).toBe(-15_050);
    // Without a date, the platform's today; without a number, the next of its series.
    const undated = await create(wctx(), { account_id: account('1000'), line_items: [{ account_id: account('4000'), total_amount: 1 }] });
    expect(undated.raw).toMatchObject({ TxnDate: '2025-06-16', DocNumber: expect.stringMatching(/^RF-\d+$/) as string });
    await remove(wctx(), refund.platformId);
    await remove(wctx(), undated.platformId);
    const end = await books();
    expect(auditBooks(end)).toEqual([]);
    expect([balance(end, '1000'), balance(end, '4000')]).toEqual([balance(before, '1000'), balance(before, '4000')]);
    expect(end.some((r) => r.type === 'customer_refund' && r.raw.Id === refund.platformId)).toBe(false);

    const line = [{ account_id: account('4000'), total_amount: 1 }];
    const fromIncome = await rejection(create(wctx(), { account_id: account('4000'), line_items: line }));
    expect(fromIncome.platformMessage).toMatch(/expected Bank or OtherCurrentAsset/);
    const outOfExpense = await rejection(
      create(wctx(), { account_id: account('1000'), line_items: [{ account_id: account('6100'), total_amount: 1 }] }),
    );
    expect(outOfExpense.platformMessage).toMatch(/expected Income or OtherIncome/);
    const nothing = await rejection(create(wctx(), { account_id: account('1000'), line_items: [{ account_id: account('4000'), total_amount: 0 }] }));
    expect(nothing.platformMessage).toMatch(/more than 0/);
    expect(auditBooks(await books())).toEqual([]);
  });

  it('creates, renames, archives and deletes contacts, accounts, tax rates, invoices and bank feeds', async () => {
    const customer = await handler('customer').create(wctx(), {
      customer_name: 'Zed Test Co',
      email: 'z@example.com',
      addresses: [{ type: 'billing', address1: '1 Main St', city: 'Austin', region: 'TX', postal_code: '78701', country: 'US' }],
    });
    expect(unified('customer', customer)).toMatchObject({ customer_name: 'Zed Test Co', status: 'active', addresses: [{ city: 'Austin' }] });
    const dup = await rejection(handler('customer').create(wctx(), { customer_name: 'Zed Test Co' }));
    expect([dup.kind, dup.duplicateProperty]).toEqual(['duplicate', 'customer_name']);
    expect(unified('customer', await handler('customer').update(wctx(), customer.platformId, { status: 'archived' }))).toMatchObject({
      status: 'archived',
    });
    const vendor = await handler('vendor').create(wctx(), { vendor_name: 'Zed Supplies' });
    expect(unified('vendor', await handler('vendor').update(wctx(), vendor.platformId, { vendor_name: 'Zed Supplies Ltd' }))).toMatchObject({
      vendor_name: 'Zed Supplies Ltd',
    });
    await handler('vendor').delete(wctx(), vendor.platformId);
    expect((await rejection(handler('vendor').delete(wctx(), 'VEN-000001'))).kind).toBe('bad_request');

    const account = await handler('account').create(wctx(), {
      name: 'Test Expenses',
      nominal_code: '6999',
      account_type: 'expense',
      currency_code: 'USD',
    });
    expect(unified('account', account)).toMatchObject({ category: 'expense', account_type: 'expense', balance: 0 });
    const dupAccount = await rejection(handler('account').create(wctx(), { name: 'Test Expenses', account_type: 'expense' }));
    expect([dupAccount.kind, dupAccount.duplicateProperty]).toEqual(['duplicate', 'name']);
    await handler('account').delete(wctx(), account.platformId);

    const tax = await handler('tax_rate').create(wctx(), {
      name: 'Test GST+PST',
      components: [
        { name: 'GST', rate: 5, is_compound: false },
        { name: 'PST', rate: 10, is_compound: true },
      ],
    });
    expect(unified('tax_rate', tax)).toMatchObject({ total_tax_rate: 15, effective_tax_rate: 15.5 });

    const invoice = await handler('invoice').create(wctx(), {
      customer_id: `customer:${customer.platformId}`,
      issue_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      document_number: 'INV-TEST-1',
      line_items: [{ account_id: 'account:ACC-000023', total_amount: 100, tax_rate_id: `tax_rate:${tax.platformId}` }],
    });
    expect(unified('invoice', invoice)).toMatchObject({ sub_total: 100, tax_amount: 15.5, total_amount: 115.5, amount_due: 115.5, status: 'open' });
    await handler('invoice').delete(wctx(), invoice.platformId);

    const unlinked = await handler('bank_feed_account').create(wctx(), {
      name: 'New feed',
      bank_account_type: 'checking',
      currency_code: 'USD',
      current_balance: 10,
    });
    // Not linked to a ledger account yet: the business must link it (the mapping link) before lines flow.
    expect(unified('bank_feed_account', unlinked)).toMatchObject({
      account_id: null,
      transaction_ready: false,
      feed_status: 'inactive',
      current_balance: 10,
    });
    const taken = await rejection(handler('bank_feed_account').create(wctx(), { name: 'Again', account_id: 'account:ACC-000001' }));
    expect([taken.kind, taken.duplicateProperty]).toEqual(['duplicate', 'account_id']);
    const replaced = await handler('bank_feed_account').create(wctx(), {
      name: 'Replacement',
      account_id: 'account:ACC-000001',
      additional_fields: { override_existing: true },
    });
    expect(unified('bank_feed_account', replaced)).toMatchObject({
      account_id: 'account:ACC-000001',
      transaction_ready: true,
      feed_status: 'active',
    });
    // The feed it took the account from is unlinked, so no longer ready.
    const feeds = (await books())
      .filter((r) => r.type === 'bank_feed_account')
      .map((r) => unified('bank_feed_account', { platformId: String(r.raw.Id), raw: r.raw }));
    expect(feeds.filter((f) => f.account_id === 'account:ACC-000001')).toHaveLength(1);
    expect(feeds.every((f) => f.transaction_ready === (f.account_id !== null))).toBe(true);
    await handler('bank_feed_account').delete(wctx(), unlinked.platformId);
    expect(auditBooks(await books())).toEqual([]);
  });

  it('keeps the invoice a sales order became: refuses to delete it, voids it; the order still names it', async () => {
    const records = await books();
    const order = records
      .filter((r) => r.type === 'sales_order')
      .map((r) => native(records, 'sales_order', String(r.raw.Id)))
      .find((o) => o.InvoiceIds.some((id) => native(records, 'invoice', id).LinkedTxns.length === 0));
    const invoiceId = order?.InvoiceIds[0];
    if (order === undefined || invoiceId === undefined) throw new Error('fixture lacks an order invoiced as an unpaid invoice');
    const refused = await rejection(handler('invoice').delete(wctx(), invoiceId));
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain(order.Id);
    expect(unified('invoice', await handler('invoice').update(wctx(), invoiceId, { status: 'void' }))).toMatchObject({
      status: 'void',
      amount_due: 0,
    });
    const after = await books();
    expect(native(after, 'sales_order', order.Id)).toMatchObject({ Status: 'Closed', InvoiceIds: [invoiceId] });
    expect(auditBooks(after)).toEqual([]);
  });

  it('gives a document in a foreign currency the rate of its day unless the client sends one, as QuickBooks Online does', async () => {
    const euros = (await books())
      .filter((r) => r.type === 'exchange_rate')
      .map((r) => r.raw as NativeOf['exchange_rate'])
      .filter((r) => r.SourceCurrencyCode === 'EUR' && r.AsOfDate <= '2025-06-16');
    const inEffect = euros.reduce((a, b) => (b.AsOfDate > a.AsOfDate ? b : a));
    expect(inEffect.AsOfDate).toBe('2025-04-01');
    const rated = await handler('bill').create(wctx(), { ...billInput('TEST-FX-1'), currency_code: 'EUR' });
    expect(unified('bill', rated)).toMatchObject({ currency_code: 'EUR', currency_rate: Number(inEffect.Rate).toFixed(6) });
    const base = String((await books()).find((r) => r.type === 'company_info')?.raw.BaseCurrency);
    const home = await handler('bill').create(wctx(), { ...billInput('TEST-FX-2'), currency_code: base });
    expect(unified('bill', home)).toMatchObject({ currency_code: base, currency_rate: '1.000000' });
    const sent = await handler('bill').create(wctx(), { ...billInput('TEST-FX-3'), currency_code: 'EUR', currency_rate: 1.25 });
    expect(unified('bill', sent)).toMatchObject({ currency_rate: '1.25' });
    // The client's own rate is theirs to send; the audit says which document is off the rate of its day.
    expect(auditBooks(await books())).toEqual([
      `bill:${sent.platformId}: currency_rate 1.25 of EUR, the rate on 2025-06-16 is ${Number(inEffect.Rate)}`,
    ]);
    for (const bill of [rated, home, sent]) await handler('bill').delete(wctx(), bill.platformId);
    expect(auditBooks(await books())).toEqual([]);
  });

  it('keeps items and purchase orders off the ledger: their accounts must exist and fit, a used item or billed order stays', async () => {
    const before = await books();
    const accountOf = (type: string) => {
      const found = before.find((r) => r.type === 'account' && r.raw.Type === type && r.raw.Status === 'Active');
      if (found === undefined) throw new Error(`no ${type} account`);
      return `account:${String(found.raw.Id)}`;
    };
    const [income, expense, ap] = [accountOf('Income'), accountOf('Expense'), native(before, 'account', 'ACC-000013')];
    const itemInput = { name: 'Zed Widget Service', code: 'ZW-1', type: 'service', invoice_item: { unit_price: 50, account_id: income } };
    const wrongSide = await rejection(handler('item').create(wctx(), { ...itemInput, bill_item: { account_id: income } }));
    expect([wrongSide.kind, wrongSide.platformMessage]).toEqual(['bad_request', expect.stringMatching(/ExpenseAccountId .* is a Income account/)]);
    const noExpense = await rejection(handler('item').create(wctx(), itemInput));
    expect(noExpense.platformMessage).toMatch(/ExpenseAccountId is required/);
    // Refused before the platform is called: a tax rate would be dropped, never booked.
    await expect(
      handler('item').create(wctx(), { ...itemInput, bill_item: { account_id: expense, tax_rate_id: 'tax_rate:TAX-000001' } }),
    ).rejects.toThrow(/bill_item\.tax_rate_id: is not kept/);

    const item = await handler('item').create(wctx(), { ...itemInput, bill_item: { unit_price: 30.25, account_id: expense } });
    expect(unified('item', item)).toMatchObject({
      name: 'Zed Widget Service',
      code: 'ZW-1',
      type: 'service',
      status: 'active',
      invoice_item: { unit_price: 50, account_id: income },
      bill_item: { unit_price: 30.25, account_id: expense },
    });
    const order = await handler('purchase_order').create(wctx(), {
      vendor_id: 'vendor:VEN-000001',
      issue_date: '2025-06-16',
      delivery_date: '2025-06-30',
      line_items: [
        { item: { id: `item:${item.platformId}`, quantity: 4, unit_amount: 30.25 }, total_amount: 121 },
        { account_id: expense, total_amount: 9.5 },
      ],
    });
    expect(unified('purchase_order', order)).toMatchObject({
      status: 'open',
      total_amount: 130.5,
      total_quantity: 4,
      delivery_date: '2025-06-30T00:00:00.000Z',
    });
    const after = await books();
    expect(auditBooks(after)).toEqual([]);
    // Nothing posted: payables stay where they were.
    expect(native(after, 'account', 'ACC-000013').Balance).toBe(ap.Balance);

    const usedItem = await rejection(handler('item').delete(wctx(), item.platformId));
    expect([usedItem.kind, usedItem.platformMessage]).toEqual(['bad_request', expect.stringMatching(/is used by .*archive it instead/)]);
    expect(unified('item', await handler('item').update(wctx(), item.platformId, { status: 'archived' })).status).toBe('archived');

    const bill = await handler('bill').create(wctx(), {
      ...billInput('TEST-PO-1'),
      linked_purchase_orders: [{ id: `purchase_order:${order.platformId}` }],
    });
    const billed = await rejection(handler('purchase_order').delete(wctx(), order.platformId));
    expect(billed.platformMessage).toMatch(new RegExp(`has bill ${bill.platformId} raised against it; close it instead`));
    expect(unified('purchase_order', await handler('purchase_order').update(wctx(), order.platformId, { status: 'closed' })).status).toBe('closed');
    await handler('bill').delete(wctx(), bill.platformId);
    await handler('purchase_order').delete(wctx(), order.platformId);
    await handler('item').delete(wctx(), item.platformId);
    const end = await books();
    expect(end.some((r) => r.type === 'item' && r.raw.Id === item.platformId)).toBe(false);
    expect(auditBooks(end)).toEqual([]);
  });

  it('creates, fulfils, archives and cancels web-shop orders without posting: the ledger and the shop tie out throughout', async () => {
    const before = await books();
    const balances = (records: typeof before) => records.filter((r) => r.type === 'account').map((r) => [r.raw.Id, r.raw.Balance] as const);
    const product = before.find((r) => r.type === 'product' && r.raw.Status === 'Active')?.raw as NativeOf['product'] | undefined;
    const shopper = before.find((r) => r.type === 'commerce_customer')?.raw as NativeOf['commerce_customer'] | undefined;
    if (product === undefined || shopper === undefined) throw new Error('no product or shopper');
    const variant = product.Variants[0];
    if (variant === undefined) throw new Error('no variant');
    const orders = connector.objects.order?.handler;
    const fulfil = connector.actions?.fulfillOrder;
    if (orders?.create === undefined || orders.update === undefined || fulfil === undefined) throw new Error('orders are not writable');
    const address = {
      address1: '1 Main St',
      city: 'Springfield',
      country_code: 'US',
      first_name: 'Ada',
      last_name: 'Buyer',
      postal_code: '12345',
      region: 'IL',
    };
    const input = (email: string) => ({
      currency_code: product.CurrencyCode,
      line_items: [{ variant_id: variant.Id, quantity: 3 }],
      customer: { email },
      billing_address: address,
    });

    const created = await orders.create(wctx(), input(shopper.Email.toUpperCase()));
    const price = Number(variant.Price);
    const tax = Math.round(price * 3 * 100 * 0.08) / 100;
    expect(unified('order', created)).toMatchObject({
      status: 'open',
      payment_status: 'pending',
      fulfillment_status: 'unfulfilled',
      total_price: Math.round((price * 3 + tax) * 100) / 100,
      total_tax: tax,
      line_items: [{ variant_id: variant.Id, quantity: 3, price, product_id: `product:${product.Id}` }],
      customer: { id: `commerce_customer:${shopper.Id}`, email: shopper.Email },
      billing_address: { address1: '1 Main St', address2: null, country_code: 'US' },
      shipping_address: { address1: '1 Main St' },
    });
    let after = await books();
    expect(auditBooks(after)).toEqual([]);
    // An unpaid order moves no money: no account changed.
    expect(balances(after)).toEqual(balances(before));
    expect(native(after, 'commerce_customer', shopper.Id).OrderIds).toContain(created.platformId);

    const lineId = `${created.platformId}-1`;
    const part = await fulfil(wctx(), created.platformId, {
      carrier: 'UPS',
      tracking_number: '1Z1',
      line_items: [{ line_item_id: lineId, quantity: 1 }],
    });
    expect(part.fulfillmentPlatformId).toBe(`${created.platformId}-F1`);
    expect(unified('order', part.order)).toMatchObject({
      fulfillment_status: 'partial',
      fulfillments: [
        { id: `${created.platformId}-F1`, carrier: 'UPS', service: null, tracking_url: null, line_items: [{ id: lineId, quantity: 1 }] },
      ],
    });
    const again = wctx();
    const shipment = { carrier: 'USPS', tracking_number: '94', service: 'Priority', line_items: [] };
    const rest = await fulfil(again, created.platformId, shipment);
    // Sent again with the same key (an interrupted attempt), nothing ships twice.
    expect((await fulfil(again, created.platformId, shipment)).fulfillmentPlatformId).toBe(rest.fulfillmentPlatformId);
    expect(unified('order', rest.order)).toMatchObject({
      fulfillment_status: 'fulfilled',
      fulfillments: [{ line_items: [{ quantity: 1 }] }, { carrier: 'USPS', service: 'Priority', line_items: [{ id: lineId, quantity: 2 }] }],
    });
    const done = await rejection(fulfil(wctx(), created.platformId, { carrier: 'UPS', tracking_number: '1Z2', line_items: [] }));
    expect(done.platformMessage).toMatch(/fulfilled already/);
    const shipped = await rejection(orders.update(wctx(), created.platformId, { status: 'cancelled' }));
    expect(shipped.platformMessage).toMatch(/charged or shipped: refund it before cancelling/);
    expect(unified('order', await orders.update(wctx(), created.platformId, { status: 'archived' })).status).toBe('closed');

    const stranger = await orders.create(wctx(), input('new.buyer@example.com'));
    const buyer = unified('order', stranger).customer;
    expect(buyer).toMatchObject({ email: 'new.buyer@example.com', first_name: 'Ada', orders_count: 1 });
    expect(unified('order', await orders.update(wctx(), stranger.platformId, { status: 'cancelled' })).status).toBe('cancelled');
    const unknown = await rejection(orders.create(wctx(), { ...input('x@example.com'), line_items: [{ variant_id: 'NOPE', quantity: 1 }] }));
    expect(unknown.platformMessage).toMatch(/NOPE is no variant/);
    after = await books();
    expect(auditBooks(after)).toEqual([]);
    expect(balances(after)).toEqual(balances(before));
    expect(after.some((r) => r.type === 'commerce_customer' && r.raw.Email === 'new.buyer@example.com')).toBe(true);
  });

  it('keeps products and their variants off the ledger; a product or variant an order names stays', async () => {
    const before = await books();
    const ap = native(before, 'account', 'ACC-000013');
    const products = handler('product');
    const variants = products.nested.variants;
    if (variants === undefined) throw new Error('no variant writes');
    const { create: createVariant, update: updateVariant, delete: deleteVariant } = variants;
    if (createVariant === undefined || updateVariant === undefined || deleteVariant === undefined) throw new Error('no variant writes');
    const input = {
      name: 'Enamel mug',
      description: 'A mug for the kitchen.',
      tags: ['kitchen'],
      images: [{ src: 'https://example.com/mug.png' }],
      variants: [
        { sku: 'MUG-BLUE', title: 'Blue', price: 12.5, unit_cost: 4.25, inventory_quantity: 10, option_values: [{ name: 'Colour', value: 'Blue' }] },
      ],
    };
    const duplicate = await rejection(products.create(wctx(), { ...input, variants: [...input.variants, { sku: 'MUG-BLUE', price: 1 }] }));
    expect(duplicate.kind).toBe('duplicate');
    const created = await products.create(wctx(), input);
    const product = unified('product', created);
    expect(product).toMatchObject({
      name: 'Enamel mug',
      status: 'active',
      tags: ['kitchen'],
      images: [{ src: 'https://example.com/mug.png' }],
      variants: [
        { sku: 'MUG-BLUE', title: 'Blue', price: 12.5, unit_cost: 4.25, inventory_quantity: 10, option_values: [{ name: 'Colour', value: 'Blue' }] },
      ],
    });
    const renamed = await products.update(wctx(), created.platformId, { name: 'Big enamel mug', status: 'archived' });
    expect(unified('product', renamed)).toMatchObject({ name: 'Big enamel mug', status: 'archived', description: 'A mug for the kitchen.' });

    const added = await createVariant(wctx(), created.platformId, { sku: 'MUG-RED', price: 13, option_values: [{ name: 'Colour', value: 'Red' }] });
    expect((unified('product', added.parent).variants as { id: string; sku: string }[]).map((v) => v.sku)).toEqual(['MUG-BLUE', 'MUG-RED']);
    const red = added.nestedId;
    const changed = await updateVariant(wctx(), created.platformId, red, { price: 14.75, barcode: '400000000001' });
    expect((unified('product', changed.parent).variants as Record<string, unknown>[]).find((v) => v.id === red)).toMatchObject({
      sku: 'MUG-RED',
      price: 14.75,
      barcode: '400000000001',
    });
    const clash = await rejection(updateVariant(wctx(), created.platformId, red, { sku: 'MUG-BLUE' }));
    expect(clash.kind).toBe('duplicate');
    const gone = await deleteVariant(wctx(), created.platformId, red);
    expect((unified('product', gone.parent).variants as unknown[]).length).toBe(1);
    const blue = String((product.variants as { id: string }[])[0]?.id);
    const last = await rejection(deleteVariant(wctx(), created.platformId, blue));
    expect(last.platformMessage).toMatch(/only one of product .*; delete the product instead/);
    const after = await books();
    // A product write posts nothing: the ledger stays balanced and payables where they were.
    expect(auditBooks(after)).toEqual([]);
    expect(native(after, 'account', 'ACC-000013').Balance).toBe(ap.Balance);

    // A product an order names is archived, not deleted; so is its variant.
    const order = after.find((r) => r.type === 'order');
    const line = (order?.raw.Lines as { ProductId: string; VariantId: string }[] | undefined)?.[0];
    if (line === undefined) throw new Error('no order line');
    const ordered = await rejection(products.delete(wctx(), line.ProductId));
    expect(ordered.platformMessage).toMatch(/is on order .*archive it instead/);
    await products.delete(wctx(), created.platformId);
    const end = await books();
    expect(end.some((r) => r.type === 'product' && r.raw.Id === created.platformId)).toBe(false);
    expect(auditBooks(end)).toEqual([]);
  });
});

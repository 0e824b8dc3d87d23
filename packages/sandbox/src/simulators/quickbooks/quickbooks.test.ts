import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import type { ConnectorContext } from '../../../../../src/platforms/connector.ts';
import { fixedTokenSession } from '../../../../../src/platforms/context.ts';
import { PlatformError } from '../../../../../src/platforms/errors.ts';
import { createPlatformHttp } from '../../../../../src/platforms/http.ts';
import { quickbooksConnector } from '../../../../../src/platforms/quickbooks/index.ts';
import { checkMappedObject } from '../../../../../src/sync/mapped-check.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { UNIFIED_OBJECT_TYPES } from '../../../../../src/model/object-types.ts';
import { auditBooks, type AuditInput } from '../../audit.ts';
import { parseCents } from '../../money.ts';
import type { NativeType } from '../../native.ts';
import { ROLES } from '../../generator/chart.ts';
import { SandboxPlatform } from '../../platform.ts';
import { readAll, testContext, writeContext, type ReadAllResult } from '../../testkit.ts';
import { simulatorBooks } from '../books.ts';
import type { SimulatorBooks } from '../kit.ts';
import { booksFetch } from '../testing.ts';
import { requestOf, responseOf } from '../wire.ts';
import { quickbooksSimulator } from './index.ts';
import { qboId, sandboxId } from './shapes.ts';
import { sandboxInvoicePdf } from '../../invoice-pdf.ts';

// Big enough for more than one query page (1,000 records) of bills, invoices and payments.
const KEY = 'quickbooks:user_qbo_size_15000';
let db: TestDatabase;
let platform: SandboxPlatform;
let books: SimulatorBooks;
let ctx: ConnectorContext;
let full: ReadAllResult;

const realm = (): string => quickbooksSimulator.tenantId(KEY);
const cents = (value: unknown): number => Math.round(Number(value) * 100);
/** The records of a type read, once each: query pages overlap, so a full read sees some records twice. */
function records(result: ReadAllResult, type: UnifiedObjectType): Record<string, unknown>[] {
  // Exchange rates have no Id: their currencies and date are their key.
  const key = (raw: Record<string, unknown>): string => JSON.stringify(raw.Id ?? [raw.SourceCurrencyCode, raw.TargetCurrencyCode, raw.AsOfDate]);
  return [...new Map(result.records.filter((r) => r.type === type).map((r) => [key(r.raw), r.raw])).values()];
}

/** The unified object of a read record, as the sync engine stores it. */
function mapped(type: UnifiedObjectType, raw: Record<string, unknown>): Record<string, unknown> {
  const handler = quickbooksConnector.objects[type]?.handler;
  if (handler === undefined) throw new Error(`no ${type} handler`);
  const platformId = String(raw.Id);
  return { id: `${type}:${platformId}`, ...handler.map({ platformId, raw }, ctx), platform_id: platformId };
}

/** Unified types SANDBOX keeps no books of (they are read from payment platforms only). */
const NOT_BOOKED: ReadonlySet<string> = new Set(['dispute', 'subscription']);
const isBooked = (type: UnifiedObjectType): type is UnifiedObjectType & NativeType => !NOT_BOOKED.has(type);

/** What SANDBOX's audit finds wrong in the books now (totals, allocations, ledger against balance sheet): [] when they tie out. */
async function audit(): Promise<string[]> {
  const input: AuditInput[] = [];
  for (const type of UNIFIED_OBJECT_TYPES.filter(isBooked)) for (const raw of await books.all(type)) input.push({ type, raw });
  return auditBooks(input);
}

/** A call straight to the simulator's API, as the connector's HTTP would send it. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const init: RequestInit = { method, headers: { accept: 'application/json', 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const grant = { accountKey: KEY, tenantId: realm(), scope: '', books, linkToken: () => Promise.resolve('test-link') };
  const response = responseOf(await quickbooksSimulator.handle(await requestOf(`https://sandbox-quickbooks.api.intuit.com${path}`, init), grant));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { tickIntervalMs: 0 });
  books = await simulatorBooks(platform, KEY);
  const tokens = { accessToken: 'x', refreshToken: 'y', expiresAt: '2999-01-01T00:00:00.000Z', tenantId: realm() };
  ctx = {
    ...testContext({}, createPlatformHttp({ fetch: booksFetch(quickbooksSimulator, books) })),
    tokens,
    oauth: fixedTokenSession(tokens),
  };
  full = await readAll(quickbooksConnector, ctx);
}, 120_000);
afterAll(async () => {
  await db.close();
});

describe('QuickBooks Online simulator, read through the real connector', () => {
  it('gives a stable realm id of Intuit’s length', () => {
    expect(realm()).toMatch(/^\d{16,19}$/);
    expect(quickbooksSimulator.tenantId(KEY)).toBe(realm());
    expect(quickbooksSimulator.tenantId('quickbooks:user_other')).not.toBe(realm());
  });

  it('maps every object of every type the connector reads without a schema violation', () => {
    const problems: string[] = [];
    const seen = new Set<UnifiedObjectType>();
    for (const record of full.records) {
      seen.add(record.type);
      const checked = checkMappedObject(record.type, mapped(record.type, record.raw));
      for (const v of checked.violations) problems.push(`${record.type} ${String(record.raw.Id)}: ${JSON.stringify(v)}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    for (const type of [
      'account',
      'vendor',
      'customer',
      'bill',
      'bill_payment',
      'invoice',
      'invoice_payment',
      'journal_entry',
      'expense',
      'company_info',
      'payment_method',
    ] as const) {
      expect(seen.has(type), type).toBe(true);
    }
  });

  it('reads as many records of each type as SANDBOX holds', async () => {
    const pairs = [
      'account',
      'vendor',
      'customer',
      'bill',
      'bill_payment',
      'bill_credit_memo',
      'invoice',
      'invoice_payment',
      'invoice_credit_memo',
      'sales_receipt',
      'bank_deposit',
      'bank_transfer',
      'journal_entry',
      'expense',
      'item',
      'payment_term',
      'payment_method',
      'class',
      'department',
      'employee',
      'tax_rate',
      'tax_agency',
      'attachment',
    ] as const;
    for (const type of pairs) expect(records(full, type).length, type).toBe((await books.all(type)).length);
    expect(records(full, 'company_info')).toHaveLength(1);
  });

  it('ties out invoices and bills: totals as SANDBOX has them, amount due = total less what was applied', async () => {
    for (const [type, paymentType, linkKey] of [
      ['invoice', 'invoice_payment', 'linked_invoices'],
      ['bill', 'bill_payment', 'linked_bills'],
    ] as const) {
      const native = await books.all(type);
      const live = native.filter((d) => d.Status !== 'Void');
      const unified = records(full, type).map((raw) => mapped(type, raw));
      expect(
        unified.reduce((sum, d) => sum + cents(d.total_amount), 0),
        type,
      ).toBe(live.reduce((sum, d) => sum + parseCents(d.Total), 0));
      const applied = new Map<string, number>();
      for (const p of records(full, paymentType).map((raw) => mapped(paymentType, raw))) {
        for (const link of p[linkKey] as { id: string; allocated_amount: number }[])
          applied.set(link.id, (applied.get(link.id) ?? 0) + cents(link.allocated_amount));
      }
      for (const doc of live) {
        const id = `${type}:${String(Number(doc.Id.split('-')[1]))}`;
        const unifiedDoc = unified.find((d) => d.id === id);
        // Credits reach a document through the credit, which QBO's payments do not list: SANDBOX tells them.
        const credits = doc.LinkedTxns.filter((l) => l.TxnType === 'CreditNote' || l.TxnType === 'VendorCredit').reduce(
          (s, l) => s + parseCents(l.Amount),
          0,
        );
        expect(cents(unifiedDoc?.amount_due), id).toBe(parseCents(doc.Total) - (applied.get(id) ?? 0) - credits);
      }
    }
  });

  it("ties out expenses, read as QBO's Purchases: each one's account, vendor, payment type and total as SANDBOX has them", async () => {
    const native = await books.all('expense');
    const unified = new Map(records(full, 'expense').map((raw) => [String(raw.Id), mapped('expense', raw)]));
    expect(unified.size).toBe(native.length);
    const types = { Cash: 'cash', Check: 'check', CreditCard: 'credit_card' } as const;
    for (const expense of native) {
      const id = qboId(expense.Id);
      const voided = expense.Status === 'Voided';
      expect(unified.get(id), id).toMatchObject({
        account_id: `account:${qboId(expense.PaymentAccountId)}`,
        vendor_id: expense.VendorId === undefined ? null : `vendor:${qboId(expense.VendorId)}`,
        payment_type: types[expense.PaymentType],
        expense_type: 'expense',
        total_amount: voided ? 0 : parseCents(expense.Total) / 100,
      });
    }
  });

  it('ties out the balance sheets (assets = liabilities + equity) and serves the income statements', () => {
    const sheets = records(full, 'balance_sheet').map((raw) => mapped('balance_sheet', raw));
    expect(sheets.length).toBe(24);
    const withData = sheets.filter((s) => s.total_assets !== '0');
    expect(withData.length).toBeGreaterThan(6);
    for (const s of sheets)
      expect(parseCents(String(s.total_assets)), String(s.start_date)).toBe(
        parseCents(String(s.total_liabilities)) + parseCents(String(s.total_equity)),
      );
    const statements = records(full, 'income_statement').map((raw) => mapped('income_statement', raw));
    expect(statements.some((s) => Number(s.net_income) !== 0)).toBe(true);
  });

  it('ties out the income statements and cash flow statements month by month with SANDBOX', async () => {
    const native = new Map((await books.all('income_statement')).map((s) => [s.PeriodEnd.slice(0, 7), s]));
    const statements = records(full, 'income_statement').map((raw) => mapped('income_statement', raw));
    let compared = 0;
    for (const s of statements) {
      const month = native.get(String(s.start_date).slice(0, 7));
      if (month === undefined) continue;
      compared++;
      expect(cents(s.net_income), String(s.start_date)).toBe(parseCents(month.NetIncome));
    }
    expect(compared).toBeGreaterThan(6);
    const flows = new Map((await books.all('cash_flow_statement')).map((s) => [s.PeriodEnd.slice(0, 7), s]));
    for (const s of records(full, 'cash_flow_statement').map((raw) => mapped('cash_flow_statement', raw))) {
      const month = flows.get(String(s.start_date).slice(0, 7));
      if (month !== undefined) expect(cents(s.ending_balance), String(s.start_date)).toBe(parseCents(month.EndingBalance));
    }
  });

  it('serves the currencies and exchange rates of a multicurrency company', async () => {
    const currencies = await books.all('currency');
    expect(records(full, 'currency').length).toBe(currencies.length);
    const home = books.company.currency;
    expect(records(full, 'exchange_rate').length).toBe((await books.all('exchange_rate')).filter((r) => r.TargetCurrencyCode === home).length);
  });

  it('downloads an attachment file through the connector', async () => {
    const attachment = records(full, 'attachment')[0];
    const download = quickbooksConnector.actions?.downloadAttachment;
    if (attachment === undefined || download === undefined) throw new Error('no attachment to download');
    const file = await download(ctx, { platformId: String(attachment.Id), raw: attachment });
    const native = await books.get('attachment', `ATT-${String(attachment.Id).padStart(6, '0')}`);
    expect(file.content.equals(Buffer.from(native?.Content ?? '', 'base64'))).toBe(true);
    expect(file.contentType).toBe(native?.ContentType);
  });

  it("serves SANDBOX's PDF of an invoice through the connector; an unknown invoice is QBO's 610 Fault", async () => {
    const invoice = records(full, 'invoice')[0];
    const render = quickbooksConnector.actions?.invoicePdf;
    if (invoice === undefined || render === undefined) throw new Error('no invoice to render');
    const pdf = await render(ctx, { platformId: String(invoice.Id), raw: invoice });
    const native = await books.get('invoice', sandboxId('invoice', String(invoice.Id)) ?? '');
    if (native === null) throw new Error(`no SANDBOX invoice for ${String(invoice.Id)}`);
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.content.equals(sandboxInvoicePdf(native))).toBe(true);
    const unknown = await render(ctx, { platformId: '99999999', raw: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(PlatformError);
    expect(unknown).toMatchObject({ kind: 'not_found' });
  });

  it('answers an incremental read with what changed since, deletions as tombstones', async () => {
    const types = ['bill', 'invoice', 'invoice_payment', 'bill_payment', 'journal_entry', 'bank_deposit'] as const;
    await platform.advance(KEY, 3);
    const since = Date.parse(String(full.cursors.bill));
    const changedNatively = new Set<string>();
    for (const type of types) {
      for (const r of await books.all(type))
        if (Date.parse(r.UpdatedAt) > since) changedNatively.add(`${type}:${String(Number(r.Id.split('-')[1]))}`);
    }
    expect(changedNatively.size).toBeGreaterThan(0);
    const changed = await readAll(quickbooksConnector, ctx, full.cursors, types);
    const read = new Set(changed.records.map((r) => `${r.type}:${String(r.raw.Id)}`));
    for (const key of changedNatively) expect(read.has(key), key).toBe(true);
    // A bill deleted in SANDBOX comes back as CDC's tombstone.
    const handler = quickbooksConnector.objects.bill?.handler;
    const open = (await books.all('bill')).find((b) => b.LinkedTxns.length === 0);
    if (handler?.delete === undefined || open === undefined) throw new Error('no bill to delete');
    const qboBillId = String(Number(open.Id.split('-')[1]));
    await handler.delete(writeContext(ctx, 'qbo-delete-1'), qboBillId);
    const after = await readAll(quickbooksConnector, ctx, changed.cursors, ['bill']);
    expect(after.records.find((r) => String(r.raw.Id) === qboBillId)?.raw.status).toBe('Deleted');
  });
});

describe('QuickBooks Online simulator, written through the real connector', () => {
  async function someIds(): Promise<{ vendor: string; account: string }> {
    const vendor = (await books.all('vendor')).find((v) => v.Status === 'Active');
    const account = (await books.all('account')).find((a) => a.Type === 'Expense' && a.Status === 'Active');
    if (vendor === undefined || account === undefined) throw new Error('no vendor or expense account');
    return { vendor: `vendor:${String(Number(vendor.Id.split('-')[1]))}`, account: `account:${String(Number(account.Id.split('-')[1]))}` };
  }

  it('creates a bill once per request id, readable afterwards', async () => {
    const handler = quickbooksConnector.objects.bill?.handler;
    if (handler?.create === undefined) throw new Error('no bill create');
    const { vendor, account } = await someIds();
    const before = (await books.all('bill')).length;
    const input = {
      vendor_id: vendor,
      issue_date: '2026-01-10T00:00:00.000Z',
      due_date: '2026-02-10T00:00:00.000Z',
      document_number: 'SIM-QBO-1',
      line_items: [{ account_id: account, total_amount: 123.45, description: 'Simulated' }],
    };
    const created = await handler.create(writeContext(ctx, 'qbo-bill-1'), input);
    const again = await handler.create(writeContext(ctx, 'qbo-bill-1'), input);
    expect(again.platformId).toBe(created.platformId);
    expect((await books.all('bill')).length).toBe(before + 1);
    const read = await call('GET', `/v3/company/${realm()}/bill/${created.platformId}?minorversion=75`);
    expect(read.status).toBe(200);
    expect((read.body.Bill as { TotalAmt: number }).TotalAmt).toBe(123.45);
    expect(mapped('bill', created.raw).total_amount).toBe(123.45);
  });

  it('updates and deletes a bill with its SyncToken', async () => {
    const handler = quickbooksConnector.objects.bill?.handler;
    if (handler?.create === undefined || handler.update === undefined || handler.delete === undefined) throw new Error('no bill writes');
    const { vendor, account } = await someIds();
    const created = await handler.create(writeContext(ctx, 'qbo-bill-2'), {
      vendor_id: vendor,
      issue_date: '2026-01-11T00:00:00.000Z',
      line_items: [{ account_id: account, total_amount: 10 }],
    });
    const updated = await handler.update(writeContext(ctx, 'qbo-bill-2u'), created.platformId, { memo: 'changed' });
    expect(updated.raw.PrivateNote).toBe('changed');
    await handler.delete(writeContext(ctx, 'qbo-bill-2d'), created.platformId);
    expect((await call('GET', `/v3/company/${realm()}/bill/${created.platformId}`)).status).toBe(400);
  });

  it('creates a customer and a journal entry through the connector', async () => {
    const customers = quickbooksConnector.objects.customer?.handler;
    const journals = quickbooksConnector.objects.journal_entry?.handler;
    if (customers?.create === undefined || journals?.create === undefined) throw new Error('no writes');
    const customer = await customers.create(writeContext(ctx, 'qbo-cus-1'), { customer_name: 'Simulated Customer Ltd', email: 'ap@example.com' });
    expect(customer.raw.DisplayName).toBe('Simulated Customer Ltd');
    if (customers.update === undefined) throw new Error('no customer update');
    const archived = await customers.update(writeContext(ctx, 'qbo-cus-1a'), customer.platformId, { status: 'archived' });
    expect(archived.raw.Active).toBe(false);
    expect((await books.get('customer', `CUS-${customer.platformId.padStart(6, '0')}`))?.Status).toBe('Archived');
    const { account } = await someIds();
    const bank = (await books.all('account')).find((a) => a.Type === 'Bank');
    const entry = await journals.create(writeContext(ctx, 'qbo-je-1'), {
      transaction_date: '2026-01-12T00:00:00.000Z',
      line_items: [
        { account_id: account, total_amount: 50 },
        { account_id: `account:${String(Number(bank?.Id.split('-')[1]))}`, total_amount: -50 },
      ],
    });
    expect(entry.raw.TotalAmt).toBe(50);
  });

  it('creates a sales receipt of an item line through the connector, deposited to Undeposited Funds and booked by SANDBOX', async () => {
    const receipts = quickbooksConnector.objects.sales_receipt?.handler;
    if (receipts?.create === undefined) throw new Error('no sales receipt create');
    const item = (await books.all('item')).find((i) => i.Status === 'Active');
    if (item === undefined) throw new Error('no item');
    const created = await receipts.create(writeContext(ctx, 'qbo-sr-1'), {
      issue_date: '2026-01-13T00:00:00.000Z',
      document_number: 'SIM-SR-1',
      line_items: [{ total_amount: 40, item: { id: `item:${String(Number(item.Id.split('-')[1]))}`, quantity: 2, unit_amount: 20 } }],
    });
    expect(created.raw).toMatchObject({ DocNumber: 'SIM-SR-1', TotalAmt: 40, Balance: 0 });
    const booked = (await books.all('sales_receipt')).find((r) => r.DocNumber === 'SIM-SR-1');
    expect(booked).toMatchObject({
      Total: '40.00',
      DepositToAccountId: ROLES.UndepositedFunds,
      Lines: [{ ItemId: item.Id, AccountId: item.IncomeAccountId }],
    });
  });

  it('creates, updates, voids and deletes an invoice of item lines through the connector; SANDBOX books each and the ledger ties out', async () => {
    const invoices = quickbooksConnector.objects.invoice?.handler;
    if (invoices?.create === undefined || invoices.update === undefined || invoices.delete === undefined) throw new Error('no invoice writes');
    const item = (await books.all('item')).find((i) => i.Status === 'Active');
    const customer = (await books.all('customer')).find((c) => c.Status === 'Active');
    if (item === undefined || customer === undefined) throw new Error('no item or customer');
    const qid = (id: string): string => String(Number(id.split('-')[1]));
    const balance = async (id: string): Promise<number> => Math.abs(parseCents((await books.get('account', id))?.Balance ?? '0'));
    const before = { ar: await balance(ROLES.AR), income: await balance(item.IncomeAccountId) };
    const line = (quantity: number, unit: number) => ({
      total_amount: quantity * unit,
      account_id: `account:${qid(item.IncomeAccountId)}`,
      item: { id: `item:${qid(item.Id)}`, quantity, unit_amount: unit },
    });
    const created = await invoices.create(writeContext(ctx, 'qbo-inv-1'), {
      customer_id: `customer:${qid(customer.Id)}`,
      issue_date: '2026-01-14T00:00:00.000Z',
      due_date: '2026-02-13T00:00:00.000Z',
      document_number: 'SIM-INV-1',
      memo: 'Simulated invoice',
      line_items: [line(3, 30)],
    });
    expect(created.raw).toMatchObject({ DocNumber: 'SIM-INV-1', TotalAmt: 90, Balance: 90, PrivateNote: 'Simulated invoice', DueDate: '2026-02-13' });
    const booked = async () => books.get('invoice', sandboxId('invoice', created.platformId) ?? '');
    expect(await booked()).toMatchObject({
      Total: '90.00',
      AmountDue: '90.00',
      Status: 'Open',
      Lines: [{ ItemId: item.Id, AccountId: item.IncomeAccountId }],
    });
    // Receivable up by the total, the item's income account by the line.
    expect([await balance(ROLES.AR), await balance(item.IncomeAccountId)]).toEqual([before.ar + 9000, before.income + 9000]);

    const updated = await invoices.update(writeContext(ctx, 'qbo-inv-1u'), created.platformId, { line_items: [line(4, 30)], memo: 'Four' });
    expect(updated.raw).toMatchObject({ TotalAmt: 120, Balance: 120, PrivateNote: 'Four', DocNumber: 'SIM-INV-1' });
    expect(await balance(ROLES.AR)).toBe(before.ar + 12000);

    const voided = await invoices.update(writeContext(ctx, 'qbo-inv-1v'), created.platformId, { status: 'void' });
    expect(voided.raw).toMatchObject({ TotalAmt: 0, Balance: 0 });
    expect(mapped('invoice', voided.raw).status).toBe('void');
    expect((await booked())?.Status).toBe('Void');
    expect([await balance(ROLES.AR), await balance(item.IncomeAccountId)]).toEqual([before.ar, before.income]);

    await invoices.delete(writeContext(ctx, 'qbo-inv-1d'), created.platformId);
    expect(await booked()).toBeNull();
    expect((await call('GET', `/v3/company/${realm()}/invoice/${created.platformId}`)).status).toBe(400);
  });

  it('takes a customer payment of an invoice through the connector into the bank, updates, voids and deletes it; the ledger ties out', async () => {
    const invoices = quickbooksConnector.objects.invoice?.handler;
    const payments = quickbooksConnector.objects.invoice_payment?.handler;
    if (invoices?.create === undefined || invoices.delete === undefined) throw new Error('no invoice writes');
    if (payments?.create === undefined || payments.update === undefined || payments.delete === undefined) throw new Error('no payment writes');
    const item = (await books.all('item')).find((i) => i.Status === 'Active');
    const customer = (await books.all('customer')).find((c) => c.Status === 'Active');
    const bank = (await books.all('account')).find((a) => a.Type === 'Bank' && a.Status === 'Active');
    if (item === undefined || customer === undefined || bank === undefined) throw new Error('no item, customer or bank');
    const qid = (id: string): string => String(Number(id.split('-')[1]));
    const balance = async (id: string): Promise<number> => parseCents((await books.get('account', id))?.Balance ?? '0');
    const before = { ar: await balance(ROLES.AR), bank: await balance(bank.Id) };
    const invoice = await invoices.create(writeContext(ctx, 'qbo-pay-inv'), {
      customer_id: `customer:${qid(customer.Id)}`,
      issue_date: '2026-01-15T00:00:00.000Z',
      line_items: [{ total_amount: 100, item: { id: `item:${qid(item.Id)}`, quantity: 1, unit_amount: 100 } }],
    });
    const owed = async () => (await books.get('invoice', sandboxId('invoice', invoice.platformId) ?? ''))?.AmountDue;
    const pay = (amount: number) => ({ linked_invoices: [{ id: `invoice:${invoice.platformId}`, allocated_amount: amount }] });
    const created = await payments.create(writeContext(ctx, 'qbo-pay-1'), {
      customer_id: `customer:${qid(customer.Id)}`,
      account_id: `account:${qid(bank.Id)}`,
      transaction_date: '2026-01-16T00:00:00.000Z',
      reference: 'CHK 77',
      ...pay(60),
    });
    expect(created.raw).toMatchObject({
      TotalAmt: 60,
      PaymentRefNum: 'CHK 77',
      Line: [{ Amount: 60, LinkedTxn: [{ TxnId: invoice.platformId, TxnType: 'Invoice' }] }],
    });
    expect(await owed()).toBe('40.00');
    expect([await balance(ROLES.AR), await balance(bank.Id)]).toEqual([before.ar + 4000, before.bank + 6000]);

    const updated = await payments.update(writeContext(ctx, 'qbo-pay-1u'), created.platformId, pay(100));
    expect(updated.raw).toMatchObject({ TotalAmt: 100 });
    expect(await owed()).toBe('0.00');
    expect([await balance(ROLES.AR), await balance(bank.Id)]).toEqual([before.ar, before.bank + 10000]);

    const voided = await payments.update(writeContext(ctx, 'qbo-pay-1v'), created.platformId, { status: 'void' });
    expect(mapped('invoice_payment', voided.raw).status).toBe('void');
    expect(await owed()).toBe('100.00');
    expect([await balance(ROLES.AR), await balance(bank.Id)]).toEqual([before.ar + 10000, before.bank]);

    await payments.delete(writeContext(ctx, 'qbo-pay-1d'), created.platformId);
    expect(await books.get('invoice_payment', sandboxId('invoice_payment', created.platformId) ?? '')).toBeNull();
    await invoices.delete(writeContext(ctx, 'qbo-pay-invd'), invoice.platformId);
    expect([await balance(ROLES.AR), await balance(bank.Id)]).toEqual([before.ar, before.bank]);
  });

  it('creates an item through the connector, changes its price sparsely and archives it; SANDBOX refuses to delete it', async () => {
    const items = quickbooksConnector.objects.item?.handler;
    if (items?.create === undefined || items.update === undefined) throw new Error('no item writes');
    expect('delete' in items).toBe(false);
    const { account } = await someIds();
    const income = (await books.all('account')).find((a) => a.Type === 'Income' && a.Status === 'Active');
    const item = await items.create(writeContext(ctx, 'qbo-item-1'), {
      name: 'Simulated Service',
      type: 'service',
      invoice_item: { unit_price: 75, account_id: `account:${String(Number(income?.Id.split('-')[1]))}`, description: 'Hour' },
      bill_item: { unit_price: 20.5, account_id: account },
    });
    expect(mapped('item', item.raw)).toMatchObject({
      name: 'Simulated Service',
      type: 'service',
      invoice_item: { unit_price: 75 },
      bill_item: { unit_price: 20.5 },
    });
    const repriced = await items.update(writeContext(ctx, 'qbo-item-1u'), item.platformId, { invoice_item: { unit_price: 80 } });
    expect([repriced.raw.UnitPrice, repriced.raw.PurchaseCost]).toEqual([80, 20.5]);
    await items.update(writeContext(ctx, 'qbo-item-1a'), item.platformId, { status: 'archived' });
    const native = await books.get('item', `ITEM-${item.platformId.padStart(6, '0')}`);
    expect([native?.Status, native?.SalesPrice]).toEqual(['Archived', '80.00']);
    const refused = await call('POST', `/v3/company/${realm()}/item?operation=delete`, { Id: item.platformId, SyncToken: '2' });
    expect(refused.status).toBe(400);
  });

  it('creates a vendor through the QBO API once per requestid', async () => {
    const before = (await books.all('vendor')).length;
    const body = {
      DisplayName: 'Simulated Vendor Co',
      PrimaryEmailAddr: { Address: 'sales@vendor.example' },
      BillAddr: { Line1: '1 Main St', City: 'Springfield' },
    };
    const first = await call('POST', `/v3/company/${realm()}/vendor?requestid=vendor-1&minorversion=75`, body);
    const second = await call('POST', `/v3/company/${realm()}/vendor?requestid=vendor-1&minorversion=75`, body);
    expect(first.status).toBe(200);
    expect((first.body.Vendor as { Id: string }).Id).toBe((second.body.Vendor as { Id: string }).Id);
    expect((await books.all('vendor')).length).toBe(before + 1);
    const vendors = await readAll(quickbooksConnector, ctx, {}, ['vendor']);
    expect(vendors.records.some((r) => r.raw.DisplayName === 'Simulated Vendor Co')).toBe(true);
  });

  it('creates a vendor through the connector, changes it sparsely and archives it by a DELETE; the books tie out', async () => {
    const vendors = quickbooksConnector.objects.vendor?.handler;
    if (vendors?.create === undefined || vendors.update === undefined || vendors.delete === undefined) throw new Error('no vendor writes');
    const created = await vendors.create(writeContext(ctx, 'qbo-ven-1'), {
      vendor_name: 'Simulated Timber Ltd',
      contact_name: 'Tess Timber',
      email: 'ap@timber.example',
      website: 'https://timber.example',
      tax_number: '98-7654321',
      addresses: [{ type: 'billing', address1: '2 Mill Lane', city: 'Salem', region: 'OR', postal_code: '97301', country: 'US' }],
    });
    const id = `VEN-${created.platformId.padStart(6, '0')}`;
    expect(await books.get('vendor', id)).toMatchObject({
      DisplayName: 'Simulated Timber Ltd',
      ContactName: 'Tess Timber',
      Email: 'ap@timber.example',
      Website: 'https://timber.example',
      TaxNumber: '98-7654321',
      Status: 'Active',
      Addresses: [{ Kind: 'Billing', Line1: '2 Mill Lane', City: 'Salem' }],
    });
    expect(mapped('vendor', created.raw)).toMatchObject({
      vendor_name: 'Simulated Timber Ltd',
      contact_name: 'Tess Timber',
      tax_number: '98-7654321',
    });
    const changed = await vendors.update(writeContext(ctx, 'qbo-ven-1u'), created.platformId, { phone: '555-0101' });
    expect(changed.raw).toMatchObject({ PrimaryPhone: { FreeFormNumber: '555-0101' }, DisplayName: 'Simulated Timber Ltd' });
    await vendors.delete(writeContext(ctx, 'qbo-ven-1d'), created.platformId);
    expect((await books.get('vendor', id))?.Status).toBe('Archived');
    expect(await audit()).toEqual([]);
  });

  it('pays a bill through the connector by check and by card, voids and deletes the payments; SANDBOX books them and ties out', async () => {
    const payments = quickbooksConnector.objects.bill_payment?.handler;
    if (payments?.create === undefined || payments.update === undefined || payments.delete === undefined) throw new Error('no bill payment writes');
    const vendors = new Set((await books.all('vendor')).filter((v) => v.Status === 'Active').map((v) => v.Id));
    const bill = (await books.all('bill')).find((b) => b.Status === 'Open' && vendors.has(b.VendorId) && parseCents(b.AmountDue) >= 1000);
    const accounts = await books.all('account');
    const bank = accounts.find((a) => a.Type === 'Bank' && a.Status === 'Active');
    const card = accounts.find((a) => a.Type === 'CreditCard' && a.Status === 'Active');
    if (bill === undefined || bank === undefined || card === undefined) throw new Error('no open bill, bank or card account');
    const qbo = (id: string): string => String(Number(id.split('-')[1]));
    const due = async (): Promise<string> => (await books.get('bill', bill.Id))?.AmountDue ?? '';
    const before = await due();
    const payment = (account: string, key: string) => ({
      vendor_id: `vendor:${qbo(bill.VendorId)}`,
      account_id: `account:${qbo(account)}`,
      transaction_date: bill.TxnDate,
      currency_code: bill.CurrencyCode,
      document_number: `SIM-${key}`,
      linked_bills: [{ id: `bill:${qbo(bill.Id)}`, allocated_amount: 4 }],
    });
    const check = await payments.create(writeContext(ctx, 'bp-1'), payment(bank.Id, 'bp-1'));
    expect(check.raw).toMatchObject({ PayType: 'Check', TotalAmt: 4, DocNumber: 'SIM-bp-1' });
    const booked = await books.get('bill_payment', `BPAY-${check.platformId.padStart(6, '0')}`);
    expect(booked).toMatchObject({ BankAccountId: bank.Id, Amount: '4.00', Status: 'Active', LinkedTxns: [{ TxnId: bill.Id, Amount: '4.00' }] });
    const byCard = await payments.create(writeContext(ctx, 'bp-2'), payment(card.Id, 'bp-2'));
    expect(byCard.raw).toMatchObject({ PayType: 'CreditCard', CreditCardPayment: { CCAccountRef: { value: qbo(card.Id) } } });
    expect(mapped('bill_payment', byCard.raw)).toMatchObject({ account_id: `account:${qbo(card.Id)}`, total_amount: 4 });
    expect(parseCents(await due())).toBe(parseCents(before) - 800);
    const voided = await payments.update(writeContext(ctx, 'bp-1v'), check.platformId, { status: 'void' });
    expect(mapped('bill_payment', voided.raw)).toMatchObject({ status: 'void', total_amount: 0 });
    await payments.delete(writeContext(ctx, 'bp-2d'), byCard.platformId);
    expect(await due()).toBe(before);
    expect(await audit()).toEqual([]);
  });

  it('creates, changes and deletes a vendor credit through the connector; SANDBOX books it against payables and ties out', async () => {
    const credits = quickbooksConnector.objects.bill_credit_memo?.handler;
    if (credits?.create === undefined || credits.update === undefined || credits.delete === undefined) throw new Error('no vendor credit writes');
    const { vendor, account } = await someIds();
    const created = await credits.create(writeContext(ctx, 'qbo-vc-1'), {
      vendor_id: vendor,
      issue_date: '2026-01-14T00:00:00.000Z',
      document_number: 'SIM-VC-1',
      line_items: [{ account_id: account, total_amount: 45.5, description: 'Returned goods' }],
    });
    expect(created.raw).toMatchObject({ DocNumber: 'SIM-VC-1', TotalAmt: 45.5, Balance: 45.5 });
    const id = `VCR-${created.platformId.padStart(6, '0')}`;
    expect(await books.get('bill_credit_memo', id)).toMatchObject({ Total: '45.50', Remaining: '45.50', Status: 'Open' });
    const changed = await credits.update(writeContext(ctx, 'qbo-vc-1u'), created.platformId, {
      memo: 'Part returned',
      line_items: [{ account_id: account, total_amount: 20 }],
    });
    expect(mapped('bill_credit_memo', changed.raw)).toMatchObject({ total_amount: 20, remaining_amount: 20, memo: 'Part returned' });
    await credits.delete(writeContext(ctx, 'qbo-vc-1d'), created.platformId);
    expect(await books.get('bill_credit_memo', id)).toBeNull();
    expect(await audit()).toEqual([]);
  });

  it('creates, changes and deletes an expense through the connector as a Purchase; SANDBOX books it from the account paid and ties out', async () => {
    const expenses = quickbooksConnector.objects.expense?.handler;
    if (expenses?.create === undefined || expenses.update === undefined || expenses.delete === undefined) throw new Error('no expense writes');
    const { vendor, account } = await someIds();
    const accounts = await books.all('account');
    const bank = accounts.find((a) => a.Type === 'Bank' && a.Status === 'Active');
    const card = accounts.find((a) => a.Type === 'CreditCard' && a.Status === 'Active');
    if (bank === undefined || card === undefined) throw new Error('no bank or card account');
    const qbo = (id: string): string => String(Number(id.split('-')[1]));
    const created = await expenses.create(writeContext(ctx, 'qbo-exp-1'), {
      account_id: `account:${qbo(card.Id)}`,
      vendor_id: vendor,
      transaction_date: '2026-01-15T00:00:00.000Z',
      document_number: 'SIM-EXP-1',
      line_items: [{ account_id: account, total_amount: 32.4, description: 'Fuel' }],
    });
    expect(created.raw).toMatchObject({ PaymentType: 'CreditCard', DocNumber: 'SIM-EXP-1', TotalAmt: 32.4 });
    const id = `EXP-${created.platformId.padStart(6, '0')}`;
    expect(await books.get('expense', id)).toMatchObject({
      PaymentAccountId: card.Id,
      PaymentType: 'CreditCard',
      VendorId: `VEN-${vendor.split(':')[1]?.padStart(6, '0') ?? ''}`,
      Reference: 'SIM-EXP-1',
      Total: '32.40',
    });
    const changed = await expenses.update(writeContext(ctx, 'qbo-exp-1u'), created.platformId, {
      account_id: `account:${qbo(bank.Id)}`,
      payment_type: 'check',
      memo: 'Paid by check',
      line_items: [{ account_id: account, total_amount: 20 }],
    });
    expect(mapped('expense', changed.raw)).toMatchObject({ payment_type: 'check', total_amount: 20, memo: 'Paid by check' });
    expect(await books.get('expense', id)).toMatchObject({ PaymentAccountId: bank.Id, PaymentType: 'Check', Total: '20.00' });
    // The connector takes a refund on a card account only; SANDBOX books spending only and refuses QBO's card credit.
    const refund = (on: string) => ({ account_id: `account:${qbo(on)}`, expense_type: 'refund' });
    await expect(expenses.update(writeContext(ctx, 'qbo-exp-1r'), created.platformId, refund(bank.Id))).rejects.toMatchObject({
      metadata: { field: 'expense_type' },
    });
    await expect(expenses.update(writeContext(ctx, 'qbo-exp-1c'), created.platformId, refund(card.Id))).rejects.toThrow();
    expect(await books.get('expense', id)).toMatchObject({ PaymentAccountId: bank.Id, Total: '20.00' });
    await expenses.delete(writeContext(ctx, 'qbo-exp-1d'), created.platformId);
    expect(await books.get('expense', id)).toBeNull();
    expect(await audit()).toEqual([]);
  });

  it('refuses a malformed write with QBO’s 400 Fault', async () => {
    const missing = await call('POST', `/v3/company/${realm()}/bill?requestid=bad-1`, { Line: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.Fault).toMatchObject({ type: 'ValidationFault', Error: [{ code: '2020', element: 'VendorRef' }] });
    const handler = quickbooksConnector.objects.bill?.handler;
    if (handler?.create === undefined) throw new Error('no bill create');
    const { account } = await someIds();
    const error = await handler
      .create(writeContext(ctx, 'bad-2'), {
        vendor_id: 'vendor:999999',
        issue_date: '2026-01-10T00:00:00.000Z',
        line_items: [{ account_id: account, total_amount: 1 }],
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).httpStatus).toBe(400);
  });

  it('serves the TaxCodes lines reference', async () => {
    const query = (text: string): string => `/v3/company/${realm()}/query?query=${encodeURIComponent(text)}`;
    const codes =
      ((await call('GET', query('SELECT * FROM TaxCode MAXRESULTS 1000'))).body.QueryResponse as { TaxCode?: { Id: string }[] }).TaxCode ?? [];
    expect(codes.length).toBe((await books.all('tax_rate')).length);
    const referenced = records(full, 'bill').flatMap((b) =>
      (b.Line as { AccountBasedExpenseLineDetail?: { TaxCodeRef?: { value: string } } }[]).flatMap(
        (l) => l.AccountBasedExpenseLineDetail?.TaxCodeRef?.value ?? [],
      ),
    );
    for (const id of referenced) expect(codes.map((c) => c.Id)).toContain(id);
  });

  it('answers another realm with 403 and unknown paths with a Fault', async () => {
    expect((await call('GET', `/v3/company/123/query?query=${encodeURIComponent('SELECT * FROM Bill')}`)).status).toBe(403);
    const unknown = await call('GET', `/v3/company/${realm()}/widget/1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.Fault).toBeDefined();
    expect((await call('GET', '/nowhere')).status).toBe(404);
    const badQuery = await call('GET', `/v3/company/${realm()}/query?query=${encodeURIComponent('SELECT * FROM Widget')}`);
    expect(badQuery.body.Fault).toMatchObject({ Error: [{ code: '4000' }] });
  });
});

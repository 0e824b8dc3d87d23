/**
 * Writes through the real Xero connector's write path land in SANDBOX's books: a bill, an invoice, their payments, a customer, a vendor and a
 * manual journal are created (and read back through the simulator), a repeat with the same idempotency key applies nothing
 * more, a bill is updated and a draft deleted, and SANDBOX's refusals come back as Xero's 400 ValidationException.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorContext, ObjectHandler, PlatformRecord, WriteContext } from '../../../../../src/platforms/connector.ts';
import { fixedTokenSession } from '../../../../../src/platforms/context.ts';
import { PlatformError } from '../../../../../src/platforms/errors.ts';
import { createPlatformHttp, type FetchLike } from '../../../../../src/platforms/http.ts';
import { xeroConnector } from '../../../../../src/platforms/xero/index.ts';
import { checkMappedObject } from '../../../../../src/sync/mapped-check.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { xeroContract } from '../../../../../test/standins/xero/contract.ts';
import { SandboxPlatform } from '../../platform.ts';
import { testContext } from '../../testkit.ts';
import { simulatorBooks } from '../books.ts';
import type { SimulatorBooks, SimulatorRequest } from '../kit.ts';
import { booksFetch } from '../testing.ts';
import { requestOf } from '../wire.ts';
import { idOfUuid as sandboxIdOf, uuidOfId as xeroId } from '../uuid-ids.ts';
import { xeroSimulator } from './index.ts';
import { auditBooks, type AuditInput } from '../../audit.ts';
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import type { NativeType } from '../../native.ts';

const KEY = 'xero:user_writes_size_800';
let db: TestDatabase;
let books: SimulatorBooks;

beforeAll(async () => {
  db = await createTestDatabase();
  const platform = new SandboxPlatform(db.pool, { asOf: '2025-06-15', tickIntervalMs: 0, now: () => Date.parse('2025-06-15T12:00:00Z') });
  books = await simulatorBooks(platform, KEY);
}, 120_000);
afterAll(async () => {
  await db.close();
});

interface Exchange {
  request: SimulatorRequest;
  status: number;
  answer: unknown;
}
const exchanges: Exchange[] = [];

/** The simulator's fetch, recording each call of the connector and its answer for the contract check. */
function recordingFetch(inner: FetchLike): FetchLike {
  return async (url, init) => {
    const request = await requestOf(url, init);
    const response = await inner(url, init);
    const text = await response.clone().text();
    exchanges.push({ request, status: response.status, answer: text === '' ? undefined : (JSON.parse(text) as unknown) });
    return response;
  };
}

function writeContext(idempotencyKey: string): WriteContext {
  const tokens = { accessToken: 'x', refreshToken: 'y', expiresAt: '2999-01-01T00:00:00.000Z', tenantId: xeroSimulator.tenantId(KEY), scope: null };
  const http = createPlatformHttp({ fetch: recordingFetch(booksFetch(xeroSimulator, books)), maxAttempts: 1 });
  const ctx: ConnectorContext = { ...testContext({}, http), tokens, oauth: fixedTokenSession(tokens) };
  return { ...ctx, idempotencyKey };
}

type Handler = ObjectHandler;

/** The connector's handler of a type, its writes called through it (they are methods of the handler). */
function handler(
  type:
    'bill' | 'customer' | 'journal_entry' | 'vendor' | 'invoice' | 'invoice_payment' | 'bill_payment' | 'bill_credit_memo' | 'invoice_credit_memo',
) {
  const found: Handler | undefined = xeroConnector.objects[type]?.handler;
  if (found === undefined) throw new Error(`the Xero connector does not read ${type}`);
  const missing = (): never => {
    throw new Error(`the Xero connector does not write ${type}`);
  };
  return {
    map: (record: PlatformRecord, ctx: ConnectorContext) => found.map(record, ctx),
    create: (ctx: WriteContext, input: Record<string, unknown>) => found.create?.(ctx, input) ?? missing(),
    update: (ctx: WriteContext, id: string, patch: Record<string, unknown>) => found.update?.(ctx, id, patch) ?? missing(),
    delete: (ctx: WriteContext, id: string) => found.delete?.(ctx, id) ?? missing(),
  };
}

/** A unified reference to a SANDBOX record, as the service hands it to the connector. */
const ref = (type: string, sandboxId: string): string => `${type}:${xeroId(sandboxId)}`;

async function expenseAccount(): Promise<string> {
  const account = (await books.all('account')).find((a) => a.Type === 'Expense' && a.Status === 'Active');
  if (account === undefined) throw new Error('no expense account');
  return account.Id;
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

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
}

describe('XERO simulator writes through the Xero connector', () => {
  it('creates a bill in SANDBOX, readable through the simulator, once per idempotency key', async () => {
    const vendor = (await books.all('vendor'))[0];
    if (vendor === undefined) throw new Error('no vendor');
    const account = await expenseAccount();
    const input = {
      vendor_id: ref('vendor', vendor.Id),
      issue_date: '2025-06-10T00:00:00.000Z',
      due_date: '2025-07-10T00:00:00.000Z',
      document_number: 'SIM-BILL-1',
      line_items: [
        { account_id: ref('account', account), description: 'Studio rent', total_amount: 1200 },
        { account_id: ref('account', account), description: 'Cleaning', total_amount: 80.5 },
      ],
    };
    const bill = handler('bill');
    const created = await bill.create(writeContext('bill-1'), input);
    const mapped = bill.map(created, writeContext('read'));
    expect(checkMappedObject('bill', { id: 'bill:new', ...mapped }).violations).toEqual([]);
    expect(mapped).toMatchObject({
      document_number: 'SIM-BILL-1',
      total_amount: 1280.5,
      amount_due: 1280.5,
      status: 'open',
      vendor_id: ref('vendor', vendor.Id),
    });

    const id = sandboxIdOf(created.platformId);
    const stored = id === null ? null : await books.get('bill', id);
    expect(stored).toMatchObject({
      DocNumber: 'SIM-BILL-1',
      VendorId: vendor.Id,
      TxnDate: '2025-06-10',
      DueDate: '2025-07-10',
      Total: '1280.50',
      Status: 'Open',
    });

    const count = (await books.all('bill')).length;
    const again = await bill.create(writeContext('bill-1'), input);
    expect(again.platformId).toBe(created.platformId);
    expect((await books.all('bill')).length).toBe(count);

    const fetch = booksFetch(xeroSimulator, books);
    const read = await fetch(`https://api.xero.com/api.xro/2.0/Invoices/${created.platformId}`, {
      headers: { 'xero-tenant-id': xeroSimulator.tenantId(KEY) },
    });
    expect(await read.json()).toMatchObject({
      Invoices: [{ InvoiceID: created.platformId, Type: 'ACCPAY', InvoiceNumber: 'SIM-BILL-1', Total: 1280.5 }],
    });
  });

  it('updates a bill, and deletes a draft one', async () => {
    const vendor = (await books.all('vendor'))[1];
    if (vendor === undefined) throw new Error('no vendor');
    const account = await expenseAccount();
    const bill = handler('bill');
    const draft = await bill.create(writeContext('bill-draft'), {
      vendor_id: ref('vendor', vendor.Id),
      issue_date: '2025-06-11T00:00:00.000Z',
      status: 'draft',
      line_items: [{ account_id: ref('account', account), total_amount: 45 }],
    });
    const updated = await bill.update(writeContext('bill-draft-update'), draft.platformId, { document_number: 'SIM-DRAFT-2' });
    expect(bill.map(updated, writeContext('read'))).toMatchObject({ document_number: 'SIM-DRAFT-2', status: 'draft', total_amount: 45 });
    await bill.delete(writeContext('bill-draft-delete'), draft.platformId);
    expect(await books.get('bill', sandboxIdOf(draft.platformId) ?? '')).toBeNull();
    // An incremental read reports it gone, as Xero lists a deleted invoice (Status DELETED).
    const reader = xeroConnector.objects.bill?.handler;
    if (reader === undefined) throw new Error('no bill reader');
    const gone: string[] = [];
    let pageToken: string | null = null;
    do {
      const page = await reader.read(writeContext('read'), { since: '2025-06-15T00:00:00.000Z', window: null, pageToken });
      gone.push(...page.records.filter((r) => r.deleted === true).map((r) => r.platformId));
      pageToken = page.nextPageToken;
    } while (pageToken !== null);
    expect(gone).toContain(draft.platformId);
  });

  it('creates a customer (a Xero contact) once per idempotency key, and refuses a second of the same name as a duplicate', async () => {
    const input = {
      customer_name: 'Simulated Customer Ltd',
      contact_name: 'Ada Lovelace',
      email: 'ada@simulated.example',
      phone: '+44 20 7946 0000',
      addresses: [{ type: 'billing', address1: '1 Test Street', city: 'London', region: 'Greater London', postal_code: 'N1 1AA', country: 'GB' }],
    };
    const customer = handler('customer');
    const created = await customer.create(writeContext('customer-1'), input);
    expect(customer.map(created, writeContext('read'))).toMatchObject({
      customer_name: 'Simulated Customer Ltd',
      contact_name: 'Ada Lovelace',
      email: 'ada@simulated.example',
    });
    const count = (await books.all('customer')).length;
    expect((await customer.create(writeContext('customer-1'), input)).platformId).toBe(created.platformId);
    expect((await books.all('customer')).length).toBe(count);
    expect(await books.get('customer', sandboxIdOf(created.platformId) ?? '')).toMatchObject({
      DisplayName: 'Simulated Customer Ltd',
      ContactName: 'Ada Lovelace',
      Email: 'ada@simulated.example',
      Phone: '+44 20 7946 0000',
      Addresses: [{ Kind: 'Billing', Line1: '1 Test Street', City: 'London' }],
    });
    const duplicate = await rejection(customer.create(writeContext('customer-2'), input));
    expect(duplicate).toMatchObject({ kind: 'duplicate', duplicateProperty: 'customer_name' });
  });

  it('creates a vendor (a Xero contact sent with IsSupplier) as a SANDBOX vendor once per idempotency key, and updates it', async () => {
    const input = { vendor_name: 'Simulated Supplies Ltd', contact_name: 'Grace Hopper', email: 'ap@supplies.example', currency_code: 'GBP' };
    const vendor = handler('vendor');
    const vendorsBefore = (await books.all('vendor')).length;
    const customersBefore = (await books.all('customer')).length;
    const created = await vendor.create(writeContext('vendor-1'), input);
    expect(vendor.map(created, writeContext('read'))).toMatchObject({ vendor_name: 'Simulated Supplies Ltd', contact_name: 'Grace Hopper' });
    expect((await vendor.create(writeContext('vendor-1'), input)).platformId).toBe(created.platformId);
    expect((await books.all('vendor')).length).toBe(vendorsBefore + 1);
    expect((await books.all('customer')).length).toBe(customersBefore);
    expect(await books.get('vendor', sandboxIdOf(created.platformId) ?? '')).toMatchObject({
      DisplayName: 'Simulated Supplies Ltd',
      ContactName: 'Grace Hopper',
      Email: 'ap@supplies.example',
    });
    const updated = await vendor.update(writeContext('vendor-1-update'), created.platformId, { email: 'bills@supplies.example' });
    expect(vendor.map(updated, writeContext('read'))).toMatchObject({ vendor_name: 'Simulated Supplies Ltd', email: 'bills@supplies.example' });
    expect(await books.get('vendor', sandboxIdOf(created.platformId) ?? '')).toMatchObject({ Email: 'bills@supplies.example' });
  });

  it('creates a sales invoice through the connector (ACCREC), updates and voids it, and deletes a draft one', async () => {
    const customer = (await books.all('customer'))[2];
    const income = (await books.all('account')).find((a) => a.Type === 'Income' && a.Status === 'Active');
    if (customer === undefined || income === undefined) throw new Error('no books');
    const invoice = handler('invoice');
    const input = {
      customer_id: ref('customer', customer.Id),
      issue_date: '2025-06-12T00:00:00.000Z',
      due_date: '2025-07-12T00:00:00.000Z',
      document_number: 'SIM-INV-1',
      memo: 'June work',
      line_items: [{ account_id: ref('account', income.Id), description: 'Consulting', total_amount: 300 }],
    };
    const created = await invoice.create(writeContext('invoice-1'), input);
    expect(invoice.map(created, writeContext('read'))).toMatchObject({
      document_number: 'SIM-INV-1',
      memo: 'June work',
      status: 'open',
      total_amount: 300,
      customer_id: ref('customer', customer.Id),
    });
    const count = (await books.all('invoice')).length;
    expect((await invoice.create(writeContext('invoice-1'), input)).platformId).toBe(created.platformId);
    expect((await books.all('invoice')).length).toBe(count);
    const id = sandboxIdOf(created.platformId) ?? '';
    expect(await books.get('invoice', id)).toMatchObject({
      CustomerId: customer.Id,
      DocNumber: 'SIM-INV-1',
      Memo: 'June work',
      Total: '300.00',
      Status: 'Open',
    });

    const updated = await invoice.update(writeContext('invoice-1-update'), created.platformId, { memo: 'June work (revised)' });
    expect(invoice.map(updated, writeContext('read'))).toMatchObject({ memo: 'June work (revised)', total_amount: 300 });
    // An approved invoice is voided, never deleted, as in Xero.
    expect(await rejection(invoice.delete(writeContext('invoice-1-delete'), created.platformId))).toMatchObject({ kind: 'bad_request' });
    await invoice.update(writeContext('invoice-1-void'), created.platformId, { status: 'void' });
    expect(await books.get('invoice', id)).toMatchObject({ Status: 'Void' });

    const draft = await invoice.create(writeContext('invoice-draft'), { ...input, document_number: 'SIM-INV-2', status: 'draft' });
    await invoice.delete(writeContext('invoice-draft-delete'), draft.platformId);
    expect(await books.get('invoice', sandboxIdOf(draft.platformId) ?? '')).toBeNull();
  });

  it('books credit notes through the connector as SANDBOX credit memos and vendor credits, once per key; updates and voids them; the books tie out', async () => {
    const customer = (await books.all('customer'))[1];
    const vendor = (await books.all('vendor'))[1];
    const income = (await books.all('account')).find((a) => a.Type === 'Income' && a.Status === 'Active');
    if (customer === undefined || vendor === undefined || income === undefined) throw new Error('no books');
    const expense = await expenseAccount();
    const kinds = [
      ['invoice_credit_memo', { customer_id: ref('customer', customer.Id) }, income.Id, { CustomerId: customer.Id }],
      ['bill_credit_memo', { vendor_id: ref('vendor', vendor.Id) }, expense, { VendorId: vendor.Id }],
    ] as const;
    for (const [type, party, account, booked] of kinds) {
      const credits = handler(type);
      const input = {
        ...party,
        issue_date: '2025-06-13T00:00:00.000Z',
        document_number: `SIM-${type}`,
        memo: 'Returned',
        line_items: [{ account_id: ref('account', account), description: 'Returned goods', total_amount: 45.5 }],
      };
      const created = await credits.create(writeContext(`${type}-1`), input);
      expect(credits.map(created, writeContext('read')), type).toMatchObject({
        ...party,
        document_number: `SIM-${type}`,
        memo: 'Returned',
        status: 'open',
        total_amount: 45.5,
        remaining_amount: 45.5,
      });
      const count = (await books.all(type)).length;
      expect((await credits.create(writeContext(`${type}-1`), input)).platformId).toBe(created.platformId);
      expect((await books.all(type)).length).toBe(count);
      const id = sandboxIdOf(created.platformId) ?? '';
      expect(await books.get(type, id), type).toMatchObject({
        ...booked,
        DocNumber: `SIM-${type}`,
        Total: '45.50',
        Remaining: '45.50',
        Status: 'Open',
      });

      const updated = await credits.update(writeContext(`${type}-1u`), created.platformId, {
        memo: 'Part returned',
        line_items: [{ account_id: ref('account', account), total_amount: 20 }],
      });
      expect(credits.map(updated, writeContext('read')), type).toMatchObject({ memo: 'Part returned', total_amount: 20, remaining_amount: 20 });
      expect(await audit(), type).toEqual([]);
      // Approved: not deleted (as in Xero), voided.
      expect(await rejection(credits.delete(writeContext(`${type}-1d`), created.platformId))).toMatchObject({ kind: 'bad_request' });
      await credits.update(writeContext(`${type}-1v`), created.platformId, { status: 'void' });
      expect(await books.get(type, id), type).toMatchObject({ Status: 'Void' });
      // SANDBOX keeps no draft credits: the simulator answers a draft with Xero's 400.
      expect(await rejection(credits.create(writeContext(`${type}-draft`), { ...input, status: 'draft' }))).toMatchObject({ kind: 'bad_request' });
    }
    expect(await audit()).toEqual([]);
  });

  it('pays an invoice and a bill through the connector (Xero Payments) as SANDBOX payments, and deletes a payment', async () => {
    const customer = (await books.all('customer'))[3];
    const vendor = (await books.all('vendor'))[2];
    const income = (await books.all('account')).find((a) => a.Type === 'Income' && a.Status === 'Active');
    const bank = (await books.all('account')).find((a) => a.Type === 'Bank' && a.Status === 'Active');
    if (customer === undefined || vendor === undefined || income === undefined || bank === undefined) throw new Error('no books');
    const account = await expenseAccount();
    const invoice = await handler('invoice').create(writeContext('pay-invoice'), {
      customer_id: ref('customer', customer.Id),
      issue_date: '2025-06-12T00:00:00.000Z',
      line_items: [{ account_id: ref('account', income.Id), total_amount: 250 }],
    });
    const payments = handler('invoice_payment');
    const input = {
      customer_id: ref('customer', customer.Id),
      account_id: ref('account', bank.Id),
      transaction_date: '2025-06-14T00:00:00.000Z',
      reference: 'SIM-PAY-1',
      linked_invoices: [{ id: ref('invoice', sandboxIdOf(invoice.platformId) ?? ''), allocated_amount: 100 }],
    };
    const paid = await payments.create(writeContext('payment-1'), input);
    expect((await payments.create(writeContext('payment-1'), input)).platformId).toBe(paid.platformId);
    const paymentId = sandboxIdOf(paid.platformId) ?? '';
    expect(await books.get('invoice_payment', paymentId)).toMatchObject({
      CustomerId: customer.Id,
      DepositToAccountId: bank.Id,
      TxnDate: '2025-06-14',
      Reference: 'SIM-PAY-1',
      Amount: '100.00',
    });
    expect(await books.get('invoice', sandboxIdOf(invoice.platformId) ?? '')).toMatchObject({ AmountDue: '150.00' });
    await payments.delete(writeContext('payment-1-delete'), paid.platformId);
    expect(await books.get('invoice_payment', paymentId)).toBeNull();
    expect(await books.get('invoice', sandboxIdOf(invoice.platformId) ?? '')).toMatchObject({ AmountDue: '250.00' });

    const bill = await handler('bill').create(writeContext('pay-bill'), {
      vendor_id: ref('vendor', vendor.Id),
      issue_date: '2025-06-12T00:00:00.000Z',
      line_items: [{ account_id: ref('account', account), total_amount: 80 }],
    });
    const billPaid = await handler('bill_payment').create(writeContext('bill-payment-1'), {
      vendor_id: ref('vendor', vendor.Id),
      account_id: ref('account', bank.Id),
      transaction_date: '2025-06-14T00:00:00.000Z',
      linked_bills: [{ id: ref('bill', sandboxIdOf(bill.platformId) ?? ''), allocated_amount: 80 }],
    });
    expect(await books.get('bill_payment', sandboxIdOf(billPaid.platformId) ?? '')).toMatchObject({
      VendorId: vendor.Id,
      BankAccountId: bank.Id,
      Amount: '80.00',
    });
    expect(await books.get('bill', sandboxIdOf(bill.platformId) ?? '')).toMatchObject({ AmountDue: '0.00', Status: 'Paid' });
  });

  it('posts a manual journal', async () => {
    const [debit, credit] = (await books.all('account')).filter((a) => a.Status === 'Active' && a.Type === 'Expense');
    if (debit === undefined || credit === undefined) throw new Error('no accounts');
    const journal = handler('journal_entry');
    const created = await journal.create(writeContext('journal-1'), {
      memo: 'Reclass',
      transaction_date: '2025-06-12T00:00:00.000Z',
      line_items: [
        { account_id: ref('account', debit.Id), total_amount: 50 },
        { account_id: ref('account', credit.Id), total_amount: -50 },
      ],
    });
    expect(await books.get('journal_entry', sandboxIdOf(created.platformId) ?? '')).toMatchObject({
      Memo: 'Reclass',
      TxnDate: '2025-06-12',
      Status: 'Posted',
      Lines: [
        { AccountId: debit.Id, Debit: '50.00' },
        { AccountId: credit.Id, Credit: '50.00' },
      ],
    });
  });

  it('voids a posted manual journal when the connector deletes it', async () => {
    const posted = (await books.all('journal_entry')).find((j) => j.Memo === 'Reclass');
    if (posted === undefined) throw new Error('the journal was not posted');
    await handler('journal_entry').delete(writeContext('journal-1-delete'), xeroId(posted.Id));
    expect(await books.get('journal_entry', posted.Id)).toMatchObject({ Status: 'Voided' });
  });

  it('creates a sales invoice (ACCREC) and updates a supplier contact through the API', async () => {
    const customer = (await books.all('customer'))[0];
    const vendor = (await books.all('vendor'))[0];
    const income = (await books.all('account')).find((a) => a.Type === 'Income' && a.Status === 'Active');
    if (customer === undefined || vendor === undefined || income === undefined) throw new Error('no books');
    const fetch = booksFetch(xeroSimulator, books);
    const send = (method: string, path: string, body: unknown) =>
      fetch(`https://api.xero.com/api.xro/2.0${path}`, {
        method,
        headers: { 'xero-tenant-id': xeroSimulator.tenantId(KEY), 'content-type': 'application/json', 'idempotency-key': `raw-${path}` },
        body: JSON.stringify(body),
      });
    const invoice = await send('PUT', '/Invoices', {
      Invoices: [
        {
          Type: 'ACCREC',
          Contact: { ContactID: xeroId(customer.Id) },
          Date: '2025-06-14',
          DueDate: '2025-07-14',
          Status: 'AUTHORISED',
          LineAmountTypes: 'NoTax',
          LineItems: [{ Description: 'Consulting', Quantity: 3, UnitAmount: 150, AccountCode: income.Code }],
        },
      ],
    });
    expect(invoice.status).toBe(200);
    const [created] = ((await invoice.json()) as { Invoices: { InvoiceID: string }[] }).Invoices;
    expect(await books.get('invoice', sandboxIdOf(created?.InvoiceID ?? '') ?? '')).toMatchObject({
      CustomerId: customer.Id,
      Total: '450.00',
      Status: 'Open',
    });

    const contact = await send('POST', `/Contacts/${xeroId(vendor.Id)}`, { Contacts: [{ EmailAddress: 'ap@vendor.example' }] });
    expect(await contact.json()).toMatchObject({ Contacts: [{ ContactID: xeroId(vendor.Id), IsSupplier: true, EmailAddress: 'ap@vendor.example' }] });
    expect(await books.get('vendor', vendor.Id)).toMatchObject({ Email: 'ap@vendor.example', DisplayName: vendor.DisplayName });
  });

  it("answers a malformed write with Xero's 400 ValidationException", async () => {
    const vendor = (await books.all('vendor'))[0];
    const fetch = booksFetch(xeroSimulator, books);
    const put = (body: unknown) =>
      fetch('https://api.xero.com/api.xro/2.0/Invoices', {
        method: 'PUT',
        headers: { 'xero-tenant-id': xeroSimulator.tenantId(KEY), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const badCode = await put({
      Invoices: [{ Type: 'ACCPAY', Contact: { ContactID: xeroId(vendor?.Id ?? '') }, LineItems: [{ AccountCode: 'NOPE', UnitAmount: 10 }] }],
    });
    expect(badCode.status).toBe(400);
    expect(await badCode.json()).toMatchObject({
      Type: 'ValidationException',
      Elements: [{ ValidationErrors: [{ Message: "Account code 'NOPE' is not a valid code for this document." }] }],
    });
    // SANDBOX's own refusal (a due date before the bill's date), in Xero's shape.
    const account = (await books.all('account')).find((a) => a.Id === 'ACC-000030');
    const early = await put({
      Invoices: [
        {
          Type: 'ACCPAY',
          Contact: { ContactID: xeroId(vendor?.Id ?? '') },
          Date: '2025-06-10',
          DueDate: '2025-06-01',
          LineItems: [{ AccountCode: account?.Code, UnitAmount: 10 }],
        },
      ],
    });
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({
      Type: 'ValidationException',
      Elements: [{ ValidationErrors: [{ Message: 'DueDate is before TxnDate' }] }],
    });
    expect((await put({ Invoices: 'nope' })).status).toBe(400);
  });

  it("kept every request the connector sent and every answer it got within Xero's published contract", () => {
    const contract = xeroContract();
    const problems: string[] = [];
    for (const { request, status, answer } of exchanges) {
      const path = request.path.slice('/api.xro/2.0'.length);
      const found = contract.find('accounting', request.method, path);
      if (found === null) {
        problems.push(`${request.method} ${request.path} is not in the contract`);
        continue;
      }
      const parts = {
        pathParams: found.pathParams,
        query: request.query,
        headers: request.headers,
        contentType: request.headers['content-type'] ?? null,
        body: request.body,
      };
      problems.push(
        ...[...contract.validateRequest(found.operation, parts), ...contract.validateResponse(found.operation, status, answer)].map(
          (p) => `${request.method} ${path}: ${p}`,
        ),
      );
    }
    expect(exchanges.filter((e) => e.request.method !== 'GET').length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });
});

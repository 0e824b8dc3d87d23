/**
 * The Xero connector against the stand-in built from Xero's contract, without
 * a database: every read and map compared with the stand-in's own records,
 * every mapped record checked against its unified schema, paging, cursors
 * and windows on the wire, the OAuth flow through the consent page, and the
 * writes' translation and Xero's refusals. No request may break the contract.
 */
import pg from 'pg';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../model/index.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import { serviceId } from '../../store/ids.ts';
import { startXeroStandIn, useStandIn, type XeroStandIn } from '../../../test/standins/xero/server.ts';
import { XeroBooks } from '../../../test/standins/xero/books.ts';
import type { Json } from '../../../test/standins/xero/seed.ts';
import type { Connector, ConnectorContext, OAuthTokens, PlatformRecord, WriteContext } from '../connector.ts';
import { connectorContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { validateConnector } from '../registry.ts';
import { xeroAuth, XERO_SCOPES } from './auth.ts';
import { msDate, xeroDay, xeroIso, xeroMillis } from './dates.ts';
import { xeroConnector } from './index.ts';

const CONNECTION = '7a3c1f0e-0000-4000-8000-00000000c0de';
const APP = { clientId: 'ledgerport-unit', clientSecret: 'unit-secret', redirectUri: 'http://localhost:4000/link/oauth/callback' };
/** The connector without its 60-a-minute limit, so the file runs in seconds; the limits are checked on their own. */
const fast: Connector = { ...xeroConnector, limits: { requestsPerMinute: null, concurrentRequests: 5 } };

let standin: XeroStandIn;
let restore: () => void;
const noDatabase = new pg.Pool({ max: 1 });

beforeAll(async () => {
  standin = await startXeroStandIn();
  restore = useStandIn(standin);
  standin.registerClient(APP);
});
afterAll(async () => {
  restore();
  await standin.close();
  await noDatabase.end();
});
afterEach(() => {
  expect(standin.violations).toEqual([]);
});

const ref = (type: UnifiedObjectType, id: unknown): string | null => (typeof id === 'string' && id !== '' ? serviceId(CONNECTION, type, id) : null);

function context(tokens: OAuthTokens = { ...standin.issueTokens(APP.clientId) }): ConnectorContext {
  return connectorContext({ connector: fast, connectionId: CONNECTION, credentials: {}, tokens, environment: 'sandbox', db: noDatabase });
}

/** A write context whose service ids resolve like stored records do (ids are derived from platform ids). */
function writeContext(key: string, known: Partial<Record<UnifiedObjectType, string[]>>): WriteContext {
  const base = context();
  return {
    ...base,
    idempotencyKey: key,
    platformIdOf: (type, id) => Promise.resolve((known[type] ?? []).find((platformId) => serviceId(CONNECTION, type, platformId) === id) ?? null),
  };
}

async function readAll(type: UnifiedObjectType, ctx = context(), since: string | null = null, window: { start: string; end: string } | null = null) {
  const handler = fast.objects[type]?.handler;
  if (handler === undefined) throw new Error(`no ${type}`);
  const live: PlatformRecord[] = [];
  const dead: PlatformRecord[] = [];
  let pageToken: string | null = null;
  let pages = 0;
  let nextSince: string | null | undefined;
  do {
    const page = await handler.read(ctx, { since, window, pageToken });
    pages += 1;
    for (const record of page.records) (record.deleted === true ? dead : live).push(record);
    pageToken = page.nextPageToken;
    nextSince = page.nextSince;
  } while (pageToken !== null);
  const mapped = new Map(live.map((r) => [r.platformId, handler.map(r, ctx)]));
  return { live, dead, pages, nextSince, mapped };
}

const books = () => standin.books();
const invoicesOf = (type: string): Json[] =>
  books()
    .all('Invoices')
    .filter((i) => i.Type === type);
const accountByCode = (code: unknown): Json | undefined =>
  books()
    .all('Accounts')
    .find((a) => a.Code === code && a.Status !== 'DELETED');

function expectedStatus(r: Json): string {
  const open = Number(r.AmountDue ?? r.RemainingCredit);
  const total = Number(r.Total);
  return (
    ({ DRAFT: 'draft', SUBMITTED: 'submitted', PAID: 'paid', VOIDED: 'void' } as Record<string, string>)[String(r.Status)] ??
    (open > 0 && open < total ? 'partially_paid' : 'open')
  );
}

describe('the Xero connector', () => {
  it("is a valid connector with Xero's limits and scopes", () => {
    expect(validateConnector(xeroConnector)).toEqual([]);
    expect(xeroConnector).toMatchObject({
      id: 'XERO',
      name: 'Xero',
      kind: 'accounting',
      limits: { requestsPerMinute: 50, burst: 10, concurrentRequests: 5, dailyRequests: 5_000 },
    });
    // Xero's granular scopes (apps created since March 2026 cannot ask for accounting.transactions or accounting.reports.read).
    expect(XERO_SCOPES.split(' ')).toEqual([
      'offline_access',
      'accounting.invoices',
      'accounting.payments',
      'accounting.banktransactions.read',
      'accounting.manualjournals',
      'accounting.contacts',
      'accounting.settings',
      'accounting.reports.balancesheet.read',
      'accounting.reports.profitandloss.read',
      'accounting.attachments',
      'openid',
      'profile',
      'email',
    ]);
    expect(XERO_SCOPES).not.toMatch(/accounting\.transactions|accounting\.reports\.read/);
    const writable = Object.entries(xeroConnector.objects)
      .filter(([, o]) => o.capabilities.create)
      .map(([t]) => t)
      .sort();
    expect(writable).toEqual([
      'bill',
      'bill_credit_memo',
      'bill_payment',
      'customer',
      'invoice',
      'invoice_credit_memo',
      'invoice_payment',
      'journal_entry',
      'vendor',
    ]);
  });

  it('reads Xero dates', () => {
    expect(xeroIso('/Date(1539993600000+0000)/')).toBe('2018-10-20T00:00:00.000Z');
    expect(xeroDay('/Date(1541176290160+0000)/')).toBe('2018-11-02T00:00:00.000Z');
    expect(xeroIso('2019-12-07T18:46:19')).toBe('2019-12-07T18:46:19.000Z');
    expect(xeroMillis(undefined)).toBeNull();
  });
});

describe('reads against the stand-in', () => {
  it('maps every bill: totals, status, vendor, payments, credits and lines (accounts by code, tax rates, tracking)', async () => {
    const { mapped, dead, pages } = await readAll('bill');
    const source = invoicesOf('ACCPAY');
    expect(source.length).toBeGreaterThan(100);
    expect(pages).toBe(2);
    expect(dead.map((r) => r.platformId)).toEqual(source.filter((b) => b.Status === 'DELETED').map((b) => b.InvoiceID));
    expect(mapped.size).toBe(source.length - dead.length);
    const statuses = new Set<string>();
    for (const bill of source.filter((b) => b.Status !== 'DELETED')) {
      const m = mapped.get(String(bill.InvoiceID));
      expect(m, String(bill.InvoiceID)).toMatchObject({
        total_amount: bill.Total,
        amount_due: bill.AmountDue,
        sub_total: bill.SubTotal,
        tax_amount: bill.TotalTax,
        status: expectedStatus(bill),
        vendor_id: ref('vendor', (bill.Contact as Json).ContactID),
        document_number: bill.InvoiceNumber,
        currency_code: 'NZD',
        issue_date: xeroDay(bill.Date),
        due_date: xeroDay(bill.DueDate),
        updated_at: xeroIso(bill.UpdatedDateUTC),
        memo: null,
        platform_url: `https://go.xero.com/AccountsPayable/Edit.aspx?InvoiceID=${String(bill.InvoiceID)}`,
      });
      statuses.add(String(m?.status));
      const lines = (m?.line_items ?? []) as Json[];
      expect(lines).toHaveLength((bill.LineItems as Json[]).length);
      (bill.LineItems as Json[]).forEach((line, i) => {
        const tracking = (line.Tracking as Json[])[0];
        expect(lines[i]).toMatchObject({
          platform_id: line.LineItemID,
          account_id: ref('account', accountByCode(line.AccountCode)?.AccountID),
          tax_rate_id: ref('tax_rate', line.TaxType),
          class_id: ref('class', tracking?.TrackingOptionID),
          sub_total: line.LineAmount,
          tax_amount: line.TaxAmount,
          total_amount: Math.round((Number(line.LineAmount) + Number(line.TaxAmount)) * 100) / 100,
          description: line.Description,
          item: null,
        });
      });
      expect(m?.linked_payments).toEqual(
        (bill.Payments as Json[]).map((p) => ({ id: ref('bill_payment', p.PaymentID), allocated_date: xeroDay(p.Date), allocated_amount: p.Amount })),
      );
      expect(m?.linked_credit_memos).toEqual(
        (bill.CreditNotes as Json[]).map((c) => ({
          id: ref('bill_credit_memo', c.CreditNoteID),
          allocated_date: xeroDay(c.Date),
          allocated_amount: c.AppliedAmount,
        })),
      );
    }
    expect([...statuses].sort()).toEqual(['draft', 'open', 'paid', 'partially_paid', 'void']);
  });

  it("gives invoices the reference's discount_amount, payment kinds and line types, and sales credit lines its flat fields", async () => {
    const invoices = await readAll('invoice');
    const source = invoicesOf('ACCREC').filter((i) => i.Status !== 'DELETED');
    expect(invoices.mapped.size).toBe(source.length);
    let payments = 0;
    for (const invoice of source) {
      const m = invoices.mapped.get(String(invoice.InvoiceID));
      expect(m?.discount_amount).toBe(invoice.TotalDiscount ?? null);
      expect(m?.discount_amount).toBe(m?.total_discount);
      // Xero has no kind of line: none is typed shipping.
      expect(((m?.line_items ?? []) as Json[]).map((l) => l.type)).toEqual(((invoice.LineItems ?? []) as Json[]).map(() => null));
      expect(m?.linked_payments).toEqual(
        ((invoice.Payments ?? []) as Json[]).map((p) => ({
          id: ref('invoice_payment', p.PaymentID),
          allocated_date: xeroDay(p.Date),
          allocated_amount: p.Amount,
          type: 'INVOICE_PAYMENT',
        })),
      );
      payments += (m?.linked_payments as Json[]).length;
    }
    expect(payments).toBeGreaterThan(0);
    const credits = await readAll('invoice_credit_memo');
    const lines = [...credits.mapped.values()].flatMap((c) => c.line_items as Json[]);
    expect(lines.length).toBeGreaterThan(0);
    // Xero items are not synced, so a line's item fields are null; amount is its total.
    for (const line of lines) expect(line).toMatchObject({ id: null, item_id: null, quantity: null, unit_amount: null, amount: line.total_amount });
  });

  it("pages by UpdatedDateUTC from the last page's newest, filters bills with where, and sends nothing the contract does not have", async () => {
    standin.resetCounters();
    const { live } = await readAll('bill');
    const calls = standin.requests.filter((r) => r.path === '/api.xro/2.0/Invoices');
    expect(calls.map((c) => c.query)).toEqual([1, 1].map((page) => ({ page: String(page), order: 'UpdatedDateUTC ASC', where: 'Type=="ACCPAY"' })));
    expect(calls.every((c) => c.tenant === standin.tenants[0]?.id)).toBe(true);
    // The second page asks from just before the first page's newest bill (keyset, not page 2).
    const firstPage = live.slice(0, 100).map((r) => xeroMillis(r.raw.UpdatedDateUTC) ?? 0);
    expect(calls.map((c) => c.ifModifiedSince)).toEqual([undefined, new Date(Math.max(...firstPage) - 1).toISOString()]);
  });

  it('loses no record changed while it pages: an edited bill of the first page moves ahead of the reader, and every bill is read', async () => {
    const handler = fast.objects.bill?.handler;
    if (handler === undefined) throw new Error('no bill');
    const ctx = context();
    const first = await handler.read(ctx, { since: null, window: null, pageToken: null });
    expect(first.nextPageToken).not.toBeNull();
    // Between the page requests, Xero's users edit two bills of the first page: each gets the newest UpdatedDateUTC.
    // Paged by number, each would shift the next page down by one and one unchanged bill would never be read.
    for (const record of first.records.slice(0, 2)) {
      books().change('Invoices', record.platformId, (bill) => {
        bill.Reference = 'Edited while paging';
      });
    }
    const seen = new Set(first.records.map((r) => r.platformId));
    let pageToken = first.nextPageToken;
    const edited: string[] = [];
    while (pageToken !== null) {
      const page = await handler.read(ctx, { since: null, window: null, pageToken });
      for (const record of page.records) {
        seen.add(record.platformId);
        if (record.raw.Reference === 'Edited while paging') edited.push(record.platformId);
      }
      pageToken = page.nextPageToken;
    }
    expect([...seen].sort()).toEqual(
      invoicesOf('ACCPAY')
        .map((b) => String(b.InvoiceID))
        .sort(),
    );
    // The edits themselves are read too, in their new version.
    expect(edited.sort()).toEqual(
      first.records
        .slice(0, 2)
        .map((r) => r.platformId)
        .sort(),
    );
  });

  it('pages by number within one instant when more than a page of records share an UpdatedDateUTC (a bulk import)', async () => {
    const handler = fast.objects.bill?.handler;
    if (handler === undefined) throw new Error('no bill');
    const stamp = `/Date(${Date.UTC(2026, 5, 1)}+0000)/`;
    const bills = invoicesOf('ACCPAY');
    // The stand-in's records themselves, given one instant; put back afterwards for the tests that follow.
    const before = new Map(bills.map((bill) => [bill, bill.UpdatedDateUTC]));
    for (const bill of bills) bill.UpdatedDateUTC = stamp;
    const seen = new Set<string>();
    let pageToken: string | null = null;
    let pages = 0;
    do {
      const page = await handler.read(context(), { since: null, window: null, pageToken });
      for (const record of page.records) seen.add(record.platformId);
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken !== null && pages < 20);
    for (const [bill, updated] of before) bill.UpdatedDateUTC = updated;
    expect(seen.size).toBe(bills.length);
    expect(pages).toBeLessThan(20);
  });

  it("reads changes since a cursor with If-Modified-Since and moves the cursor to Xero's newest UpdatedDateUTC", async () => {
    const source = invoicesOf('ACCPAY').filter((b) => b.Status !== 'DELETED');
    const times = source.map((b) => xeroMillis(b.UpdatedDateUTC) ?? 0).sort((a, b) => a - b);
    const since = new Date(times[times.length - 3] ?? 0).toISOString();
    standin.resetCounters();
    const { mapped, nextSince } = await readAll('bill', context(), since);
    expect(mapped.size).toBe(3);
    expect(nextSince).toBe(new Date(times[times.length - 1] ?? 0).toISOString());
    expect(standin.requests.filter((r) => r.path.endsWith('/Invoices')).map((r) => r.ifModifiedSince)).toEqual([since]);
    // Nothing changed after the newest record: the cursor stays where it was.
    const again = await readAll('bill', context(), new Date((times[times.length - 1] ?? 0) + 1).toISOString());
    expect(again.mapped.size).toBe(0);
    expect(again.nextSince).toBe(new Date((times[times.length - 1] ?? 0) + 1).toISOString());
  });

  it('honours a date window with a where clause on Date', async () => {
    standin.resetCounters();
    const { mapped } = await readAll('bill', context(), null, { start: '2024-06-01T00:00:00.000Z', end: '2024-09-01T00:00:00.000Z' });
    const inside = invoicesOf('ACCPAY').filter(
      (b) => b.Status !== 'DELETED' && (xeroMillis(b.Date) ?? 0) >= Date.UTC(2024, 5, 1) && (xeroMillis(b.Date) ?? 0) < Date.UTC(2024, 8, 1),
    );
    expect(inside.length).toBeGreaterThan(5);
    expect([...mapped.keys()].sort()).toEqual(inside.map((b) => String(b.InvoiceID)).sort());
    expect(standin.requests[0]?.query.where).toBe('Type=="ACCPAY" && Date>=DateTime(2024,06,01) && Date<DateTime(2024,09,01)');
  });

  it('maps payments by the invoice they pay, and credit notes by type with their allocations', async () => {
    const billPayments = await readAll('bill_payment');
    const source = books()
      .all('Payments')
      .filter((p) => p.PaymentType === 'ACCPAYPAYMENT');
    expect(billPayments.mapped.size).toBe(source.length);
    for (const p of source) {
      const invoice = p.Invoice as Json;
      expect(billPayments.mapped.get(String(p.PaymentID))).toMatchObject({
        account_id: ref('account', (p.Account as Json).AccountID),
        vendor_id: ref('vendor', (invoice.Contact as Json).ContactID),
        total_amount: p.Amount,
        status: 'active',
        currency_code: 'NZD',
        linked_bills: [{ id: ref('bill', invoice.InvoiceID), allocated_date: xeroDay(p.Date), allocated_amount: p.Amount }],
      });
    }
    const invoicePayments = await readAll('invoice_payment');
    expect([...invoicePayments.mapped.keys()].sort()).toEqual(
      books()
        .all('Payments')
        .filter((p) => p.PaymentType === 'ACCRECPAYMENT')
        .map((p) => String(p.PaymentID))
        .sort(),
    );

    const credits = await readAll('bill_credit_memo');
    const applied = books()
      .all('CreditNotes')
      .filter((c) => c.Type === 'ACCPAYCREDIT' && (c.Allocations as Json[]).length > 0);
    expect(applied.length).toBe(3);
    for (const c of applied) {
      const allocation = (c.Allocations as Json[])[0] ?? {};
      expect(credits.mapped.get(String(c.CreditNoteID))).toMatchObject({
        status: 'partially_paid',
        total_amount: c.Total,
        remaining_amount: c.RemainingCredit,
        vendor_id: ref('vendor', (c.Contact as Json).ContactID),
        linked_bills: [
          { id: ref('bill', (allocation.Invoice as Json).InvoiceID), allocated_date: xeroDay(allocation.Date), allocated_amount: allocation.Amount },
        ],
      });
    }
    const salesCredits = await readAll('invoice_credit_memo');
    expect([...salesCredits.mapped.keys()]).toEqual(
      books()
        .all('CreditNotes')
        .filter((c) => c.Type === 'ACCRECCREDIT')
        .map((c) => c.CreditNoteID),
    );
    // The reference's allocated_at: the latest allocation's date, null for a credit applied to no invoice.
    for (const c of books()
      .all('CreditNotes')
      .filter((note) => note.Type === 'ACCRECCREDIT')) {
      const dates = (c.Allocations as Json[]).map((a) => xeroDay(a.Date)).sort();
      expect(salesCredits.mapped.get(String(c.CreditNoteID))).toMatchObject({ allocated_at: dates.at(-1) ?? null });
    }
    for (const p of books()
      .all('Payments')
      .filter((payment) => payment.PaymentType === 'ACCRECPAYMENT')) {
      expect(invoicePayments.mapped.get(String(p.PaymentID))).toMatchObject({
        txn_date: xeroDay(p.Date),
        payment_method_id: null,
        deposited: null,
        currency_rate: p.CurrencyRate ?? null,
        linked_invoices: [{ allocated_at: xeroDay(p.Date), amount: p.Amount }],
      });
    }
  });

  it("lists a contact under vendors and customers by Xero's flags; a contact with neither is both", async () => {
    const vendors = await readAll('vendor');
    const customers = await readAll('customer');
    const contacts = books().all('Contacts');
    expect([...vendors.mapped.keys()].sort()).toEqual(
      contacts
        .filter((c) => c.IsSupplier === true || c.IsCustomer !== true)
        .map((c) => String(c.ContactID))
        .sort(),
    );
    expect([...customers.mapped.keys()].sort()).toEqual(
      contacts
        .filter((c) => c.IsCustomer === true || c.IsSupplier !== true)
        .map((c) => String(c.ContactID))
        .sort(),
    );
    const both = contacts.find((c) => c.Name === 'Katherine Warren') ?? {};
    expect(both).toMatchObject({ IsSupplier: true, IsCustomer: true });
    const expected = {
      contact_name: 'Katherine Warren',
      email: 'kat.warren@clampett.com',
      phone: '(626) 847-1294',
      status: 'active',
      addresses: [
        {
          type: 'pobox',
          address1: null,
          address2: null,
          address3: null,
          city: 'Palo Alto',
          country: 'United States',
          postal_code: '94020',
          region: 'CA',
        },
      ],
    };
    expect(vendors.mapped.get(String(both.ContactID))).toMatchObject({ ...expected, vendor_name: 'Katherine Warren' });
    expect(customers.mapped.get(String(both.ContactID))).toMatchObject({ ...expected, customer_name: 'Katherine Warren' });
    // A contact without the role is left out, not reported gone: losing a flag never deletes a customer or vendor.
    expect(customers.dead).toEqual([]);
    expect(vendors.dead).toEqual([]);
  });

  it('reads the chart, journals, transfers, tax rates, tracking, currencies and the organisation', async () => {
    const accounts = await readAll('account');
    const live = books()
      .all('Accounts')
      .filter((a) => a.Status !== 'DELETED');
    expect(accounts.mapped.size).toBe(live.length);
    expect(accounts.mapped.get('ebd06280-af70-4bed-97c6-7451a454ad85')).toMatchObject({
      name: 'Business Savings Account',
      nominal_code: '091',
      account_type: 'bank',
      category: 'asset',
      status: 'active',
      currency_code: 'NZD',
    });
    expect(accounts.mapped.get('7d05a53d-613d-4eb2-a2fc-dcb6adb80b80')).toMatchObject({ name: 'Sales', account_type: 'income', category: 'income' });
    expect([...accounts.mapped.values()].find((a) => a.name === 'Accounts Payable')).toMatchObject({
      account_type: 'accounts_payable',
      category: 'liability',
    });

    const journals = await readAll('journal_entry');
    const posted =
      books()
        .all('ManualJournals')
        .find((j) => j.ManualJournalID === '99cb8353-ce73-4a5d-8e0d-8b0edf86cfc4') ?? {};
    expect(journals.mapped.get('99cb8353-ce73-4a5d-8e0d-8b0edf86cfc4')).toEqual(
      expect.objectContaining({
        // In the organisation's base currency, which the journal does not name.
        memo: "These aren't the droids you are looking for",
        transaction_date: xeroDay(posted.Date),
        currency_code: 'NZD',
        line_items: (posted.JournalLines as Json[]).map((l) => ({
          account_id: ref('account', l.AccountID),
          tax_rate_id: ref('tax_rate', 'NONE'),
          total_amount: l.LineAmount,
          description: l.Description,
        })),
      }),
    );
    for (const journal of journals.mapped.values())
      expect((journal.line_items as Json[]).reduce((s, l) => s + Math.round(Number(l.total_amount) * 100), 0)).toBe(0);
    // A draft journal has not touched the ledger: it is not a journal entry (a tombstone, if it was ever stored).
    const drafts = books()
      .all('ManualJournals')
      .filter((j) => j.Status === 'DRAFT')
      .map((j) => String(j.ManualJournalID));
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.filter((id) => journals.mapped.has(id))).toEqual([]);
    expect(journals.dead.map((r) => r.platformId)).toEqual(expect.arrayContaining(drafts));

    const transfers = await readAll('bank_transfer');
    expect(transfers.mapped.get('6221458a-ef7a-4d5f-9b1c-1b96ce03833c')).toMatchObject({
      credit_account_id: ref('account', '6f7594f2-f059-4d56-9e67-47ac9733bfe9'),
      debit_account_id: ref('account', '7e5e243b-9fcd-4aef-8e3a-c70be1e39bfa'),
      total_amount: 20,
      currency_code: 'NZD',
      transaction_date: '2016-11-12T00:00:00.000Z',
    });

    const taxRates = await readAll('tax_rate');
    expect(taxRates.mapped.get('INPUT2')).toMatchObject({
      name: '15% GST on Expenses',
      code: 'INPUT2',
      status: 'active',
      effective_tax_rate: 15,
      total_tax_rate: 15,
      components: [{ name: 'GST', rate: 15, is_compound: false, is_purchases_tax: true, is_sales_tax: false }],
    });

    const classes = await readAll('class');
    const simpsons =
      books()
        .all('TrackingCategories')
        .find((c) => c.Name === 'Simpsons') ?? {};
    const bart = (simpsons.Options as Json[])[0] ?? {};
    expect(classes.mapped.get(String(simpsons.TrackingCategoryID))).toMatchObject({
      name: 'Simpsons',
      parent_id: null,
      has_children: true,
      status: 'active',
    });
    expect(classes.mapped.get(String(bart.TrackingOptionID))).toMatchObject({
      name: 'Bart',
      parent_id: ref('class', simpsons.TrackingCategoryID),
      has_children: false,
    });

    expect([...(await readAll('currency')).mapped.values()]).toEqual([
      { currency_code: 'NZD', currency_name: 'New Zealand Dollar', created_at: null, updated_at: null },
    ]);
    const [company] = [...(await readAll('company_info')).mapped.values()];
    expect(company).toMatchObject({
      platform_id: standin.tenants[0]?.id,
      name: 'Demo Company (NZ)',
      currency_code: 'NZD',
      fiscal_year_start_month: 4,
      tax_number: '071-138-054',
    });
  });

  it('reads employees with their status: ARCHIVED inactive, GDPRREQUEST unknown, DELETED a deletion', async () => {
    const seeded = books().all('Employees');
    expect(seeded.map((e) => e.FirstName).sort()).toEqual(['Bruce', 'Nick', 'Tony']);
    const [first, second, third] = seeded.map((e) => String(e.EmployeeID));
    if (first === undefined || second === undefined || third === undefined) throw new Error('the stand-in lost its employees');
    const all = await readAll('employee');
    expect(all.mapped.get(first)).toEqual({
      platform_id: first,
      department_id: null,
      manager_id: null,
      hire_date: null,
      termination_date: null,
      first_name: seeded[0]?.FirstName,
      last_name: seeded[0]?.LastName,
      status: 'active',
      custom_fields: {},
      employee_number: null,
      position: null,
      salary: null,
      created_at: null,
      updated_at: xeroIso(seeded[0]?.UpdatedDateUTC),
    });
    const statuses = new Map([
      [first, 'ARCHIVED'],
      [second, 'GDPRREQUEST'],
      [third, 'DELETED'],
    ]);
    for (const [id, status] of statuses)
      books().change('Employees', id, (e) => {
        e.Status = status;
      });
    try {
      const changed = await readAll('employee');
      expect([changed.mapped.get(first)?.status, changed.mapped.get(second)?.status]).toEqual(['inactive', 'unknown']);
      expect(changed.dead.map((r) => r.platformId)).toEqual([third]);
      expect(changed.pages).toBe(1);
    } finally {
      for (const id of statuses.keys())
        books().change('Employees', id, (e) => {
          e.Status = 'ACTIVE';
        });
    }
  });

  it('cuts the BalanceSheet report into twelve monthly statements', async () => {
    const { mapped } = await readAll('balance_sheet');
    expect(mapped.size).toBe(12);
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const current = mapped.get(end);
    expect(current).toMatchObject({
      start_date: `${end.slice(0, 8)}01T00:00:00.000Z`,
      end_date: `${end}T00:00:00.000Z`,
      currency_code: 'NZD',
      total_assets: '179533.09',
      total_liabilities: '-5915.21',
      total_equity: '185448.29',
    });
    const assets = current?.assets as { value: string; items: { name: string; value: string; account_id: string | null; items: unknown[] }[] };
    expect(assets.items.map((n) => [n.name, n.value])).toEqual([
      ['Bank', '296.37'],
      ['Current Assets', '179355.72'],
      ['Fixed Assets', '-119.00'],
    ]);
    expect(assets.items[0]?.items).toEqual([
      { account_id: ref('account', '041207d2-3d61-4e5d-8c1a-b9236955a71c'), name: 'Country Savings', value: '-1850.00', items: [] },
      { account_id: ref('account', '300f3bde-3a5c-4035-9ec5-45b09777679a'), name: 'My Big Bank', value: '2146.37', items: [] },
    ]);
    // The second month is the report's second column.
    expect([...mapped.values()][1]).toMatchObject({ total_assets: '179402.78', total_equity: '185333.67' });
    expect(
      (current?.equity as { items: { name: string; account_id: string | null }[] }).items.find((n) => n.name === 'Current Year Earnings')?.account_id,
    ).toBe('');
  });

  it('cuts the ProfitAndLoss report into twelve monthly income statements computed from the books', async () => {
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const before = (await readAll('income_statement')).mapped;
    expect(before.size).toBe(12);
    for (const statement of before.values())
      expect(Value.Check(MODEL.income_statement.schema, { ...statement, id: 'x', last_synced_at: end + 'T00:00:00.000Z' })).toBe(true);
    // An approved sale and an approved bill moved into this month show up in its statement, ex tax, each on its account.
    const approved =
      (type: string) =>
      (i: Json): boolean =>
        i.Type === type && i.Status === 'AUTHORISED' && i.LineAmountTypes === 'Exclusive' && Array.isArray(i.LineItems) && i.LineItems.length > 0;
    const sale = books().all('Invoices').find(approved('ACCREC'));
    const bill = books().all('Invoices').find(approved('ACCPAY'));
    if (sale === undefined || bill === undefined) throw new Error('the stand-in has approved invoices and bills');
    const lineSum = (doc: Json): number => ((doc.LineItems ?? []) as Json[]).reduce((sum, l) => sum + Math.round(Number(l.LineAmount) * 100), 0);
    const dates = { sale: sale.Date, bill: bill.Date };
    try {
      books().change('Invoices', String(sale.InvoiceID), (r) => {
        r.Date = msDate(Date.now());
      });
      books().change('Invoices', String(bill.InvoiceID), (r) => {
        r.Date = msDate(Date.now());
      });
      const after = (await readAll('income_statement')).mapped.get(end) ?? {};
      const was = before.get(end) ?? {};
      const moved = (field: string): number => Math.round(Number(after[field]) * 100) - Math.round(Number(was[field]) * 100);
      expect(moved('total_income')).toBe(lineSum(sale));
      expect(moved('total_expenses') + moved('total_cost_of_sales')).toBe(lineSum(bill));
      expect(moved('net_income')).toBe(lineSum(sale) - lineSum(bill));
      expect(after).toMatchObject({
        start_date: `${end.slice(0, 8)}01T00:00:00.000Z`,
        end_date: `${end}T00:00:00.000Z`,
        accounting_standard: 'accrual',
        currency_code: 'NZD',
        net_operating_income: null,
      });
      const income = after.income as { items: { account_id: string }[] };
      const revenueAccount = books()
        .all('Accounts')
        .find((a) => a.Code === (sale.LineItems as Json[])[0]?.AccountCode);
      expect(JSON.stringify(income)).toContain(String(ref('account', revenueAccount?.AccountID)));
      expect(
        Math.round(Number(after.total_income) * 100) -
          Math.round(Number(after.total_cost_of_sales) * 100) -
          Math.round(Number(after.total_expenses) * 100),
      ).toBe(Math.round(Number(after.net_income) * 100));
    } finally {
      books().change('Invoices', String(sale.InvoiceID), (r) => {
        r.Date = dates.sale;
      });
      books().change('Invoices', String(bill.InvoiceID), (r) => {
        r.Date = dates.bill;
      });
    }
  });

  it('declares no cash flow statement and no sales receipt: Xero has neither, and the capabilities say so', () => {
    expect(fast.objects.cash_flow_statement?.capabilities.read).toBe(false);
    expect(fast.objects.sales_receipt?.capabilities).toMatchObject({ read: false, create: false, incremental: 'none', deletions: 'none' });
    expect(fast.objects.payment_method?.capabilities).toMatchObject({ read: false, create: false, incremental: 'none', deletions: 'none' });
    expect(fast.objects.tax_area?.capabilities).toMatchObject({ read: false, create: false, incremental: 'none', deletions: 'none' });
  });

  it('declares no exchange rates: the Accounting API has no rate endpoint, and its currencies carry no rate', async () => {
    expect(fast.objects.exchange_rate?.capabilities.read).toBe(false);
    const { mapped } = await readAll('currency');
    expect(mapped.size).toBeGreaterThan(0);
    expect([...mapped.values()].every((c) => Object.keys(c).sort().join() === 'created_at,currency_code,currency_name,updated_at')).toBe(true);
  });

  /** The kind of record an attachment of the stand-in's books hangs on, by its parent's id. */
  const parentTypeOf = (parent: string): 'journal_entry' | 'bank_transfer' | 'bill' | 'invoice' => {
    if (books().get('ManualJournals', parent) !== undefined) return 'journal_entry';
    if (books().get('BankTransfers', parent) !== undefined) return 'bank_transfer';
    return books().get('Invoices', parent)?.Type === 'ACCPAY' ? 'bill' : 'invoice';
  };
  const parentOf = (attachmentId: string): string =>
    Object.entries(books().attachments).find(([, list]) => list.some((a) => a.AttachmentID === attachmentId))?.[0] ?? '';
  const COLLECTION_OF = { journal_entry: 'ManualJournals', bank_transfer: 'BankTransfers', bill: 'Invoices', invoice: 'Invoices' } as const;

  it('finds attachments of bills, invoices, journals and bank transfers', async () => {
    const { mapped } = await readAll('attachment');
    const expected = Object.entries(books().attachments).flatMap(([parent, list]) => list.map((a) => ({ parent, a })));
    expect(mapped.size).toBe(expected.length);
    for (const { parent, a } of expected) {
      const type = parentTypeOf(parent);
      expect(mapped.get(String(a.AttachmentID))).toEqual({
        platform_id: a.AttachmentID,
        attached_to_id: ref(type, parent),
        attached_to_type: type,
        file_name: a.FileName,
        file_url: a.Url,
        created_at: null,
      });
    }
    expect(new Set([...mapped.values()].map((a) => a.attached_to_type))).toEqual(new Set(['bank_transfer', 'bill', 'invoice', 'journal_entry']));
  });

  it("downloads an attachment's file from Xero with the mime type the contract asks for", async () => {
    const { live } = await readAll('attachment');
    const download = fast.actions?.downloadAttachment;
    if (download === undefined) throw new Error('no downloadAttachment');
    standin.resetCounters();
    for (const record of live) {
      const source =
        Object.values(books().attachments)
          .flat()
          .find((a) => a.AttachmentID === record.platformId) ?? {};
      const file = await download(context(), record);
      expect(file).toEqual({ contentType: source.MimeType, content: XeroBooks.fileOf(source) });
    }
    expect(standin.requests.map((r) => [r.path.replace(/\/[^/]+\/Attachments\/[^/]+$/, '/…/Attachments/{id}'), r.status])).toEqual(
      live.map((r) => [`/api.xro/2.0/${COLLECTION_OF[parentTypeOf(parentOf(r.platformId))]}/…/Attachments/{id}`, 200]),
    );
  });

  it('maps every record of every object to its unified schema', async () => {
    for (const [type, entry] of Object.entries(fast.objects) as [UnifiedObjectType, NonNullable<Connector['objects'][UnifiedObjectType]>][]) {
      // Declared unreadable (the cash flow statement Xero has not): nothing to map.
      if (!entry.capabilities.read) continue;
      const schema = MODEL[type].schema;
      const properties = Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});
      const { live, mapped } = await readAll(type);
      expect(live.length, type).toBeGreaterThan(0);
      for (const record of live) {
        const object: Json = { id: ref(type, record.platformId), ...mapped.get(record.platformId), last_synced_at: new Date().toISOString() };
        if (properties.includes('platform_id')) object.platform_id = record.platformId;
        if (!properties.includes('last_synced_at')) delete object.last_synced_at;
        expect(Value.Check(schema, object), `${type} ${record.platformId}: ${JSON.stringify([...Value.Errors(schema, object)].slice(0, 2))}`).toBe(
          true,
        );
        expect(entry.handler.businessDate?.(record) ?? null, type).toBe(entry.handler.businessDate === undefined ? null : xeroDay(record.raw.Date));
      }
    }
  });
});

describe('OAuth against the stand-in', () => {
  const auth = xeroAuth;
  const http = () => context().http;

  it("builds the consent address with the code flow, Xero's scopes and the state", () => {
    const url = new URL(auth.authorizeUrl(APP, 'state-1', null));
    expect(url.origin + url.pathname).toBe(`${standin.url}/identity/connect/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: APP.clientId,
      redirect_uri: APP.redirectUri,
      scope: XERO_SCOPES,
      state: 'state-1',
    });
    expect(new URL(auth.authorizeUrl(APP, 's', 'openid accounting.settings')).searchParams.get('scope')).toBe('openid accounting.settings');
  });

  it('consents, exchanges the code, lists both organisations, identifies one and rotates the refresh token', async () => {
    if (auth.listTenants === undefined) throw new Error('no listTenants');
    const page = await fetch(auth.authorizeUrl(APP, 'state-2', null));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('id="allow"');
    const tenants = [...html.matchAll(/name="tenant" value="([^"]+)" checked/g)].map((m) => m[1]);
    expect(tenants).toEqual(standin.tenants.map((t) => t.id));
    const form = new URLSearchParams({
      client_id: APP.clientId,
      redirect_uri: APP.redirectUri,
      scope: XERO_SCOPES,
      state: 'state-2',
      decision: 'allow',
    });
    for (const id of tenants) form.append('tenant', id ?? '');
    const decided = await fetch(`${standin.url}/identity/connect/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const back = new URL(decided.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(APP.redirectUri);
    expect(back.searchParams.get('state')).toBe('state-2');

    const before = standin.tokenCalls.authorization_code;
    const signal = new AbortController().signal;
    const tokens = await auth.exchangeCode({ http: http(), signal, environment: 'sandbox' }, APP, back.searchParams.get('code') ?? '', {});
    expect(standin.tokenCalls.authorization_code).toBe(before + 1);
    expect(Date.parse(tokens.expiresAt ?? '') - Date.now()).toBeGreaterThan(1790_000);
    expect(tokens).toMatchObject({ tenantId: null, refreshToken: expect.stringMatching(/^rt_/) as string });
    // A code is good once.
    await expect(
      auth.exchangeCode({ http: http(), signal, environment: 'sandbox' }, APP, back.searchParams.get('code') ?? '', {}),
    ).rejects.toMatchObject({ kind: 'bad_request', platformMessage: 'invalid_grant' });

    const listed = await auth.listTenants({ http: http(), signal, environment: 'sandbox' }, tokens);
    expect(listed).toEqual(standin.tenants.map((t) => ({ id: t.id, name: t.name })));
    const second = standin.tenants[1];
    const identity = await xeroConnector.identify(context({ ...tokens, tenantId: second?.id ?? null }));
    expect(identity).toEqual({ storeUniqueId: second?.id, storeName: 'Demo Company (UK)' });

    const refreshed = await auth.refresh({ http: http(), signal, environment: 'sandbox' }, APP, tokens.refreshToken ?? '');
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    await expect(auth.refresh({ http: http(), signal, environment: 'sandbox' }, APP, tokens.refreshToken ?? '')).rejects.toMatchObject({
      kind: 'bad_request',
      httpStatus: 400,
    });
  });

  it('sends the user back with access_denied and the state when they cancel, and refuses unknown apps', async () => {
    const form = new URLSearchParams({ client_id: APP.clientId, redirect_uri: APP.redirectUri, state: 'state-3', decision: 'deny' });
    const denied = await fetch(`${standin.url}/identity/connect/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    expect(denied.headers.get('location')).toBe(`${APP.redirectUri}?error=access_denied&state=state-3`);
    const stranger = await fetch(auth.authorizeUrl({ ...APP, redirectUri: 'http://evil.example/cb' }, 's', null));
    expect(stranger.status).toBe(400);
  });
});

describe('writes against the stand-in', () => {
  const vendor = () =>
    books()
      .all('Contacts')
      .find((c) => c.Name === 'PowerDirect') ?? {};
  const expense = () => accountByCode('429') ?? {};
  const known = (): Partial<Record<UnifiedObjectType, string[]>> => ({
    vendor: books()
      .all('Contacts')
      .map((c) => String(c.ContactID)),
    account: books()
      .all('Accounts')
      .map((a) => String(a.AccountID)),
    tax_rate: books()
      .all('TaxRates')
      .map((r) => String(r.TaxType)),
    class: books()
      .all('TrackingCategories')
      .flatMap((c) => [String(c.TrackingCategoryID), ...((c.Options ?? []) as Json[]).map((o) => String(o.TrackingOptionID))]),
  });
  const bills = fast.objects.bill?.handler;

  it("creates a bill once per idempotency key, with Xero computing tax from the line's sub_total", async () => {
    const ctx = writeContext('key-bill-1', known());
    const bart =
      (
        (books()
          .all('TrackingCategories')
          .find((c) => c.Name === 'Simpsons')?.Options ?? []) as Json[]
      )[0] ?? {};
    const input = {
      vendor_id: ref('vendor', vendor().ContactID),
      issue_date: '2025-03-01T00:00:00.000Z',
      due_date: '2025-03-31T00:00:00.000Z',
      document_number: 'PD-7',
      line_items: [
        {
          account_id: ref('account', expense().AccountID),
          total_amount: 230,
          sub_total: 200,
          tax_amount: 30,
          tax_rate_id: ref('tax_rate', 'INPUT2'),
          class_id: ref('class', bart.TrackingOptionID),
          description: 'Power',
        },
        { account_id: ref('account', expense().AccountID), total_amount: 50, description: 'Untaxed' },
      ],
    };
    const count = invoicesOf('ACCPAY').length;
    const record = await bills?.create?.(ctx, input);
    const again = await bills?.findCreated?.(ctx, input);
    expect(again?.platformId).toBe(record?.platformId);
    expect(invoicesOf('ACCPAY')).toHaveLength(count + 1);
    const stored = books().get('Invoices', record?.platformId ?? '') ?? {};
    expect(stored).toMatchObject({
      Type: 'ACCPAY',
      Status: 'AUTHORISED',
      InvoiceNumber: 'PD-7',
      LineAmountTypes: 'Exclusive',
      Total: 280,
      TotalTax: 30,
    });
    expect((stored.LineItems as Json[])[0]).toMatchObject({
      AccountCode: '429',
      TaxType: 'INPUT2',
      UnitAmount: 200,
      Quantity: 1,
      Tracking: [{ Name: 'Simpsons', Option: 'Bart', TrackingOptionID: bart.TrackingOptionID }],
    });
    expect(standin.requests.filter((r) => r.idempotencyKey === 'key-bill-1').map((r) => r.method)).toEqual(['PUT', 'PUT']);
    if (record === undefined) throw new Error('no record');
    expect(bills?.map(record, ctx)).toMatchObject({
      status: 'open',
      total_amount: 280,
      tax_amount: 30,
      sub_total: 250,
      vendor_id: input.vendor_id,
      document_number: 'PD-7',
      line_items: [
        {
          account_id: input.line_items[0]?.account_id,
          class_id: input.line_items[0]?.class_id,
          tax_rate_id: ref('tax_rate', 'INPUT2'),
          total_amount: 230,
          tax_amount: 30,
        },
        { account_id: input.line_items[0]?.account_id, total_amount: 50, tax_amount: 0 },
      ],
    });
  });

  it('deletes drafts, refuses to delete an approved bill, and voids one on PATCH status void', async () => {
    const ctx = writeContext('key-bill-2', known());
    const line = { account_id: ref('account', expense().AccountID), total_amount: 40 };
    const draft = await bills?.create?.(ctx, {
      vendor_id: ref('vendor', vendor().ContactID),
      issue_date: '2025-03-02',
      status: 'draft',
      line_items: [line],
    });
    await bills?.delete?.(writeContext('key-bill-3', known()), draft?.platformId ?? '');
    expect(books().get('Invoices', draft?.platformId ?? '')?.Status).toBe('DELETED');

    const approved = await bills?.create?.(writeContext('key-bill-4', known()), {
      vendor_id: ref('vendor', vendor().ContactID),
      issue_date: '2025-03-02',
      line_items: [line],
    });
    const refused = bills?.delete?.(writeContext('key-bill-5', known()), approved?.platformId ?? '');
    await expect(refused).rejects.toMatchObject({ kind: 'bad_request', requestSent: false });
    await expect(refused).rejects.toThrow(/void an approved bill with PATCH status void/i);
    const voided = await bills?.update?.(writeContext('key-bill-6', known()), approved?.platformId ?? '', { status: 'void' });
    expect(books().get('Invoices', approved?.platformId ?? '')?.Status).toBe('VOIDED');
    if (voided === undefined) throw new Error('no record');
    expect(bills?.map(voided, ctx)).toMatchObject({ status: 'void', total_amount: 40 });
    // Xero's own rule: a voided bill cannot change again; its message is kept.
    await expect(bills?.update?.(writeContext('key-bill-7', known()), approved?.platformId ?? '', { status: 'open' })).rejects.toMatchObject({
      kind: 'bad_request',
      platformMessage: 'This document cannot be edited as it has a status of VOIDED.',
    });
  });

  it('refuses fields Xero has no place for, before calling Xero', async () => {
    standin.resetCounters();
    const ctx = writeContext('key-bill-8', known());
    await expect(bills?.create?.(ctx, { vendor_id: ref('vendor', vendor().ContactID), memo: 'hello', line_items: [] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      metadata: { field: 'memo' },
    });
    await expect(bills?.create?.(ctx, { vendor_id: ref('vendor', 'not-a-contact') })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      metadata: { field: 'vendor_id' },
    });
    expect(standin.requests).toEqual([]);
  });

  it("keeps Xero's messages: a journal that does not balance, a duplicate contact name", async () => {
    const journals = fast.objects.journal_entry?.handler;
    const line = (amount: number) => ({ account_id: ref('account', expense().AccountID), total_amount: amount });
    const unbalanced = journals?.create?.(writeContext('key-mj-1', known()), {
      transaction_date: '2025-03-03',
      memo: 'Off by ten',
      line_items: [line(100), line(-90)],
    });
    await expect(unbalanced).rejects.toMatchObject({
      kind: 'bad_request',
      httpStatus: 400,
      platformMessage: 'The total debits (100.00) must equal total credits (90.00)',
    });
    const customers = fast.objects.customer?.handler;
    const duplicate = customers?.create?.(writeContext('key-c-1', known()), { customer_name: 'Katherine Warren' });
    await expect(duplicate).rejects.toBeInstanceOf(PlatformError);
    await expect(duplicate).rejects.toMatchObject({ kind: 'duplicate', duplicateProperty: 'customer_name' });
  });
});

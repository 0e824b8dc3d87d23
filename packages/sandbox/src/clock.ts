/**
 * Time moving in the sandbox: each tick is a day's worth of business, decided
 * by the account seed and the tick number alone (given the same books): new
 * bills and invoices, payments against open ones, a voided payment or journal,
 * a renamed vendor, a deleted draft, now and then a hire or a departure, a new
 * sales order or an order invoiced, a revised exchange rate, some days a cash sale (a sales receipt), and the web
 * shop's payouts in transit arriving, posted as they arrive (generator/payouts.ts). New payouts are the generator's
 * only: the clock makes no new web-shop orders, and the orders it charges wait for a payout it does not make.
 * Ticks go through a Unit, so the ledger, balance sheets and change log follow, and the books still add up.
 */
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import { journalLine, totalsOf } from './books.ts';
import { collectionOf, platformIdFor } from './collections.ts';
import {
  buildLines,
  drawSalesReceipt,
  dueCents,
  invoiceOfLines,
  makeBill,
  makeBillPayment,
  makeInvoice,
  makePayment,
  purchaseLines,
  salesLines,
  unallocate,
  type Palette,
} from './documents.ts';
import { BILL_EXPENSE_CODES, SPEND_CODES, acc } from './generator/chart.ts';
import { drift, formatExchangeRate, rateOfListed } from './generator/exchange-rates.ts';
import { chargeOf, payoutJournal } from './generator/payouts.ts';
import { chargeTransaction } from './generator/shop.ts';
import { formatCents, parseCents } from './money.ts';
import { emailFor, personName } from './generator/names.ts';
import type {
  NativeContact,
  NativeEmployee,
  NativeExchangeRate,
  NativeExpense,
  NativeJournalEntry,
  NativeOf,
  NativeSalesOrder,
  NativeType,
} from './native.ts';
import { Rng, deriveSeed } from './prng.ts';
import type { Unit } from './store/unit.ts';
import { removeAttachmentsOf } from './writes/attachments.ts';

interface TickContext {
  unit: Unit;
  rng: Rng;
  palette: Palette;
  date: string;
  stamps: { CreatedAt: string; UpdatedAt: string };
}

/** Distinct random platform ids among those issued so far for a type. */
function candidates(t: TickContext, type: UnifiedObjectType, n: number): string[] {
  const prefix = collectionOf(type).prefix;
  const issued = t.unit.state.counters[prefix] ?? 0;
  const ids = new Set<string>();
  for (let i = 0; i < n && issued > 0; i++) ids.add(platformIdFor(prefix, t.rng.int(1, issued)));
  return [...ids];
}

async function loaded<K extends NativeType>(t: TickContext, type: K, n: number): Promise<NativeOf[K][]> {
  const ids = candidates(t, type, n);
  await t.unit.load(type, ids);
  return ids.map((id) => t.unit.peek(type, id)).filter((r) => r !== null);
}

const termFor = (p: Palette, party: NativeContact) => p.terms.find((term) => term.id === party.TermId);

export async function runTick(unit: Unit, tick: number): Promise<void> {
  const state = unit.state;
  const palette = state.palette;
  if (palette === null) throw new Error('tick on books that were never materialized');
  const today = unit.at.slice(0, 10);
  const date = state.asOf !== null && state.asOf > today ? state.asOf : today;
  const t: TickContext = {
    unit,
    rng: new Rng(deriveSeed(state.seed, 'tick', tick)),
    palette,
    date,
    stamps: { CreatedAt: unit.at, UpdatedAt: unit.at },
  };
  const k = Math.max(1, Math.round(state.size / 2_500));

  const vendors = (await loaded(t, 'vendor', k + 2)).filter((v) => v.Status === 'Active');
  for (const vendor of vendors.slice(0, k)) {
    const id = unit.nextId('bill');
    unit.create(
      'bill',
      makeBill({
        id,
        docNumber: `VI-${id.slice(5)}`,
        partyId: vendor.Id,
        date,
        currency: palette.currency,
        lines: purchaseLines(t.rng, palette),
        stamps: t.stamps,
        term: termFor(palette, vendor),
      }),
    );
  }
  await payBills(t, k);
  const customers = (await loaded(t, 'customer', k + 2)).filter((c) => c.Status === 'Active');
  for (const customer of customers.slice(0, k)) {
    const id = unit.nextId('invoice');
    unit.create(
      'invoice',
      makeInvoice({
        id,
        docNumber: `INV-${String(1000 + Number(id.slice(4)))}`,
        partyId: customer.Id,
        date,
        currency: palette.currency,
        lines: salesLines(t.rng, palette),
        stamps: t.stamps,
        term: termFor(palette, customer),
      }),
    );
  }
  await receivePayments(t, k);
  if (t.rng.chance(0.5)) await voidBillPayment(t);
  if (t.rng.chance(0.6)) await renameVendor(t);
  if (t.rng.chance(0.6)) await deleteSomething(t);
  await journals(t);
  for (let n = Math.ceil(k / 2); n > 0; n--) expense(t);
  for (const order of await loaded(t, 'order', k)) {
    if (order.Status !== 'Open') continue;
    order.Status = 'Closed';
    order.FinancialStatus = 'Paid';
    order.FulfillmentStatus = 'Fulfilled';
    unit.touch('order', order);
    // Charged now: the gateway's balance gains it, to wait for a payout (the clock makes none).
    const charge = chargeTransaction({
      id: order.Id,
      buyerId: order.Buyer.Id,
      at: order.UpdatedAt,
      currency: order.CurrencyCode,
      totalCents: parseCents(order.Total),
    });
    unit.create('transaction', charge);
  }
  // Drawn apart from the rest of the day, so the day's documents are what they were before people came and went.
  await people(unit, new Rng(deriveSeed(state.seed, 'people', tick)), date);
  // Likewise the day's orders, after everything else: their invoices take the next numbers.
  await salesOrders({ ...t, rng: new Rng(deriveSeed(state.seed, 'sales-orders', tick)) });
  // Drawn apart too: the day's documents and people are what they were before exchange rates existed.
  await exchangeRates(unit, new Rng(deriveSeed(state.seed, 'exchange-rates', tick)), palette.currency, date);
  // Likewise the day's cash sales.
  await cashSales({ ...t, rng: new Rng(deriveSeed(state.seed, 'sales-receipt', tick)) }, k);
  // Decided by the date alone, after everything else.
  await payoutsArrive(t);
}

/** Payouts in transit whose day has come arrive, each posted by a journal entry of its own dated its arrival. */
async function payoutsArrive(t: TickContext): Promise<void> {
  for (const payout of await t.unit.all('payout')) {
    if (payout.Status !== 'InTransit' || payout.ArrivalDate > t.date) continue;
    const orderIds = [...new Set(payout.Transactions.map((x) => x.OrderId))];
    await t.unit.load('order', orderIds);
    const charges = orderIds
      .map((id) => t.unit.peek('order', id))
      .flatMap((order) => (order === null ? [] : [chargeOf(order)]))
      .filter((c) => c !== null);
    payout.Status = 'Paid';
    payout.UpdatedAt = t.stamps.UpdatedAt;
    const entry = payoutJournal(t.unit.nextId('journal_entry'), payout, charges);
    t.unit.create('journal_entry', entry);
    payout.JournalEntryId = entry.Id;
    t.unit.touch('payout', payout);
  }
}

/** Now and then a customer places an order, an order awaiting approval is approved, or an open order is invoiced as ordered. */
async function salesOrders(t: TickContext): Promise<void> {
  const place = t.rng.chance(0.12);
  const approve = t.rng.chance(0.08);
  const invoice = t.rng.chance(0.15);
  if (place) {
    const customer = (await loaded(t, 'customer', 3)).find((c) => c.Status === 'Active');
    if (customer !== undefined) {
      const lines = buildLines(salesLines(t.rng, t.palette));
      const id = t.unit.nextId('sales_order');
      const order: NativeSalesOrder = {
        Id: id,
        ...t.stamps,
        DocNumber: `SO-${String(1000 + Number(id.slice(3)))}`,
        CustomerId: customer.Id,
        TxnDate: t.date,
        CurrencyCode: t.palette.currency,
        ExchangeRate: '1.000000',
        Status: 'Open',
        Lines: lines,
        ...totalsOf(lines),
        InvoiceIds: [],
      };
      if (customer.TermId !== undefined) order.TermId = customer.TermId;
      t.unit.create('sales_order', order);
    }
  }
  if (!approve && !invoice) return;
  const orders = await t.unit.all('sales_order');
  const waiting = orders.filter((o) => o.Status === 'PendingApproval');
  if (approve && waiting.length > 0) {
    const approved = t.rng.pick(waiting);
    approved.Status = 'Open';
    t.unit.touch('sales_order', approved);
  }
  const open = orders.filter((o) => o.Status === 'Open' && o.TxnDate <= t.date);
  if (invoice && open.length > 0) {
    const order = t.rng.pick(open);
    const id = t.unit.nextId('invoice');
    const made = invoiceOfLines({
      id,
      docNumber: `INV-${String(1000 + Number(id.slice(4)))}`,
      partyId: order.CustomerId,
      date: t.date,
      currency: order.CurrencyCode,
      lines: structuredClone(order.Lines),
      stamps: t.stamps,
      term: t.palette.terms.find((term) => term.id === order.TermId),
    });
    t.unit.create('invoice', made);
    order.Status = 'Closed';
    order.InvoiceIds = [made.Id];
    t.unit.touch('sales_order', order);
  }
}

/**
 * Now and then the business revises the rate of one of its foreign currencies: a new rate as of today (or today's,
 * revised), a little off the latest, and the currency list shows it. No document is in a foreign currency, so nothing
 * posts.
 */
async function exchangeRates(unit: Unit, rng: Rng, home: string, date: string): Promise<void> {
  if (!rng.chance(0.08)) return;
  const foreign = (await unit.all('currency')).filter((c) => c.Code !== home);
  if (foreign.length === 0) return;
  const currency = rng.pick(foreign);
  const latest = (await unit.all('exchange_rate'))
    .filter((r) => r.SourceCurrencyCode === currency.Code)
    .reduce<NativeExchangeRate | null>((a, b) => (a === null || b.AsOfDate > a.AsOfDate ? b : a), null);
  const rate = formatExchangeRate((latest === null ? rateOfListed(currency.ExchangeRate) : Number(latest.Rate)) * drift(rng));
  if (latest !== null && latest.AsOfDate === date) {
    latest.Rate = rate;
    unit.touch('exchange_rate', latest);
  } else {
    unit.create('exchange_rate', {
      Id: unit.nextId('exchange_rate'),
      CreatedAt: unit.at,
      UpdatedAt: unit.at,
      SourceCurrencyCode: currency.Code,
      TargetCurrencyCode: home,
      Rate: rate,
      AsOfDate: date,
    } satisfies NativeExchangeRate);
  }
  currency.ExchangeRate = (1 / Number(rate)).toFixed(6);
  unit.touch('currency', currency);
}

/** Some days a sale or a few are paid on the spot: sales receipts, to a customer or to no one named. */
async function cashSales(t: TickContext, k: number): Promise<void> {
  const count = t.rng.int(0, Math.ceil(k / 2));
  if (count === 0) return;
  const customers = (await loaded(t, 'customer', count)).filter((c) => c.Status === 'Active');
  for (let n = 0; n < count; n++) {
    const customer = t.rng.chance(0.7) ? customers[n] : undefined;
    t.unit.create(
      'sales_receipt',
      drawSalesReceipt(t.rng, t.palette, { id: t.unit.nextId('sales_receipt'), date: t.date, stamps: t.stamps, customer }),
    );
  }
}

/** Now and then someone joins a department, under its head, or someone who manages no one leaves. */
async function people(unit: Unit, rng: Rng, date: string): Promise<void> {
  const hire = rng.chance(0.1);
  const leave = rng.chance(0.06);
  if (!hire && !leave) return;
  const everyone = await unit.all('employee');
  const director = everyone.find((e) => e.ManagerId === undefined);
  const heads = everyone.filter((e) => director !== undefined && e.ManagerId === director.Id && e.Status !== 'Terminated');
  if (hire && heads.length > 0) {
    const head = rng.pick(heads);
    const colleagues = everyone.filter((e) => e.ManagerId === head.Id);
    const title = colleagues.length === 0 ? 'Associate' : rng.pick(colleagues).JobTitle;
    const person = personName(rng);
    const id = unit.nextId('employee');
    // The company's mail domain, as its other people have it.
    const mailbox = emailFor(`${person.first}.${person.last}`, 'example').split('@')[0] ?? person.first.toLowerCase();
    const employee: NativeEmployee = {
      Id: id,
      CreatedAt: unit.at,
      UpdatedAt: unit.at,
      EmployeeNumber: `E${id.slice(-4)}`,
      FirstName: person.first,
      LastName: person.last,
      JobTitle: title,
      Email: `${mailbox}${head.Email.slice(head.Email.indexOf('@'))}`,
      DepartmentId: head.DepartmentId,
      ManagerId: head.Id,
      HireDate: date,
      Status: 'Active',
      AnnualSalary: formatCents(rng.int(350, 750) * 10_000),
      CustomFields: [
        { Name: 'Pay frequency', Value: 'Monthly' },
        { Name: 'Remote', Value: 'No' },
      ],
    };
    unit.create('employee', employee);
  }
  const managers = new Set(everyone.map((e) => e.ManagerId));
  const staff = everyone.filter((e) => e.Status !== 'Terminated' && e.ManagerId !== undefined && !managers.has(e.Id));
  if (leave && staff.length > 0) {
    const leaver = rng.pick(staff);
    leaver.Status = 'Terminated';
    leaver.EndDate = date;
    unit.touch('employee', leaver);
  }
}

async function payBills(t: TickContext, k: number): Promise<void> {
  const open = (await loaded(t, 'bill', k * 4)).filter((b) => b.Status === 'Open' || b.Status === 'PartiallyPaid');
  for (const bill of open.slice(0, k)) {
    const due = dueCents(bill);
    const cents = t.rng.chance(0.7) ? due : Math.max(1, Math.floor(due / 2));
    const payment = makeBillPayment({
      id: t.unit.nextId('bill_payment'),
      vendorId: bill.VendorId,
      bankAccountId: acc('1000'),
      date: t.date,
      currency: bill.CurrencyCode,
      stamps: t.stamps,
      allocations: [{ bill, cents }],
      reference: `ACH ${t.rng.int(10_000, 99_999)}`,
    });
    t.unit.touch('bill', bill);
    t.unit.create('bill_payment', payment);
  }
}

async function receivePayments(t: TickContext, k: number): Promise<void> {
  const open = (await loaded(t, 'invoice', k * 4)).filter((i) => i.Status === 'Open' || i.Status === 'PartiallyPaid');
  for (const invoice of open.slice(0, k)) {
    const payment = makePayment({
      id: t.unit.nextId('invoice_payment'),
      customerId: invoice.CustomerId,
      depositTo: acc('1000'),
      date: t.date,
      currency: invoice.CurrencyCode,
      stamps: t.stamps,
      method: t.rng.pick(['ACH', 'Card', 'Check']),
      allocations: [{ invoice, cents: dueCents(invoice) }],
    });
    t.unit.touch('invoice', invoice);
    t.unit.create('invoice_payment', payment);
  }
}

async function voidBillPayment(t: TickContext): Promise<void> {
  const payment = (await loaded(t, 'bill_payment', 3)).find((p) => p.Status === 'Active');
  if (payment === undefined) return;
  await t.unit.load(
    'bill',
    payment.LinkedTxns.map((l) => l.TxnId),
  );
  for (const link of payment.LinkedTxns) {
    const bill = t.unit.peek('bill', link.TxnId);
    if (bill === null) continue;
    unallocate(bill, payment.Id, t.unit.at);
    t.unit.touch('bill', bill);
  }
  payment.Status = 'Voided';
  payment.Memo = 'Voided: payment returned by the bank';
  t.unit.touch('bill_payment', payment);
}

const RENAMES = [' Holdings', ' International', ' & Sons', ' Worldwide'];

async function renameVendor(t: TickContext): Promise<void> {
  const vendor = (await loaded(t, 'vendor', 1))[0];
  if (vendor === undefined) return;
  const current = RENAMES.find((suffix) => vendor.DisplayName.endsWith(suffix));
  vendor.DisplayName = current === undefined ? `${vendor.DisplayName}${t.rng.pick(RENAMES)}` : vendor.DisplayName.slice(0, -current.length);
  t.unit.touch('vendor', vendor);
}

/** Deletes something nothing else points at: an untouched bill, an unbilled purchase order, or an attachment. */
async function deleteSomething(t: TickContext): Promise<void> {
  const kind = t.rng.pick(['bill', 'purchase_order', 'attachment'] as const);
  if (kind === 'bill') {
    const bill = (await loaded(t, 'bill', 4)).find((b) => (b.Status === 'Open' || b.Status === 'Draft') && b.LinkedTxns.length === 0);
    if (bill !== undefined) {
      await removeAttachmentsOf(t.unit, bill.Id);
      t.unit.remove('bill', bill.Id);
    }
  } else if (kind === 'purchase_order') {
    const po = (await loaded(t, 'purchase_order', 4)).find((p) => p.Status !== 'Closed');
    if (po !== undefined) t.unit.remove('purchase_order', po.Id);
  } else {
    const attachment = (await loaded(t, 'attachment', 1))[0];
    if (attachment !== undefined) t.unit.remove('attachment', attachment.Id);
  }
}

async function journals(t: TickContext): Promise<void> {
  if (t.rng.chance(0.3)) {
    const entry = (await loaded(t, 'journal_entry', 2)).find((e) => e.Status === 'Posted' && e.Memo !== 'Opening balances');
    if (entry !== undefined) {
      entry.Status = 'Voided';
      t.unit.touch('journal_entry', entry);
    }
  }
  const x = t.rng.int(10_000, 300_000);
  const [debit, memo] = t.rng.chance(0.5) ? [acc(t.rng.pick(BILL_EXPENSE_CODES)), 'Accrual'] : [acc('7200'), 'Depreciation'];
  const id = t.unit.nextId('journal_entry');
  const entry: NativeJournalEntry = {
    Id: id,
    ...t.stamps,
    DocNumber: `JE-${id.slice(3)}`,
    TxnDate: t.date,
    CurrencyCode: t.palette.currency,
    ExchangeRate: '1.000000',
    Memo: memo,
    Status: 'Posted',
    Lines: [journalLine('1', debit, x), journalLine('2', memo === 'Accrual' ? acc('2400') : acc('1550'), -x)],
  };
  t.unit.create('journal_entry', entry);
}

function expense(t: TickContext): void {
  const lines = buildLines([
    { accountId: acc(t.rng.pick(SPEND_CODES)), description: 'Card purchase', qty: 1, unitPriceCents: t.rng.int(500, 40_000) },
  ]);
  const total = lines.reduce((sum, l) => sum + parseCents(l.Total), 0);
  const record: NativeExpense = {
    Id: t.unit.nextId('expense'),
    ...t.stamps,
    PaymentAccountId: acc('2100'),
    PaymentType: 'CreditCard',
    TxnDate: t.date,
    CurrencyCode: t.palette.currency,
    Lines: lines,
    SubTotal: formatCents(total),
    TotalDiscount: '0.00',
    TotalTax: '0.00',
    Total: formatCents(total),
    Status: 'Posted',
  };
  t.unit.create('expense', record);
}

/** Ticks that are due by the platform's clock: one per interval since the last, at most `max`. */
export function dueTicks(lastTickAt: Date | null, now: number, intervalMs: number, max: number): number {
  if (intervalMs <= 0 || lastTickAt === null) return 0;
  return Math.min(max, Math.floor((now - lastTickAt.getTime()) / intervalMs));
}

/**
 * Business transactions of one generated history: bills with their payments,
 * credits and purchase orders; invoices with payments, credit notes and bank
 * deposits; expenses and transfers (journals are in journals.ts, orders in
 * orders.ts). Every unit emits records whose amounts already agree.
 */
import { settleDocument, type LineInput } from '../books.ts';
import { addDays, stamp } from '../dates.ts';
import {
  applyCredit,
  buildLines,
  dueCents,
  makeBill,
  makeBillPayment,
  makeCreditNote,
  makeInvoice,
  makePayment,
  makeVendorCredit,
  purchaseLines,
  salesLines,
  type Palette,
  type Stamps,
} from '../documents.ts';
import { formatCents, parseCents } from '../money.ts';
import type {
  NativeBill,
  NativeContact,
  NativeDeposit,
  NativeExpense,
  NativeInvoice,
  NativePayment,
  NativePurchaseOrder,
  NativeTransfer,
} from '../native.ts';
import type { Rng } from '../prng.ts';
import { ROLES, SPEND_CODES, acc } from './chart.ts';
import type { Emitter } from './emitter.ts';
import type { Reference } from './reference.ts';

export interface GenState {
  rng: Rng;
  out: Emitter;
  ref: Reference;
  palette: Palette;
  asOf: string;
  /** Customer payments in undeposited funds, emitted when their deposit is decided. */
  undeposited: NativePayment[];
}

/** A random date in [from, to] (to clamped to asOf). */
export function dateIn(s: GenState, from: string, to: string): string {
  const end = to < s.asOf ? to : s.asOf;
  const span = Math.max(0, Math.round((Date.parse(end) - Date.parse(from)) / 86_400_000));
  return addDays(from, s.rng.int(0, span));
}

export function stampsOn(s: GenState, date: string): Stamps {
  const at = stamp(date, s.rng.int(25_200, 68_400));
  return { CreatedAt: at, UpdatedAt: at };
}

const later = (a: string, b: string): string => (a > b ? a : b);

function activeOf(s: GenState, list: readonly NativeContact[]): NativeContact {
  const pick = s.rng.pick(list);
  return pick.Status === 'Active' ? pick : (list.find((c) => c.Status === 'Active') ?? pick);
}

function termOf(s: GenState, party: NativeContact): { id: string; dueDays: number } | undefined {
  const term = s.ref.terms.find((t) => t.Id === party.TermId);
  return term === undefined ? undefined : { id: term.Id, dueDays: term.DueDays };
}

/** Pays a share of what is due; one or two payments, never past asOf. Returns payment dates and amounts. */
function paymentPlan(s: GenState, date: string, dueDays: number, dueCentsNow: number): { date: string; cents: number }[] {
  const roll = s.rng.next();
  const age = (Date.parse(s.asOf) - Date.parse(date)) / 86_400_000;
  const paidShare = age > dueDays + 10 ? (roll < 0.85 ? 1 : roll < 0.95 ? 0.5 : 0) : roll < 0.3 ? 1 : roll < 0.45 ? 0.5 : 0;
  if (paidShare === 0 || dueCentsNow <= 0) return [];
  const first = addDays(date, s.rng.int(1, dueDays + 15));
  if (first > s.asOf) return [];
  if (paidShare === 1 && s.rng.chance(0.2) && dueCentsNow > 100) {
    const part = Math.floor(dueCentsNow * (0.3 + s.rng.next() * 0.4));
    const second = addDays(first, s.rng.int(5, 30));
    return second > s.asOf
      ? [{ date: first, cents: part }]
      : [
          { date: first, cents: part },
          { date: second, cents: dueCentsNow - part },
        ];
  }
  return [{ date: first, cents: paidShare === 1 ? dueCentsNow : Math.max(1, Math.floor(dueCentsNow * (0.2 + s.rng.next() * 0.6))) }];
}

export function billUnit(s: GenState, from: string, to: string): void {
  const { rng, out, palette } = s;
  const vendor = activeOf(s, s.ref.vendors);
  const date = dateIn(s, from, to);
  const term = termOf(s, vendor);
  const lines = purchaseLines(rng, palette);
  const poIds: string[] = [];
  if (rng.chance(0.15)) {
    const po = purchaseOrder(s, vendor, addDays(date, -rng.int(3, 20)), lines, 'Closed');
    out.push('purchase_order', po);
    poIds.push(po.Id);
  }
  const roll = rng.next();
  const bills: NativeBill[] = [];
  const bill = (docLines: LineInput[], draft: boolean): NativeBill => {
    const id = out.nextId('bill');
    return makeBill({
      id,
      docNumber: `VI-${id.slice(5)}`,
      partyId: vendor.Id,
      date,
      currency: palette.currency,
      lines: docLines,
      stamps: stampsOn(s, date),
      term,
      draft,
      purchaseOrderIds: poIds,
      memo: rng.chance(0.3) ? `Invoice from ${vendor.DisplayName}` : undefined,
      subsidiaryId: rng.chance(0.1) ? palette.subsidiaries[1] : undefined,
    });
  };
  const first = bill(lines, roll < 0.02);
  bills.push(first);
  if (roll >= 0.02 && roll < 0.03) {
    first.Status = 'Void';
    first.Memo = 'Entered twice; voided';
    settleDocument(first);
  }
  if (first.Status === 'Open' && rng.chance(0.1)) bills.push(bill(purchaseLines(rng, palette), false));

  const open = bills.filter((b) => b.Status === 'Open');
  const target = open[0];
  const firstLine = lines[0];
  if (target !== undefined && firstLine !== undefined && rng.chance(0.06)) {
    const creditDate = addDays(date, rng.int(1, 20));
    if (creditDate <= s.asOf) {
      const id = out.nextId('bill_credit_memo');
      const creditLine: LineInput = {
        ...firstLine,
        qty: 1,
        unitPriceCents: Math.max(100, Math.floor(dueCents(target) * 0.2)),
        discountPctMilli: undefined,
      };
      const credit = makeVendorCredit({
        id,
        docNumber: `VC-${id.slice(4)}`,
        partyId: vendor.Id,
        date: creditDate,
        currency: palette.currency,
        lines: [creditLine],
        stamps: stampsOn(s, creditDate),
        memo: 'Returned goods',
      });
      if (rng.chance(0.8))
        applyCredit(credit, target, Math.min(parseCents(credit.Total), dueCents(target)), creditDate, stampsOn(s, creditDate).UpdatedAt);
      out.push('bill_credit_memo', credit);
    }
  }

  const due = open.reduce((sum, b) => sum + dueCents(b), 0);
  for (const step of paymentPlan(s, date, term?.dueDays ?? 30, due)) {
    let left = step.cents;
    const allocations = [];
    for (const b of open) {
      const cents = Math.min(left, dueCents(b));
      if (cents <= 0) continue;
      allocations.push({ bill: b, cents });
      left -= cents;
    }
    if (allocations.length === 0) continue;
    const payment = makeBillPayment({
      id: out.nextId('bill_payment'),
      vendorId: vendor.Id,
      bankAccountId: acc(rng.chance(0.9) ? '1000' : '1010'),
      date: step.date,
      currency: palette.currency,
      stamps: stampsOn(s, step.date),
      allocations,
      reference: `CHK ${rng.int(1000, 99_999)}`,
    });
    out.push('bill_payment', payment);
  }
  for (const b of bills) out.push('bill', b);
}

export function purchaseOrder(
  s: GenState,
  vendor: NativeContact,
  date: string,
  lines: readonly LineInput[],
  status: NativePurchaseOrder['Status'],
): NativePurchaseOrder {
  const id = s.out.nextId('purchase_order');
  const built = buildLines(lines);
  const po: NativePurchaseOrder = {
    Id: id,
    ...stampsOn(s, date),
    DocNumber: `PO-${id.slice(3)}`,
    VendorId: vendor.Id,
    TxnDate: date,
    ExpectedDate: addDays(date, s.rng.int(5, 30)),
    Status: status,
    CurrencyCode: s.palette.currency,
    Lines: built,
    ...totalsFromLines(built),
  };
  if (s.palette.locations[1] !== undefined && s.rng.chance(0.5)) po.ShipToLocationId = s.palette.locations[1];
  return po;
}

function totalsFromLines(lines: ReturnType<typeof buildLines>): { SubTotal: string; TotalDiscount: string; TotalTax: string; Total: string } {
  let sub = 0,
    discount = 0,
    tax = 0;
  for (const l of lines) {
    sub += parseCents(l.SubTotal);
    discount += parseCents(l.Discount);
    tax += parseCents(l.Tax);
  }
  return { SubTotal: formatCents(sub), TotalDiscount: formatCents(discount), TotalTax: formatCents(tax), Total: formatCents(sub - discount + tax) };
}

export function purchaseOrderUnit(s: GenState, from: string, to: string): void {
  const vendor = activeOf(s, s.ref.vendors);
  const status = s.rng.weighted([
    ['Open', 6],
    ['Draft', 2],
    ['Closed', 2],
  ] as const);
  s.out.push('purchase_order', purchaseOrder(s, vendor, dateIn(s, from, to), purchaseLines(s.rng, s.palette), status));
}

export function invoiceUnit(s: GenState, from: string, to: string): void {
  const { rng, out, palette } = s;
  const customer = activeOf(s, s.ref.customers);
  const date = dateIn(s, from, to);
  const term = termOf(s, customer);
  const id = out.nextId('invoice');
  const invoice: NativeInvoice = makeInvoice({
    id,
    docNumber: `INV-${String(1000 + Number(id.slice(4)))}`,
    partyId: customer.Id,
    date,
    currency: palette.currency,
    lines: salesLines(rng, palette),
    stamps: stampsOn(s, date),
    term,
    draft: rng.chance(0.02),
    memo: rng.chance(0.2) ? 'Thank you for your business' : undefined,
  });
  if (invoice.Status === 'Open' && rng.chance(0.05)) {
    const creditDate = addDays(date, rng.int(1, 15));
    if (creditDate <= s.asOf) {
      const creditId = out.nextId('invoice_credit_memo');
      const line: LineInput = {
        accountId: invoice.Lines[0]?.AccountId ?? acc('4000'),
        description: 'Credit for damaged goods',
        qty: 1,
        unitPriceCents: Math.max(100, Math.floor(dueCents(invoice) * 0.15)),
      };
      const credit = makeCreditNote({
        id: creditId,
        docNumber: `CN-${creditId.slice(3)}`,
        partyId: customer.Id,
        date: creditDate,
        currency: palette.currency,
        lines: [line],
        stamps: stampsOn(s, creditDate),
      });
      if (rng.chance(0.8))
        applyCredit(credit, invoice, Math.min(parseCents(credit.Total), dueCents(invoice)), creditDate, stampsOn(s, creditDate).UpdatedAt);
      out.push('invoice_credit_memo', credit);
    }
  }
  if (invoice.Status === 'Open' || invoice.Status === 'PartiallyPaid') {
    for (const step of paymentPlan(s, date, term?.dueDays ?? 30, dueCents(invoice))) {
      const toFunds = rng.chance(0.7);
      const payment = makePayment({
        id: out.nextId('invoice_payment'),
        customerId: customer.Id,
        depositTo: toFunds ? ROLES.UndepositedFunds : acc('1000'),
        date: step.date,
        currency: palette.currency,
        stamps: stampsOn(s, step.date),
        method: rng.pick(['Check', 'ACH', 'Card', 'Wire']),
        allocations: [{ invoice, cents: Math.min(step.cents, dueCents(invoice)) }],
        reference: `RCPT-${rng.int(10_000, 99_999)}`,
      });
      if (toFunds) s.undeposited.push(payment);
      else out.push('invoice_payment', payment);
    }
  }
  out.push('invoice', invoice);
}

/** Deposits the month's undeposited customer payments in groups; a few stay undeposited. */
export function depositPending(s: GenState, monthEnd: string, final: boolean): void {
  const due = s.undeposited.filter((p) => p.TxnDate <= monthEnd).sort((a, b) => (a.TxnDate < b.TxnDate ? -1 : a.TxnDate > b.TxnDate ? 1 : 0));
  s.undeposited = s.undeposited.filter((p) => p.TxnDate > monthEnd);
  while (due.length > 0) {
    const group = due.splice(0, s.rng.int(2, 8));
    const last = group[group.length - 1];
    if (last === undefined) break;
    if (final && s.rng.chance(0.2)) {
      for (const p of group) s.out.push('invoice_payment', p);
      continue;
    }
    let date = addDays(last.TxnDate, s.rng.int(0, 3));
    if (date > s.asOf) date = s.asOf;
    const id = s.out.nextId('bank_deposit');
    let total = 0;
    for (const p of group) {
      p.DepositId = id;
      p.UpdatedAt = later(p.UpdatedAt, stamp(date, 30_000));
      total += parseCents(p.Amount);
      s.out.push('invoice_payment', p);
    }
    const deposit: NativeDeposit = {
      Id: id,
      ...stampsOn(s, date),
      BankAccountId: acc('1000'),
      TxnDate: date,
      CurrencyCode: s.palette.currency,
      Total: formatCents(total),
      Payments: group.map((p) => ({ PaymentId: p.Id, Amount: p.Amount })),
      Lines: [],
    };
    if (s.rng.chance(0.15)) {
      const extra = s.rng.int(1_000, 50_000);
      deposit.Lines.push({ LineId: '1', AccountId: acc('4900'), Amount: formatCents(extra), Description: 'Interest received' });
      deposit.Total = formatCents(total + extra);
    }
    if (s.rng.chance(0.2)) deposit.Memo = `Deposit of ${group.length} receipts`;
    if (s.palette.departments[0] !== undefined && s.rng.chance(0.2)) deposit.DepartmentId = s.palette.departments[0];
    s.out.push('bank_deposit', deposit);
  }
}

/** A deposit of other receipts only (owner contribution, refund, interest). */
export function otherDepositUnit(s: GenState, from: string, to: string): void {
  const date = dateIn(s, from, to);
  const [accountCode, description] = s.rng.pick([
    ['3000', 'Owner contribution'],
    ['4900', 'Interest received'],
    ['6400', 'Supplier refund'],
  ] as const);
  const cents = s.rng.int(5_000, 2_000_000);
  const deposit: NativeDeposit = {
    Id: s.out.nextId('bank_deposit'),
    ...stampsOn(s, date),
    BankAccountId: acc(s.rng.chance(0.7) ? '1000' : '1010'),
    TxnDate: date,
    CurrencyCode: s.palette.currency,
    Total: formatCents(cents),
    Payments: [],
    Lines: [{ LineId: '1', AccountId: acc(accountCode), Amount: formatCents(cents), Description: description }],
    Memo: description,
  };
  s.out.push('bank_deposit', deposit);
}

export function transferUnit(s: GenState, from: string, to: string): void {
  const date = dateIn(s, from, to);
  const [source, target, memo] = s.rng.weighted([
    [['1000', '1010', 'Move to savings'], 3],
    [['1010', '1000', 'Top up checking'], 1],
    [['1000', '1020', 'Fund payroll'], 3],
  ] as const);
  const transfer: NativeTransfer = {
    Id: s.out.nextId('bank_transfer'),
    ...stampsOn(s, date),
    FromAccountId: acc(source),
    ToAccountId: acc(target),
    Amount: formatCents(target === '1020' ? s.rng.int(1_000_000, 4_000_000) : s.rng.int(50_000, 2_000_000)),
    TxnDate: date,
    CurrencyCode: s.palette.currency,
    Memo: memo,
  };
  if (s.palette.classes[0] !== undefined && s.rng.chance(0.1)) transfer.ClassId = s.palette.classes[0];
  s.out.push('bank_transfer', transfer);
}

export function expenseUnit(s: GenState, from: string, to: string): void {
  const { rng, palette } = s;
  const date = dateIn(s, from, to);
  const type = rng.weighted([
    ['CreditCard', 6],
    ['Cash', 2],
    ['Check', 2],
  ] as const);
  const tax = palette.purchaseTax.length > 0 && rng.chance(0.7) ? rng.pick(palette.purchaseTax) : undefined;
  const inputs: LineInput[] = [];
  for (let n = rng.int(1, 2); n > 0; n--) {
    const line: LineInput = {
      accountId: acc(rng.pick(SPEND_CODES)),
      description: rng.pick(['Taxi', 'Team lunch', 'Printer paper', 'SaaS seat', 'Bank charge', 'Hotel', 'Mobile plan']),
      qty: 1,
      unitPriceCents: rng.int(500, 60_000),
    };
    if (tax !== undefined) {
      line.taxCodeId = tax.id;
      line.taxRateMilli = tax.rateMilli;
    }
    inputs.push(line);
  }
  const lines = buildLines(inputs);
  const expense: NativeExpense = {
    Id: s.out.nextId('expense'),
    ...stampsOn(s, date),
    PaymentAccountId: acc(type === 'CreditCard' ? '2100' : '1000'),
    PaymentType: type,
    TxnDate: date,
    CurrencyCode: palette.currency,
    Lines: lines,
    ...totalsFromLines(lines),
    Status: 'Posted',
  };
  if (rng.chance(0.6)) expense.VendorId = activeOf(s, s.ref.vendors).Id;
  if (rng.chance(0.3)) expense.Reference = `RCPT-${rng.int(100_000, 999_999)}`;
  s.out.push('expense', expense);
}

/**
 * Builders of native documents, used by the generator and by the clock alike,
 * so invented bills and payments follow the same rules whenever they appear.
 */
import { buildLine, settleCredit, settleDocument, totalsOf, type LineInput } from './books.ts';
import { addDays } from './dates.ts';
import { formatCents, parseCents } from './money.ts';
import type {
  LinkedTxn,
  NativeBill,
  NativeBillPayment,
  NativeContact,
  NativeCreditNote,
  NativeInvoice,
  NativeLine,
  NativePayment,
  NativeSalesReceipt,
  NativeVendorCredit,
  TxnType,
} from './native.ts';
import type { Rng } from './prng.ts';
import { BILL_EXPENSE_CODES, INCOME_CODES, ROLES, acc } from './generator/chart.ts';
import { EXPENSE_WORDS, SALES_WORDS } from './generator/names.ts';

export interface TaxChoice {
  id: string;
  rateMilli: number;
}
export interface PaletteItem {
  id: string;
  name: string;
  salesCents: number;
  costCents: number;
  incomeAccountId: string;
  expenseAccountId: string;
}

/** What inventing a document needs to know about the business (kept with the account state). */
export interface Palette {
  currency: string;
  purchaseTax: TaxChoice[];
  salesTax: TaxChoice[];
  terms: { id: string; dueDays: number }[];
  classes: string[];
  departments: string[];
  locations: string[];
  projects: string[];
  subsidiaries: string[];
  items: PaletteItem[];
}

export interface Stamps {
  CreatedAt: string;
  UpdatedAt: string;
}

function tracking(rng: Rng, p: Palette, line: LineInput): LineInput {
  if (p.classes.length > 0 && rng.chance(0.3)) line.ClassId = rng.pick(p.classes);
  if (p.departments.length > 0 && rng.chance(0.3)) line.DepartmentId = rng.pick(p.departments);
  if (p.locations.length > 0 && rng.chance(0.2)) line.LocationId = rng.pick(p.locations);
  if (p.projects.length > 0 && rng.chance(0.1)) line.ProjectId = rng.pick(p.projects);
  return line;
}

export function purchaseLines(rng: Rng, p: Palette): LineInput[] {
  const tax = rng.chance(0.8) && p.purchaseTax.length > 0 ? rng.pick(p.purchaseTax) : undefined;
  const lines: LineInput[] = [];
  for (
    let n = rng.weighted([
      [1, 5],
      [2, 3],
      [3, 2],
      [4, 1],
    ] as const);
    n > 0;
    n--
  ) {
    const item = p.items.length > 0 && rng.chance(0.4) ? rng.pick(p.items) : undefined;
    const line: LineInput =
      item === undefined
        ? {
            accountId: acc(rng.pick(BILL_EXPENSE_CODES)),
            description: rng.pick(EXPENSE_WORDS),
            qty: rng.int(1, 10),
            unitPriceCents: rng.int(500, 120_000),
          }
        : { accountId: item.expenseAccountId, itemId: item.id, description: item.name, qty: rng.int(1, 20), unitPriceCents: item.costCents };
    if (rng.chance(0.1)) line.discountPctMilli = rng.pick([2_000, 5_000, 10_000]);
    if (tax !== undefined) {
      line.taxCodeId = tax.id;
      line.taxRateMilli = tax.rateMilli;
    }
    lines.push(tracking(rng, p, line));
  }
  return lines;
}

export function salesLines(rng: Rng, p: Palette): LineInput[] {
  const tax = rng.chance(0.85) && p.salesTax.length > 0 ? rng.pick(p.salesTax) : undefined;
  const lines: LineInput[] = [];
  for (
    let n = rng.weighted([
      [1, 4],
      [2, 3],
      [3, 2],
      [5, 1],
    ] as const);
    n > 0;
    n--
  ) {
    const item = p.items.length > 0 && rng.chance(0.6) ? rng.pick(p.items) : undefined;
    // Sales carry a margin over purchases, so the business makes money overall.
    const line: LineInput =
      item === undefined
        ? { accountId: acc(rng.pick(INCOME_CODES)), description: rng.pick(SALES_WORDS), qty: rng.int(1, 8), unitPriceCents: rng.int(2_000, 200_000) }
        : { accountId: item.incomeAccountId, itemId: item.id, description: item.name, qty: rng.int(1, 25), unitPriceCents: item.salesCents };
    if (rng.chance(0.15)) line.discountPctMilli = rng.pick([5_000, 10_000, 15_000]);
    if (tax !== undefined) {
      line.taxCodeId = tax.id;
      line.taxRateMilli = tax.rateMilli;
    }
    lines.push(tracking(rng, p, line));
  }
  return lines;
}

export function buildLines(inputs: readonly LineInput[]): ReturnType<typeof buildLine>[] {
  return inputs.map((input, n) => buildLine(String(n + 1), input));
}

export interface DocArgs {
  id: string;
  docNumber: string;
  partyId: string;
  date: string;
  currency: string;
  lines: LineInput[];
  stamps: Stamps;
  term?: { id: string; dueDays: number } | undefined;
  memo?: string | undefined;
  subsidiaryId?: string | undefined;
}

export function makeBill(args: DocArgs & { draft?: boolean; purchaseOrderIds?: string[] }): NativeBill {
  const lines = buildLines(args.lines);
  const bill: NativeBill = {
    Id: args.id,
    ...args.stamps,
    DocNumber: args.docNumber,
    VendorId: args.partyId,
    APAccountId: ROLES.AP,
    TxnDate: args.date,
    DueDate: addDays(args.date, args.term?.dueDays ?? 30),
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    Status: args.draft === true ? 'Draft' : 'Open',
    Lines: lines,
    ...totalsOf(lines),
    AmountDue: '0.00',
    PurchaseOrderIds: args.purchaseOrderIds ?? [],
    LinkedTxns: [],
  };
  if (args.term !== undefined) bill.TermId = args.term.id;
  if (args.memo !== undefined) bill.Memo = args.memo;
  if (args.subsidiaryId !== undefined) bill.SubsidiaryId = args.subsidiaryId;
  settleDocument(bill);
  return bill;
}

export function makeInvoice(args: DocArgs & { draft?: boolean }): NativeInvoice {
  return invoiceOfLines({ ...args, lines: buildLines(args.lines) });
}

/** An invoice of lines already built: a sales order's, invoiced as it was ordered. */
export function invoiceOfLines(args: Omit<DocArgs, 'lines'> & { lines: NativeLine[]; draft?: boolean }): NativeInvoice {
  const lines = args.lines;
  const invoice: NativeInvoice = {
    Id: args.id,
    ...args.stamps,
    DocNumber: args.docNumber,
    CustomerId: args.partyId,
    ARAccountId: ROLES.AR,
    TxnDate: args.date,
    DueDate: addDays(args.date, args.term?.dueDays ?? 30),
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    Status: args.draft === true ? 'Draft' : 'Open',
    Lines: lines,
    ...totalsOf(lines),
    AmountDue: '0.00',
    LinkedTxns: [],
  };
  if (args.term !== undefined) invoice.TermId = args.term.id;
  if (args.memo !== undefined) invoice.Memo = args.memo;
  if (args.subsidiaryId !== undefined) invoice.SubsidiaryId = args.subsidiaryId;
  settleDocument(invoice);
  return invoice;
}

export function makeVendorCredit(args: DocArgs): NativeVendorCredit {
  const lines = buildLines(args.lines);
  const credit: NativeVendorCredit = {
    Id: args.id,
    ...args.stamps,
    DocNumber: args.docNumber,
    VendorId: args.partyId,
    APAccountId: ROLES.AP,
    TxnDate: args.date,
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    Status: 'Open',
    Lines: lines,
    ...totalsOf(lines),
    Remaining: '0.00',
    LinkedTxns: [],
  };
  if (args.memo !== undefined) credit.Memo = args.memo;
  settleCredit(credit);
  return credit;
}

export function makeCreditNote(args: DocArgs): NativeCreditNote {
  const lines = buildLines(args.lines);
  const credit: NativeCreditNote = {
    Id: args.id,
    ...args.stamps,
    DocNumber: args.docNumber,
    CustomerId: args.partyId,
    ARAccountId: ROLES.AR,
    TxnDate: args.date,
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    Status: 'Open',
    Lines: lines,
    ...totalsOf(lines),
    Remaining: '0.00',
    LinkedTxns: [],
  };
  if (args.memo !== undefined) credit.Memo = args.memo;
  settleCredit(credit);
  return credit;
}

type Payable = NativeBill | NativeInvoice;

/** Links an amount between a document and a payment or credit, both ways, and settles the document. */
export function allocate(doc: Payable, otherId: string, otherType: TxnType, cents: number, date: string, at: string): LinkedTxn {
  doc.LinkedTxns.push({ TxnId: otherId, TxnType: otherType, Date: date, Amount: formatCents(cents) });
  doc.UpdatedAt = at > doc.UpdatedAt ? at : doc.UpdatedAt;
  settleDocument(doc);
  return { TxnId: doc.Id, TxnType: 'VendorId' in doc ? 'Bill' : 'Invoice', Date: date, Amount: formatCents(cents) };
}

/** Removes every allocation of `otherId` from a document (void or delete of a payment or credit). */
export function unallocate(doc: Payable, otherId: string, at: string): void {
  doc.LinkedTxns = doc.LinkedTxns.filter((t) => t.TxnId !== otherId);
  doc.UpdatedAt = at;
  settleDocument(doc);
}

export function makeBillPayment(args: {
  id: string;
  vendorId: string;
  bankAccountId: string;
  date: string;
  currency: string;
  stamps: Stamps;
  allocations: { bill: NativeBill; cents: number }[];
  reference?: string;
}): NativeBillPayment {
  const linked = args.allocations.map((a) => allocate(a.bill, args.id, 'BillPayment', a.cents, args.date, args.stamps.UpdatedAt));
  const payment: NativeBillPayment = {
    Id: args.id,
    ...args.stamps,
    VendorId: args.vendorId,
    BankAccountId: args.bankAccountId,
    TxnDate: args.date,
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    Status: 'Active',
    Amount: formatCents(args.allocations.reduce((s, a) => s + a.cents, 0)),
    LinkedTxns: linked,
  };
  if (args.reference !== undefined) payment.Reference = args.reference;
  return payment;
}

export function makePayment(args: {
  id: string;
  customerId: string;
  depositTo: string;
  date: string;
  currency: string;
  stamps: Stamps;
  method: string;
  allocations: { invoice: NativeInvoice; cents: number }[];
  reference?: string;
}): NativePayment {
  const linked = args.allocations.map((a) => allocate(a.invoice, args.id, 'Payment', a.cents, args.date, args.stamps.UpdatedAt));
  const payment: NativePayment = {
    Id: args.id,
    ...args.stamps,
    CustomerId: args.customerId,
    DepositToAccountId: args.depositTo,
    TxnDate: args.date,
    CurrencyCode: args.currency,
    ExchangeRate: '1.000000',
    PaymentMethod: args.method,
    Status: 'Active',
    Amount: formatCents(args.allocations.reduce((s, a) => s + a.cents, 0)),
    LinkedTxns: linked,
  };
  if (args.reference !== undefined) payment.Reference = args.reference;
  return payment;
}

/** Applies part of a credit to a document, recording it on both. */
export function applyCredit(credit: NativeVendorCredit | NativeCreditNote, doc: Payable, cents: number, date: string, at: string): void {
  const link = allocate(doc, credit.Id, 'VendorId' in credit ? 'VendorCredit' : 'CreditNote', cents, date, at);
  credit.LinkedTxns.push(link);
  credit.UpdatedAt = at > credit.UpdatedAt ? at : credit.UpdatedAt;
  settleCredit(credit);
}

export function dueCents(doc: Payable): number {
  return parseCents(doc.AmountDue);
}

/** What a sales receipt charges for shipping goes to this account, as a line of its own. */
export const SHIPPING_ACCOUNT_ID = acc('4200');

/**
 * A cash sale of the day, drawn whole from `rng`: the sales lines of an invoice (and now and then a shipping line),
 * paid by cash, card or check into the checking account, to a customer or to no one named (a walk-in sale).
 */
export function drawSalesReceipt(
  rng: Rng,
  p: Palette,
  args: { id: string; date: string; stamps: Stamps; customer: NativeContact | undefined },
): NativeSalesReceipt {
  const inputs = salesLines(rng, p);
  if (rng.chance(0.2)) inputs.push({ accountId: SHIPPING_ACCOUNT_ID, description: 'Shipping', qty: 1, unitPriceCents: rng.int(500, 4_000) });
  const lines = buildLines(inputs);
  const method = rng.weighted([
    ['Card', 6],
    ['Cash', 3],
    ['Check', 1],
  ] as const);
  const receipt: NativeSalesReceipt = {
    Id: args.id,
    ...args.stamps,
    DocNumber: `SR-${String(1000 + Number(args.id.slice(3)))}`,
    DepositToAccountId: acc('1000'),
    TxnDate: args.date,
    CurrencyCode: p.currency,
    ExchangeRate: '1.000000',
    PaymentMethod: method,
    Lines: lines,
    ...totalsOf(lines),
  };
  if (method === 'Check') receipt.Reference = `CHK ${rng.int(1000, 99_999)}`;
  else if (method === 'Card') receipt.Reference = `CARD-${rng.int(100_000, 999_999)}`;
  if (rng.chance(0.3)) receipt.Memo = 'Thank you for your purchase';
  if (rng.chance(0.15)) receipt.InternalMemo = 'Counter sale';
  const customer = args.customer;
  if (customer !== undefined) {
    receipt.CustomerId = customer.Id;
    if (customer.Email !== undefined && rng.chance(0.5)) receipt.BillEmail = customer.Email;
    const billing = customer.Addresses.find((a) => a.Kind === 'Billing');
    if (billing !== undefined) receipt.BillAddress = billing;
  }
  return receipt;
}

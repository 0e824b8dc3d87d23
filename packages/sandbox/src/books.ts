/**
 * The sandbox's bookkeeping rules, shared by the generator, the clock (ticks)
 * and the write API: how a line and a document total up, how allocations set
 * amount due and status, and what each document posts to the ledger. Pure
 * functions on native records; all arithmetic in integer cents.
 */
import { formatCents, parseCents, parseRate, taxOn } from './money.ts';
import type { CreditStatus, DocStatus, LinkedTxn, NativeJournalLine, NativeLine, NativeRecord, TrackingRefs } from './native.ts';

export interface LineInput extends TrackingRefs {
  accountId: string;
  description?: string | undefined;
  itemId?: string | undefined;
  qty: number;
  unitPriceCents: number;
  /** Either a percentage (thousandths of a percent) or an amount; amount wins. */
  discountPctMilli?: number | undefined;
  discountCents?: number | undefined;
  taxCodeId?: string | undefined;
  taxRateMilli?: number | undefined;
}

export function buildLine(lineId: string, input: LineInput): NativeLine {
  const sub = Math.round(input.qty * input.unitPriceCents);
  const discount = input.discountCents ?? (input.discountPctMilli === undefined ? 0 : taxOn(sub, input.discountPctMilli));
  const tax = taxOn(sub - discount, input.taxRateMilli ?? 0);
  const line: NativeLine = {
    LineId: lineId,
    AccountId: input.accountId,
    Qty: input.qty,
    UnitPrice: formatCents(input.unitPriceCents),
    Discount: formatCents(discount),
    SubTotal: formatCents(sub),
    Tax: formatCents(tax),
    Total: formatCents(sub - discount + tax),
  };
  if (input.description !== undefined) line.Description = input.description;
  if (input.itemId !== undefined) line.ItemId = input.itemId;
  if (input.discountPctMilli !== undefined && input.discountCents === undefined) line.DiscountPct = (input.discountPctMilli / 1000).toFixed(3);
  if (input.taxCodeId !== undefined) line.TaxCodeId = input.taxCodeId;
  for (const key of ['ClassId', 'DepartmentId', 'LocationId', 'ProjectId', 'CustomerId'] as const) {
    const value = input[key];
    if (value !== undefined) line[key] = value;
  }
  return line;
}

export interface DocTotals {
  SubTotal: string;
  TotalDiscount: string;
  TotalTax: string;
  Total: string;
}

/** Document totals from its lines: SubTotal - TotalDiscount + TotalTax = Total. */
export function totalsOf(lines: readonly NativeLine[]): DocTotals {
  let sub = 0;
  let discount = 0;
  let tax = 0;
  for (const line of lines) {
    sub += parseCents(line.SubTotal);
    discount += parseCents(line.Discount);
    tax += parseCents(line.Tax);
  }
  return { SubTotal: formatCents(sub), TotalDiscount: formatCents(discount), TotalTax: formatCents(tax), Total: formatCents(sub - discount + tax) };
}

export function allocatedCents(linked: readonly LinkedTxn[]): number {
  let sum = 0;
  for (const entry of linked) sum += parseCents(entry.Amount);
  return sum;
}

/** Bills and invoices: amount due and status follow from total and allocations. */
export function settleDocument(doc: { Total: string; AmountDue: string; Status: DocStatus; LinkedTxns: LinkedTxn[] }): void {
  if (doc.Status === 'Void') {
    doc.AmountDue = '0.00';
    return;
  }
  const total = parseCents(doc.Total);
  const due = total - allocatedCents(doc.LinkedTxns);
  doc.AmountDue = formatCents(due);
  if (doc.Status === 'Draft') return;
  doc.Status = due === 0 ? 'Paid' : due < total ? 'PartiallyPaid' : 'Open';
}

/** Vendor credits and credit notes: remaining amount and status follow from applications. */
export function settleCredit(doc: { Total: string; Remaining: string; Status: CreditStatus; LinkedTxns: LinkedTxn[] }): void {
  if (doc.Status === 'Void') {
    doc.Remaining = '0.00';
    return;
  }
  const total = parseCents(doc.Total);
  const remaining = total - allocatedCents(doc.LinkedTxns);
  doc.Remaining = formatCents(remaining);
  doc.Status = remaining === 0 ? 'Applied' : remaining < total ? 'PartiallyApplied' : 'Open';
}

/** Signed journal amount of a line: debit positive, credit negative. */
export function journalLineCents(line: NativeJournalLine): number {
  return (line.Debit === undefined ? 0 : parseCents(line.Debit)) - (line.Credit === undefined ? 0 : parseCents(line.Credit));
}

export function journalLine(lineId: string, accountId: string, signedCents: number, description?: string): NativeJournalLine {
  const line: NativeJournalLine = { LineId: lineId, AccountId: accountId };
  if (signedCents >= 0) line.Debit = formatCents(signedCents);
  else line.Credit = formatCents(-signedCents);
  if (description !== undefined) line.Description = description;
  return line;
}

/** Accounts the platform posts to by itself (tax, undeposited funds, receivables, payables). */
export interface RoleAccounts {
  AP: string;
  AR: string;
  UndepositedFunds: string;
  InputTax: string;
  SalesTax: string;
}

/** One ledger movement: debit positive, credit negative. */
export interface Posting {
  date: string;
  accountId: string;
  cents: number;
}

type Poster = (record: NativeRecord, roles: RoleAccounts) => Posting[];

function str(record: NativeRecord, key: string): string {
  const value = record[key];
  if (typeof value !== 'string') throw new Error(`${record.Id}: ${key} is not text`);
  return value;
}

function linesOf(record: NativeRecord): NativeLine[] {
  const lines = record.Lines;
  return Array.isArray(lines) ? (lines as NativeLine[]) : [];
}

/** Lines post net of discount; tax to the tax role account; the total to the counter account. sign=+1 debits lines. */
function documentPostings(record: NativeRecord, sign: 1 | -1, taxAccount: string, counterAccount: string): Posting[] {
  const date = str(record, 'TxnDate');
  const postings: Posting[] = [];
  let tax = 0;
  let total = 0;
  for (const line of linesOf(record)) {
    const net = parseCents(line.SubTotal) - parseCents(line.Discount);
    postings.push({ date, accountId: line.AccountId, cents: sign * net });
    tax += parseCents(line.Tax);
    total += parseCents(line.Total);
  }
  if (tax !== 0) postings.push({ date, accountId: taxAccount, cents: sign * tax });
  postings.push({ date, accountId: counterAccount, cents: -sign * total });
  return postings;
}

const live = (record: NativeRecord): boolean => record.Status !== 'Void' && record.Status !== 'Voided' && record.Status !== 'Draft';

const POSTERS: Readonly<Record<string, Poster>> = {
  bill: (r, roles) => documentPostings(r, 1, roles.InputTax, str(r, 'APAccountId')),
  bill_credit_memo: (r, roles) => documentPostings(r, -1, roles.InputTax, str(r, 'APAccountId')),
  invoice: (r, roles) => documentPostings(r, -1, roles.SalesTax, str(r, 'ARAccountId')),
  invoice_credit_memo: (r, roles) => documentPostings(r, 1, roles.SalesTax, str(r, 'ARAccountId')),
  expense: (r, roles) => documentPostings(r, 1, roles.InputTax, str(r, 'PaymentAccountId')),
  // A cash sale: the deposit account takes the place of the receivable an invoice would debit.
  sales_receipt: (r, roles) => documentPostings(r, -1, roles.SalesTax, str(r, 'DepositToAccountId')),
  // A sales receipt in reverse: the lines (and their tax) are debited, the account the money left is credited.
  customer_refund: (r, roles) => documentPostings(r, 1, roles.SalesTax, str(r, 'RefundFromAccountId')),
  bill_payment: (r, roles) => {
    const cents = parseCents(str(r, 'Amount'));
    const date = str(r, 'TxnDate');
    return [
      { date, accountId: roles.AP, cents },
      { date, accountId: str(r, 'BankAccountId'), cents: -cents },
    ];
  },
  invoice_payment: (r, roles) => {
    const cents = parseCents(str(r, 'Amount'));
    const date = str(r, 'TxnDate');
    return [
      { date, accountId: str(r, 'DepositToAccountId'), cents },
      { date, accountId: roles.AR, cents: -cents },
    ];
  },
  bank_deposit: (r, roles) => {
    const date = str(r, 'TxnDate');
    const postings: Posting[] = [{ date, accountId: str(r, 'BankAccountId'), cents: parseCents(str(r, 'Total')) }];
    const payments = Array.isArray(r.Payments) ? (r.Payments as { Amount: string }[]) : [];
    let fromFunds = 0;
    for (const payment of payments) fromFunds += parseCents(payment.Amount);
    if (fromFunds !== 0) postings.push({ date, accountId: roles.UndepositedFunds, cents: -fromFunds });
    const lines = Array.isArray(r.Lines) ? (r.Lines as { AccountId: string; Amount: string }[]) : [];
    for (const line of lines) postings.push({ date, accountId: line.AccountId, cents: -parseCents(line.Amount) });
    return postings;
  },
  bank_transfer: (r) => {
    const cents = parseCents(str(r, 'Amount'));
    const date = str(r, 'TxnDate');
    return [
      { date, accountId: str(r, 'ToAccountId'), cents },
      { date, accountId: str(r, 'FromAccountId'), cents: -cents },
    ];
  },
  journal_entry: (r) => {
    const date = str(r, 'TxnDate');
    const lines = Array.isArray(r.Lines) ? (r.Lines as NativeJournalLine[]) : [];
    return lines.map((line) => ({ date, accountId: line.AccountId, cents: journalLineCents(line) }));
  },
};

/** What a record posts to the ledger; nothing for drafts, voided records and non-posting types. */
export function postingsOf(type: string, record: NativeRecord, roles: RoleAccounts): Posting[] {
  const poster = POSTERS[type];
  if (poster === undefined || !live(record)) return [];
  return poster(record, roles);
}

export function isPostingType(type: string): boolean {
  return POSTERS[type] !== undefined;
}

/** Effective rate of stacked components: compound ones also tax the taxes before them. */
export function taxRates(components: readonly { Rate: string; Compound: boolean }[]): { total: number; effective: number } {
  let total = 0;
  let effective = 0;
  for (const component of components) {
    const rate = parseRate(component.Rate);
    total += rate;
    effective += component.Compound ? Math.round((rate * (100_000 + effective)) / 100_000) : rate;
  }
  return { total, effective };
}

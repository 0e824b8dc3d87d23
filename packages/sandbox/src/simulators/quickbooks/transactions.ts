/**
 * Transactions in QBO's shapes. QBO has no status field: a voided transaction has its amounts zeroed, its lines
 * cleared and "Voided" in front of its PrivateNote, and documents carry their open Balance. Line Amounts are before
 * tax (TxnTaxDetail and the expense line's TaxAmount hold the tax); TotalAmt includes it. Bills and journal entries
 * are written too: their tables, and their lines' tables, are read backwards (writes.ts applies the bodies).
 */
import { parseCents } from '../../money.ts';
import { invalid } from '../../native-error.ts';
import type {
  LinkedTxn,
  NativeBill,
  NativeBillPayment,
  NativeCreditNote,
  NativeDeposit,
  NativeExpense,
  NativeInvoice,
  NativeJournalEntry,
  NativeJournalLine,
  NativeLine,
  NativeMeta,
  NativePayment,
  NativeSalesReceipt,
  NativeTransfer,
  NativeVendorCredit,
} from '../../native.ts';
import type { Body } from '../../writes/validate.ts';
import { fixed, lookup, outOnly, readFields, renderFields, type FieldTable } from '../field-table.ts';
import { valueAt } from '../lists.ts';
import { isRecord, recordsIn } from '../wire.ts';
import { postalAddress } from './names.ts';
import { amount, compact, currencyCode, entityNameOf, money, optRef, qboId, ref, refTo, voided, type Json } from './shapes.ts';

type Txn = NativeMeta & { TxnDate: string; CurrencyCode: string; ExchangeRate?: string; Status?: string; Memo?: string };

const HEADER: FieldTable<Txn> = { TxnDate: 'TxnDate', 'CurrencyRef.value': ['CurrencyCode', currencyCode], PrivateNote: 'Memo' };
const DOCUMENT: FieldTable<Txn & { DocNumber: string; Total: string }> = { ...HEADER, DocNumber: 'DocNumber', TotalAmt: ['Total', money] };
const account = refTo('account');
const taxTotal = { 'TxnTaxDetail.TotalTax': ['TotalTax', money] } as const;
const vendorRef = { 'VendorRef.value': ['VendorId', refTo('vendor')] } as const;
const customerRef = { 'CustomerRef.value': ['CustomerId', refTo('customer')] } as const;

/**
 * A transaction's renderer: its table, what code adds (lines, links, constants), QBO's ExchangeRate when its
 * currency is not the company's home currency, and QBO's void when SANDBOX's status is `voidStatus`.
 */
function transaction<R extends Txn>(table: FieldTable<R>, extra: (r: R) => Json, voidStatus?: string) {
  return (r: R, ctx: { home: string }): Json => {
    const foreign = r.CurrencyCode !== ctx.home && r.ExchangeRate !== undefined;
    const record = compact({ ...renderFields(table, r), ExchangeRate: foreign ? Number(r.ExchangeRate) : undefined, ...extra(r) });
    return voidStatus !== undefined && r.Status === voidStatus ? voided(record, r.Memo) : record;
  };
}

const net = (line: NativeLine): number => (parseCents(line.SubTotal) - parseCents(line.Discount)) / 100;

/** QBO tracks the department on the whole transaction: the first line's. */
function departmentOf(lines: readonly { DepartmentId?: string }[]): { value: string } | undefined {
  return optRef(lines.find((l) => l.DepartmentId !== undefined)?.DepartmentId);
}

/** An expense line's references, under its detail: account lines' (rendered, and written) and item lines' (written). */
const expenseDetail = (detail: string): FieldTable<NativeLine> => ({
  [`${detail}.AccountRef.value`]: ['AccountId', account],
  [`${detail}.ClassRef.value`]: ['ClassId', refTo('class')],
  [`${detail}.CustomerRef.value`]: ['CustomerId', refTo('customer')],
  [`${detail}.TaxCodeRef.value`]: ['TaxCodeId', refTo('tax_rate')],
});
const ACCOUNT_LINE: FieldTable<NativeLine> = {
  Description: 'Description',
  DetailType: fixed('AccountBasedExpenseLineDetail'),
  ...expenseDetail('AccountBasedExpenseLineDetail'),
  'AccountBasedExpenseLineDetail.TaxAmount': ['Tax', money],
  'AccountBasedExpenseLineDetail.BillableStatus': fixed('NotBillable'),
};
const ITEM_LINE: FieldTable<NativeLine> = {
  Description: 'Description',
  'ItemBasedExpenseLineDetail.ItemRef.value': ['ItemId', refTo('item')],
  ...expenseDetail('ItemBasedExpenseLineDetail'),
};
const SALES_LINE: FieldTable<NativeLine> = {
  Description: 'Description',
  DetailType: fixed('SalesItemLineDetail'),
  'SalesItemLineDetail.ItemRef.value': ['ItemId', refTo('item')],
  'SalesItemLineDetail.ItemAccountRef.value': ['AccountId', account],
  'SalesItemLineDetail.ClassRef.value': ['ClassId', refTo('class')],
  'SalesItemLineDetail.Qty': 'Qty',
  'SalesItemLineDetail.UnitPrice': ['UnitPrice', money],
  'SalesItemLineDetail.DiscountAmt': ['Discount', outOnly((discount) => (money.out(discount) === 0 ? undefined : money.out(discount)))],
  'SalesItemLineDetail.TaxCodeRef.value': ['TaxCodeId', refTo('tax_rate')],
};

/** Lines as QBO numbers them: Id and LineNum from 1. */
const numbered = (lines: readonly Json[]): Json[] => lines.map((line, n) => ({ Id: String(n + 1), LineNum: n + 1, ...line }));

const expenseLines = (lines: readonly NativeLine[]): Json[] =>
  numbered(lines.map((line) => ({ Amount: net(line), ...renderFields(ACCOUNT_LINE, line) })));

/** Sales lines, then QBO's subtotal line. */
function salesLines(lines: readonly NativeLine[]): Json[] {
  const items = numbered(lines.map((line) => ({ Amount: net(line), ...renderFields(SALES_LINE, line) })));
  const subTotal = lines.reduce((sum, line) => sum + Math.round(net(line) * 100), 0) / 100;
  return [...items, { Amount: subTotal, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} }];
}

/** QBO names a bill's payments BillPaymentCheck in its LinkedTxn. */
function linked(links: readonly LinkedTxn[]): Json[] | undefined {
  if (links.length === 0) return undefined;
  return links.map((l) => ({
    TxnId: qboId(l.TxnId),
    TxnType: l.TxnType === 'BillPayment' ? 'BillPaymentCheck' : entityNameOf(l.TxnType),
  }));
}

/** The allocation lines of a payment: one per linked document, with the amount applied to it. */
function allocationLines(links: readonly LinkedTxn[]): Json[] {
  return links.map((l) => ({
    Amount: amount(l.Amount),
    LinkedTxn: [{ TxnId: qboId(l.TxnId), TxnType: entityNameOf(l.TxnType) }],
  }));
}

const BILL: FieldTable<NativeBill> = {
  ...DOCUMENT,
  ...vendorRef,
  'APAccountRef.value': ['APAccountId', account],
  'SalesTermRef.value': ['TermId', refTo('payment_term')],
  DueDate: 'DueDate',
  Balance: ['AmountDue', money],
  ...taxTotal,
};

export const bill = transaction<NativeBill>(
  BILL,
  (r) => ({ DepartmentRef: departmentOf(r.Lines), LinkedTxn: linked(r.LinkedTxns), Line: expenseLines(r.Lines) }),
  'Void',
);

const VENDOR_CREDIT: FieldTable<NativeVendorCredit> = {
  ...DOCUMENT,
  ...vendorRef,
  'APAccountRef.value': ['APAccountId', account],
  Balance: ['Remaining', money],
};

export const vendorCredit = transaction<NativeVendorCredit>(
  VENDOR_CREDIT,
  (r) => ({ DepartmentRef: departmentOf(r.Lines), Line: expenseLines(r.Lines) }),
  'Void',
);

const BILL_PAYMENT: FieldTable<NativeBillPayment> = {
  ...HEADER,
  ...vendorRef,
  TotalAmt: ['Amount', money],
  PayType: fixed('Check'),
  'CheckPayment.BankAccountRef.value': ['BankAccountId', account],
  'CheckPayment.PrintStatus': fixed('NotSet'),
};

export const billPayment = transaction<NativeBillPayment>(
  BILL_PAYMENT,
  (r) => ({ DocNumber: r.DocNumber ?? r.Reference, Line: allocationLines(r.LinkedTxns) }),
  'Voided',
);

/** A bill payment from one of the `cards` (credit card accounts) is QBO's CreditCard payment (CCAccountRef); any other a check. */
export function billPaymentFrom(cards: ReadonlySet<string>) {
  return (r: NativeBillPayment, ctx: { home: string }): Json => {
    const record = billPayment(r, ctx);
    if (!cards.has(r.BankAccountId)) return record;
    const { CheckPayment: _check, ...rest } = record;
    return { ...rest, PayType: 'CreditCard', CreditCardPayment: { CCAccountRef: ref(r.BankAccountId) } };
  };
}

const INVOICE: FieldTable<NativeInvoice> = {
  ...DOCUMENT,
  ...customerRef,
  'ARAccountRef.value': ['ARAccountId', account],
  'SalesTermRef.value': ['TermId', refTo('payment_term')],
  DueDate: 'DueDate',
  Balance: ['AmountDue', money],
  ...taxTotal,
  ApplyTaxAfterDiscount: fixed(false),
  PrintStatus: fixed('NotSet'),
  EmailStatus: fixed('NotSet'),
};

export const invoice = transaction<NativeInvoice>(
  INVOICE,
  (r) => ({ DepartmentRef: departmentOf(r.Lines), LinkedTxn: linked(r.LinkedTxns), Line: salesLines(r.Lines) }),
  'Void',
);

export const creditMemo = transaction<NativeCreditNote>(
  {
    ...DOCUMENT,
    ...customerRef,
    'ARAccountRef.value': ['ARAccountId', account],
    Balance: ['Remaining', money],
    RemainingCredit: ['Remaining', money],
    ...taxTotal,
  },
  (r) => ({ DepartmentRef: departmentOf(r.Lines), Line: salesLines(r.Lines) }),
  'Void',
);

const PAYMENT: FieldTable<NativePayment> = {
  ...HEADER,
  ...customerRef,
  'DepositToAccountRef.value': ['DepositToAccountId', account],
  PaymentRefNum: 'Reference',
  TotalAmt: ['Amount', money],
  ProcessPayment: fixed(false),
};

export const payment = transaction<NativePayment>(
  PAYMENT,
  (r) => {
    const applied = r.LinkedTxns.reduce((sum, l) => sum + parseCents(l.Amount), 0);
    return { UnappliedAmt: Math.max(0, parseCents(r.Amount) - applied) / 100, Line: allocationLines(r.LinkedTxns) };
  },
  'Voided',
);

/** A sales receipt's Memo is the customer's; its InternalMemo is QBO's PrivateNote. */
const SALES_RECEIPT: FieldTable<NativeSalesReceipt> = {
  TxnDate: 'TxnDate',
  'CurrencyRef.value': ['CurrencyCode', currencyCode],
  DocNumber: 'DocNumber',
  ...customerRef,
  'DepositToAccountRef.value': ['DepositToAccountId', account],
  PaymentRefNum: 'Reference',
  'CustomerMemo.value': 'Memo',
  PrivateNote: 'InternalMemo',
  'BillEmail.Address': 'BillEmail',
  BillAddr: ['BillAddress', postalAddress],
  TotalAmt: ['Total', money],
  Balance: fixed(0),
  ...taxTotal,
};

export const salesReceipt = transaction<NativeSalesReceipt>(SALES_RECEIPT, (r) => ({ Line: salesLines(r.Lines) }));

export const deposit = transaction<NativeDeposit>(
  {
    ...HEADER,
    'DepositToAccountRef.value': ['BankAccountId', account],
    'DepartmentRef.value': ['DepartmentId', refTo('department')],
    TotalAmt: ['Total', money],
  },
  (r) => {
    const payments = r.Payments.map((p) => ({
      Amount: amount(p.Amount),
      LinkedTxn: [{ TxnId: qboId(p.PaymentId), TxnType: 'Payment', TxnLineId: '0' }],
    }));
    const lines = r.Lines.map((line) => {
      const party = line.VendorId ?? line.CustomerId;
      return compact({
        Description: line.Description,
        Amount: amount(line.Amount),
        DetailType: 'DepositLineDetail',
        DepositLineDetail: compact({
          AccountRef: ref(line.AccountId),
          ClassRef: optRef(line.ClassId),
          Entity: party === undefined ? undefined : { ...ref(party), type: line.VendorId === undefined ? 'CUSTOMER' : 'VENDOR' },
          TaxCodeRef: optRef(line.TaxCodeId),
        }),
      });
    });
    return { Line: numbered([...payments, ...lines]) };
  },
);

export const transfer = transaction<NativeTransfer>(
  {
    ...HEADER,
    'FromAccountRef.value': ['FromAccountId', account],
    'ToAccountRef.value': ['ToAccountId', account],
    Amount: ['Amount', money],
    'ClassRef.value': ['ClassId', refTo('class')],
    'DepartmentRef.value': ['DepartmentId', refTo('department')],
  },
  () => ({}),
);

const JOURNAL_ENTRY: FieldTable<NativeJournalEntry> = { ...HEADER, DocNumber: 'DocNumber', Adjustment: fixed(false) };
const JOURNAL_LINE: FieldTable<NativeJournalLine> = {
  Description: 'Description',
  'JournalEntryLineDetail.AccountRef.value': ['AccountId', account],
  'JournalEntryLineDetail.TaxCodeRef.value': ['TaxCodeId', refTo('tax_rate')],
};

export const journalEntry = transaction<NativeJournalEntry>(
  JOURNAL_ENTRY,
  (r) => {
    const lines = r.Lines.map((line, n) => {
      const debit = line.Debit !== undefined && parseCents(line.Debit) !== 0;
      const { JournalEntryLineDetail: refs, ...fields } = renderFields(JOURNAL_LINE, line);
      const detail = { PostingType: debit ? 'Debit' : 'Credit', ...(isRecord(refs) ? refs : {}) };
      return {
        Id: String(n),
        ...fields,
        Amount: amount(debit ? line.Debit : line.Credit),
        DetailType: 'JournalEntryLineDetail',
        JournalEntryLineDetail: detail,
      };
    });
    const debits = r.Lines.reduce((sum, line) => sum + (line.Debit === undefined ? 0 : parseCents(line.Debit)), 0);
    return { TotalAmt: debits / 100, Line: lines };
  },
  'Voided',
);

/** SANDBOX's expenses are QBO's Purchases: paid from PaymentAccountId, to the vendor when there is one. */
const PURCHASE: FieldTable<NativeExpense> = {
  ...HEADER,
  PaymentType: ['PaymentType', lookup({ Cash: 'Cash', Check: 'Check', CreditCard: 'CreditCard' })],
  'AccountRef.value': ['PaymentAccountId', account],
  DocNumber: 'Reference',
  TotalAmt: ['Total', money],
  ...taxTotal,
};

export const purchase = transaction<NativeExpense>(
  PURCHASE,
  (r) => ({
    EntityRef: r.VendorId === undefined ? undefined : { ...ref(r.VendorId), type: 'Vendor' },
    Line: r.Lines.map((line, n) => ({
      Id: String(n + 1),
      Description: line.Description,
      Amount: net(line),
      DetailType: 'AccountBasedExpenseLineDetail',
      AccountBasedExpenseLineDetail: compact({ AccountRef: ref(line.AccountId), ClassRef: optRef(line.ClassId), TaxCodeRef: optRef(line.TaxCodeId) }),
    })),
  }),
  'Voided',
);

/** A transaction's write body: its table read backwards, QBO's rate, and today's date for a create without one. */
function txnBody<R>(table: FieldTable<R>, from: Json, create: boolean): Body {
  const out = readFields(table, from);
  if (typeof from.ExchangeRate === 'number') out.ExchangeRate = String(from.ExchangeRate);
  if (typeof from.TxnDate !== 'string') delete out.TxnDate;
  if (out.TxnDate === undefined && create) out.TxnDate = new Date().toISOString().slice(0, 10);
  return out;
}

/** Amounts go to SANDBOX as decimal text, which it checks for at most two decimals. */
const decimalText = (value: unknown): unknown => (typeof value === 'number' ? String(value) : value);

/** An expense line: an account line's Amount is its price; an item line has Qty and UnitPrice (account details win). */
function billLine(line: Json, department: unknown): Body {
  const item = isRecord(line.ItemBasedExpenseLineDetail) ? line.ItemBasedExpenseLineDetail : undefined;
  return compact({
    ...readFields(ITEM_LINE, line),
    ...readFields(ACCOUNT_LINE, line),
    Qty: typeof item?.Qty === 'number' ? item.Qty : 1,
    UnitPrice: decimalText(item?.UnitPrice ?? line.Amount),
    DepartmentId: department,
  });
}

/** The write body of a document of expense lines (a bill, a vendor credit): its table read backwards and its lines. */
function expenseBody<R>(table: FieldTable<R>) {
  return (from: Json, create: boolean): Body => {
    const out = txnBody(table, from, create);
    const department = isRecord(from.DepartmentRef) ? refTo('department').in?.(from.DepartmentRef.value) : undefined;
    if (Array.isArray(from.Line)) out.Lines = recordsIn(from.Line).map((line) => billLine(line, department));
    return out;
  };
}

export const billBody = expenseBody(BILL);
export const vendorCreditBody = expenseBody(VENDOR_CREDIT);

/**
 * A Purchase's write body: SANDBOX's expense, to the vendor its EntityRef names. SANDBOX books spending only, so a
 * card credit (Credit true) is refused rather than booked as spending.
 */
export function purchaseBody(from: Json, create: boolean): Body {
  if (from.Credit === true) throw invalid('BusinessRule', 'SANDBOX books no card credits (Credit true) as expenses', 'Credit');
  const out = expenseBody(PURCHASE)(from, create);
  if (isRecord(from.EntityRef)) {
    if (from.EntityRef.type !== 'Vendor') throw invalid('BusinessRule', "SANDBOX's expenses are paid to vendors only", 'EntityRef');
    out.VendorId = refTo('vendor').in?.(from.EntityRef.value);
  }
  return out;
}

export function journalEntryBody(from: Json, create: boolean): Body {
  const out = txnBody(JOURNAL_ENTRY, from, create);
  if (Array.isArray(from.Line)) {
    out.Lines = recordsIn(from.Line).map((line) => {
      const credit = valueAt(line, ['JournalEntryLineDetail', 'PostingType']) === 'Credit';
      return compact({ [credit ? 'Credit' : 'Debit']: decimalText(line.Amount), ...readFields(JOURNAL_LINE, line) });
    });
  }
  return out;
}

/** Written sales lines (QBO's sub-total line is computed, not written) at their price, or their amount for one unit. */
function salesLinesBody(lines: unknown): Body[] {
  return recordsIn(lines)
    .filter((line) => isRecord(line.SalesItemLineDetail))
    .map((line) => {
      const detail = isRecord(line.SalesItemLineDetail) ? line.SalesItemLineDetail : {};
      return compact({
        ...readFields(SALES_LINE, line),
        Qty: typeof detail.Qty === 'number' ? detail.Qty : 1,
        UnitPrice: decimalText(detail.UnitPrice ?? line.Amount),
      });
    });
}

/** A sales receipt's write body: its item lines. */
export function salesReceiptBody(from: Json, create: boolean): Body {
  const out = txnBody(SALES_RECEIPT, from, create);
  if (Array.isArray(from.Line)) out.Lines = salesLinesBody(from.Line);
  return out;
}

/** An invoice's write body: its header (QBO's ARAccountRef, SalesTermRef, DueDate) and item lines. */
export function invoiceBody(from: Json, create: boolean): Body {
  const out = txnBody(INVOICE, from, create);
  if (Array.isArray(from.Line)) out.Lines = salesLinesBody(from.Line);
  return out;
}

/**
 * A customer payment's write body: its header and, per line, the invoice it pays and how much (SANDBOX's Invoices).
 * Its amount is what the lines apply: SANDBOX keeps no unapplied rest, so TotalAmt is not passed on.
 */
export function paymentBody(from: Json, create: boolean): Body {
  const { Amount: _total, ...out } = txnBody(PAYMENT, from, create);
  if (Array.isArray(from.Line)) {
    out.Invoices = recordsIn(from.Line).flatMap((line) =>
      recordsIn(line.LinkedTxn)
        .filter((link) => link.TxnType === 'Invoice')
        .map((link) => compact({ InvoiceId: refTo('invoice').in?.(link.TxnId), Amount: decimalText(line.Amount) })),
    );
  }
  return out;
}

/**
 * A bill payment's write body: the account from the check's or the card payment's detail, DocNumber as SANDBOX's
 * number, and the bills of its lines with the amounts applied (SANDBOX derives the payment's amount from them).
 */
export function billPaymentBody(from: Json, create: boolean): Body {
  const out = txnBody(BILL_PAYMENT, from, create);
  delete out.Amount;
  const card = valueAt(from, ['CreditCardPayment', 'CCAccountRef', 'value']);
  if (card !== undefined) out.BankAccountId = account.in?.(card);
  if (typeof from.DocNumber === 'string') out.DocNumber = from.DocNumber;
  if (Array.isArray(from.Line))
    out.Bills = recordsIn(from.Line).flatMap((line) =>
      recordsIn(line.LinkedTxn)
        .filter((link) => link.TxnType === 'Bill')
        .map((link) => ({ BillId: refTo('bill').in?.(link.TxnId), Amount: decimalText(line.Amount) })),
    );
  return out;
}

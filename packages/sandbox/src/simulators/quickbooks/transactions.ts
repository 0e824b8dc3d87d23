/**
 * Transactions in QBO's shapes. QBO has no status field: a voided transaction has its amounts zeroed, its lines
 * cleared and "Voided" in front of its PrivateNote, and documents carry their open Balance. Line Amounts are before
 * tax (TxnTaxDetail and the expense line's TaxAmount hold the tax); TotalAmt includes it.
 */
import { parseCents } from '../../money.ts';
import type {
  LinkedTxn,
  NativeBill,
  NativeBillPayment,
  NativeCreditNote,
  NativeDeposit,
  NativeInvoice,
  NativeJournalEntry,
  NativeLine,
  NativePayment,
  NativeSalesReceipt,
  NativeTransfer,
  NativeVendorCredit,
} from '../../native.ts';
import { physicalAddress } from './names.ts';
import { amount, compact, entityMeta, LINKED_ENTITY, optRef, ref, type Json } from './shapes.ts';
import { qboId } from './ids.ts';

/** What a rendering needs beyond the record. */
export interface TxnContext {
  /** The company's home currency: other currencies carry an ExchangeRate. */
  home: string;
}

function header(r: { TxnDate: string; CurrencyCode: string; ExchangeRate?: string }, ctx: TxnContext): Json {
  return {
    TxnDate: r.TxnDate,
    CurrencyRef: { value: r.CurrencyCode },
    ExchangeRate: r.CurrencyCode === ctx.home || r.ExchangeRate === undefined ? undefined : Number(r.ExchangeRate),
  };
}

/** A voided transaction as QBO keeps it. */
function voided(record: Json, memo: string | undefined): Json {
  return {
    ...record,
    TotalAmt: 0,
    ...(record.Balance === undefined ? {} : { Balance: 0 }),
    ...(record.RemainingCredit === undefined ? {} : { RemainingCredit: 0 }),
    Line: [],
    PrivateNote: memo === undefined || memo === '' ? 'Voided' : `Voided - ${memo}`,
  };
}

const net = (line: NativeLine): number => (parseCents(line.SubTotal) - parseCents(line.Discount)) / 100;

/** QBO tracks the department on the whole transaction: the first line's. */
function departmentOf(lines: readonly { DepartmentId?: string }[]): { value: string } | undefined {
  return optRef(lines.find((l) => l.DepartmentId !== undefined)?.DepartmentId);
}

function expenseLine(line: NativeLine, n: number): Json {
  return {
    Id: String(n + 1),
    LineNum: n + 1,
    Description: line.Description,
    Amount: net(line),
    DetailType: 'AccountBasedExpenseLineDetail',
    AccountBasedExpenseLineDetail: compact({
      AccountRef: ref(line.AccountId),
      ClassRef: optRef(line.ClassId),
      CustomerRef: optRef(line.CustomerId),
      TaxCodeRef: optRef(line.TaxCodeId),
      TaxAmount: amount(line.Tax),
      BillableStatus: 'NotBillable',
    }),
  };
}

function salesLines(lines: readonly NativeLine[]): Json[] {
  const items = lines.map((line, n) =>
    compact({
      Id: String(n + 1),
      LineNum: n + 1,
      Description: line.Description,
      Amount: net(line),
      DetailType: 'SalesItemLineDetail',
      SalesItemLineDetail: compact({
        ItemRef: optRef(line.ItemId),
        ItemAccountRef: ref(line.AccountId),
        ClassRef: optRef(line.ClassId),
        Qty: line.Qty,
        UnitPrice: amount(line.UnitPrice),
        DiscountAmt: parseCents(line.Discount) === 0 ? undefined : amount(line.Discount),
        TaxCodeRef: optRef(line.TaxCodeId),
      }),
    }),
  );
  const subTotal = lines.reduce((sum, line) => sum + Math.round(net(line) * 100), 0) / 100;
  return [...items, { Amount: subTotal, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} }];
}

/** QBO names a bill's payments BillPaymentCheck in its LinkedTxn. */
function linked(links: readonly LinkedTxn[]): Json[] {
  return links.map((l) => ({
    TxnId: qboId(l.TxnId),
    TxnType: l.TxnType === 'BillPayment' ? 'BillPaymentCheck' : (LINKED_ENTITY[l.TxnType] ?? l.TxnType),
  }));
}

/** The allocation lines of a payment: one per linked document, with the amount applied to it. */
function allocationLines(links: readonly LinkedTxn[]): Json[] {
  return links.map((l) => ({
    Amount: amount(l.Amount),
    LinkedTxn: [{ TxnId: qboId(l.TxnId), TxnType: LINKED_ENTITY[l.TxnType] ?? l.TxnType }],
  }));
}

/** What bills and invoices share, in QBO's order: the party and its A/P or A/R account (`party`), terms, amounts, links. */
function payable(r: NativeBill | NativeInvoice, ctx: TxnContext, party: Json): Json {
  return {
    ...header(r, ctx),
    DocNumber: r.DocNumber,
    ...party,
    SalesTermRef: optRef(r.TermId),
    DueDate: r.DueDate,
    DepartmentRef: departmentOf(r.Lines),
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Total),
    Balance: amount(r.AmountDue),
    TxnTaxDetail: { TotalTax: amount(r.TotalTax) },
    LinkedTxn: r.LinkedTxns.length === 0 ? undefined : linked(r.LinkedTxns),
  };
}

export function bill(r: NativeBill, ctx: TxnContext): Json {
  const party = { VendorRef: ref(r.VendorId), APAccountRef: ref(r.APAccountId) };
  const record = compact({ ...payable(r, ctx, party), Line: r.Lines.map(expenseLine), ...entityMeta(r) });
  return r.Status === 'Void' ? voided(record, r.Memo) : record;
}

export function vendorCredit(r: NativeVendorCredit, ctx: TxnContext): Json {
  const record = compact({
    ...header(r, ctx),
    DocNumber: r.DocNumber,
    VendorRef: ref(r.VendorId),
    APAccountRef: ref(r.APAccountId),
    DepartmentRef: departmentOf(r.Lines),
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Total),
    Balance: amount(r.Remaining),
    Line: r.Lines.map(expenseLine),
    ...entityMeta(r),
  });
  return r.Status === 'Void' ? voided(record, r.Memo) : record;
}

export function billPayment(r: NativeBillPayment, ctx: TxnContext): Json {
  const record = compact({
    ...header(r, ctx),
    DocNumber: r.DocNumber ?? r.Reference,
    VendorRef: ref(r.VendorId),
    PayType: 'Check',
    CheckPayment: { BankAccountRef: ref(r.BankAccountId), PrintStatus: 'NotSet' },
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Amount),
    Line: allocationLines(r.LinkedTxns),
    ...entityMeta(r),
  });
  return r.Status === 'Voided' ? voided(record, r.Memo) : record;
}

export function invoice(r: NativeInvoice, ctx: TxnContext): Json {
  const record = compact({
    ...payable(r, ctx, { CustomerRef: ref(r.CustomerId), ARAccountRef: ref(r.ARAccountId) }),
    ApplyTaxAfterDiscount: false,
    PrintStatus: 'NotSet',
    EmailStatus: 'NotSet',
    Line: salesLines(r.Lines),
    ...entityMeta(r),
  });
  return r.Status === 'Void' ? voided(record, r.Memo) : record;
}

export function creditMemo(r: NativeCreditNote, ctx: TxnContext): Json {
  const record = compact({
    ...header(r, ctx),
    DocNumber: r.DocNumber,
    CustomerRef: ref(r.CustomerId),
    ARAccountRef: ref(r.ARAccountId),
    DepartmentRef: departmentOf(r.Lines),
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Total),
    Balance: amount(r.Remaining),
    RemainingCredit: amount(r.Remaining),
    TxnTaxDetail: { TotalTax: amount(r.TotalTax) },
    Line: salesLines(r.Lines),
    ...entityMeta(r),
  });
  return r.Status === 'Void' ? voided(record, r.Memo) : record;
}

export function payment(r: NativePayment, ctx: TxnContext): Json {
  const applied = r.LinkedTxns.reduce((sum, l) => sum + parseCents(l.Amount), 0);
  const record = compact({
    ...header(r, ctx),
    CustomerRef: ref(r.CustomerId),
    DepositToAccountRef: ref(r.DepositToAccountId),
    PaymentRefNum: r.Reference,
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Amount),
    UnappliedAmt: Math.max(0, parseCents(r.Amount) - applied) / 100,
    ProcessPayment: false,
    Line: allocationLines(r.LinkedTxns),
    ...entityMeta(r),
  });
  return r.Status === 'Voided' ? voided(record, r.Memo) : record;
}

export function salesReceipt(r: NativeSalesReceipt, ctx: TxnContext): Json {
  return compact({
    ...header(r, ctx),
    DocNumber: r.DocNumber,
    CustomerRef: optRef(r.CustomerId),
    DepositToAccountRef: ref(r.DepositToAccountId),
    PaymentRefNum: r.Reference,
    CustomerMemo: r.Memo === undefined ? undefined : { value: r.Memo },
    PrivateNote: r.InternalMemo,
    BillEmail: r.BillEmail === undefined ? undefined : { Address: r.BillEmail },
    BillAddr: physicalAddress(r.BillAddress),
    TotalAmt: amount(r.Total),
    Balance: 0,
    TxnTaxDetail: { TotalTax: amount(r.TotalTax) },
    Line: salesLines(r.Lines),
    ...entityMeta(r),
  });
}

export function deposit(r: NativeDeposit, ctx: TxnContext): Json {
  const payments = r.Payments.map((p) => ({
    Amount: amount(p.Amount),
    LinkedTxn: [{ TxnId: qboId(p.PaymentId), TxnType: 'Payment', TxnLineId: '0' }],
  }));
  const lines = r.Lines.map((line) => {
    const entity =
      line.VendorId !== undefined
        ? { ...ref(line.VendorId), type: 'VENDOR' }
        : line.CustomerId !== undefined
          ? { ...ref(line.CustomerId), type: 'CUSTOMER' }
          : undefined;
    return compact({
      Description: line.Description,
      Amount: amount(line.Amount),
      DetailType: 'DepositLineDetail',
      DepositLineDetail: compact({
        AccountRef: ref(line.AccountId),
        ClassRef: optRef(line.ClassId),
        Entity: entity,
        TaxCodeRef: optRef(line.TaxCodeId),
      }),
    });
  });
  return compact({
    ...header(r, ctx),
    DepositToAccountRef: ref(r.BankAccountId),
    DepartmentRef: optRef(r.DepartmentId),
    PrivateNote: r.Memo,
    TotalAmt: amount(r.Total),
    Line: [...payments, ...lines].map((line, n) => ({ Id: String(n + 1), LineNum: n + 1, ...line })),
    ...entityMeta(r),
  });
}

export function transfer(r: NativeTransfer, ctx: TxnContext): Json {
  return compact({
    ...header(r, ctx),
    FromAccountRef: ref(r.FromAccountId),
    ToAccountRef: ref(r.ToAccountId),
    Amount: amount(r.Amount),
    PrivateNote: r.Memo,
    ClassRef: optRef(r.ClassId),
    DepartmentRef: optRef(r.DepartmentId),
    ...entityMeta(r),
  });
}

export function journalEntry(r: NativeJournalEntry, ctx: TxnContext): Json {
  const lines = r.Lines.map((line, n) => {
    const debit = line.Debit !== undefined && parseCents(line.Debit) !== 0;
    return compact({
      Id: String(n),
      Description: line.Description,
      Amount: amount(debit ? line.Debit : line.Credit),
      DetailType: 'JournalEntryLineDetail',
      JournalEntryLineDetail: compact({
        PostingType: debit ? 'Debit' : 'Credit',
        AccountRef: ref(line.AccountId),
        TaxCodeRef: optRef(line.TaxCodeId),
      }),
    });
  });
  const debits = r.Lines.reduce((sum, line) => sum + (line.Debit === undefined ? 0 : parseCents(line.Debit)), 0);
  const record = compact({
    ...header(r, ctx),
    DocNumber: r.DocNumber,
    PrivateNote: r.Memo,
    Adjustment: false,
    TotalAmt: debits / 100,
    Line: lines,
    ...entityMeta(r),
  });
  return r.Status === 'Voided' ? voided(record, r.Memo) : record;
}

/**
 * The documents of both sides, payables (bills, vendor credits, bill payments) and receivables (invoices, credit
 * memos, customer payments, sales receipts): mirror images, sharing their line, credit and payment fields.
 */
import { paymentWithReferenceNames } from '../../../model/invoice-payment.ts';
import { sumAmounts } from '../../readers.ts';
import type {
  QboBill,
  QboBillPayment,
  QboCreditMemo,
  QboInvoice,
  QboLine,
  QboPayment,
  QboRef,
  QboSalesReceipt,
  QboVendorCredit,
} from '../generated/native.ts';
import {
  addresses,
  amount,
  appUrl,
  createdUpdated,
  creditFields,
  isVoided,
  lineItem,
  linkedIds,
  openDocument,
  optAmount,
  optCurrency,
  paymentFields,
  refTo,
  requiredDay,
  standardLine,
  text,
  txnFields,
  type MapContext,
  type Mapped,
  type StandardLine,
} from './common.ts';
import { creditMemoLine } from '../../../model/invoice-credit-memo.ts';

/**
 * An expense line (account-based or item-based) as a standard line item; other lines (sub-totals) are none. Only
 * account-based lines carry a tax amount.
 */
function expenseLine(line: QboLine, department: QboRef | undefined, mc: MapContext): StandardLine | null {
  const account = line.AccountBasedExpenseLineDetail;
  const item = line.ItemBasedExpenseLineDetail;
  const detail = account ?? item;
  if (detail === undefined) return null;
  const net = amount(line.Amount);
  const tax = account?.TaxAmount === undefined ? null : amount(account.TaxAmount);
  return standardLine(line, department, mc, {
    account_id: refTo(mc.ref, 'account', account?.AccountRef),
    class_id: refTo(mc.ref, 'class', detail.ClassRef),
    customer_id: refTo(mc.ref, 'customer', detail.CustomerRef),
    discount_amount: null,
    discount_percentage: null,
    sub_total: net,
    tax_amount: tax,
    total_amount: sumAmounts([net, tax ?? 0]),
    item: lineItem(line, item, mc),
  });
}

export function expenseLines(lines: readonly QboLine[] | undefined, department: QboRef | undefined, mc: MapContext): StandardLine[] {
  return (lines ?? []).map((line) => expenseLine(line, department, mc)).filter((l): l is StandardLine => l !== null);
}

/**
 * Bill status from QBO's Balance: QBO bills are never drafts and cannot be
 * voided (only deleted). Which payments and credits paid a bill is told by the
 * bill payments (linked_bills there); the bill's own LinkedTxn carries no
 * amounts and stays in platform_data.
 */
export function mapBill(r: QboBill, mc: MapContext): Mapped<'bill'> {
  const lines = expenseLines(r.Line, r.DepartmentRef, mc);
  return {
    ...txnFields(r, 'bill', mc),
    ...openDocument(r, lines),
    account_id: refTo(mc.ref, 'account', r.APAccountRef),
    payment_terms_id: refTo(mc.ref, 'payment_term', r.SalesTermRef),
    subsidiary_id: null,
    vendor_id: refTo(mc.ref, 'vendor', r.VendorRef),
    total_discount: null,
    linked_purchase_orders: [],
    linked_credit_memos: [],
    linked_payments: [],
    line_items: lines,
  };
}

export function mapVendorCredit(r: QboVendorCredit, mc: MapContext): Mapped<'bill_credit_memo'> {
  return {
    ...creditFields(r, r.Balance, 'bill_credit_memo', mc),
    account_id: refTo(mc.ref, 'account', r.APAccountRef),
    vendor_id: refTo(mc.ref, 'vendor', r.VendorRef),
    linked_bills: [],
    line_items: expenseLines(r.Line, r.DepartmentRef, mc),
  };
}

type Allocation = Mapped<'bill_payment'>['linked_bills'][number];

/** Allocation entries of a payment: each line's Amount, to the transactions of `txnType` it links. */
export function allocations(
  r: { Line?: QboLine[]; TxnDate?: string; MetaData?: { CreateTime?: string } },
  txnType: string,
  type: 'bill' | 'bill_credit_memo' | 'invoice' | 'invoice_credit_memo',
  mc: MapContext,
): Allocation[] {
  const date = requiredDay(r.TxnDate, r.MetaData?.CreateTime);
  return (r.Line ?? []).flatMap((line) =>
    (line.LinkedTxn ?? [])
      .filter((t) => t.TxnType === txnType)
      .map((t) => ({ id: mc.ref(type, t.TxnId) ?? '', allocated_date: date, allocated_amount: amount(line.Amount) })),
  );
}

export function mapBillPayment(r: QboBillPayment, mc: MapContext): Mapped<'bill_payment'> {
  const bank = r.PayType === 'CreditCard' ? r.CreditCardPayment?.CCAccountRef : r.CheckPayment?.BankAccountRef;
  return {
    ...paymentFields(r, 'bill_payment', mc),
    account_id: refTo(mc.ref, 'account', bank),
    vendor_id: refTo(mc.ref, 'vendor', r.VendorRef),
    // A check payment's DocNumber is the check number.
    reference: r.PayType === 'Check' ? text(r.DocNumber) : null,
    linked_bills: allocations(r, 'Bill', 'bill', mc),
    linked_credit_memos: allocations(r, 'VendorCredit', 'bill_credit_memo', mc),
  };
}

/** A sales item line as a standard line item. */
function salesLine(line: QboLine, detail: QboSalesItemLineDetail, department: QboRef | undefined, mc: MapContext): StandardLine {
  const total = amount(line.Amount);
  return standardLine(line, department, mc, {
    account_id: refTo(mc.ref, 'account', detail.ItemAccountRef),
    class_id: refTo(mc.ref, 'class', detail.ClassRef),
    customer_id: null,
    discount_amount: detail.DiscountAmt === undefined ? null : amount(detail.DiscountAmt),
    discount_percentage: detail.DiscountRate ?? null,
    sub_total: total,
    tax_amount: null,
    total_amount: total,
    item: lineItem(line, detail, mc),
  });
}

type InvoiceLine = Mapped<'invoice'>['line_items'][number];
type QboSalesItemLineDetail = NonNullable<QboLine['SalesItemLineDetail']>;

/** QBO charges shipping, where the company turns it on, as a sales line of the reserved item SHIPPING_ITEM_ID. */
const SHIPPING_ITEM_ID = 'SHIPPING_ITEM_ID';

/**
 * The sales lines of a document, a bundle's (GroupLineDetail) as its component lines: the group line itself carries
 * no item detail, and dropping it lost the whole bundle (an invoice of one bundle had no lines and a sub-total of 0).
 * Sub-total and discount lines are not lines of the unified model. Each line carries the invoice line's type.
 */
function salesLines(lines: readonly QboLine[] | undefined, department: QboRef | undefined, mc: MapContext): InvoiceLine[] {
  return (lines ?? []).flatMap((line) => {
    if (line.GroupLineDetail !== undefined) return salesLines(line.GroupLineDetail.Line, department, mc);
    const detail = line.SalesItemLineDetail;
    if (detail === undefined) return [];
    return [{ ...salesLine(line, detail, department, mc), type: detail.ItemRef?.value === SHIPPING_ITEM_ID ? 'shipping' : null }];
  });
}

/** Sales lines of the documents whose lines have no type (credit memos, sales receipts). */
function untypedSalesLines(lines: readonly QboLine[] | undefined, department: QboRef | undefined, mc: MapContext): StandardLine[] {
  return salesLines(lines, department, mc).map(({ type: _type, ...line }) => line);
}

function discountTotal(lines: readonly QboLine[] | undefined): number | null {
  const discounts = (lines ?? []).filter((line) => line.DiscountLineDetail !== undefined);
  return discounts.length === 0 ? null : sumAmounts(discounts.map((line) => line.Amount ?? 0));
}

/** Which payments and credits settled an invoice is told by the payments (linked_invoices there). */
export function mapInvoice(r: QboInvoice, mc: MapContext): Mapped<'invoice'> {
  const lines = salesLines(r.Line, r.DepartmentRef, mc);
  const document = openDocument(r, lines);
  const discount = discountTotal(r.Line);
  return {
    ...txnFields(r, 'invoice', mc),
    ...document,
    status: isVoided(r) ? 'void' : document.status,
    account_id: refTo(mc.ref, 'account', r.ARAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    payment_terms_id: refTo(mc.ref, 'payment_term', r.SalesTermRef),
    subsidiary_id: null,
    total_discount: discount,
    discount_amount: discount,
    linked_payments: [],
    linked_credit_memos: [],
    line_items: lines,
  };
}

export function mapCreditMemo(r: QboCreditMemo, mc: MapContext): Mapped<'invoice_credit_memo'> {
  const credit = creditFields(r, r.RemainingCredit ?? r.Balance, 'invoice_credit_memo', mc);
  return {
    ...credit,
    status: isVoided(r) ? 'void' : credit.status,
    account_id: refTo(mc.ref, 'account', r.ARAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    // Which invoices a credit memo paid is told by the payments that applied it, so it has no allocation date here.
    allocated_at: null,
    linked_invoices: [],
    line_items: untypedSalesLines(r.Line, r.DepartmentRef, mc).map(creditMemoLine),
  };
}

/** A Payment does not say whether a Deposit took it out of Undeposited Funds (the Deposit names the payment). */
export function mapPayment(r: QboPayment, mc: MapContext): Mapped<'invoice_payment'> {
  return paymentWithReferenceNames({
    ...paymentFields(r, 'invoice_payment', mc),
    // A number, as the reference has it, unlike the text of bill payments (docs/versions.md, 2024-08-31).
    currency_rate: r.ExchangeRate ?? null,
    account_id: refTo(mc.ref, 'account', r.DepositToAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    payment_method_id: refTo(mc.ref, 'payment_method', r.PaymentMethodRef),
    deposited: null,
    reference: text(r.PaymentRefNum),
    linked_invoices: allocations(r, 'Invoice', 'invoice', mc),
    linked_credit_memos: allocations(r, 'CreditMemo', 'invoice_credit_memo', mc),
  });
}

/**
 * The reference's memo is the customer-facing one (CustomerMemo), its internal_memo QBO's PrivateNote; reference is
 * the payment's reference number. Lines are the invoice's sales lines (amounts before tax, which is
 * TxnTaxDetail.TotalTax); the deposit that took the receipt out of Undeposited Funds is its linked transaction.
 */
export function mapSalesReceipt(r: QboSalesReceipt, mc: MapContext): Mapped<'sales_receipt'> {
  const deposits = linkedIds(r.LinkedTxn, 'Deposit')
    .map((id) => mc.ref('bank_deposit', id))
    .filter((id): id is string => id !== null);
  return {
    platform_id: r.Id,
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    account_id: refTo(mc.ref, 'account', r.DepositToAccountRef),
    issue_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    amount_due: optAmount(r.Balance),
    currency_code: optCurrency(r.CurrencyRef),
    discount_amount: discountTotal(r.Line),
    document_number: text(r.DocNumber),
    memo: text(r.CustomerMemo?.value),
    reference: text(r.PaymentRefNum),
    total_amount: amount(r.TotalAmt),
    linked_transactions: deposits.map((id) => ({ id, type: 'bank_deposit' })),
    line_items: untypedSalesLines(r.Line, r.DepartmentRef, mc),
    additional_fields: {
      billing_email: text(r.BillEmail?.Address),
      internal_memo: text(r.PrivateNote),
      // QBO has no shipping total: shipping, where the company charges it, is a line of its own.
      shipping_amount: null,
      tax_amount: optAmount(r.TxnTaxDetail?.TotalTax),
      addresses: addresses(['billing', r.BillAddr], ['shipping', r.ShipAddr]),
    },
    ...createdUpdated(r),
    platform_url: appUrl('sales_receipt', r.Id, mc.environment),
  };
}

/** Bills, vendor credits and bill payments. */
import { sumAmounts } from '../../readers.ts';
import type { QboBill, QboBillPayment, QboLine, QboRef, QboVendorCredit } from '../native.ts';
import { amount, balanceOf, isVoided, openDocument, refTo, requiredDay, text, txnFields, type MapContext, type Mapped } from './common.ts';

export type StandardLine = Mapped<'bill'>['line_items'][number];

/**
 * An expense line (account-based or item-based) as a standard line item. QBO
 * tracks the department on the whole transaction, so each line carries it.
 * QBO lines reference TaxCodes, not TaxRates: tax_rate_id stays null and the
 * TaxCodeRef is in platform_data.
 */
export function expenseLine(line: QboLine, department: QboRef | undefined, mc: MapContext): StandardLine | null {
  const account = line.AccountBasedExpenseLineDetail;
  const item = line.ItemBasedExpenseLineDetail;
  if (account === undefined && item === undefined) return null;
  const detail = account ?? item;
  const net = amount(line.Amount);
  const tax = account?.TaxAmount === undefined ? null : amount(account.TaxAmount);
  return {
    platform_id: line.Id ?? null,
    account_id: refTo(mc.ref, 'account', account?.AccountRef),
    class_id: refTo(mc.ref, 'class', detail?.ClassRef),
    customer_id: refTo(mc.ref, 'customer', detail?.CustomerRef),
    department_id: refTo(mc.ref, 'department', department),
    location_id: null,
    project_id: null,
    tax_rate_id: null,
    description: text(line.Description),
    discount_amount: null,
    discount_percentage: null,
    sub_total: net,
    tax_amount: tax,
    total_amount: sumAmounts([net, tax ?? 0]),
    item:
      item?.ItemRef === undefined
        ? null
        : {
            id: mc.ref('item', item.ItemRef.value) ?? '',
            quantity: item.Qty ?? 1,
            unit_amount: amount(item.UnitPrice ?? line.Amount),
          },
  };
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
  const { total, open, status } = balanceOf(r, r.Balance);
  return {
    ...txnFields(r, 'bill_credit_memo', mc),
    account_id: refTo(mc.ref, 'account', r.APAccountRef),
    vendor_id: refTo(mc.ref, 'vendor', r.VendorRef),
    issue_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    // The model has no null here; QBO vendor credits need not have a number.
    document_number: r.DocNumber ?? '',
    remaining_amount: open,
    status,
    total_amount: total,
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
    ...txnFields(r, 'bill_payment', mc),
    account_id: refTo(mc.ref, 'account', bank),
    vendor_id: refTo(mc.ref, 'vendor', r.VendorRef),
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    document_number: text(r.DocNumber),
    // A check payment's DocNumber is the check number.
    reference: r.PayType === 'Check' ? text(r.DocNumber) : null,
    status: isVoided(r) ? 'void' : 'active',
    total_amount: amount(r.TotalAmt),
    linked_bills: allocations(r, 'Bill', 'bill', mc),
    linked_credit_memos: allocations(r, 'VendorCredit', 'bill_credit_memo', mc),
  };
}

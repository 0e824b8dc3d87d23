/** Invoices, credit memos, customer payments and sales receipts. */
import { sumAmounts } from '../../readers.ts';
import type { QboCreditMemo, QboInvoice, QboLine, QboPayment, QboRef, QboSalesReceipt } from '../native.ts';
import {
  addresses,
  amount,
  appUrl,
  balanceOf,
  createdUpdated,
  isVoided,
  linkedIds,
  openDocument,
  optAmount,
  optCurrency,
  refTo,
  requiredDay,
  text,
  txnFields,
  type MapContext,
  type Mapped,
} from './common.ts';
import { allocations, type StandardLine } from './payables.ts';

/** A sales item line as a standard line item; sub-total and discount lines are not lines of the unified model. */
function salesLine(line: QboLine, department: QboRef | undefined, mc: MapContext): StandardLine | null {
  const detail = line.SalesItemLineDetail;
  if (detail === undefined) return null;
  const total = amount(line.Amount);
  return {
    platform_id: line.Id ?? null,
    account_id: refTo(mc.ref, 'account', detail.ItemAccountRef),
    class_id: refTo(mc.ref, 'class', detail.ClassRef),
    customer_id: null,
    department_id: refTo(mc.ref, 'department', department),
    location_id: null,
    project_id: null,
    tax_rate_id: null,
    description: text(line.Description),
    discount_amount: detail.DiscountAmt === undefined ? null : amount(detail.DiscountAmt),
    discount_percentage: detail.DiscountRate ?? null,
    sub_total: total,
    tax_amount: null,
    total_amount: total,
    item:
      detail.ItemRef === undefined
        ? null
        : {
            id: mc.ref('item', detail.ItemRef.value) ?? '',
            quantity: detail.Qty ?? 1,
            unit_amount: amount(detail.UnitPrice ?? line.Amount),
          },
  };
}

/**
 * The sales lines of a document, a bundle's (GroupLineDetail) as its component lines: the group line itself carries
 * no item detail, and dropping it lost the whole bundle (an invoice of one bundle had no lines and a sub-total of 0).
 */
function salesLines(lines: readonly QboLine[] | undefined, department: QboRef | undefined, mc: MapContext): StandardLine[] {
  return (lines ?? []).flatMap((line) => {
    if (line.GroupLineDetail !== undefined) return salesLines(line.GroupLineDetail.Line, department, mc);
    const mapped = salesLine(line, department, mc);
    return mapped === null ? [] : [mapped];
  });
}

function discountTotal(lines: readonly QboLine[] | undefined): number | null {
  const discounts = (lines ?? []).filter((line) => line.DiscountLineDetail !== undefined);
  return discounts.length === 0 ? null : sumAmounts(discounts.map((line) => line.Amount ?? 0));
}

/** Which payments and credits settled an invoice is told by the payments (linked_invoices there). */
export function mapInvoice(r: QboInvoice, mc: MapContext): Mapped<'invoice'> {
  const lines = salesLines(r.Line, r.DepartmentRef, mc);
  const document = openDocument(r, lines);
  return {
    ...txnFields(r, 'invoice', mc),
    ...document,
    status: isVoided(r) ? 'void' : document.status,
    account_id: refTo(mc.ref, 'account', r.ARAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    payment_terms_id: refTo(mc.ref, 'payment_term', r.SalesTermRef),
    subsidiary_id: null,
    total_discount: discountTotal(r.Line),
    linked_payments: [],
    linked_credit_memos: [],
    line_items: lines,
  };
}

export function mapCreditMemo(r: QboCreditMemo, mc: MapContext): Mapped<'invoice_credit_memo'> {
  const { total, open, status } = balanceOf(r, r.RemainingCredit ?? r.Balance);
  return {
    ...txnFields(r, 'invoice_credit_memo', mc),
    account_id: refTo(mc.ref, 'account', r.ARAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    issue_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    document_number: r.DocNumber ?? '',
    remaining_amount: open,
    status: isVoided(r) ? 'void' : status,
    total_amount: total,
    linked_invoices: [],
    line_items: salesLines(r.Line, r.DepartmentRef, mc),
  };
}

export function mapPayment(r: QboPayment, mc: MapContext): Mapped<'invoice_payment'> {
  return {
    ...txnFields(r, 'invoice_payment', mc),
    account_id: refTo(mc.ref, 'account', r.DepositToAccountRef),
    customer_id: refTo(mc.ref, 'customer', r.CustomerRef),
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    document_number: text(r.DocNumber),
    reference: text(r.PaymentRefNum),
    status: isVoided(r) ? 'void' : 'active',
    total_amount: amount(r.TotalAmt),
    linked_invoices: allocations(r, 'Invoice', 'invoice', mc),
    linked_credit_memos: allocations(r, 'CreditMemo', 'invoice_credit_memo', mc),
  };
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
    line_items: salesLines(r.Line, r.DepartmentRef, mc),
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

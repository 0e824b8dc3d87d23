/**
 * Xero's Invoices (ACCPAY → bill, ACCREC → invoice), CreditNotes (ACCPAYCREDIT
 * → bill_credit_memo, ACCRECCREDIT → invoice_credit_memo) and Payments
 * (on a bill → bill_payment, on an invoice → invoice_payment).
 */
import { allocatedAt } from '../../../model/invoice-credit-memo.ts';
import { paymentWithReferenceNames } from '../../../model/invoice-payment.ts';
import { xeroDay, xeroIso } from '../dates.ts';
import type { XeroCreditNote, XeroDocument, XeroInvoice, XeroPayment } from '../types.ts';
import { allocation, currency, deepLink, documentStatus, money, optCurrency, rate, standardLine, text, type Mapped, type Ref } from './common.ts';
import { UNFILLED } from './unfilled.ts';
import { creditMemoLine } from '../../../model/invoice-credit-memo.ts';

const EPOCH = '1970-01-01T00:00:00.000Z';

/** What invoices, bills and credit notes share: issue date, status from the amount still open, totals, rate, lines, times. */
function documentCommon(r: XeroDocument, open: number, ref: Ref) {
  const total = money(r.Total);
  return {
    issue_date: xeroDay(r.Date) ?? EPOCH,
    status: documentStatus(r.Status, total, open),
    total_amount: total,
    currency_rate: rate(r.CurrencyRate),
    line_items: (r.LineItems ?? []).map((line) => standardLine(line, r.LineAmountTypes, ref)),
    updated_at: xeroIso(r.UpdatedDateUTC),
  };
}

function invoiceCommon(r: XeroInvoice, ref: Ref) {
  return {
    ...documentCommon(r, money(r.AmountDue), ref),
    platform_id: r.InvoiceID ?? '',
    due_date: xeroDay(r.DueDate),
    amount_due: money(r.AmountDue),
    currency_code: currency(r.CurrencyCode),
    document_number: text(r.InvoiceNumber),
    sub_total: money(r.SubTotal),
    tax_amount: money(r.TotalTax),
    total_discount: r.TotalDiscount ?? null,
  };
}

export function mapBill(r: XeroInvoice, ref: Ref): Mapped<'bill'> {
  // A bill's "Reference" in Xero's app is its InvoiceNumber: bills have no other memo (UNFILLED).
  return {
    ...UNFILLED.bill,
    ...invoiceCommon(r, ref),
    vendor_id: ref('vendor', r.Contact?.ContactID),
    linked_purchase_orders: [],
    linked_credit_memos: (r.CreditNotes ?? []).map((c) => allocation(ref, 'bill_credit_memo', c.CreditNoteID, c.Date, c.AppliedAmount ?? c.Total)),
    linked_payments: (r.Payments ?? []).map((p) => allocation(ref, 'bill_payment', p.PaymentID, p.Date, p.Amount)),
    platform_url: deepLink('bill', r.InvoiceID ?? ''),
  };
}

export function mapInvoice(r: XeroInvoice, ref: Ref): Mapped<'invoice'> {
  const common = invoiceCommon(r, ref);
  return {
    ...UNFILLED.invoice,
    ...common,
    discount_amount: common.total_discount,
    // Xero has no kind of line: shipping is an ordinary line to whatever account the business charges it to.
    line_items: common.line_items.map((line) => ({ ...line, type: null })),
    customer_id: ref('customer', r.Contact?.ContactID),
    memo: text(r.Reference),
    linked_credit_memos: (r.CreditNotes ?? []).map((c) => allocation(ref, 'invoice_credit_memo', c.CreditNoteID, c.Date, c.AppliedAmount ?? c.Total)),
    linked_payments: (r.Payments ?? []).map((p) => ({
      ...allocation(ref, 'invoice_payment', p.PaymentID, p.Date, p.Amount),
      type: 'INVOICE_PAYMENT',
    })),
    platform_url: deepLink('invoice', r.InvoiceID ?? ''),
  };
}

function creditCommon(r: XeroCreditNote, ref: Ref) {
  const remaining = money(r.RemainingCredit);
  return {
    ...documentCommon(r, remaining, ref),
    platform_id: r.CreditNoteID ?? '',
    document_number: r.CreditNoteNumber ?? '',
    remaining_amount: remaining,
    currency_code: optCurrency(r.CurrencyCode),
    memo: text(r.Reference),
  };
}

export function mapBillCredit(r: XeroCreditNote, ref: Ref): Mapped<'bill_credit_memo'> {
  return {
    ...UNFILLED.bill_credit_memo,
    ...creditCommon(r, ref),
    vendor_id: ref('vendor', r.Contact?.ContactID),
    linked_bills: (r.Allocations ?? []).map((a) => allocation(ref, 'bill', a.Invoice?.InvoiceID, a.Date, a.Amount)),
    platform_url: deepLink('bill_credit_memo', r.CreditNoteID ?? ''),
  };
}

export function mapInvoiceCredit(r: XeroCreditNote, ref: Ref): Mapped<'invoice_credit_memo'> {
  const common = creditCommon(r, ref);
  const linkedInvoices = (r.Allocations ?? []).map((a) => allocation(ref, 'invoice', a.Invoice?.InvoiceID, a.Date, a.Amount));
  return {
    ...UNFILLED.invoice_credit_memo,
    ...common,
    line_items: common.line_items.map(creditMemoLine),
    customer_id: ref('customer', r.Contact?.ContactID),
    allocated_at: allocatedAt(linkedInvoices),
    linked_invoices: linkedInvoices,
    platform_url: deepLink('invoice_credit_memo', r.CreditNoteID ?? ''),
  };
}

function paymentCommon(r: XeroPayment, ref: Ref) {
  return {
    platform_id: r.PaymentID ?? '',
    account_id: ref('account', r.Account?.AccountID),
    transaction_date: xeroDay(r.Date) ?? EPOCH,
    // A payment is in its invoice's currency; Xero names it on the embedded invoice only.
    currency_code: currency(r.Invoice?.CurrencyCode),
    currency_rate: rate(r.CurrencyRate),
    reference: text(r.Reference),
    status: 'active' as const,
    total_amount: money(r.Amount),
    linked_credit_memos: [],
    updated_at: xeroIso(r.UpdatedDateUTC),
    platform_url: null,
  };
}

export function mapBillPayment(r: XeroPayment, ref: Ref): Mapped<'bill_payment'> {
  return {
    ...UNFILLED.bill_payment,
    ...paymentCommon(r, ref),
    vendor_id: ref('vendor', r.Invoice?.Contact?.ContactID),
    linked_bills: [allocation(ref, 'bill', r.Invoice?.InvoiceID, r.Date, r.Amount)],
  };
}

export function mapInvoicePayment(r: XeroPayment, ref: Ref): Mapped<'invoice_payment'> {
  return paymentWithReferenceNames({
    ...UNFILLED.invoice_payment,
    ...paymentCommon(r, ref),
    // A number, as the reference has it, unlike the text of bill payments (docs/versions.md, 2024-08-31).
    currency_rate: r.CurrencyRate ?? null,
    customer_id: ref('customer', r.Invoice?.Contact?.ContactID),
    linked_invoices: [allocation(ref, 'invoice', r.Invoice?.InvoiceID, r.Date, r.Amount)],
  });
}

/** Invoices, credit notes, customer payments and sales receipts. */
import { SHIPPING_ACCOUNT_ID } from '../documents.ts';
import { parseCents } from '../money.ts';
import type { NativeCreditNote, NativeInvoice, NativePayment, NativeSalesReceipt } from '../native.ts';
import { address, allocations, creditStatus, currency, day, docStatus, money, standardLine, type Mapped, type Ref } from './common.ts';

export function mapInvoice(r: NativeInvoice, ref: Ref): Mapped<'invoice'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.ARAccountId),
    customer_id: ref('customer', r.CustomerId),
    payment_terms_id: ref('payment_term', r.TermId),
    subsidiary_id: ref('subsidiary', r.SubsidiaryId),
    due_date: day(r.DueDate),
    issue_date: day(r.TxnDate),
    amount_due: money(r.AmountDue),
    currency_code: currency(r.CurrencyCode),
    status: docStatus(r.Status),
    total_amount: money(r.Total),
    document_number: r.DocNumber,
    memo: r.Memo ?? null,
    sub_total: money(r.SubTotal),
    tax_amount: money(r.TotalTax),
    total_discount: money(r.TotalDiscount),
    currency_rate: r.ExchangeRate,
    linked_payments: allocations(r.LinkedTxns, 'Payment', ref),
    linked_credit_memos: allocations(r.LinkedTxns, 'CreditNote', ref),
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapCreditNote(r: NativeCreditNote, ref: Ref): Mapped<'invoice_credit_memo'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.ARAccountId),
    customer_id: ref('customer', r.CustomerId),
    issue_date: day(r.TxnDate),
    document_number: r.DocNumber,
    remaining_amount: money(r.Remaining),
    status: creditStatus(r.Status),
    total_amount: money(r.Total),
    currency_code: currency(r.CurrencyCode),
    memo: r.Memo ?? null,
    currency_rate: r.ExchangeRate,
    linked_invoices: allocations(r.LinkedTxns, 'Invoice', ref),
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapPayment(r: NativePayment, ref: Ref): Mapped<'invoice_payment'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.DepositToAccountId),
    customer_id: ref('customer', r.CustomerId),
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    currency_rate: r.ExchangeRate,
    document_number: null,
    memo: r.Memo ?? null,
    reference: r.Reference ?? null,
    status: r.Status === 'Voided' ? 'void' : 'active',
    total_amount: money(r.Amount),
    linked_invoices: allocations(r.LinkedTxns, 'Invoice', ref),
    linked_credit_memos: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

/** Nothing is due on a cash sale; what the lines charge to Shipping Income is its shipping. */
export function mapSalesReceipt(r: NativeSalesReceipt, ref: Ref): Mapped<'sales_receipt'> {
  let shipping = 0;
  for (const line of r.Lines) if (line.AccountId === SHIPPING_ACCOUNT_ID) shipping += parseCents(line.Total);
  return {
    platform_id: r.Id,
    customer_id: ref('customer', r.CustomerId),
    account_id: ref('account', r.DepositToAccountId),
    issue_date: day(r.TxnDate),
    amount_due: 0,
    currency_code: currency(r.CurrencyCode),
    discount_amount: money(r.TotalDiscount),
    document_number: r.DocNumber,
    memo: r.Memo ?? null,
    reference: r.Reference ?? null,
    total_amount: money(r.Total),
    linked_transactions: [],
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    additional_fields: {
      billing_email: r.BillEmail ?? null,
      internal_memo: r.InternalMemo ?? null,
      shipping_amount: shipping / 100,
      tax_amount: money(r.TotalTax),
      addresses: r.BillAddress === undefined ? [] : [address(r.BillAddress)],
    },
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

/** Bills, vendor credits, bill payments, purchase orders and expenses. */
import { totalQuantity } from '../../../../src/model/purchase-order.ts';
import type { NativeBill, NativeBillPayment, NativeExpense, NativePurchaseOrder, NativeVendorCredit } from '../native.ts';
import { allocations, creditStatus, currency, day, docStatus, link, money, standardLine, type Mapped, type Ref } from './common.ts';

export function mapBill(r: NativeBill, ref: Ref): Mapped<'bill'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.APAccountId),
    payment_terms_id: ref('payment_term', r.TermId),
    subsidiary_id: ref('subsidiary', r.SubsidiaryId),
    vendor_id: ref('vendor', r.VendorId),
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
    linked_purchase_orders: r.PurchaseOrderIds.map((id) => ({ id: link(ref, 'purchase_order', id) })),
    linked_credit_memos: allocations(r.LinkedTxns, 'VendorCredit', ref),
    linked_payments: allocations(r.LinkedTxns, 'BillPayment', ref),
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapVendorCredit(r: NativeVendorCredit, ref: Ref): Mapped<'bill_credit_memo'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.APAccountId),
    vendor_id: ref('vendor', r.VendorId),
    issue_date: day(r.TxnDate),
    document_number: r.DocNumber,
    remaining_amount: money(r.Remaining),
    status: creditStatus(r.Status),
    total_amount: money(r.Total),
    currency_code: currency(r.CurrencyCode),
    memo: r.Memo ?? null,
    currency_rate: r.ExchangeRate,
    linked_bills: allocations(r.LinkedTxns, 'Bill', ref),
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapBillPayment(r: NativeBillPayment, ref: Ref): Mapped<'bill_payment'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.BankAccountId),
    vendor_id: ref('vendor', r.VendorId),
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    currency_rate: r.ExchangeRate,
    document_number: r.DocNumber ?? null,
    memo: r.Memo ?? null,
    reference: r.Reference ?? null,
    status: r.Status === 'Voided' ? 'void' : 'active',
    total_amount: money(r.Amount),
    linked_bills: allocations(r.LinkedTxns, 'Bill', ref),
    linked_credit_memos: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapPurchaseOrder(r: NativePurchaseOrder, ref: Ref): Mapped<'purchase_order'> {
  const lines = r.Lines.map((line) => standardLine(line, ref));
  return {
    platform_id: r.Id,
    vendor_id: ref('vendor', r.VendorId),
    subsidiary_id: null,
    issue_date: day(r.TxnDate),
    delivery_date: day(r.ExpectedDate),
    document_number: r.DocNumber,
    status: r.Status === 'Draft' ? 'draft' : r.Status === 'Open' ? 'open' : 'closed',
    currency_code: currency(r.CurrencyCode),
    currency_rate: null,
    memo: r.Memo ?? null,
    sub_total: money(r.SubTotal),
    tax_amount: money(r.TotalTax),
    total_discount: money(r.TotalDiscount),
    total_amount: money(r.Total),
    shipping_address: null,
    linked_bills: [],
    line_items: lines,
    total_quantity: totalQuantity(lines),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

const PAYMENT_TYPES = { Cash: 'cash', Check: 'check', CreditCard: 'credit_card' } as const;

export function mapExpense(r: NativeExpense, ref: Ref): Mapped<'expense'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.PaymentAccountId),
    vendor_id: ref('vendor', r.VendorId),
    subsidiary_id: null,
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    currency_rate: null,
    expense_type: 'expense',
    payment_type: PAYMENT_TYPES[r.PaymentType],
    document_number: r.Reference ?? null,
    memo: r.Memo ?? null,
    sub_total: money(r.SubTotal),
    tax_amount: money(r.TotalTax),
    total_amount: money(r.Total),
    line_items: r.Lines.map((line) => standardLine(line, ref)),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

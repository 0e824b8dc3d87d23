/** Invoices, credit notes, customer payments, sales receipts and the sales orders invoices are made from. */
import { SHIPPING_ACCOUNT_ID } from '../documents.ts';
import { parseCents } from '../money.ts';
import type {
  NativeCreditNote,
  NativeCustomerRefund,
  NativeInvoice,
  NativeLine,
  NativePayment,
  NativeSalesOrder,
  NativeSalesReceipt,
} from '../native.ts';
import { allocatedAt, creditMemoLine } from '../../../../src/model/invoice-credit-memo.ts';
import { paymentWithReferenceNames } from '../../../../src/model/invoice-payment.ts';
import { ROLES } from '../generator/chart.ts';
import { address, allocations, creditStatus, currency, day, docStatus, link, money, standardLine, type Mapped, type Ref } from './common.ts';

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
    discount_amount: money(r.TotalDiscount),
    currency_rate: r.ExchangeRate,
    linked_payments: allocations(r.LinkedTxns, 'Payment', ref).map((entry) => ({ ...entry, type: 'INVOICE_PAYMENT' })),
    linked_credit_memos: allocations(r.LinkedTxns, 'CreditNote', ref),
    // Shipping is what a line charges to Shipping Income, as on sales receipts.
    line_items: r.Lines.map((line) => ({ ...standardLine(line, ref), type: line.AccountId === SHIPPING_ACCOUNT_ID ? 'shipping' : null })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapCreditNote(r: NativeCreditNote, ref: Ref): Mapped<'invoice_credit_memo'> {
  const linkedInvoices = allocations(r.LinkedTxns, 'Invoice', ref);
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
    allocated_at: allocatedAt(linkedInvoices),
    linked_invoices: linkedInvoices,
    line_items: r.Lines.map((line) => creditMemoLine(standardLine(line, ref))),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

/** deposited says whether a payment waiting in undeposited funds was deposited; a payment straight to the bank has null. */
export function mapPayment(r: NativePayment, ref: Ref): Mapped<'invoice_payment'> {
  return paymentWithReferenceNames({
    platform_id: r.Id,
    account_id: ref('account', r.DepositToAccountId),
    customer_id: ref('customer', r.CustomerId),
    // The sandbox names a payment method (Cash, Check…) but serves no payment method objects to refer to.
    payment_method_id: null,
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    currency_rate: Number(r.ExchangeRate),
    deposited: r.DepositToAccountId === ROLES.UndepositedFunds ? r.DepositId !== undefined : null,
    document_number: null,
    memo: r.Memo ?? null,
    reference: r.Reference ?? null,
    status: r.Status === 'Voided' ? ('void' as const) : ('active' as const),
    total_amount: money(r.Amount),
    linked_invoices: allocations(r.LinkedTxns, 'Invoice', ref),
    linked_credit_memos: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  });
}

const SALES_ORDER_STATUSES = { PendingApproval: 'pending_approval', Open: 'open', Closed: 'closed' } as const;

/** The reference's order line: what was ordered, without the account an invoice line posts to. */
export function salesOrderLine(line: NativeLine, ref: Ref): Mapped<'sales_order'>['line_items'][number] {
  return {
    platform_id: line.LineId,
    tax_rate_id: ref('tax_rate', line.TaxCodeId),
    description: line.Description ?? null,
    total_amount: money(line.Total),
    item: line.ItemId === undefined ? null : { id: link(ref, 'item', line.ItemId), quantity: line.Qty, unit_amount: money(line.UnitPrice) },
  };
}

export function mapSalesOrder(r: NativeSalesOrder, ref: Ref): Mapped<'sales_order'> {
  return {
    platform_id: r.Id,
    // The sandbox tracks classes, departments and locations per line, and has no subsidiaries on orders.
    class_id: null,
    customer_id: ref('customer', r.CustomerId),
    department_id: null,
    location_id: null,
    payment_terms_id: ref('payment_term', r.TermId),
    subsidiary_id: null,
    issue_date: day(r.TxnDate),
    status: SALES_ORDER_STATUSES[r.Status],
    currency_code: currency(r.CurrencyCode),
    currency_rate: Number(r.ExchangeRate),
    discount_amount: money(r.TotalDiscount),
    document_number: r.DocNumber,
    memo: r.Memo ?? null,
    reference_number: r.CustomerPoNumber ?? null,
    tax_amount: money(r.TotalTax),
    total_amount: money(r.Total),
    line_items: r.Lines.map((line) => salesOrderLine(line, ref)),
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

/** The reference's customer refund: tracking and tax are per line here, so the refund's own are null. */
export function mapCustomerRefund(r: NativeCustomerRefund, ref: Ref): Mapped<'customer_refund'> {
  let shipping = 0;
  for (const line of r.Lines) if (line.AccountId === SHIPPING_ACCOUNT_ID) shipping += parseCents(line.Total);
  return {
    platform_id: r.Id,
    account_id: link(ref, 'account', r.RefundFromAccountId),
    class_id: null,
    customer_id: ref('customer', r.CustomerId),
    department_id: null,
    tax_rate_id: null,
    transaction_date: day(r.TxnDate),
    total_amount: money(r.Total),
    currency_code: currency(r.CurrencyCode),
    currency_rate: Number(r.ExchangeRate),
    discount_amount: money(r.TotalDiscount),
    document_number: r.DocNumber,
    tax_amount: money(r.TotalTax),
    line_items: r.Lines.map((line) => ({
      account_id: ref('account', line.AccountId),
      class_id: ref('class', line.ClassId),
      tax_rate_id: ref('tax_rate', line.TaxCodeId),
      total_amount: money(line.Total),
      description: line.Description ?? null,
      type: line.AccountId === SHIPPING_ACCOUNT_ID ? ('shipping' as const) : null,
      item: line.ItemId === undefined ? null : { id: link(ref, 'item', line.ItemId), quantity: line.Qty, unit_amount: money(line.UnitPrice) },
    })),
    additional_fields: { shipping_amount: shipping / 100 },
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

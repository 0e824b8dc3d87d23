/**
 * Expenses: QBO's Purchase, money spent on the spot from a bank or card account (AccountRef), with the bill's
 * expense lines. Credit true is money back on that account (a card refund), the unified expense_type refund.
 */
import { EXPENSE_PAYMENT_TYPES } from '../../../model/expense.ts';
import { sumAmounts } from '../../readers.ts';
import type { QboPurchase } from '../generated/native.ts';
import { amount, modelValue, optAmount, recordFields, refTo, requiredDay, text, type MapContext, type Mapped } from './common.ts';
import { expenseLines } from './documents.ts';

/**
 * The model's expense names only a vendor: a Purchase paid to a customer or an employee (EntityRef type Customer or
 * Employee) has no vendor_id, its EntityRef stays in platform_data.
 */
export function mapExpense(r: QboPurchase, mc: MapContext): Mapped<'expense'> {
  const lines = expenseLines(r.Line, r.DepartmentRef, mc);
  const vendor = r.EntityRef?.type === 'Vendor' ? r.EntityRef : undefined;
  return {
    ...recordFields(r, 'expense', mc),
    account_id: refTo(mc.ref, 'account', r.AccountRef),
    vendor_id: refTo(mc.ref, 'vendor', vendor),
    subsidiary_id: null,
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    currency_rate: r.ExchangeRate ?? null,
    expense_type: r.Credit === true ? 'refund' : 'expense',
    payment_type: modelValue(EXPENSE_PAYMENT_TYPES, r.PaymentType),
    document_number: text(r.DocNumber),
    sub_total: sumAmounts(lines.map((line) => line.sub_total ?? 0)),
    tax_amount: optAmount(r.TxnTaxDetail?.TotalTax),
    total_amount: amount(r.TotalAmt),
    line_items: lines,
  };
}

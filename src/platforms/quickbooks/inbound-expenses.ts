/**
 * Unified expense → QBO's Purchase: money spent from a bank or card account (AccountRef) at once, with a bill's
 * expense lines (expenseLines, shared with bills and vendor credits). Only fields present are written.
 */
import type { ConnectorContext } from '../connector.ts';
import { has, invalid, type Input, type Native } from '../inbound.ts';
import { copy, copyCurrency, expenseLines, paidFromAccount, ref } from './inbound.ts';

/** The unified payment_type as QBO's PaymentType. */
const PAYMENT_TYPES: Readonly<Record<string, string>> = { cash: 'Cash', check: 'Check', credit_card: 'CreditCard' };

/** How QBO pays from an account of each AccountType when payment_type is not sent: cash from a bank, a card charge from a card. */
const DEFAULT_PAYMENT: Readonly<Record<string, string>> = { Bank: 'Cash', 'Credit Card': 'CreditCard' };

/** The account paid from, read from QBO (its type decides the default PaymentType and whether a refund may be one). */
async function paidFrom(ctx: ConnectorContext, value: unknown): Promise<{ id: string; type: string } | undefined> {
  const account = await paidFromAccount(ctx, value);
  if (account !== undefined && DEFAULT_PAYMENT[account.type] === undefined)
    throw invalid('account_id', 'QuickBooks Online pays an expense from a bank account or a credit card account only.');
  return account;
}

/**
 * A Purchase. vendor_id is its EntityRef (a Vendor payee); a refund is Credit true, which QBO allows on a credit card
 * account only, so a refund must name one (account_id) in the same body.
 */
export async function expenseBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  const out: Native = {};
  await copy(ctx, input, out, [
    ['transaction_date', 'TxnDate', 'date'],
    ['memo', 'PrivateNote', 'text'],
    ['document_number', 'DocNumber', 'text'],
  ]);
  const vendor = await ref(ctx, 'vendor', input.vendor_id, 'vendor_id');
  if (vendor !== undefined) out.EntityRef = { ...vendor, type: 'Vendor' };
  copyCurrency(input, out);
  const account = await paidFrom(ctx, input.account_id);
  if (account !== undefined) out.AccountRef = { value: account.id };
  const paymentType = typeof input.payment_type === 'string' ? PAYMENT_TYPES[input.payment_type] : undefined;
  const payment = paymentType ?? (account === undefined ? undefined : DEFAULT_PAYMENT[account.type]);
  if (payment !== undefined) out.PaymentType = payment;
  if (has(input, 'expense_type') && input.expense_type !== null) {
    const refund = input.expense_type === 'refund';
    if (refund && account?.type !== 'Credit Card')
      throw invalid('expense_type', 'QuickBooks Online records a refund (Credit) on a credit card account only; send account_id of one.');
    out.Credit = refund;
  }
  await expenseLines(ctx, input, out);
  return out;
}

/**
 * Unified receivable write bodies → QBO request bodies: invoices (Invoice) and their payments (Payment). Sales lines are the sales receipt's
 * (inbound.ts, salesLine); the rules of inbound.ts hold: only fields present are written, fields QBO has no place for
 * are refused with a 400 naming them.
 */
import type { ConnectorContext } from '../connector.ts';
import { has, invalid, link, list, type Input, type Native } from '../inbound.ts';
import { callQbo } from './client.ts';
import { parseEntity } from './contract.ts';
import { amountOf, copy, copyCurrency, refuse, salesLine } from './inbound.ts';

/** The income account QBO posts an item's sales to, read from QBO (the item may have changed since the last sync). */
async function incomeAccountOf(ctx: ConnectorContext, itemId: string): Promise<string | undefined> {
  const body = await callQbo(ctx, { method: 'GET', path: `item/${encodeURIComponent(itemId)}`, operation: 'read Item' });
  return parseEntity('Item', body.Item).IncomeAccountRef?.value;
}

const itemOf = (line: Native): string | undefined => {
  const detail = line.SalesItemLineDetail;
  const item = typeof detail === 'object' && detail !== null && 'ItemRef' in detail ? detail.ItemRef : undefined;
  return typeof item === 'object' && item !== null && 'value' in item && typeof item.value === 'string' ? item.value : undefined;
};

/**
 * A document's sales lines. QBO posts a sales line to its item's income account and keeps no other: an account_id
 * sent beside the item must be that account (as a read serves it), else the line is refused naming it.
 */
async function salesLines(ctx: ConnectorContext, input: Input): Promise<Native[]> {
  const lines = list(input, 'line_items');
  const out = await Promise.all(lines.map((line, n) => salesLine(ctx, line, n)));
  const incomeAccounts = new Map<string, Promise<string | undefined>>();
  for (const [n, line] of lines.entries()) {
    const field = `line_items[${n}].account_id`;
    const account = await link(ctx, 'account', line.account_id, field);
    const item = itemOf(out[n] ?? {});
    if (account === undefined || item === undefined) continue;
    if (!incomeAccounts.has(item)) incomeAccounts.set(item, incomeAccountOf(ctx, item));
    const income = await incomeAccounts.get(item);
    if (income !== account)
      throw invalid(field, "QuickBooks Online posts a sales line to its item's income account; leave account_id out or send that account.");
  }
  return out;
}

/**
 * An Invoice. QBO has no draft invoices (an invoice is open from its creation until paid), and a void is its own
 * operation: status `void` on PATCH voids it (writes.ts, `voids`).
 */
export async function invoiceBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['subsidiary_id', 'additional_fields']);
  if (has(input, 'status') && input.status !== null && input.status !== 'open') {
    throw invalid(
      'status',
      input.status === 'draft'
        ? 'QuickBooks Online has no draft invoices: an invoice is open once created; leave status out or send open.'
        : 'QuickBooks Online voids an existing invoice only: create it, then PATCH status void alone.',
    );
  }
  const out: Native = {};
  await copy(ctx, input, out, [
    ['customer_id', 'CustomerRef', 'customer'],
    ['account_id', 'ARAccountRef', 'account'],
    ['payment_terms_id', 'SalesTermRef', 'payment_term'],
    ['issue_date', 'TxnDate', 'date'],
    ['due_date', 'DueDate', 'date'],
    ['document_number', 'DocNumber', 'text'],
    // An invoice's memo is QBO's PrivateNote, as read (mapInvoice).
    ['memo', 'PrivateNote', 'text'],
  ]);
  copyCurrency(input, out);
  if (has(input, 'line_items')) out.Line = await salesLines(ctx, input);
  return out;
}

/** A payment's allocations: one line per invoice, its amount linked to the invoice (QBO's Line[].LinkedTxn). */
async function paymentLines(ctx: ConnectorContext, input: Input): Promise<Native[]> {
  return Promise.all(
    list(input, 'linked_invoices').map(async (entry, n) => {
      const at = `linked_invoices[${n}].`;
      const amount = amountOf(entry.allocated_amount, `${at}allocated_amount`);
      return { Amount: amount, LinkedTxn: [{ TxnId: await link(ctx, 'invoice', entry.id, `${at}id`), TxnType: 'Invoice' }] };
    }),
  );
}

/**
 * A customer's Payment, deposited to account_id (a bank account, or Undeposited Funds for a later deposit), its total
 * the sum of its allocations (QBO requires TotalAmt; nothing is left unapplied). A payment is voided, never created
 * void: PATCH status void alone is QBO's void (writes.ts, `voids`).
 */
export async function invoicePaymentBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  if (has(input, 'status') && input.status !== null && input.status !== 'active')
    throw invalid('status', 'QuickBooks Online voids an existing payment only: create it, then PATCH status void alone.');
  const out: Native = {};
  await copy(ctx, input, out, [
    ['customer_id', 'CustomerRef', 'customer'],
    ['account_id', 'DepositToAccountRef', 'account'],
    ['transaction_date', 'TxnDate', 'date'],
    ['reference', 'PaymentRefNum', 'text'],
    ['memo', 'PrivateNote', 'text'],
  ]);
  copyCurrency(input, out);
  if (has(input, 'linked_invoices')) {
    const lines = await paymentLines(ctx, input);
    out.Line = lines;
    out.TotalAmt = lines.reduce((sum, line) => sum + Math.round(Number(line.Amount) * 100), 0) / 100;
  }
  return out;
}

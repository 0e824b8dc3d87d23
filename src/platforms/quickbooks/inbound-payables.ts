/**
 * Unified write bodies → QBO request bodies on the payables side beyond bills: vendors, bill payments and vendor credits. Built from the shared pieces
 * of inbound.ts (copy, refuse, the contact fields), with the same rules: only fields present are written, fields QBO
 * has no place for are refused with a 400 naming them.
 */
import type { ConnectorContext } from '../connector.ts';
import { has, invalid, link, list, type Input, type Native } from '../inbound.ts';
import { amountOf, contactFields, copy, copyCurrency, expenseLines, paidFromAccount, refuse, str, type AddressKinds } from './inbound.ts';

/** The connector reads a vendor's BillAddr only (mapVendor): any other address would not come back. */
const VENDOR_ADDRESSES: AddressKinds = {
  fields: { billing: 'BillAddr' },
  only: "QuickBooks Online keeps a vendor's billing address (BillAddr) only.",
};

/**
 * A Vendor: a name list entry like a customer, with its own names for the tax id (TaxIdentifier) and the terms
 * (TermRef). QBO has no sub-vendors, registration number or subsidiaries.
 */
export async function vendorBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['parent_id', 'subsidiaries', 'registration_number']);
  const out: Native = {};
  await copy(ctx, input, out, [
    ['vendor_name', 'DisplayName', 'text'],
    ['tax_number', 'TaxIdentifier', 'text'],
    ['payment_terms_id', 'TermRef', 'payment_term'],
  ]);
  if (has(input, 'website')) out.WebAddr = { URI: str(input.website) };
  contactFields(input, out, VENDOR_ADDRESSES);
  return out;
}

/** How QBO pays from an account, by its AccountType: a check from a bank account, a card payment from a credit card. */
const PAY_TYPES: Readonly<Record<string, { payType: string; detail: string; ref: string }>> = {
  Bank: { payType: 'Check', detail: 'CheckPayment', ref: 'BankAccountRef' },
  'Credit Card': { payType: 'CreditCard', detail: 'CreditCardPayment', ref: 'CCAccountRef' },
};

/** The account a bill payment is made from, read from QBO (its type decides PayType), as PayType and its detail. */
async function paidFrom(ctx: ConnectorContext, value: unknown): Promise<Native> {
  const account = await paidFromAccount(ctx, value);
  if (account === undefined) return {};
  const type = PAY_TYPES[account.type];
  if (type === undefined) throw invalid('account_id', 'QuickBooks Online pays bills from a bank account (a check) or a credit card account only.');
  return { PayType: type.payType, [type.detail]: { [type.ref]: { value: account.id } } };
}

/** The bills paid: a line per bill with the amount applied, and the payment's TotalAmt, their sum. */
async function paidBills(ctx: ConnectorContext, input: Input): Promise<Native> {
  let cents = 0;
  const lines = await Promise.all(
    list(input, 'linked_bills').map(async (entry, n) => {
      const at = `linked_bills[${n}].`;
      const amount = amountOf(entry.allocated_amount, `${at}allocated_amount`);
      cents += Math.round(amount * 100);
      return { Amount: amount, LinkedTxn: [{ TxnId: await link(ctx, 'bill', entry.id, `${at}id`), TxnType: 'Bill' }] };
    }),
  );
  return { Line: lines, TotalAmt: cents / 100 };
}

/**
 * A BillPayment: the vendor's bills paid from account_id (its type chooses a check or a card payment). QBO keeps one
 * number on it, DocNumber (a check's number, read back as reference too), so document_number and reference must agree.
 * A void is QBO's own (writes.ts, `voids`), never part of a body.
 */
export async function billPaymentBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['additional_fields']);
  if (has(input, 'status') && input.status !== null && input.status !== 'active')
    throw invalid('status', 'A QuickBooks Online bill payment is created active; void one with PATCH {status: "void"} alone.');
  const [number, reference] = [input.document_number, input.reference];
  if (typeof number === 'string' && typeof reference === 'string' && number !== reference)
    throw invalid('reference', 'QuickBooks Online keeps one number on a bill payment (DocNumber): reference must equal document_number.');
  const out: Native = {};
  await copy(ctx, input, out, [
    ['vendor_id', 'VendorRef', 'vendor'],
    ['transaction_date', 'TxnDate', 'date'],
    ['memo', 'PrivateNote', 'text'],
    [has(input, 'document_number') ? 'document_number' : 'reference', 'DocNumber', 'text'],
  ]);
  copyCurrency(input, out);
  if (has(input, 'account_id')) Object.assign(out, await paidFrom(ctx, input.account_id));
  if (has(input, 'linked_bills')) Object.assign(out, await paidBills(ctx, input));
  return out;
}

/**
 * A VendorCredit: a bill's lines (billLine) and header, owed back by the vendor. QBO applies a vendor credit to bills
 * through a bill payment, not on the credit, and does not void one, so linked_bills and status void are refused.
 */
export async function vendorCreditBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  if (list(input, 'linked_bills').length > 0)
    throw invalid(
      'linked_bills',
      'QuickBooks Online applies a vendor credit to bills through a bill payment, which this connector does not write yet.',
    );
  if (has(input, 'status') && input.status !== null && input.status !== 'open')
    throw invalid('status', 'QuickBooks Online does not void vendor credits; delete the credit instead.');
  const out: Native = {};
  await copy(ctx, input, out, [
    ['vendor_id', 'VendorRef', 'vendor'],
    ['account_id', 'APAccountRef', 'account'],
    ['issue_date', 'TxnDate', 'date'],
    ['document_number', 'DocNumber', 'text'],
    ['memo', 'PrivateNote', 'text'],
  ]);
  copyCurrency(input, out);
  await expenseLines(ctx, input, out);
  return out;
}

/** Small helpers the QuickBooks Online mappers share: times, dates, amounts, currencies, references, addresses. */
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import type { CurrencyCode } from '../../../model/shared.ts';
import type { ConnectorContext } from '../../connector.ts';
import type { Mapped } from '../../objects.ts';
import { currency as readCurrency, sumAmounts, text } from '../../readers.ts';
import type { QboAddress, QboLine, QboLinkedTxn, QboRef, QboTransaction } from '../generated/native.ts';

export type { Mapped };
export { text };
export type Ref = ConnectorContext['ref'];

/** A known ISO 4217 code from a CurrencyRef, or null: other codes are not guessed at (an account's, a name's). */
export const optCurrency = (ref: QboRef | undefined): CurrencyCode | null => readCurrency(ref?.value, null);

/**
 * A transaction's currency: its CurrencyRef, or the company's home currency when it has none or names one the model
 * does not know (QBO leaves CurrencyRef out of transactions of companies without multicurrency: 11 of 27 recorded
 * real answers), XXX only when neither is known.
 */
export function txnCurrency(ref: QboRef | undefined, mc: MapContext): CurrencyCode {
  const home = readCurrency(mc.homeCurrency, null);
  return readCurrency(ref?.value, home) ?? home ?? 'XXX';
}

/** A QBO time ("2014-11-06T13:09:25-08:00") as an ISO 8601 UTC timestamp; null when absent or unreadable. */
export function time(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** A QBO date (YYYY-MM-DD) as midnight UTC: also the business date the engine windows and reports on. */
export function day(date: unknown): string | null {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(date)) return null;
  return `${date.slice(0, 10)}T00:00:00.000Z`;
}

/** A date the record always has; QBO puts the server's date on transactions created without one. */
export function requiredDay(date: string | undefined, fallbackTime: string | undefined): string {
  return day(date) ?? day(fallbackTime?.slice(0, 10)) ?? '1970-01-01T00:00:00.000Z';
}

/** Amounts: QBO sends JSON numbers; two decimals are kept exactly. */
export function amount(value: number | undefined): number {
  return value === undefined ? 0 : Math.round(value * 100) / 100;
}

export function optAmount(value: number | undefined): number | null {
  return value === undefined ? null : amount(value);
}

/**
 * The model's value a QBO name stands for, written the model's way ("Other Current Asset" → other_current_asset,
 * NonInventory → non_inventory); unknown when the model has no such value.
 */
export function modelValue<T extends string>(values: readonly T[], name: string | undefined): T | 'unknown' {
  const written = (name ?? '')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/ /g, '_')
    .toLowerCase();
  return values.find((value) => value === written) ?? 'unknown';
}

/** Service id of the object a QBO reference points to; null without a reference. */
export function refTo(ref: Ref, type: UnifiedObjectType, target: QboRef | undefined): string | null {
  return ref(type, target?.value);
}

export type Address = Mapped<'customer'>['addresses'][number];

/** A QBO physical address; Line1..Line5 fold into address1..3 (the last one keeps the rest); null when all is empty. */
export function address(type: string, a: QboAddress | undefined): Address | null {
  if (a === undefined) return null;
  const lines = [a.Line1, a.Line2, a.Line3, a.Line4, a.Line5].filter((l): l is string => l !== undefined && l.trim() !== '');
  const fields = {
    address1: lines[0] ?? null,
    address2: lines[1] ?? null,
    address3: lines.length > 2 ? lines.slice(2).join(', ') : null,
    city: a.City ?? null,
    country: a.Country ?? null,
    postal_code: a.PostalCode ?? null,
    region: a.CountrySubDivisionCode ?? null,
  };
  return Object.values(fields).every((f) => f === null || f === '') ? null : { type, ...fields };
}

export function addresses(...entries: [string, QboAddress | undefined][]): Address[] {
  return entries.map(([type, a]) => address(type, a)).filter((a): a is Address => a !== null);
}

/**
 * QBO voids a transaction in place: amounts become zero, lines are cleared and
 * "Voided" is put in front of PrivateNote. There is no status field.
 */
export function isVoided(txn: QboTransaction): boolean {
  return (txn.TotalAmt ?? 0) === 0 && /^voided\b/i.test(txn.PrivateNote ?? '');
}

/** Transaction ids linked with one of the given types (QBO's LinkedTxn). */
export function linkedIds(linked: readonly QboLinkedTxn[] | undefined, ...types: string[]): string[] {
  return (linked ?? []).filter((t) => types.includes(t.TxnType)).map((t) => t.TxnId);
}

export function createdUpdated(entity: { MetaData?: { CreateTime?: string; LastUpdatedTime?: string } }): {
  created_at: string | null;
  updated_at: string | null;
} {
  return { created_at: time(entity.MetaData?.CreateTime), updated_at: time(entity.MetaData?.LastUpdatedTime) };
}

/** What a mapper needs beyond the record: links to other objects and, for deep links, the environment. */
export interface MapContext {
  ref: Ref;
  environment: 'sandbox' | 'production';
  /** The company's home currency (Preferences), when the read has learnt it; null otherwise. */
  homeCurrency: string | null;
}

/** QBO's web app pages per entity (the path and the id parameter). */
const APP_PAGES: Readonly<Partial<Record<UnifiedObjectType, { path: string; param: 'txnId' | 'nameId' }>>> = {
  bill: { path: 'bill', param: 'txnId' },
  bill_payment: { path: 'billpayment', param: 'txnId' },
  bill_credit_memo: { path: 'vendorcredit', param: 'txnId' },
  expense: { path: 'expense', param: 'txnId' },
  bank_deposit: { path: 'deposit', param: 'txnId' },
  bank_transfer: { path: 'transfer', param: 'txnId' },
  journal_entry: { path: 'journal', param: 'txnId' },
  invoice: { path: 'invoice', param: 'txnId' },
  invoice_payment: { path: 'recvpayment', param: 'txnId' },
  invoice_credit_memo: { path: 'creditmemo', param: 'txnId' },
  sales_receipt: { path: 'salesreceipt', param: 'txnId' },
  customer: { path: 'customerdetail', param: 'nameId' },
  vendor: { path: 'vendordetail', param: 'nameId' },
};

/** Address of the record in the QuickBooks Online web app; null for objects without a page of their own. */
export function appUrl(type: UnifiedObjectType, platformId: string, environment: 'sandbox' | 'production'): string | null {
  const page = APP_PAGES[type];
  if (page === undefined) return null;
  return `${appHost(environment)}/app/${page.path}?${page.param}=${encodeURIComponent(platformId)}`;
}

export const appHost = (environment: 'sandbox' | 'production'): string =>
  environment === 'sandbox' ? 'https://app.sandbox.qbo.intuit.com' : 'https://app.qbo.intuit.com';

/** Fields every transaction maps the same way: currency, memo, times and deep link. */
export function recordFields(r: QboTransaction, type: UnifiedObjectType, mc: MapContext) {
  return {
    platform_id: r.Id,
    currency_code: txnCurrency(r.CurrencyRef, mc),
    memo: text(r.PrivateNote),
    ...createdUpdated(r),
    platform_url: appUrl(type, r.Id, mc.environment),
  };
}

/** Fields every payable and receivable maps the same way: a transaction's, and its exchange rate. */
export function txnFields(r: QboTransaction, type: UnifiedObjectType, mc: MapContext) {
  return {
    ...recordFields(r, type, mc),
    // The exchange rate as decimal text (bills, credit memos and payments serve it as a string).
    currency_rate: r.ExchangeRate === undefined ? null : String(r.ExchangeRate),
  };
}

export type StandardLine = Mapped<'bill'>['line_items'][number];

/**
 * A standard line item from the fields its kind of line maps. QBO tracks the department on the whole transaction, so
 * each line carries it; QBO lines reference TaxCodes, not TaxRates: tax_rate_id stays null and the TaxCodeRef is in
 * platform_data.
 */
export function standardLine(
  line: QboLine,
  department: QboRef | undefined,
  mc: MapContext,
  fields: Omit<StandardLine, 'platform_id' | 'department_id' | 'location_id' | 'project_id' | 'tax_rate_id' | 'description'>,
): StandardLine {
  return {
    platform_id: line.Id ?? null,
    department_id: refTo(mc.ref, 'department', department),
    location_id: null,
    project_id: null,
    tax_rate_id: null,
    description: text(line.Description),
    ...fields,
  };
}

/** The item of a line's detail: one unit unless it says a quantity, at the line's amount unless it says a unit price. */
export function lineItem(line: QboLine, detail: { ItemRef?: QboRef; Qty?: number; UnitPrice?: number } | undefined, mc: MapContext) {
  if (detail?.ItemRef === undefined) return null;
  return { id: mc.ref('item', detail.ItemRef.value) ?? '', quantity: detail.Qty ?? 1, unit_amount: amount(detail.UnitPrice ?? line.Amount) };
}

/** The total, the open balance (Balance, else the total) and the status they give. */
export function balanceOf(
  r: { TotalAmt?: number },
  balance: number | undefined,
): { total: number; open: number; status: 'open' | 'partially_paid' | 'paid' } {
  const total = amount(r.TotalAmt);
  const open = balance === undefined ? total : amount(balance);
  return { total, open, status: open <= 0 ? 'paid' : open < total ? 'partially_paid' : 'open' };
}

/** Fields of a credit memo, a customer's or a vendor's: what remains of the credit gives its status. */
export function creditFields(r: QboTransaction, remaining: number | undefined, type: UnifiedObjectType, mc: MapContext) {
  const { total, open, status } = balanceOf(r, remaining);
  return {
    ...txnFields(r, type, mc),
    issue_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    // The model has no null here; QBO credit memos need not have a number.
    document_number: r.DocNumber ?? '',
    remaining_amount: open,
    status,
    total_amount: total,
  };
}

/** Fields of a payment, a customer's or to a vendor: a voided one is void. */
export function paymentFields(r: QboTransaction, type: UnifiedObjectType, mc: MapContext) {
  return {
    ...txnFields(r, type, mc),
    transaction_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    document_number: text(r.DocNumber),
    status: isVoided(r) ? ('void' as const) : ('active' as const),
    total_amount: amount(r.TotalAmt),
  };
}

/** Header fields of bills and invoices: dates, amounts and their status from QBO's Balance. */
export function openDocument(r: QboTransaction & { DueDate?: string; Balance?: number }, lines: readonly { sub_total: number | null }[]) {
  const { total, open, status } = balanceOf(r, r.Balance);
  return {
    status,
    due_date: day(r.DueDate),
    issue_date: requiredDay(r.TxnDate, r.MetaData?.CreateTime),
    amount_due: open,
    total_amount: total,
    document_number: text(r.DocNumber),
    sub_total: sumAmounts(lines.map((line) => line.sub_total ?? 0)),
    tax_amount: r.TxnTaxDetail?.TotalTax === undefined ? null : amount(r.TxnTaxDetail.TotalTax),
  };
}

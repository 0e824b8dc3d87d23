/** Helpers shared by the Xero mappers: currencies, amounts, statuses, line items, allocations, links. */
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import type { CurrencyCode } from '../../../model/shared.ts';
import type { ConnectorContext } from '../../connector.ts';
import type { Mapped } from '../../objects.ts';
import { currency as readCurrency, text } from '../../readers.ts';
import { xeroDay } from '../dates.ts';
import type { LineAmountTypes, XeroAddress, XeroLineItem, XeroPhone } from '../types.ts';

export type { Mapped };
export type Ref = ConnectorContext['ref'];

/** A code of the model's enum exactly as Xero wrote it; null for none or another (docs/connectors.md: Xero keeps XXX). */
const known = (code: string | undefined): CurrencyCode | null => {
  const read = readCurrency(code, null);
  return read === code ? read : null;
};

/** ISO 4217 code; XXX ("no currency") when Xero gives none or one outside the enum. */
export function currency(code: string | undefined): CurrencyCode {
  return known(code) ?? 'XXX';
}

export function optCurrency(code: string | undefined): CurrencyCode | null {
  return known(code);
}

/** Sums of money in cents, so 0.1 + 0.2 stays 0.3. */
export function cents(value: number): number {
  return Math.round(value * 100);
}

export function money(value: number | undefined): number {
  return cents(value ?? 0) / 100;
}

export { text };

/** Exchange rate as decimal text (bills, payments); null without one. */
export function rate(value: number | undefined): string | null {
  return value === undefined ? null : String(value);
}

/** A link the record always has; ref answers null only for empty input. */
export function link(ref: Ref, type: UnifiedObjectType, platformId: string | undefined): string {
  return ref(type, platformId) ?? '';
}

const DOCUMENT_STATUSES: Readonly<Record<string, Mapped<'bill'>['status']>> = {
  DRAFT: 'draft',
  SUBMITTED: 'submitted',
  PAID: 'paid',
  VOIDED: 'void',
};

/** Unified status of invoices, bills and credit notes from Xero's status and the amount still open (DELETED never gets here: it is a tombstone). */
export function documentStatus(status: string | undefined, total: number, open: number): Mapped<'bill'>['status'] {
  // Approved: open until something is paid or applied.
  if (status === 'AUTHORISED') return cents(open) > 0 && cents(open) < cents(total) ? 'partially_paid' : 'open';
  return (status !== undefined && Object.hasOwn(DOCUMENT_STATUSES, status) ? DOCUMENT_STATUSES[status] : undefined) ?? 'unknown';
}

export function standardLine(line: XeroLineItem, amounts: LineAmountTypes | undefined, ref: Ref): Mapped<'bill'>['line_items'][number] {
  const lineAmount = line.LineAmount ?? (line.Quantity ?? 1) * (line.UnitAmount ?? 0);
  const tax = money(line.TaxAmount);
  // Inclusive amounts already hold the tax; Exclusive and NoTax amounts do not.
  const subTotal = amounts === 'Inclusive' ? money(lineAmount - tax) : money(lineAmount);
  return {
    platform_id: line.LineItemID ?? null,
    account_id: ref('account', line.AccountID),
    class_id: ref('class', line.Tracking?.[0]?.TrackingOptionID),
    customer_id: null,
    department_id: null,
    location_id: null,
    project_id: null,
    tax_rate_id: ref('tax_rate', line.TaxType),
    description: text(line.Description),
    discount_amount: line.DiscountAmount ?? null,
    discount_percentage: line.DiscountRate ?? null,
    sub_total: subTotal,
    tax_amount: tax,
    total_amount: money(subTotal + tax),
    // Xero items are not synced by this connector; ItemCode stays in platform_data.
    item: null,
  };
}

type Allocation = Mapped<'bill'>['linked_payments'][number];

export function allocation(
  ref: Ref,
  type: UnifiedObjectType,
  platformId: string | undefined,
  date: string | undefined,
  amount: number | undefined,
): Allocation {
  return { id: link(ref, type, platformId), allocated_date: xeroDay(date) ?? '1970-01-01T00:00:00.000Z', allocated_amount: money(amount) };
}

/** Non-empty addresses (Xero lists an empty POBOX and STREET on every contact). */
export function addresses(list: readonly XeroAddress[] | undefined): Mapped<'customer'>['addresses'] {
  return (list ?? [])
    .filter((a) => [a.AddressLine1, a.AddressLine2, a.AddressLine3, a.City, a.Region, a.PostalCode, a.Country].some((v) => text(v) !== null))
    .map((a) => ({
      type: a.AddressType === undefined ? null : a.AddressType.toLowerCase(),
      address1: text(a.AddressLine1),
      address2: text(a.AddressLine2),
      address3: text([a.AddressLine3, a.AddressLine4].filter((v) => text(v) !== null).join(', ')),
      city: text(a.City),
      country: text(a.Country),
      postal_code: text(a.PostalCode),
      region: text(a.Region),
    }));
}

/** The default phone (else the first with a number), as one dialable string. */
export function phone(list: readonly XeroPhone[] | undefined): string | null {
  const numbered = (list ?? []).filter((p) => text(p.PhoneNumber) !== null);
  const chosen = numbered.find((p) => p.PhoneType === 'DEFAULT') ?? numbered[0];
  if (chosen === undefined) return null;
  return [chosen.PhoneCountryCode, chosen.PhoneAreaCode, chosen.PhoneNumber].filter((v) => text(v) !== null).join(' ');
}

const DEEP_LINKS: Partial<Record<UnifiedObjectType, (id: string) => string>> = {
  bill: (id) => `/AccountsPayable/Edit.aspx?InvoiceID=${id}`,
  invoice: (id) => `/AccountsReceivable/View.aspx?InvoiceID=${id}`,
  bill_credit_memo: (id) => `/AccountsPayable/ViewCreditNote.aspx?creditNoteID=${id}`,
  invoice_credit_memo: (id) => `/AccountsReceivable/ViewCreditNote.aspx?creditNoteID=${id}`,
  vendor: (id) => `/Contacts/View/${id}`,
  customer: (id) => `/Contacts/View/${id}`,
  journal_entry: (id) => `/Journal/View.aspx?invoiceID=${id}`,
};

/**
 * The record in Xero's web app. Without the organisation's short code the link
 * opens in the organisation the user last had open in Xero.
 */
export function deepLink(type: UnifiedObjectType, platformId: string): string | null {
  const path = DEEP_LINKS[type];
  return path === undefined ? null : `https://go.xero.com${path(encodeURIComponent(platformId))}`;
}

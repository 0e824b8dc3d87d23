/**
 * Xero write bodies translated to SANDBOX write bodies: an invoice (ACCPAY a bill, ACCREC an invoice), a credit note
 * (ACCPAYCREDIT a vendor credit, ACCRECCREDIT a customer credit note), a contact (a
 * vendor when IsSupplier, else a customer) and a manual journal. Only the fields the Xero record carries are sent, so
 * an update patches. A reference SANDBOX cannot resolve (an account code, a contact id) is refused as Xero words it.
 */
import type { NativeAccount, NativeBill, NativeInvoice } from '../../native.ts';
import { isRecord, recordsIn } from '../wire.ts';
import { readFields, textOf } from '../field-table.ts';
import { idOfUuid } from '../uuid-ids.ts';
import { xeroMillis } from './dates.ts';
import { CONTACT_FIELDS, DOCUMENT_FIELDS, LEDGER_LINE_FIELDS, LINE_FIELDS } from './fields.ts';
import type { Json } from './view.ts';

export type Body = Record<string, unknown>;

/** A translation, or Xero's validation messages. */
export type Translated = { body: Body; delete?: boolean } | { refused: string[] };

const has = (item: Json, field: string): boolean => Object.hasOwn(item, field) && item[field] !== undefined;

/** YYYY-MM-DD of a Xero date (`2025-06-15`, `2025-06-15T00:00:00`, `/Date(…)/`), or null. */
function dayOf(value: unknown): string | null {
  const ms = xeroMillis(value);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

const today = (): string => new Date().toISOString().slice(0, 10);

function setDate(out: Body, refused: string[], item: Json, from: string, to: string, fallback: string | null): void {
  if (!has(item, from)) {
    if (fallback !== null) out[to] = fallback;
    return;
  }
  const day = dayOf(item[from]);
  if (day === null) refused.push(`${from} is not a valid date`);
  else out[to] = day;
}

/** The SANDBOX account of a line: by AccountID (our UUIDs), else by code from the chart. */
function accountOf(line: Json, chart: readonly NativeAccount[], refused: string[]): string | undefined {
  const byId = typeof line.AccountID === 'string' ? idOfUuid(line.AccountID) : null;
  const account = byId !== null ? chart.find((a) => a.Id === byId) : chart.find((a) => a.Code === textOf(line.AccountCode));
  if (account?.Status !== 'Active') {
    refused.push(`Account code '${textOf(line.AccountCode ?? line.AccountID)}' is not a valid code for this document.`);
    return undefined;
  }
  return account.Id;
}

function documentLine(line: Json, chart: readonly NativeAccount[], refused: string[]): Body {
  const out: Body = { AccountId: accountOf(line, chart, refused), Qty: 1, UnitPrice: 0, ...readFields(LINE_FIELDS, line) };
  if (typeof line.DiscountAmount === 'number') out.Discount = line.DiscountAmount;
  else if (typeof line.DiscountRate === 'number') out.DiscountPct = String(line.DiscountRate);
  const option = recordsIn(line.Tracking)[0]?.TrackingOptionID;
  const classId = typeof option === 'string' ? idOfUuid(option) : null;
  if (classId !== null) out.ClassId = classId;
  return out;
}

const INVOICE_STATUSES: Readonly<Record<string, string>> = { DRAFT: 'Draft', SUBMITTED: 'Draft', AUTHORISED: 'Open', VOIDED: 'Void' };
// SANDBOX's credit memos are open or void: it keeps no draft credits.
const CREDIT_STATUSES: Readonly<Record<string, string>> = { AUTHORISED: 'Open', VOIDED: 'Void' };

/** An Invoices item (a bill or invoice) or a CreditNotes item (a vendor credit or customer credit note). */
export interface DocumentShape {
  noun: 'invoice' | 'credit note';
  /** VendorId or CustomerId. */
  party: 'VendorId' | 'CustomerId';
  number: 'InvoiceNumber' | 'CreditNoteNumber';
}

/** An Invoices or CreditNotes item as a SANDBOX bill, invoice, vendor credit or credit note body. */
export function invoiceBody(item: Json, shape: DocumentShape, chart: readonly NativeAccount[], creating: boolean): Translated {
  const refused: string[] = [];
  const out: Body = readFields(DOCUMENT_FIELDS, item);
  const credit = shape.noun === 'credit note';
  if (item.Status === 'DELETED') return creating ? { refused: [`A new ${shape.noun} cannot have a status of DELETED`] } : { body: {}, delete: true };
  if (has(item, 'Status')) {
    const status = (credit ? CREDIT_STATUSES : INVOICE_STATUSES)[textOf(item.Status)];
    if (status === undefined && credit && ['DRAFT', 'SUBMITTED'].includes(textOf(item.Status)))
      refused.push('The simulator keeps no draft credit notes (SANDBOX credit memos are open or void): send Status AUTHORISED');
    else if (status === undefined || (creating && status === 'Void'))
      refused.push(`A new ${shape.noun} cannot have a status of ${textOf(item.Status)}`);
    else out.Status = status;
  }
  if (creating || has(item, 'Contact')) {
    const contact = isRecord(item.Contact) ? item.Contact : null;
    const contactId = typeof contact?.ContactID === 'string' ? idOfUuid(contact.ContactID) : null;
    if (contact === null) refused.push('A Contact must be specified for this type of transaction');
    else if (contactId === null) refused.push('The contact could not be found.');
    else out[shape.party] = contactId;
  }
  setDate(out, refused, item, 'Date', 'TxnDate', creating ? today() : null);
  if (!credit) setDate(out, refused, item, 'DueDate', 'DueDate', null);
  if (has(item, shape.number)) out.DocNumber = textOf(item[shape.number]);
  if (item.LineAmountTypes === 'Inclusive')
    refused.push('The simulator keeps line amounts exclusive of tax: send LineAmountTypes Exclusive or NoTax');
  if (has(item, 'LineItems')) out.Lines = recordsIn(item.LineItems).map((line) => documentLine(line, chart, refused));
  else if (creating && item.Status !== 'DRAFT') refused.push(`An approved ${shape.noun} must have at least one line item`);
  return refused.length > 0 ? { refused } : { body: out };
}

const ADDRESS_KINDS: Readonly<Record<string, string>> = { POBOX: 'Billing', STREET: 'Shipping' };

function phoneOf(phones: unknown): string | undefined {
  const numbered = recordsIn(phones).filter((p) => textOf(p.PhoneNumber).trim() !== '');
  const chosen = numbered.find((p) => p.PhoneType === 'DEFAULT') ?? numbered[0];
  return chosen === undefined
    ? undefined
    : [chosen.PhoneCountryCode, chosen.PhoneAreaCode, chosen.PhoneNumber]
        .map(textOf)
        .filter((t) => t !== '')
        .join(' ');
}

/** A Contacts item as a SANDBOX customer or vendor body. */
export function contactBody(item: Json, creating: boolean): Translated {
  if ((creating || has(item, 'Name')) && textOf(item.Name).trim() === '') return { refused: ['The contact name must be specified.'] };
  const out: Body = readFields(CONTACT_FIELDS, item);
  if (has(item, 'FirstName') || has(item, 'LastName'))
    out.ContactName = [textOf(item.FirstName), textOf(item.LastName)].filter((t) => t !== '').join(' ');
  if (has(item, 'Phones')) out.Phone = phoneOf(item.Phones) ?? null;
  if (has(item, 'Addresses')) {
    out.Addresses = recordsIn(item.Addresses)
      .filter((a) => textOf(a.AddressLine1) !== '' || textOf(a.City) !== '')
      .map((a) => ({
        Kind: ADDRESS_KINDS[textOf(a.AddressType)] ?? 'Billing',
        Line1: textOf(a.AddressLine1),
        ...(textOf(a.AddressLine2) === '' ? {} : { Line2: textOf(a.AddressLine2) }),
        City: textOf(a.City),
        Region: textOf(a.Region),
        PostalCode: textOf(a.PostalCode),
        Country: textOf(a.Country),
      }));
  }
  return { body: out };
}

/** A ManualJournals item as a SANDBOX journal entry body (debits positive, credits negative, as Xero signs lines). */
export function journalBody(item: Json, chart: readonly NativeAccount[], creating: boolean): Translated {
  const refused: string[] = [];
  const out: Body = {};
  const status = textOf(item.Status);
  if (status === 'DELETED') return creating ? { refused: ['A new manual journal cannot have a status of DELETED'] } : { body: {}, delete: true };
  if (status === 'DRAFT') refused.push('The simulator posts manual journals: send Status POSTED (SANDBOX keeps no draft journals)');
  else if (status === 'VOIDED') out.Status = 'Voided';
  else if (status === 'POSTED') out.Status = 'Posted';
  if (textOf(item.Narration).trim() === '') refused.push('Narration is required');
  else out.Memo = textOf(item.Narration);
  setDate(out, refused, item, 'Date', 'TxnDate', creating ? today() : null);
  if (has(item, 'JournalLines')) {
    out.Lines = recordsIn(item.JournalLines).map((line) => {
      const amount = typeof line.LineAmount === 'number' ? line.LineAmount : 0;
      return {
        AccountId: accountOf(line, chart, refused),
        ...(amount >= 0 ? { Debit: amount } : { Credit: -amount }),
        ...readFields(LEDGER_LINE_FIELDS, line),
      };
    });
  } else if (creating) refused.push('A manual journal must have at least two lines');
  return refused.length > 0 ? { refused } : { body: out };
}

/**
 * A Payments item as a SANDBOX bill or invoice payment of the one document it names (`doc`, found by the caller from
 * Invoice.InvoiceID): the document's party, the account by AccountID or Code, Date, Amount and Reference.
 */
export function paymentBody(
  item: Json,
  doc: { type: 'bill'; record: NativeBill } | { type: 'invoice'; record: NativeInvoice },
  chart: readonly NativeAccount[],
): Translated {
  const refused: string[] = [];
  const bankId = accountOf(isRecord(item.Account) ? item.Account : {}, chart, refused);
  const amount = typeof item.Amount === 'number' ? item.Amount : 0;
  if (amount <= 0) refused.push('Payment amount must be greater than zero');
  // A payment's Reference is SANDBOX's payment Reference (a document's is its Memo).
  const out: Body = has(item, 'Reference') ? { Reference: textOf(item.Reference) } : {};
  if (typeof item.CurrencyRate === 'number') out.ExchangeRate = String(item.CurrencyRate);
  setDate(out, refused, item, 'Date', 'TxnDate', null);
  if (!has(item, 'Date')) refused.push('Date is required');
  const allocation =
    doc.type === 'bill' ? { BillId: doc.record.Id, Amount: amount.toFixed(2) } : { InvoiceId: doc.record.Id, Amount: amount.toFixed(2) };
  if (doc.type === 'bill') Object.assign(out, { VendorId: doc.record.VendorId, BankAccountId: bankId, Bills: [allocation] });
  else Object.assign(out, { CustomerId: doc.record.CustomerId, DepositToAccountId: bankId, Invoices: [allocation] });
  return refused.length > 0 ? { refused } : { body: out };
}

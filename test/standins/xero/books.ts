/**
 * One organisation's books in the stand-in: the seeded records, Xero's list
 * behaviour (If-Modified-Since, where, order, 100-record pages, archived and
 * deleted records) and Xero's rules for the writes the connector makes
 * (invoices, contacts, manual journals): validation messages, status
 * transitions, totals, UpdatedDateUTC from a clock that only moves forward.
 */
import { randomUUID } from 'node:crypto';
import { msDate, xeroMillis } from '../../../src/platforms/xero/dates.ts';
import { textPdf } from '../../../src/platforms/pdf.ts';
import { isObject, MonotonicClock, RecordStore, str } from '../kit/collections.ts';
import type { Answer } from '../kit/server.ts';
import { clone, computeDocument, contactSummary, ID_FIELD, newInvoice, round2, type Collection, type Json, type Seed } from './seed.ts';
// Xero's list behaviour and answers: written once, in the simulator.
import { envelope, validationError } from '../../../packages/sandbox/src/simulators/xero/answers.ts';
import { listedRecords } from '../../../packages/sandbox/src/simulators/xero/lists.ts';
import { xeroAttachment } from '../../../packages/sandbox/src/simulators/xero/attachments.ts';
import type { WritableList as Writable } from '../../../packages/sandbox/src/simulators/xero/writes.ts';

export type { Answer } from '../kit/server.ts';

const PROVIDER = 'Ledgerport Xero stand-in';

export const notFound = (): Answer => ({
  status: 404,
  body: "The resource you're looking for cannot be found",
  headers: { 'content-type': 'text/plain' },
});

/** `YYYY-MM-DD` (or a Xero date) as epoch ms at midnight; null when unreadable. */
function dayMillis(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = xeroMillis(value);
  return ms === null ? null : ms - (ms % 86_400_000);
}

type Refusal = string[];

/** What tells an invoice from a credit note when written: its list, types, number field and Xero's own numbering. */
interface DocumentList {
  name: 'Invoices' | 'CreditNotes';
  noun: 'Invoice' | 'Credit note';
  types: readonly string[];
  number: 'InvoiceNumber' | 'CreditNoteNumber';
  autoNumber: Readonly<Record<string, string>>;
}

const DOCUMENT_LISTS: Readonly<Record<DocumentList['name'], DocumentList>> = {
  Invoices: { name: 'Invoices', noun: 'Invoice', types: ['ACCPAY', 'ACCREC'], number: 'InvoiceNumber', autoNumber: { ACCREC: 'INV' } },
  CreditNotes: {
    name: 'CreditNotes',
    noun: 'Credit note',
    types: ['ACCPAYCREDIT', 'ACCRECCREDIT'],
    number: 'CreditNoteNumber',
    autoNumber: { ACCRECCREDIT: 'CN' },
  },
};

/** Fields a write sets as sent (a document's Type only when it is created). */
const DOCUMENT_FIELDS = ['Type', 'Reference', 'CurrencyCode', 'CurrencyRate', 'LineAmountTypes', 'Url', 'SentToContact', 'BrandingThemeID'];
const CONTACT_FIELDS = [
  'Name',
  'FirstName',
  'LastName',
  'EmailAddress',
  'TaxNumber',
  'DefaultCurrency',
  'ContactStatus',
  'ContactNumber',
  'AccountNumber',
  'Website',
  'BankAccountDetails',
];

/** The records are live (`all`, `get`): tests read and compare against them. */
export class XeroBooks extends RecordStore<Collection> {
  readonly organisation: Json;
  readonly attachments: Record<string, Json[]>;
  private readonly report: Json;
  private readonly clock = new MonotonicClock();

  constructor(seed: Seed) {
    super(ID_FIELD, seed.collections);
    this.organisation = seed.organisation;
    this.attachments = seed.attachments;
    this.report = seed.report;
  }

  /** Xero's clock: now, but never twice the same millisecond. */
  now(): number {
    return this.clock.now();
  }

  /** Changes a record as someone in Xero's app would: totals recomputed, UpdatedDateUTC moved. */
  change(collection: Collection, id: string, edit: (record: Json) => void): Json {
    const record = this.get(collection, id);
    if (record === undefined) throw new Error(`no ${collection} ${id}`);
    edit(record);
    if (collection === 'Invoices' || collection === 'CreditNotes') computeDocument(record, this.all('TaxRates'));
    record.UpdatedDateUTC = msDate(this.now());
    return record;
  }

  private envelope(key: string, records: Json[]): Answer {
    return envelope(key, records, PROVIDER, this.now());
  }

  list(collection: Collection, query: URLSearchParams, since: string | undefined): Answer {
    let records = this.all(collection);
    const archived = query.get('includeArchived') === 'true';
    if (collection === 'Accounts' || collection === 'TrackingCategories') records = records.filter((r) => r.Status !== 'DELETED');
    if (collection === 'Contacts' && !archived) records = records.filter((r) => r.ContactStatus !== 'ARCHIVED');
    if (collection === 'TrackingCategories' && !archived) records = records.filter((r) => r.Status !== 'ARCHIVED');
    const listed = listedRecords(records, query, since);
    return Array.isArray(listed) ? this.envelope(collection, listed.map(clone)) : listed;
  }

  one(collection: Collection, id: string): Answer {
    const record = this.get(collection, id);
    return record === undefined ? notFound() : this.envelope(collection, [clone(record)]);
  }

  /** The bytes the stand-in serves for an attachment: made up, but the same every time. */
  static fileOf(attachment: Json): Buffer {
    return Buffer.from(`Xero stand-in file ${str(attachment.FileName)} (${str(attachment.AttachmentID)})\n`);
  }

  /** GET …/Attachments/{AttachmentID}: the file itself. */
  attachmentFile(parent: Collection, id: string, attachmentId: string): Answer {
    const attachment = this.has(parent, id) ? (this.attachments[id] ?? []).find((a) => a.AttachmentID === attachmentId) : undefined;
    if (attachment === undefined) return notFound();
    return { status: 200, body: XeroBooks.fileOf(attachment), headers: { 'content-type': str(attachment.MimeType) || 'application/octet-stream' } };
  }

  /** The PDF the stand-in serves for an invoice or bill: made up from its number and total, the same every time. */
  static pdfOf(invoice: Json): Buffer {
    const number = str(invoice.InvoiceNumber);
    return textPdf(`Invoice ${number}`, [`Xero stand-in invoice ${number} (${str(invoice.InvoiceID)})`, `Total: ${String(invoice.Total)}`]);
  }

  /** GET /Invoices/{InvoiceID} asked with Accept: application/pdf (the contract's getInvoiceAsPdf). */
  invoicePdf(id: string): Answer {
    const invoice = this.get('Invoices', id);
    if (invoice === undefined) return notFound();
    return { status: 200, body: XeroBooks.pdfOf(invoice), headers: { 'content-type': 'application/pdf' } };
  }

  /**
   * Attaches a file to an invoice, bill, manual journal or bank transfer as someone in Xero's app would: an Attachment of the
   * contract's shape, and the parent flagged HasAttachments. The parent's UpdatedDateUTC stays (Xero does not document
   * that a new file moves it, and the connector does not count on it).
   */
  attach(parent: 'Invoices' | 'ManualJournals' | 'BankTransfers', id: string, fileName: string, mimeType = 'application/pdf'): Json {
    const record = this.get(parent, id);
    if (record === undefined) throw new Error(`no ${parent} ${id}`);
    const attachmentId = randomUUID();
    const size = XeroBooks.fileOf({ FileName: fileName, AttachmentID: attachmentId }).length;
    const attachment = xeroAttachment(attachmentId, fileName, `/${parent}/${id}`, mimeType, size);
    (this.attachments[id] ??= []).push(attachment);
    record.HasAttachments = true;
    return attachment;
  }

  attachmentsOf(parent: Collection, id: string): Answer {
    if (!this.has(parent, id)) return notFound();
    return { status: 200, body: { Attachments: (this.attachments[id] ?? []).map(clone) } };
  }

  organisationAnswer(): Answer {
    return this.envelope('Organisations', [clone(this.organisation)]);
  }

  /** Saves records of a write body one by one, all or nothing as Xero does with summarizeErrors. */
  save(collection: Writable, body: unknown, pathId: string | null, createOnly: boolean): Answer {
    const listed = isObject(body) && Array.isArray(body[collection]) ? (body[collection] as unknown[]).filter(isObject) : [];
    // Xero's deletePayment (POST /Payments/{PaymentID}) takes a bare PaymentDelete, {Status: "DELETED"}.
    const items = collection === 'Payments' && pathId !== null && isObject(body) && !(collection in body) ? [body] : listed;
    const idField = ID_FIELD[collection];
    const saved: Json[] = [];
    for (const item of items) {
      const id = pathId ?? (typeof item[idField] === 'string' ? item[idField] : null);
      const existing = id === null ? undefined : this.get(collection, id);
      if (id !== null && existing === undefined) return notFound();
      if (createOnly && existing !== undefined)
        return validationError([`${collection} ${id ?? ''} already exists: use POST to update it`], { [idField]: id });
      const record = existing === undefined ? this.fresh(collection) : clone(existing);
      const refusal =
        collection === 'Invoices' || collection === 'CreditNotes'
          ? this.applyDocument(DOCUMENT_LISTS[collection], record, item, existing)
          : collection === 'Contacts'
            ? this.applyContact(record, item, existing)
            : collection === 'Payments'
              ? this.applyPayment(record, item, existing)
              : this.applyJournal(record, item, existing);
      if (refusal.length > 0) return validationError(refusal, existing === undefined ? {} : { [idField]: id });
      saved.push(record);
    }
    for (const record of saved) {
      record.UpdatedDateUTC = msDate(this.now());
      this.put(collection, record);
    }
    return this.envelope(collection, saved.map(clone));
  }

  private fresh(collection: Writable): Json {
    const id = randomUUID();
    if (collection === 'Invoices') return { InvoiceID: id, ...newInvoice() };
    if (collection === 'CreditNotes') {
      return {
        CreditNoteID: id,
        ID: id,
        Payments: [],
        Allocations: [],
        CurrencyRate: 1,
        HasErrors: false,
        HasAttachments: false,
        Status: 'DRAFT',
        LineAmountTypes: 'Exclusive',
        LineItems: [],
      };
    }
    if (collection === 'Payments') return { PaymentID: id, CurrencyRate: 1, Status: 'AUTHORISED', HasAccount: true, IsReconciled: false };
    if (collection === 'Contacts') {
      return {
        ContactID: id,
        ContactStatus: 'ACTIVE',
        IsSupplier: false,
        IsCustomer: false,
        HasAttachments: false,
        HasValidationErrors: false,
        ContactGroups: [],
        ContactPersons: [],
        Addresses: [{ AddressType: 'STREET' }, { AddressType: 'POBOX' }],
        Phones: [{ PhoneType: 'DEFAULT' }, { PhoneType: 'MOBILE' }],
      };
    }
    return { ManualJournalID: id, Status: 'DRAFT', LineAmountTypes: 'NoTax', ShowOnCashBasisReports: true, HasAttachments: false, JournalLines: [] };
  }

  private accountFor(line: Json): Json | undefined {
    const accounts = this.all('Accounts').filter((a) => a.Status === 'ACTIVE');
    return typeof line.AccountID === 'string'
      ? accounts.find((a) => a.AccountID === line.AccountID)
      : accounts.find((a) => a.Code === line.AccountCode);
  }

  private checkLine(line: Json, refusal: Refusal): void {
    if (this.accountFor(line) === undefined)
      refusal.push(`Account code '${str(line.AccountCode ?? line.AccountID)}' is not a valid code for this document.`);
    if (line.TaxType !== undefined && !this.has('TaxRates', str(line.TaxType))) {
      refusal.push(`The TaxType code '${str(line.TaxType)}' does not exist or cannot be used for this type of transaction.`);
    }
    for (const tracking of (Array.isArray(line.Tracking) ? line.Tracking : []) as Json[]) {
      const category = this.all('TrackingCategories').find((c) => c.Name === tracking.Name && c.Status === 'ACTIVE');
      const option = ((category?.Options ?? []) as Json[]).find((o) => o.Name === tracking.Option);
      if (option === undefined)
        refusal.push(`The TrackingOption '${str(tracking.Option)}' does not exist in TrackingCategory '${str(tracking.Name)}'.`);
      else Object.assign(tracking, { TrackingCategoryID: category?.TrackingCategoryID, TrackingOptionID: option.TrackingOptionID });
    }
  }

  private setDate(record: Json, item: Json, field: string, refusal: Refusal): void {
    if (!(field in item)) return;
    if (item[field] === '' || item[field] === null) {
      Reflect.deleteProperty(record, field);
      Reflect.deleteProperty(record, `${field}String`);
      return;
    }
    const ms = dayMillis(item[field]);
    if (ms === null) {
      refusal.push(`${field} is not a valid date`);
      return;
    }
    record[field] = msDate(ms);
    record[`${field}String`] = new Date(ms).toISOString().slice(0, 19);
  }

  private contactRef(item: Json, refusal: Refusal): Json | undefined {
    const ref = isObject(item.Contact) ? item.Contact : null;
    const contact =
      ref === null
        ? undefined
        : typeof ref.ContactID === 'string'
          ? this.get('Contacts', ref.ContactID)
          : this.all('Contacts').find((c) => c.Name === ref.Name);
    if (contact === undefined)
      refusal.push(ref === null ? 'A Contact must be specified for this type of transaction' : 'The contact could not be found.');
    return contact === undefined ? undefined : contactSummary(contact);
  }

  /** An invoice or bill, or a credit note: Xero's rules of status alike, the credit's allocations as an invoice's payments. */
  private applyDocument(list: DocumentList, record: Json, item: Json, existing: Json | undefined): Refusal {
    const refusal: Refusal = [];
    const from = str(existing?.Status ?? 'DRAFT');
    const to = typeof item.Status === 'string' ? item.Status : existing === undefined ? 'DRAFT' : from;
    if (existing === undefined && !list.types.includes(String(item.Type))) refusal.push(`${list.noun} Type must be ${list.types.join(' or ')}`);
    if (existing !== undefined && ['VOIDED', 'DELETED'].includes(from)) return ['This document cannot be edited as it has a status of ' + from + '.'];
    if (existing === undefined && !['DRAFT', 'SUBMITTED', 'AUTHORISED'].includes(to))
      refusal.push(`A new ${list.noun.toLowerCase()} cannot have a status of ${to}`);
    const settled =
      Number(existing?.AmountPaid ?? 0) > 0 || Number(existing?.AmountCredited ?? 0) > 0 || ((existing?.Allocations ?? []) as Json[]).length > 0;
    if (to === 'DELETED' && !['DRAFT', 'SUBMITTED'].includes(from)) refusal.push(`${list.noun} not of valid status for modification`);
    if (to === 'VOIDED' && (from !== 'AUTHORISED' || settled))
      refusal.push(settled ? 'Payments and credit notes must be removed before voiding' : `${list.noun} not of valid status for modification`);
    if (existing !== undefined && from === 'PAID' && ('LineItems' in item || to !== from))
      refusal.push(`${list.noun} not of valid status for modification`);
    if (existing === undefined || 'Contact' in item) {
      const contact = this.contactRef(item, refusal);
      if (contact !== undefined) record.Contact = contact;
    }
    for (const field of [...DOCUMENT_FIELDS, list.number])
      if (field in item && !(field === 'Type' && existing !== undefined)) record[field] = item[field];
    this.setDate(record, item, 'Date', refusal);
    this.setDate(record, item, 'DueDate', refusal);
    if (record.Date === undefined) this.setDate(record, { Date: new Date(this.now()).toISOString().slice(0, 10) }, 'Date', refusal);
    if (Array.isArray(item.LineItems)) {
      const lines = (item.LineItems as unknown[])
        .filter(isObject)
        .map((line) => ({ LineItemID: randomUUID(), ...clone(line), Tracking: Array.isArray(line.Tracking) ? clone(line.Tracking) : [] }));
      for (const line of lines) this.checkLine(line, refusal);
      record.LineItems = lines;
    }
    if (to === 'AUTHORISED' && (record.LineItems as Json[]).length === 0)
      refusal.push(`An approved ${list.noun.toLowerCase()} must have at least one line item`);
    record.Status = to;
    record.CurrencyCode ??= this.organisation.BaseCurrency;
    // Xero numbers sales documents itself (INV-0001, CN-0001); a purchase's number is the supplier's.
    const numbered = list.autoNumber[str(record.Type)];
    if (numbered !== undefined && (typeof record[list.number] !== 'string' || record[list.number] === ''))
      record[list.number] = `${numbered}-${String(this.size(list.name) + 1).padStart(4, '0')}`;
    computeDocument(record, this.all('TaxRates'));
    return refusal;
  }

  private applyContact(record: Json, item: Json, existing: Json | undefined): Refusal {
    const refusal: Refusal = [];
    if (existing === undefined && (typeof item.Name !== 'string' || item.Name.trim() === '')) refusal.push('The contact name must be specified.');
    for (const field of CONTACT_FIELDS) if (field in item) record[field] = item[field];
    for (const field of ['Addresses', 'Phones', 'ContactPersons']) if (Array.isArray(item[field])) record[field] = clone(item[field]);
    const name = str(record.Name).toLowerCase();
    const taken = this.all('Contacts').some(
      (c) => c.ContactID !== record.ContactID && c.ContactStatus === 'ACTIVE' && str(c.Name).toLowerCase() === name,
    );
    if (taken && record.ContactStatus === 'ACTIVE') {
      refusal.push(
        `The contact name ${str(record.Name)} is already assigned to another contact. The contact name must be unique across all active contacts.`,
      );
    }
    return refusal;
  }

  /**
   * A payment of one approved invoice or bill into an account that takes payments (a bank account, or one with
   * EnablePaymentsToAccount), of no more than is due; a POST with Status DELETED to an existing one deletes it. Either
   * way the invoice's AmountPaid, AmountDue and Status follow (PAID when nothing is due), as Xero keeps them.
   */
  private applyPayment(record: Json, item: Json, existing: Json | undefined): Refusal {
    if (existing !== undefined) {
      if (item.Status !== 'DELETED') return ['A payment can only be deleted (Status DELETED)'];
      if (existing.Status === 'DELETED') return ['This payment has already been deleted'];
      record.Status = 'DELETED';
      this.repay(str((existing.Invoice as Json | undefined)?.InvoiceID), (payments) => payments.filter((p) => p.PaymentID !== existing.PaymentID));
      return [];
    }
    const ref = isObject(item.Invoice) ? item.Invoice : {};
    const invoice = typeof ref.InvoiceID === 'string' ? this.get('Invoices', ref.InvoiceID) : undefined;
    const accountRef = isObject(item.Account) ? item.Account : {};
    const account = this.accountFor(accountRef);
    const amount = typeof item.Amount === 'number' ? item.Amount : 0;
    const refusal: Refusal = [];
    if (invoice === undefined) refusal.push('Invoice could not be found');
    else if (invoice.Status !== 'AUTHORISED') refusal.push('Payment can only be made against Authorised documents');
    if (account === undefined || (account.Type !== 'BANK' && account.EnablePaymentsToAccount !== true))
      refusal.push('Account must be valid (a bank account, or one with EnablePaymentsToAccount)');
    if (amount <= 0) refusal.push('Payment amount must be greater than zero');
    else if (invoice !== undefined && amount > Number(invoice.AmountDue))
      refusal.push('Payment amount exceeds the amount outstanding on this document');
    this.setDate(record, item, 'Date', refusal);
    if (record.Date === undefined) refusal.push('Date is required');
    if (refusal.length > 0 || invoice === undefined || account === undefined) return refusal;
    Object.assign(record, {
      Amount: amount,
      BankAmount: amount,
      PaymentType: invoice.Type === 'ACCPAY' ? 'ACCPAYPAYMENT' : 'ACCRECPAYMENT',
      Account: { AccountID: account.AccountID, Code: account.Code, Name: account.Name },
      Invoice: {
        Type: invoice.Type,
        InvoiceID: invoice.InvoiceID,
        InvoiceNumber: invoice.InvoiceNumber,
        CurrencyCode: invoice.CurrencyCode,
        Contact: invoice.Contact,
      },
      HasValidationErrors: false,
    });
    Reflect.deleteProperty(record, 'DateString');
    if (typeof item.Reference === 'string') record.Reference = item.Reference;
    if (typeof item.CurrencyRate === 'number') record.CurrencyRate = item.CurrencyRate;
    const entry = { PaymentID: record.PaymentID, Date: record.Date, Amount: amount, CurrencyRate: 1, HasAccount: false, HasValidationErrors: false };
    this.repay(str(invoice.InvoiceID), (payments) => [...payments, entry]);
    return [];
  }

  /** Changes an invoice's list of payments and what follows from it: amounts, PAID or AUTHORISED, UpdatedDateUTC. */
  private repay(invoiceId: string, edit: (payments: Json[]) => Json[]): void {
    if (!this.has('Invoices', invoiceId)) return;
    this.change('Invoices', invoiceId, (invoice) => {
      invoice.Payments = edit((invoice.Payments ?? []) as Json[]);
      computeDocument(invoice, this.all('TaxRates'));
      if (invoice.Status === 'AUTHORISED' || invoice.Status === 'PAID') invoice.Status = Number(invoice.AmountDue) === 0 ? 'PAID' : 'AUTHORISED';
    });
  }

  private applyJournal(record: Json, item: Json, existing: Json | undefined): Refusal {
    const refusal: Refusal = [];
    const from = str(existing?.Status ?? 'DRAFT');
    const to = typeof item.Status === 'string' ? item.Status : existing === undefined ? 'DRAFT' : from;
    if (existing !== undefined && ['VOIDED', 'DELETED'].includes(from))
      return [`This manual journal cannot be edited as it has a status of ${from}.`];
    if (existing === undefined && !['DRAFT', 'POSTED'].includes(to)) refusal.push(`A new manual journal cannot have a status of ${to}`);
    if (to === 'DELETED' && from !== 'DRAFT') refusal.push('Only draft manual journals can be deleted; void a posted one');
    if (to === 'VOIDED' && from !== 'POSTED') refusal.push('Only posted manual journals can be voided');
    if (typeof item.Narration !== 'string' || item.Narration.trim() === '') refusal.push('Narration is required');
    for (const field of ['Narration', 'LineAmountTypes', 'ShowOnCashBasisReports', 'Url']) if (field in item) record[field] = item[field];
    this.setDate(record, item, 'Date', refusal);
    if (record.Date === undefined) this.setDate(record, { Date: new Date(this.now()).toISOString().slice(0, 10) }, 'Date', refusal);
    if (Array.isArray(item.JournalLines)) {
      const lines = (item.JournalLines as unknown[]).filter(isObject).map(clone);
      let total = 0;
      for (const line of lines) {
        const account = this.accountFor(line);
        if (account === undefined) refusal.push(`Account code '${str(line.AccountCode ?? line.AccountID)}' is not a valid code for this document.`);
        else Object.assign(line, { AccountID: account.AccountID, AccountCode: account.Code });
        const amount = typeof line.LineAmount === 'number' ? line.LineAmount : 0;
        line.TaxType ??= 'NONE';
        line.TaxAmount = 0;
        line.Tracking ??= [];
        line.IsBlank = false;
        total += Math.round(amount * 100);
      }
      if (lines.length < 2) refusal.push('A manual journal must have at least two lines');
      if (total !== 0) {
        const debits = round2(lines.reduce((s, l) => s + Math.max(0, Number(l.LineAmount)), 0));
        const credits = round2(lines.reduce((s, l) => s - Math.min(0, Number(l.LineAmount)), 0));
        refusal.push(`The total debits (${debits.toFixed(2)}) must equal total credits (${credits.toFixed(2)})`);
      }
      record.JournalLines = lines;
    }
    record.Status = to;
    return refusal;
  }

  /**
   * The BalanceSheet report at `date` with `periods` earlier months: the
   * example report's rows, with the example's value columns repeated to fill
   * the requested periods.
   */
  balanceSheet(query: URLSearchParams): Answer {
    const date = query.get('date') ?? new Date(this.now()).toISOString().slice(0, 10);
    const columns = Math.min(12, Math.max(1, Number(query.get('periods') ?? '0') + 1));
    const end = new Date(`${date}T00:00:00Z`);
    // Column j (from 1) ends on the last day of the month j - 1 months before `date`'s.
    const label = (j: number): string => new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - j + 2, 0)).toUTCString().slice(5, 16);
    const widen = (row: Json): Json => {
      const out = clone(row);
      if (Array.isArray(row.Cells)) {
        const cells = row.Cells as Json[];
        const values = cells.slice(1);
        out.Cells = [
          cells[0] ?? { Value: '' },
          ...Array.from({ length: columns }, (_v, k) =>
            row.RowType === 'Header' ? { Value: label(k + 1) } : clone(values[k % Math.max(1, values.length)] ?? { Value: '' }),
          ),
        ];
      }
      if (Array.isArray(row.Rows)) out.Rows = (row.Rows as Json[]).map(widen);
      return out;
    };
    const report = {
      ...clone(this.report),
      ReportTitles: ['Balance Sheet', str(this.organisation.Name), `As at ${label(1)}`],
      Rows: ((this.report.Rows ?? []) as Json[]).map(widen),
    };
    return this.envelope('Reports', [report]);
  }

  /**
   * The ProfitAndLoss report (accrual basis) for fromDate..toDate and `periods` earlier months (timeframe MONTH),
   * newest first, computed from the books: approved and paid invoices, bills and credit notes (their lines ex tax),
   * and posted manual journals, per account; sections as Xero lays them out (Income, Less Cost of Sales, Gross
   * Profit, Plus Other Income, Less Operating Expenses, Net Profit). Xero's contract has no example of it.
   */
  profitAndLoss(query: URLSearchParams): Answer {
    const today = new Date(this.now());
    const from = query.get('fromDate') ?? new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const start = new Date(`${from}T00:00:00Z`);
    if (Number.isNaN(start.getTime())) return validationError([`fromDate ${from} is not a date`]);
    const columns = Math.min(12, Math.max(1, Number(query.get('periods') ?? '0') + 1));
    // Column k (from 0) is the month k months before fromDate's.
    const bounds = Array.from(
      { length: columns },
      (_v, k) =>
        [Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - k, 1), Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - k + 1, 1)] as const,
    );
    const columnOf = (date: unknown): number => {
      const ms = dayMillis(date);
      return ms === null ? -1 : bounds.findIndex(([a, b]) => ms >= a && ms < b);
    };
    const accounts = new Map(this.all('Accounts').map((a) => [str(a.Code), a]));
    const amounts = new Map<string, number[]>();
    // Debit-positive, per account code and column.
    const post = (code: unknown, column: number, debit: number): void => {
      if (column < 0 || typeof code !== 'string') return;
      const row = amounts.get(code) ?? Array.from({ length: columns }, () => 0);
      row[column] = round2((row[column] ?? 0) + debit);
      amounts.set(code, row);
    };
    const exTax = (doc: Json, line: Json): number =>
      Number(line.LineAmount ?? 0) - (doc.LineAmountTypes === 'Inclusive' ? Number(line.TaxAmount ?? 0) : 0);
    const approved = (doc: Json): boolean => doc.Status === 'AUTHORISED' || doc.Status === 'PAID';
    for (const doc of [...this.all('Invoices'), ...this.all('CreditNotes')]) {
      if (!approved(doc)) continue;
      // Sales credit revenue, purchases debit expenses; credit notes the other way round.
      const sign = doc.Type === 'ACCPAY' || doc.Type === 'ACCRECCREDIT' ? 1 : -1;
      for (const line of (doc.LineItems ?? []) as Json[]) post(line.AccountCode, columnOf(doc.Date), sign * exTax(doc, line));
    }
    for (const journal of this.all('ManualJournals')) {
      if (journal.Status !== 'POSTED') continue;
      for (const line of (journal.JournalLines ?? []) as Json[]) post(line.AccountCode, columnOf(journal.Date), Number(line.LineAmount ?? 0));
    }
    const money = (n: number): string => round2(n).toFixed(2);
    const sections = [
      { title: 'Income', total: 'Total Income', types: ['REVENUE', 'SALES'], sign: -1 },
      { title: 'Less Cost of Sales', total: 'Total Cost of Sales', types: ['DIRECTCOSTS'], sign: 1 },
      { title: 'Plus Other Income', total: 'Total Other Income', types: ['OTHERINCOME'], sign: -1 },
      { title: 'Less Operating Expenses', total: 'Total Operating Expenses', types: ['EXPENSE', 'OVERHEADS', 'DEPRECIATN'], sign: 1 },
    ];
    const totals = new Map<string, number[]>();
    const sectionRows = (section: (typeof sections)[number]): Json[] => {
      const sum = Array.from({ length: columns }, () => 0);
      const rows: Json[] = [];
      for (const [code, values] of [...amounts].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const account = accounts.get(code);
        if (account === undefined || !section.types.includes(str(account.Type))) continue;
        const attributes = [{ Value: str(account.AccountID), Id: 'account' }];
        values.forEach((v, k) => {
          sum[k] = (sum[k] ?? 0) + section.sign * v;
        });
        rows.push({
          RowType: 'Row',
          Cells: [
            { Value: str(account.Name), Attributes: attributes },
            ...values.map((v) => ({ Value: money(section.sign * v), Attributes: attributes })),
          ],
        });
      }
      totals.set(section.title, sum);
      if (rows.length === 0) return [];
      return [
        {
          RowType: 'Section',
          Title: section.title,
          Rows: [...rows, { RowType: 'SummaryRow', Cells: [{ Value: section.total }, ...sum.map((v) => ({ Value: money(v) }))] }],
        },
      ];
    };
    const [income, cost, other, expenses] = sections.map(sectionRows);
    const column = (title: string, k: number): number => totals.get(title)?.[k] ?? 0;
    const line = (name: string, value: (k: number) => number): Json => ({
      RowType: 'Section',
      Title: '',
      Rows: [{ RowType: 'Row', Cells: [{ Value: name }, ...bounds.map((_b, k) => ({ Value: money(value(k)) }))] }],
    });
    const gross = (k: number): number => column('Income', k) - column('Less Cost of Sales', k);
    const label = (k: number): string => new Date(bounds[k]?.[0] ?? 0).toUTCString().slice(8, 16);
    const report = {
      ReportID: 'ProfitAndLoss',
      ReportName: 'Profit and Loss',
      ReportType: 'ProfitAndLoss',
      ReportTitles: ['Profit & Loss', str(this.organisation.Name), `${label(columns - 1)} to ${label(0)}`],
      ReportDate: today.toUTCString().slice(5, 16),
      UpdatedDateUTC: msDate(this.now()),
      Fields: [],
      Rows: [
        { RowType: 'Header', Cells: [{ Value: '' }, ...bounds.map((_b, k) => ({ Value: label(k) }))] },
        ...(income ?? []),
        ...(cost ?? []),
        line('Gross Profit', gross),
        ...(other ?? []),
        ...(expenses ?? []),
        line('Net Profit', (k) => gross(k) + column('Plus Other Income', k) - column('Less Operating Expenses', k)),
      ],
    };
    return this.envelope('Reports', [report]);
  }
}

/**
 * Writes to Xero: bills and invoices (Invoices of Type ACCPAY and ACCREC), their credit memos (CreditNotes of Type
 * ACCPAYCREDIT and ACCRECCREDIT), journal entries (ManualJournals)
 * customers and vendors (Contacts) and bill and invoice payments (Payments). Creates are PUTs, updates POSTs to the record, every
 * one with the write's Idempotency-Key: Xero answers a repeated key with the
 * first result, so finding what an interrupted create made is sending it again.
 */
import type { ObjectHandler, PlatformRecord, WriteContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { onlyOf, xeroCall, type XeroCall } from './client.ts';
import { has, link, list, wholeCents, type Input } from '../inbound.ts';
import { accountCode, checkBaseCurrency, dateOf, documentLines, invalid, refuse, textOf, type Body } from './inbound.ts';
import { creditRecords, invoiceRecords, journalRecords } from './objects.ts';
import { recordOf as platformRecord } from './read.ts';
import type { XeroContact, XeroLists, XeroManualJournal, XeroPayment } from './types.ts';

type Writer = Required<Pick<ObjectHandler, 'create' | 'update' | 'findCreated'>> & Pick<ObjectHandler, 'delete'>;

/** Sends one record to a Xero collection and reads it back from the answer. */
async function send<K extends keyof XeroLists>(ctx: WriteContext, call: Omit<XeroCall, 'body'>, key: K, record: Body): Promise<XeroLists[K]> {
  const response = await xeroCall(ctx, { ...call, body: { [key]: [record] }, idempotencyKey: ctx.idempotencyKey });
  return onlyOf(response, key);
}

async function fetchOne<K extends keyof XeroLists>(ctx: WriteContext, path: string, key: K): Promise<XeroLists[K]> {
  const response = await xeroCall(ctx, { method: 'GET', path, operation: `get ${key}` });
  return onlyOf(response, key);
}

const DOCUMENT_STATUSES: Readonly<Record<string, string>> = { draft: 'DRAFT', open: 'AUTHORISED', void: 'VOIDED' };

/**
 * A bill (ACCPAY) or an invoice (ACCREC), one Xero Invoice; or a bill or invoice credit memo (ACCPAYCREDIT,
 * ACCRECCREDIT), one Xero CreditNote: twins but for the party, the list, and what each cannot hold.
 */
interface DocumentKind {
  noun: 'bill' | 'invoice' | 'bill credit memo' | 'invoice credit memo';
  type: 'ACCPAY' | 'ACCREC' | 'ACCPAYCREDIT' | 'ACCRECCREDIT';
  /** The Xero list written to, and the field its document number is. */
  list: 'Invoices' | 'CreditNotes';
  number: 'InvoiceNumber' | 'CreditNoteNumber';
  party: { field: 'vendor_id' | 'customer_id'; type: 'vendor' | 'customer' };
  refused: readonly string[];
  /** Where memo goes: a Reference; a bill has none (its reference is its InvoiceNumber). */
  memo: string | null;
  /** A credit's allocations to documents: Xero's separate Allocations call, not written by this connector. */
  allocations?: 'linked_bills' | 'linked_invoices';
}

/** A bill or an invoice: what a payment pays. */
type InvoiceKind = DocumentKind & { noun: 'bill' | 'invoice' };

const BILL: InvoiceKind = {
  noun: 'bill',
  type: 'ACCPAY',
  list: 'Invoices',
  number: 'InvoiceNumber',
  party: { field: 'vendor_id', type: 'vendor' },
  refused: ['account_id', 'payment_terms_id', 'subsidiary_id', 'linked_purchase_orders'],
  memo: null,
};
const INVOICE: InvoiceKind = {
  noun: 'invoice',
  type: 'ACCREC',
  list: 'Invoices',
  number: 'InvoiceNumber',
  party: { field: 'customer_id', type: 'customer' },
  refused: ['account_id', 'payment_terms_id', 'subsidiary_id', 'additional_fields'],
  memo: 'Reference',
};
// A credit note posts to the organisation's payable or receivable account: Xero takes no account_id for it.
const BILL_CREDIT: DocumentKind = {
  noun: 'bill credit memo',
  type: 'ACCPAYCREDIT',
  list: 'CreditNotes',
  number: 'CreditNoteNumber',
  party: { field: 'vendor_id', type: 'vendor' },
  refused: ['account_id'],
  memo: 'Reference',
  allocations: 'linked_bills',
};
const INVOICE_CREDIT: DocumentKind = {
  ...BILL_CREDIT,
  noun: 'invoice credit memo',
  type: 'ACCRECCREDIT',
  party: INVOICE.party,
  allocations: 'linked_invoices',
};

async function documentBody(ctx: WriteContext, kind: DocumentKind, input: Input, creating: boolean): Promise<Body> {
  refuse(input, kind.refused, `Xero ${kind.noun}s have no such field`);
  if (kind.allocations !== undefined)
    refuse(input, [kind.allocations], `this Xero connector does not allocate credit notes yet (Xero's separate CreditNote Allocations call)`);
  if (kind.memo === null) refuse(input, ['memo'], `a Xero ${kind.noun} has no memo (its reference is document_number)`);
  // A new document is approved (open) unless asked for as a draft, as on the other platforms.
  const body: Body = creating ? { Type: kind.type, Status: 'AUTHORISED' } : {};
  const party = kind.party.field;
  if (has(input, party)) {
    const contactId = await link(ctx, kind.party.type, input[party], party);
    if (contactId === undefined) throw invalid(party, 'is required');
    body.Contact = { ContactID: contactId };
  }
  if (has(input, 'issue_date')) body.Date = dateOf(input.issue_date);
  if (has(input, 'due_date')) body.DueDate = dateOf(input.due_date) ?? '';
  if (has(input, 'document_number')) body[kind.number] = textOf(input.document_number);
  if (kind.memo !== null && has(input, 'memo')) body[kind.memo] = textOf(input.memo);
  if (has(input, 'currency_code') && typeof input.currency_code === 'string') body.CurrencyCode = input.currency_code;
  if (has(input, 'currency_rate') && input.currency_rate !== null) {
    const value = Number(input.currency_rate);
    if (!Number.isFinite(value) || value <= 0) throw invalid('currency_rate', 'must be a positive decimal');
    body.CurrencyRate = value;
  }
  if (has(input, 'status') && input.status !== null) {
    const status = typeof input.status === 'string' ? DOCUMENT_STATUSES[input.status] : undefined;
    if (status === undefined || (creating && status === 'VOIDED'))
      throw invalid('status', creating ? 'must be draft or open' : 'must be draft, open or void');
    body.Status = status;
  }
  if (has(input, 'line_items')) Object.assign(body, await documentLines(ctx, input));
  return body;
}

/** The platform record of a written record, read as a sync reads it (lines with their AccountIDs). */
async function recordOf<T>(
  ctx: WriteContext,
  written: T,
  read: (ctx: WriteContext, items: T[]) => Promise<PlatformRecord[]>,
): Promise<PlatformRecord> {
  const [record] = await read(ctx, [written]);
  if (record === undefined) throw new Error('Xero answered a write with no record');
  return record;
}

const documentPath = (kind: DocumentKind, id: string): string => `/${kind.list}/${encodeURIComponent(id)}`;
const invoicePath = (id: string): string => documentPath(INVOICE, id);

/** Sends a document to its list and reads the answer as a sync reads it. */
async function sendDocument(ctx: WriteContext, kind: DocumentKind, call: Omit<XeroCall, 'body'>, body: Body): Promise<PlatformRecord> {
  if (kind.list === 'Invoices') return recordOf(ctx, await send(ctx, call, 'Invoices', body), invoiceRecords);
  return recordOf(ctx, await send(ctx, call, 'CreditNotes', body), creditRecords);
}

async function statusOf(ctx: WriteContext, kind: DocumentKind, id: string): Promise<string | undefined> {
  const path = documentPath(kind, id);
  return kind.list === 'Invoices' ? (await fetchOne(ctx, path, 'Invoices')).Status : (await fetchOne(ctx, path, 'CreditNotes')).Status;
}

function documentWriter(kind: DocumentKind): Writer {
  const writer: Writer = {
    async create(ctx, input) {
      const body = await documentBody(ctx, kind, input, true);
      return sendDocument(ctx, kind, { method: 'PUT', path: `/${kind.list}`, operation: `create ${kind.noun}` }, body);
    },
    findCreated: (ctx, input) => writer.create(ctx, input),
    async update(ctx, platformId, patch) {
      const body = await documentBody(ctx, kind, patch, false);
      return sendDocument(ctx, kind, { method: 'POST', path: documentPath(kind, platformId), operation: `update ${kind.noun}` }, body);
    },
    /**
     * Xero deletes drafts and documents awaiting approval; an approved one is voided instead, with PATCH status void
     * (a voided document stays in Xero and is read as void, not deleted).
     */
    async delete(ctx, platformId) {
      const status = await statusOf(ctx, kind, platformId);
      if (status === 'DELETED') return;
      if (status !== 'DRAFT' && status !== 'SUBMITTED') {
        throw new PlatformError({
          kind: 'bad_request',
          requestSent: false,
          message: `Xero deletes only draft ${kind.noun}s and ${kind.noun}s awaiting approval; this one is ${status ?? 'unknown'}. Void an approved ${kind.noun} with PATCH status void.`,
        });
      }
      await sendDocument(
        ctx,
        kind,
        { method: 'POST', path: documentPath(kind, platformId), operation: `delete ${kind.noun}` },
        { Status: 'DELETED' },
      );
    },
  };
  return writer;
}

export const billWriter = documentWriter(BILL);
export const invoiceWriter = documentWriter(INVOICE);
export const billCreditWriter = documentWriter(BILL_CREDIT);
export const invoiceCreditWriter = documentWriter(INVOICE_CREDIT);

async function journalBody(ctx: WriteContext, input: Input): Promise<Body> {
  refuse(input, ['subsidiary_id', 'currency_rate'], 'Xero manual journals have no such field');
  await checkBaseCurrency(ctx, input);
  const body: Body = {};
  if (has(input, 'memo')) {
    if (typeof input.memo !== 'string' || input.memo.trim() === '') throw invalid('memo', "is required: it is the Xero manual journal's narration");
    body.Narration = input.memo;
  }
  if (has(input, 'transaction_date')) body.Date = dateOf(input.transaction_date);
  if (has(input, 'line_items')) {
    const lines = list(input, 'line_items');
    const taxed = lines.some((l) => typeof l.tax_rate_id === 'string' && l.tax_rate_id !== '');
    const journalLines: Body[] = [];
    for (const [n, line] of lines.entries()) {
      const at = `line_items[${n}]`;
      const out: Body = { AccountCode: await accountCode(ctx, line.account_id, `${at}.account_id`), LineAmount: line.total_amount };
      if (has(line, 'description')) out.Description = textOf(line.description);
      const taxType = await link(ctx, 'tax_rate', line.tax_rate_id, `${at}.tax_rate_id`);
      if (taxType !== undefined) out.TaxType = taxType;
      journalLines.push(out);
    }
    body.JournalLines = journalLines;
    // Tax-inclusive keeps the signed amounts as sent, so the lines still sum to zero.
    body.LineAmountTypes = taxed ? 'Inclusive' : 'NoTax';
  }
  return body;
}

const journalRecord = (ctx: WriteContext, journal: XeroManualJournal): Promise<PlatformRecord> => recordOf(ctx, journal, journalRecords);
const journalPath = (id: string): string => `/ManualJournals/${encodeURIComponent(id)}`;

export const journalWriter: Writer = {
  async create(ctx, input) {
    if (!has(input, 'memo')) throw invalid('memo', "is required: it is the Xero manual journal's narration");
    const body = { ...(await journalBody(ctx, input)), Status: 'POSTED' };
    return journalRecord(ctx, await send(ctx, { method: 'PUT', path: '/ManualJournals', operation: 'create journal' }, 'ManualJournals', body));
  },
  findCreated: (ctx, input) => journalWriter.create(ctx, input),
  async update(ctx, platformId, patch) {
    const body = await journalBody(ctx, patch);
    // Xero's contract requires the narration on every journal sent.
    body.Narration ??= (await fetchOne(ctx, journalPath(platformId), 'ManualJournals')).Narration ?? '';
    return journalRecord(
      ctx,
      await send(ctx, { method: 'POST', path: journalPath(platformId), operation: 'update journal' }, 'ManualJournals', body),
    );
  },
  /** A draft is deleted, a posted journal voided: both leave the ledger, and both read back as gone. */
  async delete(ctx, platformId) {
    const journal = await fetchOne(ctx, journalPath(platformId), 'ManualJournals');
    if (journal.Status === 'DELETED' || journal.Status === 'VOIDED') return;
    const status = journal.Status === 'DRAFT' ? 'DELETED' : 'VOIDED';
    await send(ctx, { method: 'POST', path: journalPath(platformId), operation: 'delete journal' }, 'ManualJournals', {
      Narration: journal.Narration ?? '',
      Status: status,
    });
  },
};

const ADDRESS_TYPES: Readonly<Record<string, string>> = {
  billing: 'POBOX',
  pobox: 'POBOX',
  postal: 'POBOX',
  shipping: 'STREET',
  street: 'STREET',
  delivery: 'STREET',
};

/** A customer's or vendor's body as a Xero Contact: `nameField` (customer_name or vendor_name) is its Name. */
function contactBody(input: Input, nameField: 'customer_name' | 'vendor_name'): Body {
  refuse(input, ['parent_id', 'payment_terms_id', 'subsidiary_id', 'subsidiaries', 'registration_number'], 'Xero contacts have no such field');
  refuse(input, ['website'], "a Xero contact's Website is read-only in Xero's API");
  const body: Body = {};
  if (has(input, nameField)) {
    const name = input[nameField];
    if (typeof name !== 'string' || name.trim() === '') throw invalid(nameField, "is required: it is the Xero contact's name");
    body.Name = name;
  }
  if (has(input, 'contact_name')) {
    const [first = '', ...rest] = textOf(input.contact_name).trim().split(/\s+/);
    body.FirstName = first;
    body.LastName = rest.join(' ');
  }
  if (has(input, 'email')) body.EmailAddress = textOf(input.email);
  if (has(input, 'phone')) body.Phones = [{ PhoneType: 'DEFAULT', PhoneNumber: textOf(input.phone) }];
  if (has(input, 'tax_number')) body.TaxNumber = textOf(input.tax_number);
  if (has(input, 'currency_code') && typeof input.currency_code === 'string') body.DefaultCurrency = input.currency_code;
  if (has(input, 'status') && input.status !== null) body.ContactStatus = input.status === 'archived' ? 'ARCHIVED' : 'ACTIVE';
  if (has(input, 'addresses')) {
    body.Addresses = list(input, 'addresses').map((a, n) => {
      const type = ADDRESS_TYPES[typeof a.type === 'string' ? a.type.toLowerCase() : 'billing'];
      if (type === undefined)
        throw invalid(`addresses[${n}].type`, `must be one of ${Object.keys(ADDRESS_TYPES).join(', ')} (Xero keeps a postal and a street address)`);
      return {
        AddressType: type,
        AddressLine1: textOf(a.address1),
        AddressLine2: textOf(a.address2),
        AddressLine3: textOf(a.address3),
        City: textOf(a.city),
        Region: textOf(a.region),
        PostalCode: textOf(a.postal_code),
        Country: textOf(a.country),
      };
    });
  }
  return body;
}

const contactRecord = (contact: XeroContact): PlatformRecord => platformRecord(contact.ContactID, contact, undefined);

/**
 * Customers and vendors are both Xero Contacts. A vendor is created with IsSupplier true: Xero's API ignores the flag
 * (it sets it at the contact's first bill, and the connector lists a contact without flags as both), while the XERO
 * simulator reads it to book the contact as a SANDBOX vendor rather than a customer.
 */
function contactWriter(role: 'customer' | 'vendor'): Writer {
  const nameField = role === 'customer' ? 'customer_name' : 'vendor_name';
  const errors = { duplicateProperty: nameField };
  const writer: Writer = {
    async create(ctx, input) {
      const body = { ...contactBody(input, nameField), ...(role === 'vendor' ? { IsSupplier: true } : {}) };
      return contactRecord(await send(ctx, { method: 'PUT', path: '/Contacts', operation: `create ${role}`, errors }, 'Contacts', body));
    },
    findCreated: (ctx, input) => writer.create(ctx, input),
    async update(ctx, platformId, patch) {
      const path = `/Contacts/${encodeURIComponent(platformId)}`;
      return contactRecord(await send(ctx, { method: 'POST', path, operation: `update ${role}`, errors }, 'Contacts', contactBody(patch, nameField)));
    },
  };
  return writer;
}

export const customerWriter = contactWriter('customer');
export const vendorWriter = contactWriter('vendor');

/** A bill payment (ACCPAYPAYMENT) or an invoice payment (ACCRECPAYMENT): one Xero Payment of one document. */
interface PaymentKind {
  noun: 'bill payment' | 'invoice payment';
  document: InvoiceKind;
  links: 'linked_bills' | 'linked_invoices';
  refused: readonly string[];
}

// A Xero payment has no currency of its own (its document's), no memo, number or status to write (it is AUTHORISED
// until deleted), and no other fields of the unified bodies.
const PAYMENT_REFUSED = ['currency_code', 'memo', 'status'] as const;
const BILL_PAYMENT: PaymentKind = {
  noun: 'bill payment',
  document: BILL,
  links: 'linked_bills',
  refused: [...PAYMENT_REFUSED, 'document_number', 'additional_fields'],
};
const INVOICE_PAYMENT: PaymentKind = { noun: 'invoice payment', document: INVOICE, links: 'linked_invoices', refused: PAYMENT_REFUSED };

async function paymentBody(ctx: WriteContext, kind: PaymentKind, input: Input): Promise<Body> {
  refuse(input, kind.refused, 'a Xero payment has no such field');
  const noun = kind.document.noun;
  const [allocation, ...more] = list(input, kind.links);
  if (allocation === undefined || more.length > 0)
    throw invalid(kind.links, `a Xero payment pays one ${noun}: send one entry (one payment per ${noun})`);
  const at = `${kind.links}[0]`;
  const documentId = await link(ctx, noun, allocation.id, `${at}.id`);
  if (documentId === undefined) throw invalid(`${at}.id`, 'is required');
  // Xero takes the payment's contact from the document: a party other than the document's is refused, not dropped.
  const document = await fetchOne(ctx, invoicePath(documentId), 'Invoices');
  const party = kind.document.party;
  const partyId = await link(ctx, party.type, input[party.field], party.field);
  if (partyId !== undefined && partyId !== document.Contact?.ContactID) throw invalid(party.field, `is not the contact of the ${noun} paid`);
  const accountId = await link(ctx, 'account', input.account_id, 'account_id');
  if (accountId === undefined) throw invalid('account_id', 'is required');
  const amount = typeof allocation.allocated_amount === 'number' ? allocation.allocated_amount : Number.NaN;
  if (!(amount > 0)) throw invalid(`${at}.allocated_amount`, 'must be a positive amount');
  const body: Body = {
    Invoice: { InvoiceID: documentId },
    Account: { AccountID: accountId },
    Date: dateOf(input.transaction_date),
    Amount: wholeCents(amount, `${at}.allocated_amount`),
  };
  if (has(input, 'reference') && input.reference !== null) body.Reference = textOf(input.reference);
  if (has(input, 'currency_rate') && input.currency_rate !== null) {
    const rate = Number(input.currency_rate);
    if (!Number.isFinite(rate) || rate <= 0) throw invalid('currency_rate', 'must be a positive decimal');
    body.CurrencyRate = rate;
  }
  return body;
}

const paymentRecord = (payment: XeroPayment): PlatformRecord => platformRecord(payment.PaymentID, payment, payment.Status);
const paymentPath = (id: string): string => `/Payments/${encodeURIComponent(id)}`;

/**
 * Payments are created and deleted: Xero changes nothing else of a payment (deleting is its POST of Status DELETED,
 * which also serves a void), so PATCH answers 404.
 */
function paymentWriter(kind: PaymentKind): Required<Pick<ObjectHandler, 'create' | 'findCreated' | 'delete'>> {
  const writer = {
    async create(ctx: WriteContext, input: Input): Promise<PlatformRecord> {
      const body = await paymentBody(ctx, kind, input);
      return paymentRecord(await send(ctx, { method: 'PUT', path: '/Payments', operation: `create ${kind.noun}` }, 'Payments', body));
    },
    findCreated: (ctx: WriteContext, input: Input) => writer.create(ctx, input),
    async delete(ctx: WriteContext, platformId: string): Promise<void> {
      const payment = await fetchOne(ctx, paymentPath(platformId), 'Payments');
      if (payment.Status === 'DELETED') return;
      // The contract's deletePayment takes a bare PaymentDelete, not a Payments list.
      const body = { Status: 'DELETED' };
      await xeroCall(ctx, {
        method: 'POST',
        path: paymentPath(platformId),
        operation: `delete ${kind.noun}`,
        body,
        idempotencyKey: ctx.idempotencyKey,
      });
    },
  };
  return writer;
}

export const billPaymentWriter = paymentWriter(BILL_PAYMENT);
export const invoicePaymentWriter = paymentWriter(INVOICE_PAYMENT);

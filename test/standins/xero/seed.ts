/**
 * The stand-in's books, seeded from Xero's own contract: every example answer
 * of test/contracts/xero/xero_accounting.json is parsed and its records kept
 * (the richest copy of each id), records they point at but never list
 * (contacts, accounts, tracking options) are added from those pointers, and
 * records cloned from the examples with new ids (seeded, so every run is the
 * same) fill the books beyond a page: more than 100 bills, their payments,
 * credit notes and journals.
 */
import { createHash } from 'node:crypto';
import { msDate } from '../../../src/platforms/xero/dates.ts';
import { isObject, str, type Json } from '../kit/collections.ts';
import { exampleAnswers, recordsFromExamples, type ExampleAnswer } from '../kit/examples.ts';
import { seededRandom, withFreshUuids } from '../kit/random.ts';
import { accountingDocument } from './contract.ts';
import { COLLECTIONS as LISTS, type ListName } from '../../../packages/sandbox/src/simulators/xero/collections.ts';

export type { Json } from '../kit/collections.ts';
/** The seeded generator (benchmarks grow the books with it). */
export { seededRandom as generator } from '../kit/random.ts';

/** Xero's lists and the id field of each, as the simulator serves them. */
export const COLLECTIONS = Object.keys(LISTS) as ListName[];
export type Collection = ListName;
export const ID_FIELD = Object.fromEntries(COLLECTIONS.map((c) => [c, LISTS[c].idField])) as Readonly<Record<Collection, string>>;

export interface Seed {
  organisation: Json;
  collections: Record<Collection, Json[]>;
  /** Attachments by the id of the record they hang on. */
  attachments: Record<string, Json[]>;
  /** The example BalanceSheet report. */
  report: Json;
}

/** The id Xero uses for "no record" (Current Year Earnings in reports, contact examples). */
export const ZERO_ID = '00000000-0000-0000-0000-000000000000';
export const clone = <T>(value: T): T => structuredClone(value);
export const round2 = (value: number): number => Math.round(value * 100) / 100;

const ASSET = new Set(['BANK', 'CURRENT', 'FIXED', 'INVENTORY', 'NONCURRENT', 'PREPAYMENT']);
const LIABILITY = new Set(['CURRLIAB', 'LIABILITY', 'TERMLIAB', 'PAYGLIABILITY', 'SUPERANNUATIONLIABILITY', 'PAYG']);
const REVENUE = new Set(['REVENUE', 'SALES', 'OTHERINCOME']);

function classOf(type: string): string {
  return ASSET.has(type) ? 'ASSET' : LIABILITY.has(type) ? 'LIABILITY' : type === 'EQUITY' ? 'EQUITY' : REVENUE.has(type) ? 'REVENUE' : 'EXPENSE';
}

/** Account types of accounts only named in reports, by their report section. */
const SECTION_TYPES: Readonly<Record<string, string>> = {
  Bank: 'BANK',
  'Current Assets': 'CURRENT',
  'Fixed Assets': 'FIXED',
  'Current Liabilities': 'CURRLIAB',
  Equity: 'EQUITY',
};
const SYSTEM_ACCOUNTS: Readonly<Record<string, string>> = {
  'Accounts Receivable': 'DEBTORS',
  'Accounts Payable': 'CREDITORS',
  GST: 'GST',
  'Retained Earnings': 'RETAINEDEARNINGS',
};

class Ledger {
  readonly collections: Record<Collection, Json[]>;
  private nextCode = 800;
  private clock: number;

  constructor(answers: readonly ExampleAnswer[], base: number) {
    this.clock = base;
    const records = (c: Collection): Json[] =>
      recordsFromExamples(answers, {
        under: `/${c}`,
        key: c,
        idField: ID_FIELD[c],
        skipIds: [ZERO_ID],
        drop: ['ValidationErrors', 'Warnings', 'StatusAttributeString'],
        details: ['LineItems', 'JournalLines', 'Options'],
      });
    this.collections = Object.fromEntries(COLLECTIONS.map((c) => [c, records(c)])) as Record<Collection, Json[]>;
  }

  /** A distinct, increasing UpdatedDateUTC for generated records. */
  tick(): string {
    this.clock += 1000;
    return msDate(this.clock);
  }

  find(collection: Collection, id: string): Json | undefined {
    return this.collections[collection].find((r) => r[ID_FIELD[collection]] === id);
  }

  account(ref: { AccountID?: unknown; Code?: unknown; Name?: unknown }, type: string, extra: Json = {}): Json | undefined {
    const id = typeof ref.AccountID === 'string' ? ref.AccountID : undefined;
    const code = typeof ref.Code === 'string' && ref.Code !== '' ? ref.Code : undefined;
    const existing =
      (id === undefined ? undefined : this.find('Accounts', id)) ??
      this.collections.Accounts.find((a) => code !== undefined && a.Code === code && a.Status !== 'DELETED');
    if (existing !== undefined) return existing;
    if (id === ZERO_ID) return undefined;
    const account: Json = {
      AccountID: id ?? `a0000000-0000-4000-8000-${str(this.nextCode).padStart(12, '0')}`,
      Code: code ?? String(this.nextCode++),
      Name: typeof ref.Name === 'string' ? ref.Name : `Account ${code ?? this.nextCode}`,
      Type: type,
      Status: 'ACTIVE',
      TaxType: 'NONE',
      ...extra,
    };
    this.collections.Accounts.push(account);
    return account;
  }

  /** Completes the chart: every account a record or the report points at exists, once per code, with Status, Class and UpdatedDateUTC. */
  completeAccounts(report: Json): void {
    const used = new Set<string>();
    for (const account of this.collections.Accounts) {
      const code = typeof account.Code === 'string' ? account.Code : '';
      // The examples reuse 123456 for three accounts: later live ones get codes of their own.
      if (account.Status !== 'DELETED' && code !== '' && used.has(code)) account.Code = String(this.nextCode++);
      if (account.Status !== 'DELETED' && typeof account.Code === 'string') used.add(account.Code);
    }
    for (const payment of this.collections.Payments) {
      if (isObject(payment.Account))
        this.account(payment.Account, str(payment.Account.Name).includes('Funds') ? 'EQUITY' : 'BANK', { EnablePaymentsToAccount: true });
    }
    for (const transfer of this.collections.BankTransfers) {
      for (const key of ['FromBankAccount', 'ToBankAccount']) {
        const ref = transfer[key];
        if (isObject(ref)) this.account(ref, 'BANK', { BankAccountType: 'BANK', CurrencyCode: 'NZD' });
      }
    }
    const journalNames: Readonly<Record<string, string>> = { 400: 'Advertising', 429: 'General Expenses' };
    for (const journal of this.collections.ManualJournals) {
      for (const line of (journal.JournalLines ?? []) as Json[]) {
        const account = this.account({ Code: line.AccountCode, AccountID: line.AccountID, Name: journalNames[str(line.AccountCode)] }, 'OVERHEADS');
        // The examples pair code 200 with another account's id: the code wins, as in Xero.
        if (account !== undefined) line.AccountID = account.AccountID;
      }
    }
    for (const section of ((report.Rows ?? []) as Json[]).filter((r) => typeof r.Title === 'string')) {
      for (const row of (section.Rows ?? []) as Json[]) {
        const [label] = (row.Cells ?? []) as Json[];
        const id = ((label?.Attributes ?? []) as Json[]).find((a) => a.Id === 'account')?.Value;
        if (typeof id !== 'string' || label === undefined) continue;
        const system = SYSTEM_ACCOUNTS[str(label.Value)];
        this.account(
          { AccountID: id, Name: label.Value },
          SECTION_TYPES[str(section.Title)] ?? 'CURRENT',
          system === undefined ? {} : { SystemAccount: system },
        );
      }
    }
    for (const account of this.collections.Accounts) {
      account.Status ??= 'ACTIVE';
      account.Class ??= classOf(str(account.Type));
      account.UpdatedDateUTC ??= this.tick();
    }
  }

  /** Contacts the documents name but no example lists, flagged supplier or customer by the documents. */
  completeContacts(): void {
    const contacts = this.collections.Contacts;
    const flag = (ref: unknown, supplier: boolean): void => {
      if (!isObject(ref) || typeof ref.ContactID !== 'string' || ref.ContactID === ZERO_ID) return;
      let contact = contacts.find((c) => c.ContactID === ref.ContactID);
      if (contact === undefined) {
        contact = { ...contactSummary(ref), ContactStatus: 'ACTIVE' };
        contacts.push(contact);
      }
      contact[supplier ? 'IsSupplier' : 'IsCustomer'] = true;
    };
    for (const invoice of this.collections.Invoices) flag(invoice.Contact, invoice.Type === 'ACCPAY');
    for (const credit of this.collections.CreditNotes) flag(credit.Contact, credit.Type === 'ACCPAYCREDIT');
    for (const contact of contacts) {
      contact.IsSupplier ??= false;
      contact.IsCustomer ??= false;
      contact.UpdatedDateUTC ??= this.tick();
    }
  }

  /** Tracking categories and options that lines point at. */
  completeTracking(): void {
    const lines = [
      ...this.collections.ManualJournals.flatMap((j) => (j.JournalLines ?? []) as Json[]),
      ...this.collections.Invoices.flatMap((i) => (i.LineItems ?? []) as Json[]),
    ];
    for (const tracking of lines.flatMap((l) => (l.Tracking ?? []) as Json[])) {
      const categoryId = str(tracking.TrackingCategoryID);
      let category = this.find('TrackingCategories', categoryId);
      if (category === undefined) {
        category = { Name: tracking.Name, Status: 'ACTIVE', TrackingCategoryID: categoryId, Options: [] };
        this.collections.TrackingCategories.push(category);
      }
      const options = category.Options as Json[];
      if (!options.some((o) => o.TrackingOptionID === tracking.TrackingOptionID)) {
        options.push({ TrackingOptionID: tracking.TrackingOptionID, Name: tracking.Option, Status: 'ACTIVE', TrackingCategoryID: categoryId });
      }
    }
  }
}

/** Rate in percent of a tax type, from the organisation's tax rates. */
export function taxRateOf(taxRates: readonly Json[], taxType: unknown): number {
  const rate = taxRates.find((r) => r.TaxType === taxType)?.EffectiveRate;
  return typeof rate === 'number' ? rate : 0;
}

/** Xero's arithmetic of a document: line amounts, tax by LineAmountTypes, totals and what is still due. */
export function computeDocument(document: Json, taxRates: readonly Json[]): void {
  const mode = document.LineAmountTypes ?? 'Exclusive';
  let subTotal = 0;
  let tax = 0;
  for (const line of (document.LineItems ?? []) as Json[]) {
    const quantity = typeof line.Quantity === 'number' ? line.Quantity : 1;
    const unit = typeof line.UnitAmount === 'number' ? line.UnitAmount : 0;
    const discount = typeof line.DiscountRate === 'number' ? line.DiscountRate : 0;
    const amount = round2(quantity * unit * (1 - discount / 100) - (typeof line.DiscountAmount === 'number' ? line.DiscountAmount : 0));
    const rate = mode === 'NoTax' ? 0 : taxRateOf(taxRates, line.TaxType);
    const lineTax = mode === 'Inclusive' ? round2(amount - amount / (1 + rate / 100)) : round2((amount * rate) / 100);
    line.Quantity = quantity;
    line.UnitAmount = unit;
    line.LineAmount = amount;
    line.TaxAmount = lineTax;
    subTotal += mode === 'Inclusive' ? amount - lineTax : amount;
    tax += lineTax;
  }
  const total = round2(subTotal + tax);
  document.SubTotal = round2(subTotal);
  document.TotalTax = round2(tax);
  document.Total = total;
  if ('CreditNoteID' in document) {
    const applied = ((document.Allocations ?? []) as Json[]).reduce((sum, a) => sum + (typeof a.Amount === 'number' ? a.Amount : 0), 0);
    document.RemainingCredit = round2(total - applied);
  } else {
    const paid = ((document.Payments ?? []) as Json[]).reduce((sum, p) => sum + (typeof p.Amount === 'number' ? p.Amount : 0), 0);
    const credited = ((document.CreditNotes ?? []) as Json[]).reduce(
      (sum, c) => sum + (typeof c.AppliedAmount === 'number' ? c.AppliedAmount : 0),
      0,
    );
    document.AmountPaid = round2(paid);
    document.AmountCredited = round2(credited);
    document.AmountDue = round2(total - paid - credited);
  }
}

const SUPPLIERS = ['PowerDirect', 'Swanston Security', 'Capital Cab Co', 'Gable Print', 'Hamilton Smith Ltd', 'Net Connect'];
const CUSTOMERS = ['Bayside Club', 'City Agency', 'Marine Systems', 'Ridgeway University'];
const DAY = 86_400_000;
/** Generated bills (ACCPAY) beyond the examples: more than one page. */
const BILLS = 130;

/** A new invoice or bill, before its fields. */
export function newInvoice(): Json {
  return {
    Payments: [],
    CreditNotes: [],
    Prepayments: [],
    Overpayments: [],
    CurrencyRate: 1,
    HasErrors: false,
    IsDiscounted: false,
    HasAttachments: false,
    Status: 'DRAFT',
    LineAmountTypes: 'Exclusive',
    LineItems: [],
  };
}

/** A contact as documents and payments name it. */
export function contactSummary(contact: Json): Json {
  return {
    ContactID: contact.ContactID,
    Name: contact.Name,
    Addresses: [],
    Phones: [],
    ContactGroups: [],
    ContactPersons: [],
    HasValidationErrors: false,
  };
}

/** Records cloned from the examples with new ids: enough bills for several pages, with payments, credits, journals. */
function generate(ledger: Ledger, attachments: Record<string, Json[]>): void {
  const rng = seededRandom(20_190_311);
  const c = ledger.collections;
  const template = c.Contacts.find((x) => x.Name === 'Katherine Warren') ?? c.Contacts[0] ?? {};
  const newContact = (name: string, supplier: boolean, n: number): Json => {
    const contact = clone(template);
    Object.assign(contact, {
      ContactID: rng.uuid(),
      Name: name,
      FirstName: name.split(' ')[0],
      LastName: 'Accounts',
      EmailAddress: `accounts${n}@${name.toLowerCase().replace(/\W+/g, '')}.example`,
      IsSupplier: supplier,
      IsCustomer: !supplier,
      UpdatedDateUTC: ledger.tick(),
    });
    delete contact.Balances;
    c.Contacts.push(contact);
    return contact;
  };
  const suppliers = [...SUPPLIERS.map((name, n) => newContact(name, true, n)), template];
  const customers = CUSTOMERS.map((name, n) => newContact(name, false, n));
  const live = (x: Json): boolean => x.Status !== 'DELETED' && x.Status !== 'ARCHIVED' && typeof x.Code === 'string';
  const expenseCodes = c.Accounts.filter((a) => live(a) && ['EXPENSE', 'OVERHEADS', 'DIRECTCOSTS'].includes(str(a.Type))).map((a) => str(a.Code));
  const revenueCodes = c.Accounts.filter((a) => live(a) && ['REVENUE', 'SALES'].includes(str(a.Type))).map((a) => str(a.Code));
  const bank = c.Accounts.find((a) => a.Type === 'BANK' && a.CurrencyCode === 'NZD') ?? {};
  const tracking = c.TrackingCategories.find((t) => Array.isArray(t.Options) && t.Options.length > 0);
  const start = Date.UTC(2024, 0, 1);

  const document = (type: 'ACCPAY' | 'ACCREC', n: number): Json => {
    const contact = type === 'ACCPAY' ? (suppliers[n % suppliers.length] ?? template) : (customers[n % customers.length] ?? template);
    const date = start + rng.int(540) * DAY;
    const lines = Array.from({ length: 1 + rng.int(3) }, (_v, i): Json => {
      const line: Json = {
        LineItemID: rng.uuid(),
        Description: `${type === 'ACCPAY' ? 'Purchase' : 'Service'} ${n + 1}.${i + 1}`,
        Quantity: 1 + rng.int(4),
        UnitAmount: round2(10 + rng.int(50_000) / 100),
        AccountCode: rng.pick(type === 'ACCPAY' ? expenseCodes : revenueCodes),
        TaxType: rng.next() < 0.5 ? (type === 'ACCPAY' ? 'INPUT2' : 'OUTPUT2') : 'NONE',
        Tracking: [],
      };
      const option = (tracking?.Options as Json[] | undefined)?.[0];
      if (tracking !== undefined && option !== undefined && i === 0 && n % 3 === 0) {
        line.Tracking = [
          { TrackingCategoryID: tracking.TrackingCategoryID, TrackingOptionID: option.TrackingOptionID, Name: tracking.Name, Option: option.Name },
        ];
      }
      return line;
    });
    const record: Json = {
      Type: type,
      InvoiceID: rng.uuid(),
      InvoiceNumber: type === 'ACCPAY' ? `SUP-${1000 + n}` : `INV-${2000 + n}`,
      Reference: type === 'ACCREC' ? `Order ${n + 1}` : '',
      ...newInvoice(),
      Contact: contactSummary(contact),
      DateString: new Date(date).toISOString().slice(0, 19),
      Date: msDate(date),
      DueDateString: new Date(date + 30 * DAY).toISOString().slice(0, 19),
      DueDate: msDate(date + 30 * DAY),
      Status: 'AUTHORISED',
      LineItems: lines,
      CurrencyCode: 'NZD',
      UpdatedDateUTC: ledger.tick(),
    };
    computeDocument(record, c.TaxRates);
    return record;
  };

  const pay = (invoice: Json, share: number): void => {
    const total = Number(invoice.Total);
    const amount = round2(share >= 1 ? total : Math.max(0.01, round2(total * share)));
    const date = msDate(Number(/\d+/.exec(str(invoice.Date))?.[0] ?? start) + 10 * DAY);
    const paymentId = rng.uuid();
    const invoiceType = str(invoice.Type);
    c.Payments.push({
      PaymentID: paymentId,
      Date: date,
      BankAmount: amount,
      Amount: amount,
      Reference: `Paid ${str(invoice.InvoiceNumber)}`,
      CurrencyRate: 1,
      PaymentType: invoiceType === 'ACCPAY' ? 'ACCPAYPAYMENT' : 'ACCRECPAYMENT',
      Status: 'AUTHORISED',
      UpdatedDateUTC: ledger.tick(),
      HasAccount: true,
      IsReconciled: false,
      Account: { AccountID: bank.AccountID, Code: bank.Code, Name: bank.Name },
      Invoice: {
        Type: invoiceType,
        InvoiceID: invoice.InvoiceID,
        InvoiceNumber: invoice.InvoiceNumber,
        CurrencyCode: invoice.CurrencyCode,
        Contact: invoice.Contact,
      },
      HasValidationErrors: false,
    });
    (invoice.Payments as Json[]).push({
      PaymentID: paymentId,
      Date: date,
      Amount: amount,
      CurrencyRate: 1,
      HasAccount: false,
      HasValidationErrors: false,
    });
    computeDocument(invoice, c.TaxRates);
    if (Number(invoice.AmountDue) === 0) invoice.Status = 'PAID';
  };

  const bills = Array.from({ length: BILLS }, (_v, n) => document('ACCPAY', n));
  const invoices = Array.from({ length: 20 }, (_v, n) => document('ACCREC', n));
  c.Invoices.push(...bills, ...invoices);
  bills.forEach((bill, n) => {
    if (n % 10 === 1) pay(bill, 1);
    else if (n % 10 === 2) pay(bill, 0.4);
    else if (n % 10 === 3) bill.Status = 'DRAFT';
    else if (n % 25 === 4) bill.Status = 'VOIDED';
  });
  if (bills[5] !== undefined) bills[5].Status = 'DELETED';
  invoices.forEach((invoice, n) => {
    if (n % 4 === 1) pay(invoice, 1);
  });

  // Bill credits, each applied in part to an open bill.
  const credited = bills.filter((b) => b.Status === 'AUTHORISED' && (b.Payments as Json[]).length === 0).slice(0, 3);
  for (const [n, bill] of credited.entries()) {
    const amount = round2(Number(bill.Total) / 4);
    const creditId = rng.uuid();
    const credit: Json = {
      CreditNoteID: creditId,
      ID: creditId,
      CreditNoteNumber: `SCN-${300 + n}`,
      Type: 'ACCPAYCREDIT',
      Reference: `Return ${n + 1}`,
      Status: 'AUTHORISED',
      Contact: bill.Contact,
      Date: bill.Date,
      DateString: bill.DateString,
      LineAmountTypes: 'NoTax',
      CurrencyCode: 'NZD',
      CurrencyRate: 1,
      Payments: [],
      HasAttachments: false,
      LineItems: [
        {
          LineItemID: rng.uuid(),
          Description: 'Returned goods',
          Quantity: 1,
          UnitAmount: round2(amount * 2),
          AccountCode: expenseCodes[0],
          TaxType: 'NONE',
          Tracking: [],
        },
      ],
      Allocations: [{ Amount: amount, Date: bill.Date, Invoice: { InvoiceID: bill.InvoiceID, InvoiceNumber: bill.InvoiceNumber } }],
      UpdatedDateUTC: ledger.tick(),
    };
    computeDocument(credit, c.TaxRates);
    c.CreditNotes.push(credit);
    (bill.CreditNotes as Json[]).push({
      CreditNoteID: creditId,
      CreditNoteNumber: credit.CreditNoteNumber,
      Date: bill.Date,
      AppliedAmount: amount,
      Total: credit.Total,
    });
    computeDocument(bill, c.TaxRates);
  }

  // Journals moving money between two accounts, cloned from the posted example.
  const journalTemplate = c.ManualJournals.find((j) => Array.isArray(j.JournalLines) && j.JournalLines.length > 0) ?? {};
  const line = (LineAmount: number, AccountCode: string): Json => ({
    LineAmount,
    AccountCode,
    AccountID: c.Accounts.find((a) => a.Code === AccountCode)?.AccountID,
    Description: 'Accrued cost',
    TaxType: 'NONE',
    TaxAmount: 0,
    Tracking: [],
    IsBlank: false,
  });
  for (let n = 0; n < 4; n++) {
    const amount = round2(50 + rng.int(100_000) / 100);
    const date = start + rng.int(540) * DAY;
    const debit = rng.pick(expenseCodes);
    const credit = rng.pick(revenueCodes);
    c.ManualJournals.push({
      ...clone(journalTemplate),
      ManualJournalID: rng.uuid(),
      Date: msDate(date),
      Status: 'POSTED',
      LineAmountTypes: 'NoTax',
      Narration: `Accrual ${n + 1}`,
      JournalLines: [line(amount, debit), line(-amount, credit)],
      HasAttachments: false,
      UpdatedDateUTC: ledger.tick(),
    });
  }

  // One bill with a receipt attached, cloned from the invoice attachment example.
  const withReceipt = bills.find((b) => b.Status === 'AUTHORISED');
  const example = Object.values(attachments).flat()[0];
  if (withReceipt !== undefined && example !== undefined) {
    const id = str(withReceipt.InvoiceID);
    attachments[id] = [
      {
        ...clone(example),
        AttachmentID: rng.uuid(),
        FileName: 'receipt.pdf',
        MimeType: 'application/pdf',
        Url: `https://api.xero.com/api.xro/2.0/Invoices/${id}/Attachments/receipt.pdf`,
      },
    ];
    withReceipt.HasAttachments = true;
  }
}

/** A UUID-shaped id derived from `text`: the same seed gives the same books. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Parents of the example attachments, from their Urls (/Invoices/{id}/Attachments/…). */
function exampleAttachments(all: Map<string, Json>): Record<string, Json[]> {
  const byParent: Record<string, Json[]> = {};
  const seen = new Set<string>();
  for (const key of [
    'GET /Invoices/{InvoiceID}/Attachments',
    'GET /ManualJournals/{ManualJournalID}/Attachments',
    'GET /BankTransfers/{BankTransferID}/Attachments',
  ]) {
    for (const attachment of (all.get(key)?.Attachments ?? []) as Json[]) {
      const parent = /\/(?:Invoices|ManualJournals|BankTransfers)\/([^/]+)\/Attachments\//.exec(str(attachment.Url))?.[1];
      if (parent === undefined) continue;
      const copy = clone(attachment);
      // Xero's examples reuse one AttachmentID under several parents; Xero's ids are unique, so a repeat gets its own.
      if (seen.has(str(copy.AttachmentID))) copy.AttachmentID = uuidOf(`${parent}/${str(copy.AttachmentID)}`);
      seen.add(str(copy.AttachmentID));
      (byParent[parent] ??= []).push(copy);
    }
  }
  return byParent;
}

export function seedBooks(tenantId: string, name: string): Seed {
  const answers = exampleAnswers(accountingDocument());
  const all = new Map(answers.map(({ method, path, body }) => [`${method} ${path}`, body]));
  const ledger = new Ledger(answers, Date.UTC(2024, 0, 1));
  const report = clone((all.get('GET /Reports/BalanceSheet')?.Reports as Json[] | undefined)?.[0] ?? {});
  ledger.completeAccounts(report);
  ledger.completeContacts();
  ledger.completeTracking();
  const attachments = exampleAttachments(all);
  for (const parent of Object.keys(attachments)) {
    const record = ledger.find('Invoices', parent) ?? ledger.find('ManualJournals', parent) ?? ledger.find('BankTransfers', parent);
    if (record !== undefined) record.HasAttachments = true;
  }
  generate(ledger, attachments);
  const organisation = clone((all.get('GET /Organisation')?.Organisations as Json[] | undefined)?.[0] ?? {});
  Object.assign(organisation, { OrganisationID: tenantId, Name: name, LegalName: `${name} Limited` });
  return { organisation, collections: ledger.collections, attachments, report };
}

/** The same books under other ids: every UUID replaced consistently (a second organisation). */
export function withFreshIds(seed: Seed, replace: Readonly<Record<string, string>>, rngSeed: number): Seed {
  return JSON.parse(withFreshUuids(seed, seededRandom(rngSeed), replace, [ZERO_ID])) as Seed;
}

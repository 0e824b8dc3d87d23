/** Every record of each Xero list, rendered from the SANDBOX books (deleted documents as Xero lists them: DELETED). */
import { renderContact } from './render-contacts.ts';
import { renderCreditNote, renderInvoice, renderPayments } from './render-documents.ts';
import {
  renderAccount,
  renderCurrency,
  renderEmployee,
  renderJournal,
  renderTaxRate,
  renderTrackingCategories,
  renderTransfer,
} from './render-ledger.ts';
import type { Json, XeroView } from './view.ts';

/** A Xero list, under its name (also its answer's list key). */
export interface XeroCollection {
  /** The id field a GET by id matches. */
  idField: string;
  records(view: XeroView, query: URLSearchParams): Promise<Json[]>;
}

const one =
  <T>(render: (view: XeroView, record: T, deletedAt: string | null) => Promise<Json>) =>
  (view: XeroView) =>
  async (record: T, deletedAt: string | null) => [await render(view, record, deletedAt)];

export const COLLECTIONS = {
  Accounts: { idField: 'AccountID', records: async (view) => (await view.all('account')).map(renderAccount) },
  Contacts: {
    idField: 'ContactID',
    async records(view, query) {
      const contacts = [
        ...(await view.all('customer')).map((c) => renderContact(c, 'customer')),
        ...(await view.all('vendor')).map((c) => renderContact(c, 'vendor')),
      ];
      return query.get('includeArchived') === 'true' ? contacts : contacts.filter((c) => c.ContactStatus !== 'ARCHIVED');
    },
  },
  Invoices: { idField: 'InvoiceID', records: (view) => view.withDeleted(['bill', 'invoice'], one(renderInvoice)(view)) },
  CreditNotes: {
    idField: 'CreditNoteID',
    records: (view) => view.withDeleted(['bill_credit_memo', 'invoice_credit_memo'], one(renderCreditNote)(view)),
  },
  Payments: {
    idField: 'PaymentID',
    records: (view) => view.withDeleted(['bill_payment', 'invoice_payment'], (p, at) => renderPayments(view, p, at)),
  },
  ManualJournals: {
    idField: 'ManualJournalID',
    records: (view) => view.withDeleted(['journal_entry'], one(renderJournal)(view)),
  },
  BankTransfers: {
    idField: 'BankTransferID',
    records: async (view) => Promise.all((await view.all('bank_transfer')).map((t) => renderTransfer(view, t))),
  },
  TaxRates: { idField: 'TaxType', records: async (view) => (await view.all('tax_rate')).map(renderTaxRate) },
  TrackingCategories: {
    idField: 'TrackingCategoryID',
    records: async (view, query) => renderTrackingCategories(await view.all('class'), query.get('includeArchived') === 'true'),
  },
  Currencies: { idField: 'Code', records: async (view) => (await view.all('currency')).map(renderCurrency) },
  Employees: { idField: 'EmployeeID', records: async (view) => (await view.all('employee')).map(renderEmployee) },
} satisfies Readonly<Record<string, XeroCollection>>;

export type ListName = keyof typeof COLLECTIONS;

export const isListName = (name: string): name is ListName => Object.hasOwn(COLLECTIONS, name);

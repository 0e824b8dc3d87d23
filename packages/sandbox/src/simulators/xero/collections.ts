/** Every record of each Xero list, rendered from the SANDBOX books (deleted documents as Xero lists them: DELETED). */
import type {
  NativeBill,
  NativeBillPayment,
  NativeCreditNote,
  NativeInvoice,
  NativeJournalEntry,
  NativePayment,
  NativeVendorCredit,
} from '../../native.ts';
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

/** Live records, then deleted ones rendered with their deletion time. */
async function withDeleted<T>(
  live: readonly T[],
  deleted: readonly { record: T; deletedAt: string }[],
  render: (record: T, deletedAt: string | null) => Promise<Json[]>,
): Promise<Json[]> {
  const out: Json[] = [];
  for (const record of live) out.push(...(await render(record, null)));
  for (const gone of deleted) out.push(...(await render(gone.record, gone.deletedAt)));
  return out;
}

export interface XeroCollection {
  /** The answer's list key. */
  key: string;
  /** The id field a GET by id matches. */
  idField: string;
  records(view: XeroView, query: URLSearchParams): Promise<Json[]>;
}

const one =
  <T>(render: (view: XeroView, record: T, deletedAt: string | null) => Promise<Json>) =>
  (view: XeroView) =>
  async (record: T, deletedAt: string | null) => [await render(view, record, deletedAt)];

export const COLLECTIONS: Readonly<Record<string, XeroCollection>> = {
  Accounts: { key: 'Accounts', idField: 'AccountID', records: async (view) => (await view.all('account')).map(renderAccount) },
  Contacts: {
    key: 'Contacts',
    idField: 'ContactID',
    async records(view, query) {
      const contacts = [
        ...(await view.all('customer')).map((c) => renderContact(c, 'customer')),
        ...(await view.all('vendor')).map((c) => renderContact(c, 'vendor')),
      ];
      return query.get('includeArchived') === 'true' ? contacts : contacts.filter((c) => c.ContactStatus !== 'ARCHIVED');
    },
  },
  Invoices: {
    key: 'Invoices',
    idField: 'InvoiceID',
    records: async (view) => [
      ...(await withDeleted<NativeBill>(await view.all('bill'), await view.deleted('bill'), one(renderInvoice)(view))),
      ...(await withDeleted<NativeInvoice>(await view.all('invoice'), await view.deleted('invoice'), one(renderInvoice)(view))),
    ],
  },
  CreditNotes: {
    key: 'CreditNotes',
    idField: 'CreditNoteID',
    records: async (view) => [
      ...(await withDeleted<NativeVendorCredit>(
        await view.all('bill_credit_memo'),
        await view.deleted('bill_credit_memo'),
        one(renderCreditNote)(view),
      )),
      ...(await withDeleted<NativeCreditNote>(
        await view.all('invoice_credit_memo'),
        await view.deleted('invoice_credit_memo'),
        one(renderCreditNote)(view),
      )),
    ],
  },
  Payments: {
    key: 'Payments',
    idField: 'PaymentID',
    records: async (view) => [
      ...(await withDeleted<NativeBillPayment>(await view.all('bill_payment'), await view.deleted('bill_payment'), (p, at) =>
        renderPayments(view, p, at),
      )),
      ...(await withDeleted<NativePayment>(await view.all('invoice_payment'), await view.deleted('invoice_payment'), (p, at) =>
        renderPayments(view, p, at),
      )),
    ],
  },
  ManualJournals: {
    key: 'ManualJournals',
    idField: 'ManualJournalID',
    records: async (view) =>
      withDeleted<NativeJournalEntry>(await view.all('journal_entry'), await view.deleted('journal_entry'), one(renderJournal)(view)),
  },
  BankTransfers: {
    key: 'BankTransfers',
    idField: 'BankTransferID',
    records: async (view) => Promise.all((await view.all('bank_transfer')).map((t) => renderTransfer(view, t))),
  },
  TaxRates: { key: 'TaxRates', idField: 'TaxType', records: async (view) => (await view.all('tax_rate')).map(renderTaxRate) },
  Currencies: { key: 'Currencies', idField: 'Code', records: async (view) => (await view.all('currency')).map(renderCurrency) },
  TrackingCategories: {
    key: 'TrackingCategories',
    idField: 'TrackingCategoryID',
    records: async (view, query) => renderTrackingCategories(await view.all('class'), query.get('includeArchived') === 'true'),
  },
  Employees: { key: 'Employees', idField: 'EmployeeID', records: async (view) => (await view.all('employee')).map(renderEmployee) },
};

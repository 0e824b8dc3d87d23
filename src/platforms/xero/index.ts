/**
 * XERO: Xero's Accounting API over OAuth 2.0 (one organisation per connection,
 * chosen in the link flow when the user authorises several). Reads are paged
 * and incremental where Xero's lists take If-Modified-Since; the small
 * reference lists are read whole each time, which is how their deletions are
 * found. Bills, invoices, their payments, journal entries, customers and vendors can be written.
 */
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../model/object-types.ts';
import type { Connector, ObjectCapabilities, ObjectHandler } from '../connector.ts';
import { defineObject, type ObjectEntry, type ObjectTable } from '../objects.ts';
import { xeroActions } from './actions.ts';
import { xeroAuth } from './auth.ts';
import { XERO_SETTINGS } from './client.ts';
import { deepLink } from './mapping/common.ts';
import { UNFILLED } from './mapping/unfilled.ts';
import { READERS, type XeroReads } from './objects.ts';
import { readOrganisation } from './read.ts';
import {
  billCreditWriter,
  billPaymentWriter,
  billWriter,
  customerWriter,
  invoiceCreditWriter,
  invoicePaymentWriter,
  invoiceWriter,
  journalWriter,
  vendorWriter,
} from './writes.ts';
import { xeroWebhooks } from './webhooks.ts';

type Writer = Pick<ObjectHandler, 'create' | 'update' | 'delete' | 'findCreated'>;

/** The unified fields each object leaves null. */
const UNMAPPED: Partial<Record<UnifiedObjectType, object>> = UNFILLED;

const WRITERS: Partial<Record<UnifiedObjectType, Writer>> = {
  bill: billWriter,
  invoice: invoiceWriter,
  bill_credit_memo: billCreditWriter,
  invoice_credit_memo: invoiceCreditWriter,
  bill_payment: billPaymentWriter,
  invoice_payment: invoicePaymentWriter,
  journal_entry: journalWriter,
  customer: customerWriter,
  vendor: vendorWriter,
};

const DOCUMENT_EXTRAS = [
  'AmountPaid',
  'AmountCredited',
  'LineAmountTypes',
  'SentToContact',
  'BrandingThemeID',
  'HasAttachments',
  'LineItems[].ItemCode',
  'LineItems[].Quantity',
  'LineItems[].UnitAmount',
  'LineItems[].Tracking (a second tracking category)',
] as const;
const CONTACT_EXTRAS = [
  'ContactNumber',
  'AccountNumber',
  'Balances',
  'ContactGroups',
  'IsSupplier',
  'IsCustomer',
  'PaymentTerms',
  'AccountsPayableTaxType',
  'AccountsReceivableTaxType',
  'PurchasesDefaultAccountCode',
  'SalesDefaultAccountCode',
] as const;
const PAYMENT_EXTRAS = ['BankAmount', 'IsReconciled', 'BatchPaymentID', 'PaymentType', 'Details', 'Particulars', 'Code'] as const;

/** Xero fields served only in platform_data (for docs/platforms.md). */
export const PLATFORM_DATA_ONLY: Partial<Record<UnifiedObjectType, readonly string[]>> = {
  account: ['Description', 'TaxType', 'BankAccountNumber', 'EnablePaymentsToAccount', 'ShowInExpenseClaims', 'ReportingCode', 'AddToWatchlist'],
  attachment: ['MimeType', 'ContentLength', 'IncludeOnline'],
  bank_transfer: ['FromBankTransactionID', 'ToBankTransactionID', 'CurrencyRate', 'HasAttachments'],
  bill: [...DOCUMENT_EXTRAS, 'Reference', 'PlannedPaymentDate', 'FullyPaidOnDate', 'RepeatingInvoiceID', 'Prepayments', 'Overpayments'],
  invoice: [...DOCUMENT_EXTRAS, 'ExpectedPaymentDate', 'FullyPaidOnDate', 'RepeatingInvoiceID', 'Prepayments', 'Overpayments'],
  bill_credit_memo: ['AppliedAmount', 'Payments (cash refunds)', 'LineAmountTypes', 'SentToContact', 'BrandingThemeID'],
  invoice_credit_memo: ['AppliedAmount', 'Payments (cash refunds)', 'LineAmountTypes', 'SentToContact', 'BrandingThemeID'],
  bill_payment: PAYMENT_EXTRAS,
  invoice_payment: PAYMENT_EXTRAS,
  vendor: CONTACT_EXTRAS,
  // A vendor serves BankAccountDetails as bank_account_number; a customer has no such field.
  customer: [...CONTACT_EXTRAS, 'Website', 'BankAccountDetails'],
  journal_entry: [
    'Status (POSTED, ARCHIVED; drafts and voided journals are not journal entries)',
    'ShowOnCashBasisReports',
    'LineAmountTypes',
    'JournalLines[].Tracking',
  ],
  employee: ['ExternalLink'],
  tax_rate: [
    'ReportTaxType',
    'DisplayTaxRate',
    'CanApplyToAssets',
    'CanApplyToEquity',
    'CanApplyToExpenses',
    'CanApplyToLiabilities',
    'CanApplyToRevenue',
    'TaxComponents[].IsNonRecoverable',
  ],
  company_info: [
    'ShortCode',
    'Version',
    'OrganisationType',
    'CountryCode',
    'Timezone',
    'SalesTaxBasis',
    'SalesTaxPeriod',
    'PeriodLockDate',
    'EndOfYearLockDate',
    'FinancialYearEndDay',
    'PaysTax',
    'DefaultSalesTax',
    'DefaultPurchasesTax',
    'Edition',
    'Class',
  ],
};

/**
 * Attachments are read from Invoices (ACCPAY bills, ACCREC invoices), ManualJournals and BankTransfers. Xero's
 * BankTransactions (SPEND expenses, RECEIVE deposits) are no object of this connector, so expenses and bank deposits
 * have no attachments here; no uploads yet.
 */
const ATTACHED_TO: ObjectCapabilities['attachedTo'] = { read: ['bill', 'invoice', 'journal_entry', 'bank_transfer'], upload: [] };

function capabilities(type: UnifiedObjectType, changes: Pick<ObjectCapabilities, 'incremental' | 'deletions'>, writer?: Writer): ObjectCapabilities {
  return {
    read: true,
    ...changes,
    filter: true,
    fetchByPlatformId: true,
    create: writer?.create !== undefined,
    update: writer?.update !== undefined,
    delete: writer?.delete !== undefined,
    unmappedFields: Object.keys(UNMAPPED[type] ?? {}),
    platformDataOnly: PLATFORM_DATA_ONLY[type] ?? [],
    ...(type === 'attachment' ? { attachedTo: ATTACHED_TO } : {}),
  };
}

const isObjectType = (key: string): key is UnifiedObjectType => UNIFIED_OBJECT_TYPES.some((type) => type === key);

/** One object: its reads (objects.ts) and writes (writes.ts), typed by its unified type. */
function entry<K extends UnifiedObjectType>(type: K, { incremental, deletions, ...reads }: XeroReads<K>): ObjectEntry {
  const writer = WRITERS[type];
  return defineObject<K>({ capabilities: capabilities(type, { incremental, deletions }, writer), ...reads, ...writer });
}

function objects(): ObjectTable {
  const result: ObjectTable = {};
  // In READERS' order, as before: the capability tables list them so.
  for (const type of Object.keys(READERS).filter(isObjectType)) {
    const reads = READERS[type];
    if (reads !== undefined) result[type] = entry(type, reads);
  }
  // Xero's Accounting API has no cash flow statement (its reports are balance sheet, profit and loss, trial balance,
  // aged and bank summaries, …), no exchange rates (documents carry their own CurrencyRate) and no sales receipt (a
  // RECEIVE bank transaction is any money received, which the reference maps to other objects), nor payment methods
  // (a payment names its bank account, not how it was paid), nor tax areas (a tax rate's components carry a name and a
  // rate, no place): said here so the capability table shows it, and the endpoints answer 404.
  for (const type of ['cash_flow_statement', 'exchange_rate', 'sales_receipt', 'payment_method', 'tax_area'] as const)
    result[type] = unavailable(type);
  return result;
}

/** An object Xero does not have: declared unreadable. */
function unavailable(type: UnifiedObjectType): ObjectEntry {
  const what = type.replaceAll('_', ' ');
  return {
    capabilities: { ...capabilities(type, { incremental: 'none', deletions: 'none' }), read: false, filter: false, fetchByPlatformId: false },
    handler: {
      read: () => Promise.reject(new Error(`Xero has no ${what}: the capability says read false`)),
      map: () => {
        throw new Error(`Xero has no ${what}`);
      },
    },
  };
}

export const xeroConnector: Connector = {
  id: 'XERO',
  name: 'Xero',
  kind: 'accounting',
  auth: xeroAuth,
  async identify(ctx) {
    const organisation = await readOrganisation(ctx);
    if (organisation.OrganisationID === undefined) throw new Error('Xero answered GET /Organisation without an organisation');
    return { storeUniqueId: organisation.OrganisationID, storeName: organisation.Name ?? null };
  },
  objects: objects(),
  actions: xeroActions,
  // Xero allows 60 calls a minute, 5 at a time and 5,000 in 24 hours per organisation (tenant).
  // Xero allows 60 calls a minute: 10 at once and 50 a minute after them never pass it, and the few calls of a sync
  // its webhooks ask for go out at once instead of a second apart.
  limits: { requestsPerMinute: 50, burst: 10, concurrentRequests: 5, dailyRequests: 5_000 },
  webhooks: xeroWebhooks,
  platformUrl: (type, platformId) => deepLink(type, platformId),
  documentation: {
    testedAgainst:
      "A stand-in (test/standins/xero) built from Xero's published OpenAPI contract (Accounting API 2.9.4 and the identity /connections contract in test/contracts/xero): its example records, and records cloned from them beyond a page, are the seed data, and every request and answer is validated against it. Not yet run against the real service.",
    settings: XERO_SETTINGS,
    notes: [
      "Real-time and polled: invoices, bills, credit notes and contacts arrive within seconds through Xero's webhooks where the app's webhook key is set; everything is also polled by incremental syncs (hourly by default, paced to Xero's 5,000 calls a day: docs/sync.md), and Xero's other objects only so.",
      "In the sandbox environment, an organisation without its own Xero app connects to the Xero simulator: SANDBOX's books served in Xero's own API, so the connector, its shapes and its writes are the real ones (docs/simulators.md).",
      "Contacts are vendors when Xero flags them suppliers and customers when it flags them customers; a contact with neither flag (as every contact is until it has a bill or invoice, including one made through our vendor or customer endpoint) is listed as both. A contact that loses a flag is not reported deleted: a customer we created that then receives a bill is flagged a supplier by Xero (and a customer only once it has a sales invoice), and it stays a customer while becoming a vendor; only Xero's archiving ends a contact (status archived). Decision of issue 22: before, such a customer disappeared with CUSTOMER_DELETED, and a vendor we created was missing from vendors until its first bill.",
      "Attachments are listed per document (one call each), so a sync lists the files of the documents changed since the last attachment read (If-Modified-Since) only, and of every document once a day: Xero does not document whether adding a file changes a document's UpdatedDateUTC, so a file added to an unchanged document is found within a day. A file removed in Xero is swept at a full listing.",
      "Tracking categories are classes and their options are classes under them; a line's class_id is its first tracking option.",
      'Voided and deleted manual journals are reported deleted (a journal entry has no status); voided invoices, bills and credit notes keep status void; deleted ones are reported deleted.',
      "Vendors are written as Contacts, as customers are (create and update; Xero archives contacts rather than deleting them, so DELETE answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM). A vendor's website is refused: Xero's API keeps a contact's Website read-only. A new vendor is listed as a customer too until Xero flags it a supplier at its first bill.",
      "Bill and invoice payments are written as Xero Payments of one document each (create and delete; Xero's deletePayment, a POST of Status DELETED, which is also how Xero voids one); PATCH answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM, Xero changing nothing else of a payment. Credit notes (bill and invoice credit memos) are written as Xero CreditNotes of Type ACCPAYCREDIT and ACCRECCREDIT by the bills' and invoices' document writer (open → AUTHORISED, PATCH void → VOIDED, DELETE of a draft; an approved one is refused, void it); their allocations (linked_bills, linked_invoices, so credit applications too) are refused with a 400: Xero allocates through its own CreditNote Allocations call, not written yet.",
      'Deleting a bill or an invoice deletes a draft or one awaiting approval; an approved one is voided with PATCH status void (it stays in Xero, read as void).',
      'Balance sheets are the current month and the eleven before, from the BalanceSheet report; income statements the same months from the ProfitAndLoss report (accrual basis; net_operating_income is null, the report has no such line).',
      "Cash flow statements are not available: Xero's Accounting API has no cash flow report (GET /accounting/cash_flow_statements answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM, and synced_cash_flows_count is null).",
      "Sales receipts are not available: the Accounting API has no sales receipt. A RECEIVE bank transaction is any money received into a bank account (a refund, interest, an owner's contribution, a sale), not a sale paid on the spot (GET /accounting/sales_receipts answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM).",
      "Tax areas are not available: Xero's TaxRates are rates whose TaxComponents carry a name and a rate, with no place or jurisdiction they apply in (TaxType and ReportTaxType are the rate's kind), so GET /accounting/tax_areas answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM; the rates are GET /accounting/tax_rates.",
      "Customer groups are not available: Xero's ContactGroups group the accounting contacts (customers and suppliers alike) of its address book, not a shop's customers, so GET /commerce/customer_groups answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
      "Payment methods are not available: Xero's Accounting API has no list of payment methods (a payment names the bank account it went to, its PaymentType only whether it was received or paid), so GET /accounting/payment_methods answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
      "Consent asks for Xero's granular scopes (accounting.invoices, accounting.payments (payments are written), accounting.banktransactions.read, accounting.manualjournals, accounting.contacts, accounting.settings, accounting.reports.balancesheet.read, accounting.reports.profitandloss.read, accounting.attachments, offline_access, openid profile email), which apps created since March 2026 must use; the OAuth app's scope (PUT /admin/organizations/:id/oauth_apps/XERO with a scope, for an app allowed fewer) replaces the list, and a connection's own scope replaces both.",
      "Paged lists (invoices, bills, credit notes, payments, contacts, manual journals) are read in UpdatedDateUTC order by keyset (If-Modified-Since the previous page's newest, page 1), not by page number: a record edited during a read moves ahead of the reader and is read, and none behind it is skipped.",
      'Xero\'s webhooks (Invoice, Contact, CreditNote events) are received at /platform-webhooks/XERO/{organization id}/{environment} once the app\'s webhook key is set as webhook_key on the OAuth app; each one syncs the changed types of the connections to that tenant at once (docs/sync.md, "Platform webhooks"). As Xero\'s documentation says ("There is no body in the response"), the 200 and the 401 are answered with an empty body; the summary is logged.',
      'Attachments are those of bills, invoices and manual journals; their file_url fetches the file from Xero when followed (nothing is copied).',
      "Invoice PDFs are Xero's own: the pdf_link of GET /accounting/invoices/:id/pdf reads GET Invoices/{InvoiceID} with Accept: application/pdf when followed (nothing is copied); an invoice deleted in Xero since the sync answers 450 PLATFORM_BAD_REQUEST.",
      "Xero's 5,000 calls a day: a busy organisation (2,000 documents, 300 with files, 50 bill writes a day, hourly syncs) spends about 1,220 a day with webhooks off and about 2,400 with them on (each of the day's 170 notifications, 120 edits in Xero and our 50 writes, queues a targeted sync of about 7 calls; the hourly syncs stay), both inside the budget (docs/performance.md, \"Xero's daily budget under a busy month\").",
      "Employees are the Accounting API's (names and a status, for expense claims): ARCHIVED is inactive, GDPRREQUEST unknown, DELETED a deletion; Xero Payroll's employees are not read.",
      'Sales orders are not available: Xero has no sales order, and the reference does not confirm which Xero object it reads as one (its Quotes are the likely one), so GET /accounting/sales_orders answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM (docs/reference.md).',
      'Exchange rates are not available: the Accounting API has none (GET /accounting/exchange_rates answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM); each invoice, bill, credit note and payment carries its own CurrencyRate (currency_rate), and GET /Currencies lists codes and names only.',
    ],
  },
};

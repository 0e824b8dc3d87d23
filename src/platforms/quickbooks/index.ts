/**
 * QUICKBOOKS: QuickBooks Online through Intuit's Accounting API (v3, JSON),
 * with OAuth 2.0. Objects are read by query (full) and ChangeDataCapture
 * (incremental, with deletions), the company and its monthly statements
 * from CompanyInfo, Preferences and the BalanceSheet, ProfitAndLoss and CashFlow reports, currencies and exchange
 * rates from Preferences, CompanyCurrency and ExchangeRate (currencies.ts); bills, journal
 * entries, customers, invoices and invoice payments are written with SyncToken handling, sales receipts created; attachment files
 * are fetched from QBO when their file_url is followed, invoice PDFs when their pdf_link is.
 * Tested against test/standins/quickbooks, built from the response shapes of
 * Intuit's API reference (test/fixtures/quickbooks/README.md).
 */
import type { Connector } from '../connector.ts';
import { defineObject, type Mapped, type ObjectTable } from '../objects.ts';
import { quickbooksActions } from './attachments.ts';
import { quickbooksAuth } from './auth.ts';
import { identify, readCompany, readMonthlyReport, type MonthlyReport } from './company.ts';
import { parseEntity } from './contract.ts';
import { readCurrencies, readExchangeRates } from './currencies.ts';
import { appUrl, day, type MapContext } from './mapping/common.ts';
import { mapCurrency, mapExchangeRate } from './mapping/currencies.ts';
import { mapCompany } from './mapping/master.ts';
import { mapBalanceSheet, mapCashFlow, mapIncomeStatement, reportMonth, type QboReportMonth } from './mapping/reports.ts';
import { ENTITIES, mapContext, READ_ONLY } from './objects.ts';
import { quickbooksWebhooks } from './webhooks.ts';

/** A statement read from a QBO report, one record per month (company.ts, mapping/reports.ts). */
function monthlyReport<K extends 'balance_sheet' | 'income_statement' | 'cash_flow_statement'>(
  report: MonthlyReport,
  map: (month: QboReportMonth, mc: MapContext) => Mapped<K>,
  unmapped: readonly string[] = [],
) {
  return defineObject<K>({
    capabilities: {
      ...READ_ONLY,
      incremental: 'none',
      deletions: 'none',
      unmappedFields: ['created_at', 'updated_at', ...unmapped],
      platformDataOnly: ['Rows[].group (QBO section names)', 'ReportBasis'],
    },
    read: (ctx, request) => readMonthlyReport(ctx, request, report),
    map: (record, ctx) => map(reportMonth(record.raw), mapContext(ctx)),
    businessDate: (record) => day(record.raw.EndDate),
  });
}

function objects(): ObjectTable {
  const table: ObjectTable = Object.fromEntries(ENTITIES.map((spec) => [spec.type, spec.object]));
  table.company_info = defineObject<'company_info'>({
    capabilities: {
      ...READ_ONLY,
      incremental: 'none',
      deletions: 'none',
      unmappedFields: ['tax_number', 'registration_number'],
      platformDataOnly: ['Country', 'CompanyStartDate', 'WebAddr', 'SupportedLanguages', 'NameValue', 'HomeCurrency (from Preferences)'],
    },
    read: (ctx) => readCompany(ctx),
    map: (record, ctx) => mapCompany(parseEntity('CompanyInfo', record.raw), mapContext(ctx)),
  });
  table.currency = defineObject<'currency'>({
    capabilities: {
      ...READ_ONLY,
      incremental: 'none',
      deletions: 'full_listing',
      unmappedFields: [],
      platformDataOnly: [
        'Active',
        'SyncToken',
        'Id (of a CompanyCurrency; the platform id is the currency code)',
        "MultiCurrencyEnabled (of the home currency's Preferences)",
      ],
    },
    read: (ctx) => readCurrencies(ctx),
    // The home currency's record is the slice of Preferences that names it; the others are CompanyCurrencies.
    map: (record) => mapCurrency('Code' in record.raw ? parseEntity('CompanyCurrency', record.raw) : parseEntity('Preferences', record.raw)),
  });
  table.exchange_rate = defineObject<'exchange_rate'>({
    // QBO has no delete for a rate (only a new rate for a date): a rate missing from one read is not gone.
    capabilities: { ...READ_ONLY, incremental: 'none', deletions: 'none', unmappedFields: ['created_at'], platformDataOnly: ['SyncToken'] },
    read: (ctx, request) => readExchangeRates(ctx, request),
    map: (record) => mapExchangeRate(parseEntity('ExchangeRate', record.raw)),
  });
  table.balance_sheet = monthlyReport<'balance_sheet'>('BalanceSheet', mapBalanceSheet);
  table.income_statement = monthlyReport<'income_statement'>('ProfitAndLoss', mapIncomeStatement);
  table.cash_flow_statement = monthlyReport<'cash_flow_statement'>('CashFlow', mapCashFlow, ['gross_cash_in_flow', 'gross_cash_out_flow']);
  return table;
}

export function createQuickBooksConnector(): Connector {
  return {
    id: 'QUICKBOOKS',
    name: 'QuickBooks Online',
    kind: 'accounting',
    auth: quickbooksAuth,
    identify,
    objects: objects(),
    actions: quickbooksActions,
    // Intuit: 500 requests per minute and 10 concurrent requests per company (realm) and app.
    limits: { requestsPerMinute: 500, concurrentRequests: 10 },
    webhooks: quickbooksWebhooks,
    platformUrl: (type, platformId, ctx) => appUrl(type, platformId, ctx.environment),
    documentation: {
      testedAgainst:
        "Fixture-tested: Intuit publishes no machine-readable contract, so the tests run against an in-process stand-in of the QuickBooks Online Accounting API and Intuit OAuth (test/standins/quickbooks) built on response shapes recorded from Intuit's API reference (test/fixtures/quickbooks). Not yet run against the real service.",
      settings: [
        {
          variable: 'QUICKBOOKS_API_URL',
          description:
            'API host; default https://sandbox-quickbooks.api.intuit.com for sandbox connections and https://quickbooks.api.intuit.com for production ones.',
        },
        { variable: 'QUICKBOOKS_AUTHORIZE_URL', description: 'Consent page; default https://appcenter.intuit.com/connect/oauth2.' },
        { variable: 'QUICKBOOKS_TOKEN_URL', description: 'Token endpoint; default https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer.' },
      ],
      notes: [
        "Real-time and polled: the entities Intuit's webhooks name arrive within seconds where the app's verifier token is set; everything is also polled by incremental syncs through ChangeDataCapture (hourly by default), which remain the safety net.",
        "In the sandbox environment, an organisation without its own QuickBooks app connects to the QuickBooks Online simulator: SANDBOX's books served in QuickBooks' own API, so the connector, its shapes and its writes are the real ones (docs/simulators.md). With an app, sandbox connections use Intuit's sandbox companies.",
        'Incremental syncs use ChangeDataCapture, which looks back 30 days: after a longer pause changed records are still found, but deletions from before the window are not (an initial sync catches them).',
        'Tax rates and tax agencies are outside ChangeDataCapture: every sync reads them whole and notices removals.',
        "Bills and invoices carry their status and amount_due from QBO's Balance; which payments settled them is on the payments (linked_bills, linked_invoices), since QBO links carry no amounts on the bill or invoice.",
        'Line items reference TaxCodes, not TaxRates: tax_rate_id stays null and the TaxCodeRef is in platform_data.',
        'QBO tracks the department on the whole bill: every line of a written bill must have the same department_id.',
        'Voided bill payments, payments and invoices (amounts zeroed, "Voided" in the memo) have status void.',
        'Customers cannot be deleted in QuickBooks Online; PATCH status archived makes them inactive.',
        "Vendors are created and sparsely updated as QBO's Vendor: vendor_name is its DisplayName (unique across customers, vendors and employees: a taken one is 409 DUPLICATE_VALUE_CONFLICT on vendor_name), tax_number its TaxIdentifier, payment_terms_id its TermRef, website its WebAddr, the billing address its BillAddr; parent_id, registration_number, subsidiaries and other address types are refused (400 naming the field). DELETE makes the vendor inactive, as QBO's own delete does.",
        "Bill payments are created, updated, voided and deleted as QBO's BillPayment: a check (PayType Check, CheckPayment.BankAccountRef) from a bank account_id, a card payment (PayType CreditCard, CreditCardPayment.CCAccountRef) from a credit card one; the account's type is read from QBO, and any other type is refused (400 on account_id). Each linked bill is a line with its LinkedTxn and the allocated amount, TotalAmt their sum. document_number and reference are both its DocNumber (they must agree). PATCH status void alone is QBO's void (include=void).",
        "Bill credit memos are created, sparsely updated and deleted as QBO's VendorCredit, with a bill's lines (account and item expense lines, one department for the whole credit). QBO applies a vendor credit to bills through a bill payment and does not void one: linked_bills and status void are refused (400 naming the field).",
        "Invoice PDFs (GET /accounting/invoices/:id/pdf) are QBO's own rendering, fetched from GET invoice/{id}/pdf when the signed pdf_link is followed; nothing is stored.",
        "Custom fields (GET /accounting/invoices/custom_fields) are QBO's up to three sales-form string fields, read from Preferences (SalesFormsPrefs.CustomField) at each request, keyed by their slot (1 to 3, an invoice's CustomField DefinitionId); bills, expenses, invoice payments and journal entries have none (empty lists).",
        'Attachments are files attached to transactions and names (note-only attachables are not attachments). The file_url serves the file from QuickBooks when followed (its download endpoint, then the short-lived link it answers); nothing is stored.',
        'Currencies are the home currency (from Preferences) and, in a multicurrency company, its active CompanyCurrency list, each under its ISO code as platform id; exchange rates are its ExchangeRate entities (units of the home currency per unit of the currency from AsOfDate on), read whole each sync. A company without multicurrency has one currency and no rates, and neither list is queried.',
        'Sales receipts are the SalesReceipt entity: memo is its customer memo (CustomerMemo), additional_fields.internal_memo its PrivateNote, reference its PaymentRefNum, account_id the account it was deposited to; a Deposit that took it out of Undeposited Funds is its linked transaction. Lines carry amounts before tax (tax_amount in additional_fields, from TxnTaxDetail); shipping_amount is null (QBO charges shipping as a line); currency_code is null when QBO sends no CurrencyRef.',
        "Payment methods are the PaymentMethod entity (Active and Type, CREDIT_CARD or NON_CREDIT_CARD, in platform_data); an invoice payment's payment_method_id is its PaymentMethodRef.",
        "Sales receipts are created (POST) of item lines only: QBO's sales lines post to their item's income account, so a line without item.id is refused (400 naming it); without account_id the money goes to Undeposited Funds.",
        "Invoices are written as the Invoice entity (POST, PATCH as a sparse update with the current SyncToken, DELETE deletes it), of item lines as sales receipts are: a line without item.id is refused (400 naming it), and an account_id beside the item must be the item's income account (QBO posts the line there; checked with QBO). memo is its PrivateNote, account_id its ARAccountRef, payment_terms_id its SalesTermRef. QBO has no draft invoices: status draft is a 400; PATCH status void, sent alone, is QBO's void (operation=void).",
        "Invoice payments are written as the Payment entity (POST, PATCH as a sparse update, DELETE deletes it): account_id is its DepositToAccountRef, reference its PaymentRefNum, memo its PrivateNote, each linked_invoices entry a Line of that amount whose LinkedTxn is the invoice, TotalAmt their sum (nothing left unapplied). PATCH status void, sent alone, is QBO's void (operation=update&include=void); a payment is not created void. The invoices it pays change in QBO and are read by the next sync.",
        "Expenses are the Purchase entity: account_id is the bank or card account paid from (AccountRef), payment_type its PaymentType (Cash, Check, CreditCard), vendor_id its EntityRef when that is a Vendor (a customer or employee payee stays in platform_data), Credit true (money back on the card) expense_type refund; memo is its PrivateNote, lines are the bill's expense lines (account or item based). Expenses are created, sparsely updated and deleted as Purchases: account_id must be a bank or credit card account (its type, read from QBO, gives PaymentType when payment_type is not sent: Cash from a bank, CreditCard from a card; another type is a 400 on account_id), vendor_id is written as EntityRef of type Vendor, lines are a bill's. The connector writes a refund as Credit true on a credit card account only (400 on expense_type otherwise); the API takes expense_type expense only for now.",
        'Balance sheets come from the BalanceSheet report (accrual basis), one statement per month: the last 24 months when the sync has no window. Income statements come the same way from the ProfitAndLoss report (accrual basis; other income and other expenses are children of income and expenses), cash flow statements from the CashFlow report (gross_cash_in_flow and gross_cash_out_flow are null: the report has no such totals).',
        'Query pages are read in Id order and overlap by 10 records, so up to 10 records deleted from pages already read before the next page is asked for skip nothing (an edit never moves a record in Id order).',
        "Intuit's webhooks are received at /platform-webhooks/QUICKBOOKS/{organization id}/{environment} once the app's verifier token is set as webhook_key on the OAuth app; each notification syncs the changed entities' types of the connections to that realm at once (docs/sync.md, \"Platform webhooks\").",
        "Tax areas are not available: QuickBooks Online's US sales tax keeps agencies (TaxAgency, GET /accounting/tax_agencies), their rates (TaxRate) and the codes that combine them (TaxCode, GET /accounting/tax_rates), and no entity for the place they are charged in (automated sales tax works it out from the customer's address), so GET /accounting/tax_areas answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
        "Customer groups are not available: they are a store's groups of its buyers (the reference serves them for Shopify only), and QuickBooks Online's CustomerType labels accounting customers, so GET /commerce/customer_groups answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
        "Sales orders are not available: QuickBooks Online has no sales order entity (sales orders are QuickBooks Desktop's; Estimates are quotes, not orders), so GET /accounting/sales_orders answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
      ],
    },
  };
}

export const quickbooksConnector: Connector = createQuickBooksConnector();

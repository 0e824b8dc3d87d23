/**
 * The parts of Xero's Accounting API records (api.xro/2.0, contract 2.9.4 in
 * test/contracts/xero) the connector reads. Every field is optional: Xero
 * leaves out what is empty, and lists embed summaries of linked records.
 * scripts/gen-xero-contract.ts checks these against the contract and cuts the
 * answer validators (./contract.ts) along them: run it after changing a type.
 */

export interface XeroTracking {
  TrackingCategoryID?: string;
  TrackingOptionID?: string;
  Name?: string;
  Option?: string;
}

export interface XeroLineItem {
  LineItemID?: string;
  Description?: string;
  Quantity?: number;
  UnitAmount?: number;
  ItemCode?: string;
  AccountCode?: string;
  /** Not in contract 2.9.4 (newer Xero versions send it); the connector fills it in from the chart of accounts. */
  AccountID?: string;
  TaxType?: string;
  TaxAmount?: number;
  LineAmount?: number;
  DiscountRate?: number;
  DiscountAmount?: number;
  Tracking?: XeroTracking[];
}

export interface XeroAddress {
  AddressType?: string;
  AddressLine1?: string;
  AddressLine2?: string;
  AddressLine3?: string;
  AddressLine4?: string;
  City?: string;
  Region?: string;
  PostalCode?: string;
  Country?: string;
}

export interface XeroPhone {
  PhoneType?: string;
  PhoneNumber?: string;
  PhoneAreaCode?: string;
  PhoneCountryCode?: string;
}

export interface XeroContactPerson {
  FirstName?: string;
  LastName?: string;
  EmailAddress?: string;
}

export interface XeroContact {
  ContactID?: string;
  ContactStatus?: string;
  Name?: string;
  FirstName?: string;
  LastName?: string;
  EmailAddress?: string;
  TaxNumber?: string;
  DefaultCurrency?: string;
  Website?: string;
  IsSupplier?: boolean;
  IsCustomer?: boolean;
  Addresses?: XeroAddress[];
  Phones?: XeroPhone[];
  ContactPersons?: XeroContactPerson[];
  UpdatedDateUTC?: string;
}

export interface XeroPaymentSummary {
  PaymentID?: string;
  Date?: string;
  Amount?: number;
}

export interface XeroCreditSummary {
  CreditNoteID?: string;
  Date?: string;
  AppliedAmount?: number;
  Total?: number;
}

export interface XeroAllocation {
  Amount?: number;
  Date?: string;
  Invoice?: { InvoiceID?: string };
}

export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';

/** What invoices, bills and credit notes share. */
export interface XeroDocument {
  Type?: string;
  Status?: string;
  Contact?: XeroContact;
  Date?: string;
  Reference?: string;
  CurrencyCode?: string;
  CurrencyRate?: number;
  LineAmountTypes?: LineAmountTypes;
  LineItems?: XeroLineItem[];
  SubTotal?: number;
  TotalTax?: number;
  Total?: number;
  UpdatedDateUTC?: string;
}

/** Invoices (ACCREC) and bills (ACCPAY). */
export interface XeroInvoice extends XeroDocument {
  InvoiceID?: string;
  DueDate?: string;
  InvoiceNumber?: string;
  TotalDiscount?: number;
  AmountDue?: number;
  AmountPaid?: number;
  AmountCredited?: number;
  Payments?: XeroPaymentSummary[];
  CreditNotes?: XeroCreditSummary[];
  HasAttachments?: boolean;
}

export interface XeroCreditNote extends XeroDocument {
  CreditNoteID?: string;
  CreditNoteNumber?: string;
  RemainingCredit?: number;
  Allocations?: XeroAllocation[];
}

export interface XeroAccountRef {
  AccountID?: string;
  Code?: string;
  Name?: string;
  CurrencyCode?: string;
}

export interface XeroPayment {
  PaymentID?: string;
  Date?: string;
  Amount?: number;
  CurrencyRate?: number;
  Reference?: string;
  PaymentType?: string;
  Status?: string;
  Account?: XeroAccountRef;
  Invoice?: { InvoiceID?: string; Type?: string; CurrencyCode?: string; Contact?: XeroContact };
  UpdatedDateUTC?: string;
}

export interface XeroAccount {
  AccountID?: string;
  Code?: string;
  Name?: string;
  Type?: string;
  Class?: string;
  Status?: string;
  SystemAccount?: string;
  BankAccountType?: string;
  CurrencyCode?: string;
  TaxType?: string;
  UpdatedDateUTC?: string;
}

export interface XeroBankTransfer {
  BankTransferID?: string;
  Date?: string;
  Amount?: number;
  FromBankAccount?: XeroAccountRef;
  ToBankAccount?: XeroAccountRef;
  CreatedDateUTC?: string;
}

export interface XeroJournalLine {
  AccountID?: string;
  AccountCode?: string;
  Description?: string;
  LineAmount?: number;
  TaxType?: string;
  TaxAmount?: number;
}

export interface XeroManualJournal {
  ManualJournalID?: string;
  Date?: string;
  Status?: string;
  Narration?: string;
  LineAmountTypes?: LineAmountTypes;
  JournalLines?: XeroJournalLine[];
  HasAttachments?: boolean;
  UpdatedDateUTC?: string;
}

export interface XeroTaxComponent {
  Name?: string;
  Rate?: number;
  IsCompound?: boolean;
}

export interface XeroTaxRate {
  Name?: string;
  TaxType?: string;
  Status?: string;
  EffectiveRate?: number;
  DisplayTaxRate?: number;
  CanApplyToRevenue?: boolean;
  CanApplyToExpenses?: boolean;
  CanApplyToAssets?: boolean;
  CanApplyToLiabilities?: boolean;
  CanApplyToEquity?: boolean;
  TaxComponents?: XeroTaxComponent[];
}

export interface XeroTrackingOption {
  TrackingOptionID?: string;
  TrackingCategoryID?: string;
  Name?: string;
  Status?: string;
}

export interface XeroTrackingCategory {
  TrackingCategoryID?: string;
  Name?: string;
  Status?: string;
  Options?: XeroTrackingOption[];
}

export interface XeroCurrency {
  Code?: string;
  Description?: string;
}

/** Xero's employee: a name and a status (ACTIVE, ARCHIVED, GDPRREQUEST, DELETED), for expense claims and receipts. */
export interface XeroEmployee {
  EmployeeID?: string;
  Status?: string;
  FirstName?: string;
  LastName?: string;
  ExternalLink?: { Url?: string; Description?: string; LinkType?: string };
  UpdatedDateUTC?: string;
}

export interface XeroOrganisation {
  OrganisationID?: string;
  Name?: string;
  LegalName?: string;
  BaseCurrency?: string;
  TaxNumber?: string;
  RegistrationNumber?: string;
  FinancialYearEndMonth?: number;
  Addresses?: XeroAddress[];
  Phones?: XeroPhone[];
  CreatedDateUTC?: string;
}

export interface XeroAttachment {
  AttachmentID?: string;
  FileName?: string;
  Url?: string;
  MimeType?: string;
  ContentLength?: number;
}

/**
 * An attachment as the connector stores it: Xero's attachment record plus the
 * record it hangs on, in Xero's own nesting style (Payment.Invoice, …), since
 * the attachment listing is per parent and does not name it.
 */
export interface XeroStoredAttachment extends XeroAttachment {
  Invoice?: { InvoiceID: string; Type: string };
  ManualJournal?: { ManualJournalID: string };
}

export interface XeroReportCell {
  Value?: string;
  Attributes?: { Id?: string; Value?: string }[];
}

export interface XeroReportRow {
  RowType?: string;
  Title?: string;
  Cells?: XeroReportCell[];
  Rows?: XeroReportRow[];
}

export interface XeroReport {
  ReportID?: string;
  ReportName?: string;
  ReportTitles?: string[];
  ReportDate?: string;
  UpdatedDateUTC?: string;
  Rows?: XeroReportRow[];
}

/**
 * One month of a report as the connector stores it: the columns of Xero's
 * multi-period BalanceSheet or ProfitAndLoss report cut into one record per period end.
 */
export interface XeroStoredReport {
  ReportID: string;
  ReportName: string | null;
  ReportTitles: string[];
  UpdatedDateUTC: string | null;
  PeriodStart: string;
  PeriodEnd: string;
  BaseCurrency: string | null;
  /** The report's rows with two cells each: the label and this period's value. */
  Rows: XeroReportRow[];
}

export interface XeroConnection {
  id?: string;
  tenantId?: string;
  tenantName?: string;
  tenantType?: string;
}

/** The record type under each list key of Xero's answers. */
export interface XeroLists {
  Accounts: XeroAccount;
  Attachments: XeroAttachment;
  BankTransfers: XeroBankTransfer;
  Contacts: XeroContact;
  CreditNotes: XeroCreditNote;
  Currencies: XeroCurrency;
  Employees: XeroEmployee;
  Invoices: XeroInvoice;
  ManualJournals: XeroManualJournal;
  Organisations: XeroOrganisation;
  Payments: XeroPayment;
  Reports: XeroReport;
  TaxRates: XeroTaxRate;
  TrackingCategories: XeroTrackingCategory;
}

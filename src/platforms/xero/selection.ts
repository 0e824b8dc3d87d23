/**
 * The parts of Xero's Accounting API records (api.xro/2.0, contract 2.9.4 in test/contracts/xero) the connector
 * reads: for each type, the contract component it views and its fields (syntax in scripts/contract-types.ts).
 * scripts/gen-xero-contract.ts emits the types (./generated/types.ts) and the answer validators (./contract.ts)
 * from the contract along this selection: run it after changing one.
 */

export const SELECTION = {
  XeroTracking: { component: 'LineItemTracking', fields: 'TrackingCategoryID TrackingOptionID Name Option' },
  XeroLineItem: {
    component: 'LineItem',
    fields:
      'LineItemID Description Quantity UnitAmount ItemCode AccountCode AccountID:string TaxType TaxAmount LineAmount DiscountRate DiscountAmount Tracking',
  },
  XeroAddress: {
    component: 'Address',
    doc: "A contact's (Address) or the organisation's (AddressForOrganisation): their AddressType enums differ.",
    fields: 'AddressType:string AddressLine1 AddressLine2 AddressLine3 AddressLine4 City Region PostalCode Country',
  },
  XeroPhone: { component: 'Phone', fields: 'PhoneType PhoneNumber PhoneAreaCode PhoneCountryCode' },
  XeroContactPerson: { component: 'ContactPerson', fields: 'FirstName LastName EmailAddress' },
  XeroContact: {
    component: 'Contact',
    fields:
      'ContactID ContactStatus Name FirstName LastName EmailAddress TaxNumber DefaultCurrency Website BankAccountDetails IsSupplier IsCustomer Addresses Phones ContactPersons UpdatedDateUTC',
  },
  XeroPaymentSummary: { component: 'Payment', fields: 'PaymentID Date Amount' },
  XeroCreditSummary: { component: 'CreditNote', fields: 'CreditNoteID Date AppliedAmount Total' },
  XeroAllocation: { component: 'Allocation', fields: 'Amount Date Invoice{InvoiceID}' },
  XeroDocument: {
    component: 'Invoice',
    doc: 'What invoices, bills and credit notes share (their types and statuses differ).',
    fields:
      'Type:string Status:string Contact Date Reference CurrencyCode CurrencyRate LineAmountTypes LineItems SubTotal TotalTax Total UpdatedDateUTC',
  },
  XeroInvoice: {
    component: 'Invoice',
    doc: 'Invoices (ACCREC) and bills (ACCPAY).',
    extends: 'XeroDocument',
    fields:
      'Type Status InvoiceID DueDate InvoiceNumber TotalDiscount AmountDue AmountPaid AmountCredited Payments:XeroPaymentSummary[] CreditNotes:XeroCreditSummary[] HasAttachments',
  },
  XeroCreditNote: {
    component: 'CreditNote',
    extends: 'XeroDocument',
    fields: 'Type Status CreditNoteID CreditNoteNumber RemainingCredit Allocations',
  },
  XeroAccountRef: { component: 'Account', fields: 'AccountID Code Name CurrencyCode' },
  XeroPayment: {
    component: 'Payment',
    fields:
      'PaymentID Date Amount CurrencyRate Reference PaymentType Status Account:XeroAccountRef Invoice{InvoiceID,Type,CurrencyCode,Contact} UpdatedDateUTC',
  },
  XeroAccount: {
    component: 'Account',
    fields: 'AccountID Code Name Type Class Status SystemAccount BankAccountType CurrencyCode TaxType UpdatedDateUTC',
  },
  XeroBankTransfer: {
    component: 'BankTransfer',
    fields: 'BankTransferID Date Amount FromBankAccount:XeroAccountRef ToBankAccount:XeroAccountRef CreatedDateUTC HasAttachments',
  },
  XeroJournalLine: { component: 'ManualJournalLine', fields: 'AccountID AccountCode Description LineAmount TaxType TaxAmount' },
  XeroManualJournal: {
    component: 'ManualJournal',
    fields: 'ManualJournalID Date Status Narration LineAmountTypes JournalLines HasAttachments UpdatedDateUTC',
  },
  XeroTaxComponent: { component: 'TaxComponent', fields: 'Name Rate IsCompound' },
  XeroTaxRate: {
    component: 'TaxRate',
    fields:
      'Name TaxType Status EffectiveRate DisplayTaxRate CanApplyToRevenue CanApplyToExpenses CanApplyToAssets CanApplyToLiabilities CanApplyToEquity TaxComponents',
  },
  XeroTrackingOption: { component: 'TrackingOption', fields: 'TrackingOptionID TrackingCategoryID Name Status' },
  XeroTrackingCategory: { component: 'TrackingCategory', fields: 'TrackingCategoryID Name Status Options' },
  XeroCurrency: { component: 'Currency', fields: 'Code Description' },
  XeroEmployee: {
    component: 'Employee',
    doc: "Xero's employee: a name and a status, for expense claims and receipts.",
    fields: 'EmployeeID Status FirstName LastName ExternalLink{Url,Description,LinkType} UpdatedDateUTC',
  },
  XeroOrganisation: {
    component: 'Organisation',
    fields:
      'OrganisationID Name LegalName BaseCurrency TaxNumber RegistrationNumber FinancialYearEndMonth Addresses:XeroAddress[] Phones CreatedDateUTC',
  },
  XeroAttachment: { component: 'Attachment', fields: 'AttachmentID FileName Url MimeType ContentLength' },
  XeroReportCell: { component: 'ReportCell', fields: 'Value Attributes{Id,Value}' },
  XeroReportRow: { component: 'ReportRows', fields: 'RowType Title Cells Rows:XeroReportRow[]' },
  XeroReport: { component: 'ReportWithRow', fields: 'ReportID ReportName ReportTitles ReportDate UpdatedDateUTC Rows:XeroReportRow[]' },
  XeroConnection: { component: 'Connection', document: 'identity', fields: 'id tenantId tenantName tenantType' },
};

/** The record type under each list key of Xero's answers (emitted as XeroLists). */
export const LISTS = {
  Accounts: 'XeroAccount',
  Attachments: 'XeroAttachment',
  BankTransfers: 'XeroBankTransfer',
  Contacts: 'XeroContact',
  CreditNotes: 'XeroCreditNote',
  Currencies: 'XeroCurrency',
  Employees: 'XeroEmployee',
  Invoices: 'XeroInvoice',
  ManualJournals: 'XeroManualJournal',
  Organisations: 'XeroOrganisation',
  Payments: 'XeroPayment',
  Reports: 'XeroReport',
  TaxRates: 'XeroTaxRate',
  TrackingCategories: 'XeroTrackingCategory',
};

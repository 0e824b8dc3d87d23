/**
 * The parts of QuickBooks Online's records (Accounting API v3 as JSON, Intuit's XML Schema in test/contracts/quickbooks)
 * the connector reads: for each type, the schema type it views and its fields (syntax in scripts/contract-types.ts).
 * QBO leaves out fields that have no value, so nearly every field is optional; amounts are JSON numbers, dates
 * YYYY-MM-DD, times ISO 8601 with the company's UTC offset. scripts/gen-quickbooks-contract.ts emits the types
 * (./generated/native.ts) and the answer validators (./contract-schemas.json) along this selection: run it after a change.
 */

export const SELECTION = {
  QboRef: { component: 'ReferenceType', fields: 'value! name type' },
  QboMetaData: { component: 'ModificationMetaData', fields: 'CreateTime LastUpdatedTime' },
  QboEntity: {
    component: 'IntuitEntity',
    doc: 'Fields every entity has (all but Id optional); status only on ChangeDataCapture tombstones.',
    fields: 'Id! SyncToken MetaData domain sparse status',
  },
  QboAddress: { component: 'PhysicalAddress', fields: 'Id Line1 Line2 Line3 Line4 Line5 City Country CountrySubDivisionCode PostalCode' },
  QboLinkedTxn: { component: 'LinkedTxn', fields: 'TxnId! TxnType! TxnLineId' },
  QboAccount: {
    component: 'Account',
    extends: 'QboEntity',
    fields:
      'Name SubAccount ParentRef FullyQualifiedName Active Classification AccountType AccountSubType AcctNum CurrentBalance CurrentBalanceWithSubAccounts CurrencyRef',
  },
  QboPerson: {
    component: 'NameBase',
    doc: 'Names, contact details and Active, which every name list (vendors, customers, employees) has.',
    extends: 'QboEntity',
    fields:
      'DisplayName Title GivenName MiddleName FamilyName Suffix PrintOnCheckName Active PrimaryEmailAddr{Address} PrimaryPhone{FreeFormNumber} Mobile{FreeFormNumber}',
  },
  QboNameEntity: {
    component: 'Vendor',
    doc: 'Vendor and Customer share the name-list fields.',
    extends: 'QboPerson',
    fields: 'CompanyName WebAddr{URI} BillAddr CurrencyRef Balance AcctNum',
  },
  QboVendor: { component: 'Vendor', extends: 'QboNameEntity', fields: 'TermRef TaxIdentifier Vendor1099 VendorPaymentBankDetail{BankAccountNumber}' },
  QboCustomer: {
    component: 'Customer',
    extends: 'QboNameEntity',
    fields: 'ShipAddr ParentRef Job Level FullyQualifiedName SalesTermRef PrimaryTaxIdentifier Taxable Notes BalanceWithJobs',
  },
  QboEmployee: {
    component: 'Employee',
    doc: 'Employee: a name list without currency, balance or terms; its number, hire and release dates, hourly rates.',
    extends: 'QboPerson',
    fields: 'EmployeeNumber HiredDate ReleasedDate BillableTime BillRate CostRate PrimaryAddr',
  },
  QboTrackingCategory: {
    component: 'Department',
    doc: 'A Class or a Department.',
    extends: 'QboEntity',
    fields: 'Name ParentRef SubDepartment SubClass:boolean FullyQualifiedName Active',
  },
  QboTaxRate: {
    component: 'TaxRate',
    extends: 'QboEntity',
    fields: 'Name Description RateValue AgencyRef Active SpecialTaxType DisplayType EffectiveTaxRate{RateValue,EffectiveDate,EndDate}',
  },
  QboTaxAgency: { component: 'TaxAgency', extends: 'QboEntity', fields: 'DisplayName TaxTrackedOnSales TaxTrackedOnPurchases' },
  QboItem: {
    component: 'Item',
    extends: 'QboEntity',
    fields:
      'Name Sku Type Active Description PurchaseDesc UnitPrice PurchaseCost QtyOnHand IncomeAccountRef ExpenseAccountRef AssetAccountRef PurchaseTaxCodeRef SalesTaxCodeRef',
  },
  QboPaymentMethod: { component: 'PaymentMethod', extends: 'QboEntity', fields: 'Name Active Type' },
  QboTerm: { component: 'Term', extends: 'QboEntity', fields: 'Name Active Type DueDays DiscountDays DiscountPercent' },
  QboLine: {
    component: 'Line',
    doc: 'A line of a transaction; a GroupLineDetail is a bundle (a Group item) sold as one line, whose component lines make its amount.',
    fields: [
      'Id LineNum Description Amount DetailType LinkedTxn',
      'AccountBasedExpenseLineDetail{AccountRef,ClassRef,CustomerRef,TaxCodeRef,TaxAmount,BillableStatus}',
      'ItemBasedExpenseLineDetail{ItemRef,Qty,UnitPrice,ClassRef,CustomerRef,TaxCodeRef,BillableStatus}',
      'SalesItemLineDetail{ItemRef,Qty,UnitPrice,ClassRef,TaxCodeRef,ItemAccountRef,DiscountAmt,DiscountRate}',
      'DiscountLineDetail{PercentBased,DiscountPercent,DiscountAccountRef}',
      'GroupLineDetail{GroupItemRef,Quantity,Line}',
      'JournalEntryLineDetail{PostingType,AccountRef,ClassRef,DepartmentRef,TaxCodeRef,TaxAmount,Entity{Type,EntityRef}}',
      'DepositLineDetail{AccountRef,ClassRef,Entity,PaymentMethodRef,CheckNum,TaxCodeRef}',
    ].join(' '),
  },
  QboTxnTaxDetail: { component: 'TxnTaxDetail', fields: 'TotalTax TxnTaxCodeRef' },
  QboTransaction: {
    component: 'Transaction',
    doc: 'Fields every transaction has.',
    extends: 'QboEntity',
    fields: 'TxnDate DocNumber PrivateNote CurrencyRef ExchangeRate TotalAmt:number Line LinkedTxn DepartmentRef TxnTaxDetail',
  },
  QboBill: { component: 'Bill', extends: 'QboTransaction', fields: 'VendorRef APAccountRef SalesTermRef DueDate Balance' },
  QboVendorCredit: { component: 'VendorCredit', extends: 'QboTransaction', fields: 'VendorRef APAccountRef Balance' },
  QboBillPayment: {
    component: 'BillPayment',
    extends: 'QboTransaction',
    fields: 'VendorRef APAccountRef PayType CheckPayment{BankAccountRef,PrintStatus} CreditCardPayment{CCAccountRef}',
  },
  QboPurchase: {
    component: 'Purchase',
    doc: 'An expense paid on the spot from a bank or card account (AccountRef), by cash, check or card; Credit marks money back (a card refund).',
    extends: 'QboTransaction',
    fields: 'AccountRef PaymentType EntityRef Credit PaymentMethodRef PrintStatus',
  },
  QboDeposit: { component: 'Deposit', extends: 'QboTransaction', fields: 'DepositToAccountRef' },
  QboTransfer: { component: 'Transfer', extends: 'QboTransaction', fields: 'FromAccountRef ToAccountRef Amount ClassRef' },
  QboJournalEntry: { component: 'JournalEntry', extends: 'QboTransaction', fields: 'Adjustment' },
  QboInvoice: {
    component: 'Invoice',
    extends: 'QboTransaction',
    fields: 'CustomerRef ARAccountRef SalesTermRef DueDate Balance BillAddr ShipAddr BillEmail{Address}',
  },
  QboCreditMemo: { component: 'CreditMemo', extends: 'QboTransaction', fields: 'CustomerRef ARAccountRef RemainingCredit Balance' },
  QboPayment: {
    component: 'Payment',
    extends: 'QboTransaction',
    fields: 'CustomerRef DepositToAccountRef ARAccountRef UnappliedAmt PaymentRefNum PaymentMethodRef',
  },
  QboSalesReceipt: {
    component: 'SalesReceipt',
    doc: "A sale paid on the spot: an invoice's sales lines, the account the money went to, how it was paid.",
    extends: 'QboTransaction',
    fields: 'CustomerRef DepositToAccountRef Balance BillAddr ShipAddr BillEmail{Address} CustomerMemo{value} PaymentMethodRef PaymentRefNum',
  },
  QboAttachable: {
    component: 'Attachable',
    extends: 'QboEntity',
    fields: 'FileName Note ContentType Size FileAccessUri TempDownloadUri AttachableRef{EntityRef,IncludeOnSend}',
  },
  QboCompanyInfo: {
    component: 'CompanyInfo',
    extends: 'QboEntity',
    fields:
      'CompanyName LegalName CompanyAddr LegalAddr CustomerCommunicationAddr PrimaryPhone{FreeFormNumber} Email{Address} WebAddr{URI} Country FiscalYearStartMonth CompanyStartDate HomeCurrency:QboRef',
  },
  QboPreferences: {
    component: 'Preferences',
    extends: 'QboEntity',
    fields: 'CurrencyPrefs{MultiCurrencyEnabled,HomeCurrency} SalesFormsPrefs{CustomField{CustomField{Name,Type,StringValue,BooleanValue}}}',
  },
  QboCompanyCurrency: {
    component: 'CompanyCurrency',
    doc: 'A currency a multicurrency company added to its list (the Currency Center); the home currency is in Preferences.',
    extends: 'QboEntity',
    fields: 'Code Name Active',
  },
  QboExchangeRate: {
    component: 'ExchangeRate',
    doc: 'The rate (units of the target currency one unit of the source is worth) from a date on; the target is the home currency unless it says otherwise. It has no Id.',
    fields: 'SourceCurrencyCode TargetCurrencyCode Rate AsOfDate SyncToken MetaData',
  },
  QboColData: { component: 'ColData', doc: 'One cell of a report row.', fields: 'value id' },
  QboReportRow: { component: 'Row', fields: 'type group Header{ColData} Rows{Row:QboReportRow[]} Summary{ColData} ColData' },
  QboReportColumn: { component: 'Column', fields: 'ColTitle ColType MetaData{Name!,Value!}' },
  QboReport: {
    component: 'Report',
    fields: 'Header{ReportName,Time,StartPeriod,EndPeriod,Currency,ReportBasis:string,SummarizeColumnsBy} Columns{Column} Rows{Row}',
  },
};

/**
 * Each entity the connector reads, under the key QBO answers it with (in QueryResponse, in CDC, and alone on a read by
 * id), which is also its schema type; emitted as QboEntities.
 */
export const ENTITIES = {
  Account: 'QboAccount',
  Attachable: 'QboAttachable',
  Bill: 'QboBill',
  BillPayment: 'QboBillPayment',
  Class: 'QboTrackingCategory',
  CompanyCurrency: 'QboCompanyCurrency',
  CompanyInfo: 'QboCompanyInfo',
  CreditMemo: 'QboCreditMemo',
  Customer: 'QboCustomer',
  Department: 'QboTrackingCategory',
  Deposit: 'QboDeposit',
  Employee: 'QboEmployee',
  ExchangeRate: 'QboExchangeRate',
  Invoice: 'QboInvoice',
  Item: 'QboItem',
  JournalEntry: 'QboJournalEntry',
  Payment: 'QboPayment',
  PaymentMethod: 'QboPaymentMethod',
  Preferences: 'QboPreferences',
  Purchase: 'QboPurchase',
  SalesReceipt: 'QboSalesReceipt',
  TaxAgency: 'QboTaxAgency',
  TaxRate: 'QboTaxRate',
  Term: 'QboTerm',
  Transfer: 'QboTransfer',
  Vendor: 'QboVendor',
  VendorCredit: 'QboVendorCredit',
};

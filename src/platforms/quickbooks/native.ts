/**
 * QuickBooks Online records as the Accounting API (v3, JSON) returns them,
 * typed only as far as the connector reads them. QBO leaves out fields that
 * have no value, so nearly everything is optional; amounts are JSON numbers,
 * dates YYYY-MM-DD, times ISO 8601 with the company's UTC offset.
 * test/fixtures/quickbooks/README.md says where each shape was recorded from.
 */

export interface QboRef {
  value: string;
  name?: string;
  type?: string;
}

export interface QboMetaData {
  CreateTime?: string;
  LastUpdatedTime?: string;
}

/** Fields every entity has (all but Id optional: QBO leaves out what has no value). */
export interface QboEntity {
  Id: string;
  SyncToken?: string;
  MetaData?: QboMetaData;
  domain?: string;
  sparse?: boolean;
  /** Only on ChangeDataCapture tombstones. */
  status?: string;
}

export interface QboAddress {
  Id?: string;
  Line1?: string;
  Line2?: string;
  Line3?: string;
  Line4?: string;
  Line5?: string;
  City?: string;
  Country?: string;
  CountrySubDivisionCode?: string;
  PostalCode?: string;
}

export interface QboLinkedTxn {
  TxnId: string;
  TxnType: string;
  TxnLineId?: string;
}

export interface QboAccount extends QboEntity {
  Name?: string;
  SubAccount?: boolean;
  ParentRef?: QboRef;
  FullyQualifiedName?: string;
  Active?: boolean;
  Classification?: string;
  AccountType?: string;
  AccountSubType?: string;
  AcctNum?: string;
  CurrentBalance?: number;
  CurrentBalanceWithSubAccounts?: number;
  CurrencyRef?: QboRef;
}

/** Names, contact details and Active, which every name list (vendors, customers, employees) has. */
export interface QboPerson extends QboEntity {
  DisplayName?: string;
  Title?: string;
  GivenName?: string;
  MiddleName?: string;
  FamilyName?: string;
  Suffix?: string;
  PrintOnCheckName?: string;
  Active?: boolean;
  PrimaryEmailAddr?: { Address?: string };
  PrimaryPhone?: { FreeFormNumber?: string };
  Mobile?: { FreeFormNumber?: string };
}

/** Vendor and Customer share the name-list fields. */
export interface QboNameEntity extends QboPerson {
  CompanyName?: string;
  WebAddr?: { URI?: string };
  BillAddr?: QboAddress;
  CurrencyRef?: QboRef;
  Balance?: number;
  AcctNum?: string;
}

export interface QboVendor extends QboNameEntity {
  TermRef?: QboRef;
  TaxIdentifier?: string;
  Vendor1099?: boolean;
}

export interface QboCustomer extends QboNameEntity {
  ShipAddr?: QboAddress;
  ParentRef?: QboRef;
  Job?: boolean;
  Level?: number;
  FullyQualifiedName?: string;
  SalesTermRef?: QboRef;
  PrimaryTaxIdentifier?: string;
  Taxable?: boolean;
  Notes?: string;
  BalanceWithJobs?: number;
}

/** Employee: a name list without currency, balance or terms; its number, hire and release dates, hourly rates. */
export interface QboEmployee extends QboPerson {
  EmployeeNumber?: string;
  HiredDate?: string;
  ReleasedDate?: string;
  BillableTime?: boolean;
  BillRate?: number;
  CostRate?: number;
  PrimaryAddr?: QboAddress;
}

export interface QboTrackingCategory extends QboEntity {
  Name?: string;
  ParentRef?: QboRef;
  SubDepartment?: boolean;
  SubClass?: boolean;
  FullyQualifiedName?: string;
  Active?: boolean;
}

export interface QboTaxRate extends QboEntity {
  Name?: string;
  Description?: string;
  RateValue?: number;
  AgencyRef?: QboRef;
  Active?: boolean;
  SpecialTaxType?: string;
  DisplayType?: string;
  EffectiveTaxRate?: { RateValue?: number; EffectiveDate?: string; EndDate?: string }[];
}

export interface QboTaxAgency extends QboEntity {
  DisplayName?: string;
  TaxTrackedOnSales?: boolean;
  TaxTrackedOnPurchases?: boolean;
}

export interface QboItem extends QboEntity {
  Name?: string;
  Sku?: string;
  Type?: string;
  Active?: boolean;
  Description?: string;
  PurchaseDesc?: string;
  UnitPrice?: number;
  PurchaseCost?: number;
  QtyOnHand?: number;
  IncomeAccountRef?: QboRef;
  ExpenseAccountRef?: QboRef;
  AssetAccountRef?: QboRef;
  PurchaseTaxCodeRef?: QboRef;
  SalesTaxCodeRef?: QboRef;
}

export interface QboTerm extends QboEntity {
  Name?: string;
  Active?: boolean;
  Type?: string;
  DueDays?: number;
  DiscountDays?: number;
  DiscountPercent?: number;
}

/** A line of a bill or vendor credit (expense lines), of an invoice or credit memo (sales lines). */
export interface QboLine {
  Id?: string;
  LineNum?: number;
  Description?: string;
  Amount?: number;
  DetailType?: string;
  LinkedTxn?: QboLinkedTxn[];
  AccountBasedExpenseLineDetail?: {
    AccountRef?: QboRef;
    ClassRef?: QboRef;
    CustomerRef?: QboRef;
    TaxCodeRef?: QboRef;
    TaxAmount?: number;
    BillableStatus?: string;
  };
  ItemBasedExpenseLineDetail?: {
    ItemRef?: QboRef;
    Qty?: number;
    UnitPrice?: number;
    ClassRef?: QboRef;
    CustomerRef?: QboRef;
    TaxCodeRef?: QboRef;
    BillableStatus?: string;
  };
  SalesItemLineDetail?: {
    ItemRef?: QboRef;
    Qty?: number;
    UnitPrice?: number;
    ClassRef?: QboRef;
    TaxCodeRef?: QboRef;
    ItemAccountRef?: QboRef;
    DiscountAmt?: number;
    DiscountRate?: number;
  };
  DiscountLineDetail?: { PercentBased?: boolean; DiscountPercent?: number; DiscountAccountRef?: QboRef };
  /** A bundle (a Group item) sold as one line: its component lines, whose amounts make the group's. */
  GroupLineDetail?: { GroupItemRef?: QboRef; Quantity?: number; Line?: QboLine[] };
  JournalEntryLineDetail?: {
    PostingType?: 'Debit' | 'Credit';
    AccountRef?: QboRef;
    ClassRef?: QboRef;
    DepartmentRef?: QboRef;
    TaxCodeRef?: QboRef;
    TaxAmount?: number;
    Entity?: { Type?: string; EntityRef?: QboRef };
  };
  DepositLineDetail?: {
    AccountRef?: QboRef;
    ClassRef?: QboRef;
    Entity?: QboRef;
    PaymentMethodRef?: QboRef;
    CheckNum?: string;
    TaxCodeRef?: QboRef;
  };
}

export interface QboTxnTaxDetail {
  TotalTax?: number;
  TxnTaxCodeRef?: QboRef;
}

/** Fields every transaction has. */
export interface QboTransaction extends QboEntity {
  TxnDate?: string;
  DocNumber?: string;
  PrivateNote?: string;
  CurrencyRef?: QboRef;
  ExchangeRate?: number;
  TotalAmt?: number;
  Line?: QboLine[];
  LinkedTxn?: QboLinkedTxn[];
  DepartmentRef?: QboRef;
  TxnTaxDetail?: QboTxnTaxDetail;
}

export interface QboBill extends QboTransaction {
  VendorRef?: QboRef;
  APAccountRef?: QboRef;
  SalesTermRef?: QboRef;
  DueDate?: string;
  Balance?: number;
}

export interface QboVendorCredit extends QboTransaction {
  VendorRef?: QboRef;
  APAccountRef?: QboRef;
  Balance?: number;
}

export interface QboBillPayment extends QboTransaction {
  VendorRef?: QboRef;
  APAccountRef?: QboRef;
  PayType?: 'Check' | 'CreditCard';
  CheckPayment?: { BankAccountRef?: QboRef; PrintStatus?: string };
  CreditCardPayment?: { CCAccountRef?: QboRef };
}

export interface QboDeposit extends QboTransaction {
  DepositToAccountRef?: QboRef;
}

export interface QboTransfer extends QboTransaction {
  FromAccountRef?: QboRef;
  ToAccountRef?: QboRef;
  Amount?: number;
  ClassRef?: QboRef;
}

export interface QboJournalEntry extends QboTransaction {
  Adjustment?: boolean;
}

export interface QboInvoice extends QboTransaction {
  CustomerRef?: QboRef;
  ARAccountRef?: QboRef;
  SalesTermRef?: QboRef;
  DueDate?: string;
  Balance?: number;
  BillAddr?: QboAddress;
  ShipAddr?: QboAddress;
  BillEmail?: { Address?: string };
}

export interface QboCreditMemo extends QboTransaction {
  CustomerRef?: QboRef;
  ARAccountRef?: QboRef;
  RemainingCredit?: number;
  Balance?: number;
}

export interface QboPayment extends QboTransaction {
  CustomerRef?: QboRef;
  DepositToAccountRef?: QboRef;
  ARAccountRef?: QboRef;
  UnappliedAmt?: number;
  PaymentRefNum?: string;
  PaymentMethodRef?: QboRef;
}

/** A sale paid on the spot: an invoice's sales lines, the account the money went to, how it was paid. */
export interface QboSalesReceipt extends QboTransaction {
  CustomerRef?: QboRef;
  DepositToAccountRef?: QboRef;
  Balance?: number;
  BillAddr?: QboAddress;
  ShipAddr?: QboAddress;
  BillEmail?: { Address?: string };
  CustomerMemo?: { value?: string };
  PaymentMethodRef?: QboRef;
  PaymentRefNum?: string;
}

export interface QboAttachable extends QboEntity {
  FileName?: string;
  Note?: string;
  ContentType?: string;
  Size?: number;
  FileAccessUri?: string;
  TempDownloadUri?: string;
  AttachableRef?: { EntityRef?: QboRef; IncludeOnSend?: boolean }[];
}

export interface QboCompanyInfo extends QboEntity {
  CompanyName?: string;
  LegalName?: string;
  CompanyAddr?: QboAddress;
  LegalAddr?: QboAddress;
  CustomerCommunicationAddr?: QboAddress;
  PrimaryPhone?: { FreeFormNumber?: string };
  Email?: { Address?: string };
  WebAddr?: { URI?: string };
  Country?: string;
  FiscalYearStartMonth?: string;
  CompanyStartDate?: string;
  /** Not part of CompanyInfo: the connector copies Preferences.CurrencyPrefs.HomeCurrency here when it reads the company. */
  HomeCurrency?: QboRef;
}

export interface QboPreferences extends QboEntity {
  CurrencyPrefs?: { MultiCurrencyEnabled?: boolean; HomeCurrency?: QboRef };
}

/** A currency a multicurrency company added to its list (the Currency Center); the home currency is in Preferences. */
export interface QboCompanyCurrency extends QboEntity {
  Code?: string;
  Name?: string;
  Active?: boolean;
}

/** The rate of a currency into another (the home currency unless it says otherwise) from a date on; it has no Id. */
export interface QboExchangeRate {
  SourceCurrencyCode?: string;
  TargetCurrencyCode?: string;
  /** Units of the target currency one unit of the source currency is worth. */
  Rate?: number;
  AsOfDate?: string;
  SyncToken?: string;
  MetaData?: QboMetaData;
}

/** One cell of a report row. */
export interface QboColData {
  value?: string;
  id?: string;
}

export interface QboReportRow {
  type?: 'Section' | 'Data';
  group?: string;
  Header?: { ColData?: QboColData[] };
  Rows?: { Row?: QboReportRow[] };
  Summary?: { ColData?: QboColData[] };
  ColData?: QboColData[];
}

export interface QboReportColumn {
  ColTitle?: string;
  ColType?: string;
  MetaData?: { Name: string; Value: string }[];
}

export interface QboReport {
  Header?: {
    ReportName?: string;
    Time?: string;
    StartPeriod?: string;
    EndPeriod?: string;
    Currency?: string;
    ReportBasis?: string;
    SummarizeColumnsBy?: string;
  };
  Columns?: { Column?: QboReportColumn[] };
  Rows?: { Row?: QboReportRow[] };
}

/**
 * One month of a report (BalanceSheet, ProfitAndLoss, CashFlow) as the connector
 * stores it: the report's header and rows with the values of that month's column only.
 */
export interface QboReportMonth {
  Id: string;
  StartDate: string;
  EndDate: string;
  Currency: string;
  ReportTime?: string;
  /** Accrual or Cash, as the report's header says. */
  ReportBasis?: string;
  Rows: QboReportRow[];
}

/** Error answer of the data API. QBO writes `Fault` for data errors and `fault` (lower case) for some gateway errors. */
export interface QboFault {
  Error?: { Message?: string; Detail?: string; code?: string; element?: string }[];
  type?: string;
}

/**
 * Each entity the connector reads, under the key QBO answers it with (in QueryResponse, in CDC, and alone on a read
 * by id). scripts/gen-quickbooks-contract.ts checks these types against Intuit's published schema and cuts the answer
 * validators (./contract.ts) along them: run it after changing a type.
 */
export interface QboEntities {
  Account: QboAccount;
  Attachable: QboAttachable;
  Bill: QboBill;
  BillPayment: QboBillPayment;
  Class: QboTrackingCategory;
  CompanyCurrency: QboCompanyCurrency;
  CompanyInfo: QboCompanyInfo;
  CreditMemo: QboCreditMemo;
  Customer: QboCustomer;
  Department: QboTrackingCategory;
  Deposit: QboDeposit;
  Employee: QboEmployee;
  ExchangeRate: QboExchangeRate;
  Invoice: QboInvoice;
  Item: QboItem;
  JournalEntry: QboJournalEntry;
  Payment: QboPayment;
  Preferences: QboPreferences;
  SalesReceipt: QboSalesReceipt;
  TaxAgency: QboTaxAgency;
  TaxRate: QboTaxRate;
  Term: QboTerm;
  Transfer: QboTransfer;
  Vendor: QboVendor;
  VendorCredit: QboVendorCredit;
}

/**
 * The sandbox platform's own record format, as its REST API serves it:
 * PascalCase fields, ids like "BILL-000123", amounts as decimal text, business
 * dates as YYYY-MM-DD. Deliberately unlike the unified model, so the connector's
 * mapping is real work. Optional fields are left out of the JSON when empty.
 */

import type { AttachmentParentType } from './collections.ts';

/** Decimal text with two places, e.g. "1234.50". */
export type Money = string;
/** YYYY-MM-DD. */
export type DateOnly = string;

export type NativeMeta = { Id: string; CreatedAt: string; UpdatedAt: string };

export type TxnType = 'Bill' | 'BillPayment' | 'VendorCredit' | 'Invoice' | 'Payment' | 'CreditNote';

/** An allocation between two documents (a payment applied to a bill, …). */
export type LinkedTxn = { TxnId: string; TxnType: TxnType; Date: DateOnly; Amount: Money };

export type TrackingRefs = { ClassId?: string; DepartmentId?: string; LocationId?: string; ProjectId?: string; CustomerId?: string };

/** Line of bills, invoices, credits, expenses and purchase orders. Total = SubTotal - Discount + Tax. */
export type NativeLine = TrackingRefs & {
  LineId: string;
  Description?: string;
  AccountId: string;
  ItemId?: string;
  Qty: number;
  UnitPrice: Money;
  DiscountPct?: string;
  Discount: Money;
  SubTotal: Money;
  TaxCodeId?: string;
  Tax: Money;
  Total: Money;
};

export type DocStatus = 'Draft' | 'Open' | 'PartiallyPaid' | 'Paid' | 'Void';
export type CreditStatus = 'Open' | 'PartiallyApplied' | 'Applied' | 'Void';

type DocTotals = { Lines: NativeLine[]; SubTotal: Money; TotalDiscount: Money; TotalTax: Money; Total: Money };

export type NativeBill = NativeMeta &
  DocTotals & {
    DocNumber: string;
    VendorId: string;
    APAccountId: string;
    TermId?: string;
    SubsidiaryId?: string;
    TxnDate: DateOnly;
    DueDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    Status: DocStatus;
    AmountDue: Money;
    PurchaseOrderIds: string[];
    LinkedTxns: LinkedTxn[];
    Memo?: string;
  };

export type NativeInvoice = NativeMeta &
  DocTotals & {
    DocNumber: string;
    CustomerId: string;
    ARAccountId: string;
    TermId?: string;
    SubsidiaryId?: string;
    TxnDate: DateOnly;
    DueDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    Status: DocStatus;
    AmountDue: Money;
    LinkedTxns: LinkedTxn[];
    Memo?: string;
  };

export type NativeVendorCredit = NativeMeta &
  DocTotals & {
    DocNumber: string;
    VendorId: string;
    APAccountId: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    Status: CreditStatus;
    Remaining: Money;
    LinkedTxns: LinkedTxn[];
    Memo?: string;
  };

export type NativeCreditNote = NativeMeta &
  DocTotals & {
    DocNumber: string;
    CustomerId: string;
    ARAccountId: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    Status: CreditStatus;
    Remaining: Money;
    LinkedTxns: LinkedTxn[];
    Memo?: string;
  };

export type PaymentStatus = 'Active' | 'Voided';

export type NativeBillPayment = NativeMeta & {
  DocNumber?: string;
  VendorId: string;
  BankAccountId: string;
  TxnDate: DateOnly;
  CurrencyCode: string;
  ExchangeRate: string;
  Reference?: string;
  Memo?: string;
  Status: PaymentStatus;
  Amount: Money;
  LinkedTxns: LinkedTxn[];
};

export type NativePayment = NativeMeta & {
  CustomerId: string;
  DepositToAccountId: string;
  TxnDate: DateOnly;
  CurrencyCode: string;
  ExchangeRate: string;
  PaymentMethod: string;
  Reference?: string;
  Memo?: string;
  Status: PaymentStatus;
  Amount: Money;
  LinkedTxns: LinkedTxn[];
  DepositId?: string;
};

export type NativeDepositLine = TrackingRefs & {
  LineId: string;
  AccountId: string;
  Amount: Money;
  Description?: string;
  VendorId?: string;
  TaxCodeId?: string;
};

export type NativeDeposit = NativeMeta & {
  BankAccountId: string;
  TxnDate: DateOnly;
  CurrencyCode: string;
  Total: Money;
  Memo?: string;
  DepartmentId?: string;
  SubsidiaryId?: string;
  /** Customer payments taken out of undeposited funds. */
  Payments: { PaymentId: string; Amount: Money }[];
  Lines: NativeDepositLine[];
};

export type NativeTransfer = NativeMeta &
  TrackingRefs & {
    FromAccountId: string;
    ToAccountId: string;
    Amount: Money;
    TxnDate: DateOnly;
    CurrencyCode: string;
    Memo?: string;
    SubsidiaryId?: string;
  };

export type NativeJournalLine = { LineId: string; AccountId: string; Debit?: Money; Credit?: Money; Description?: string; TaxCodeId?: string };

export type NativeJournalEntry = NativeMeta & {
  DocNumber: string;
  TxnDate: DateOnly;
  CurrencyCode: string;
  ExchangeRate: string;
  Memo?: string;
  SubsidiaryId?: string;
  Status: 'Posted' | 'Voided';
  Lines: NativeJournalLine[];
};

export type NativeExpense = NativeMeta &
  DocTotals & {
    PaymentAccountId: string;
    PaymentType: 'Cash' | 'Check' | 'CreditCard';
    VendorId?: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    Reference?: string;
    Memo?: string;
    Status: 'Posted' | 'Voided';
  };

export type NativePurchaseOrder = NativeMeta &
  DocTotals & {
    DocNumber: string;
    VendorId: string;
    TxnDate: DateOnly;
    ExpectedDate: DateOnly;
    Status: 'Draft' | 'Open' | 'Closed';
    CurrencyCode: string;
    ShipToLocationId?: string;
    Memo?: string;
  };

/**
 * An order a customer placed. It posts nothing; once invoiced it is Closed and InvoiceIds names the invoices made
 * from it, which carry its lines.
 */
export type NativeSalesOrder = NativeMeta &
  DocTotals & {
    DocNumber: string;
    CustomerId: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    Status: 'PendingApproval' | 'Open' | 'Closed';
    TermId?: string;
    CustomerPoNumber?: string;
    Memo?: string;
    InvoiceIds: string[];
  };

/**
 * A cash sale: the lines are sold and paid for at once, the money deposited to DepositToAccountId (a bank account).
 * Posts like an invoice whose receivable is that account; nothing is ever due.
 */
export type NativeSalesReceipt = NativeMeta &
  DocTotals & {
    DocNumber: string;
    CustomerId?: string;
    DepositToAccountId: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    PaymentMethod: 'Cash' | 'Card' | 'Check';
    Reference?: string;
    /** Shown to the customer. */
    Memo?: string;
    /** For the business only. */
    InternalMemo?: string;
    BillEmail?: string;
    BillAddress?: NativeAddress;
  };

/**
 * Money paid back to a customer out of RefundFromAccountId (a bank account) for the lines refunded: a sales receipt
 * in reverse (QuickBooks' refund receipt). The lines take the refund out of the income they sold into, and their tax
 * out of sales tax.
 */
export type NativeCustomerRefund = NativeMeta &
  DocTotals & {
    DocNumber: string;
    CustomerId?: string;
    RefundFromAccountId: string;
    TxnDate: DateOnly;
    CurrencyCode: string;
    ExchangeRate: string;
    PaymentMethod: 'Cash' | 'Card' | 'Check';
    /** The sales receipt refunded, when the refund was for one. */
    SalesReceiptId?: string;
    Memo?: string;
  };

export type NativeAddress = {
  Kind: 'Billing' | 'Shipping' | 'Remittance';
  Line1: string;
  Line2?: string;
  City: string;
  Region: string;
  PostalCode: string;
  Country: string;
};
export type NativePerson = { FirstName: string; LastName: string; Email?: string; Phone?: string };

export type NativeContact = NativeMeta & {
  DisplayName: string;
  ContactName?: string;
  Email?: string;
  Phone?: string;
  CurrencyCode: string;
  TermId?: string;
  ParentId?: string;
  SubsidiaryIds: string[];
  TaxNumber?: string;
  CompanyNumber?: string;
  Website?: string;
  Status: 'Active' | 'Archived';
  Addresses: NativeAddress[];
  People: NativePerson[];
};
export type NativeVendor = NativeContact;
export type NativeCustomer = NativeContact;

export type AccountClass = 'Asset' | 'Liability' | 'Equity' | 'Revenue' | 'Expense';
export type AccountType =
  | 'Bank'
  | 'AccountsReceivable'
  | 'OtherCurrentAsset'
  | 'FixedAsset'
  | 'OtherAsset'
  | 'AccountsPayable'
  | 'CreditCard'
  | 'OtherCurrentLiability'
  | 'LongTermLiability'
  | 'Equity'
  | 'Income'
  | 'OtherIncome'
  | 'CostOfGoodsSold'
  | 'Expense'
  | 'OtherExpense';
/** Accounts the platform itself posts to. */
export type AccountRole = 'AP' | 'AR' | 'UndepositedFunds' | 'InputTax' | 'SalesTax' | 'RetainedEarnings' | 'OwnerCapital';

export type NativeAccount = NativeMeta & {
  Code: string;
  Name: string;
  Class: AccountClass;
  Type: AccountType;
  Status: 'Active' | 'Archived';
  CurrencyCode: string;
  Balance: Money;
  ParentId?: string;
  SubsidiaryIds: string[];
  Description?: string;
  Role?: AccountRole;
  BankAccountNumber?: string;
};

export type NativeItem = NativeMeta & {
  Sku: string;
  Name: string;
  Kind: 'Inventory' | 'Service' | 'NonInventory';
  Description?: string;
  SalesPrice: Money;
  PurchaseCost: Money;
  IncomeAccountId: string;
  ExpenseAccountId: string;
  Status: 'Active' | 'Archived';
};

export type NativeTaxComponent = { Name: string; Rate: string; Compound: boolean; Purchases: boolean; Sales: boolean; AgencyId?: string };
export type NativeTaxCode = NativeMeta & {
  Code: string;
  Name: string;
  Status: 'Active' | 'Archived';
  Components: NativeTaxComponent[];
  TotalRate: string;
  EffectiveRate: string;
  SubsidiaryIds: string[];
};

export type NativeTaxAgency = NativeMeta & { Name: string; Country: string; RegistrationNumber?: string };
/** How money is paid: QuickBooks' payment methods (Cash, Check, cards), whose Type tells cards from the rest. */
export type NativePaymentMethod = NativeMeta & {
  Name: string;
  Kind: 'Cash' | 'Check' | 'CreditCard' | 'BankTransfer' | 'DirectDebit';
  Status: 'Active' | 'Archived';
};
/** A place whose jurisdictions are taxed together (a city of the business's country), as sales tax areas are kept. */
export type NativeTaxArea = NativeMeta & { Code: string; Description: string; Country: string; Region: string; Status: 'Active' | 'Archived' };
export type NativeTerm = NativeMeta & { Name: string; DueDays: number; DiscountDays?: number; DiscountPct?: string; Status: 'Active' | 'Archived' };
export type NativeSubsidiary = NativeMeta & {
  Name: string;
  LegalName: string;
  Country: string;
  CurrencyCode: string;
  ParentId?: string;
  Status: 'Active' | 'Archived';
};
export type NativeDepartment = NativeMeta & { Name: string; ParentId?: string; Status: 'Active' | 'Archived' };
export type NativeClass = NativeDepartment;
/** Someone on the payroll: in a department, reporting to another employee (the director to no one). */
export type NativeEmployee = NativeMeta & {
  EmployeeNumber: string;
  FirstName: string;
  LastName: string;
  JobTitle: string;
  Email: string;
  DepartmentId: string;
  ManagerId?: string;
  HireDate: DateOnly;
  EndDate?: DateOnly;
  Status: 'Active' | 'OnLeave' | 'Terminated';
  /** Gross yearly salary in the company's currency. */
  AnnualSalary: Money;
  CustomFields: { Name: string; Value: string }[];
};
export type NativeLocation = NativeMeta & {
  Name: string;
  ParentId?: string;
  Status: 'Active' | 'Archived';
  SubsidiaryIds: string[];
  Address?: NativeAddress;
};
export type NativeProject = NativeMeta & {
  Name: string;
  Status: 'Active' | 'Completed' | 'OnHold';
  Category?: string;
  CustomerId?: string;
  StartDate: DateOnly;
};
export type NativeTask = NativeMeta & {
  Name: string;
  ProjectId: string;
  Status: 'NotStarted' | 'Planned' | 'InProgress' | 'Completed' | 'OnHold';
  DueDate?: DateOnly;
};
export type NativeCurrency = NativeMeta & { Code: string; Name: string; Symbol: string; ExchangeRate: string; IsBase: boolean };
/**
 * A rate of one of the business's currencies into its home currency from a date on, in QuickBooks Online's direction:
 * Rate is decimal text, units of TargetCurrencyCode (the home currency) that one unit of SourceCurrencyCode is worth.
 */
export type NativeExchangeRate = NativeMeta & { SourceCurrencyCode: string; TargetCurrencyCode: string; Rate: string; AsOfDate: DateOnly };

export type NativeCompany = NativeMeta & {
  LegalName: string;
  TradingName: string;
  BaseCurrency: string;
  Country: string;
  FiscalYearStartMonth: number;
  Email: string;
  Phone: string;
  Website: string;
  TaxNumber: string;
  CompanyNumber: string;
  Industry: string;
  Address: NativeAddress;
};

export type NativeFeedAccount = NativeMeta & {
  AccountId?: string;
  Name: string;
  Kind: 'Bank' | 'Checking' | 'Savings' | 'CreditCard';
  CurrencyCode: string;
  AccountNumber: string;
  RoutingNumber?: string;
  Institution: string;
  InstitutionAccountId: string;
  ParentFeedId?: string;
  ContactId?: string;
  FeedStatus: 'Active' | 'Inactive';
  Ready: boolean;
  CurrentBalance: Money;
  AvailableBalance?: Money;
  CreditLimit?: Money;
  AvailableCredit?: Money;
  LastStatementDate?: DateOnly;
  LastStatementBalance?: Money;
  TransactionStartDate: DateOnly;
  NextPaymentDate?: DateOnly;
  NextPaymentAmount?: Money;
  MinimumPayment?: Money;
  PastDue?: Money;
  FinanceCharges?: Money;
  PurchasesApr?: string;
  LineOfBusiness?: string;
  PaymentNetworks?: string[];
  /** Country of the institution's account (ISO 3166-1 alpha-2), when the client gave it. */
  Country?: string;
};

export type NativeAttachment = NativeMeta & {
  FileName: string;
  ContentType: string;
  Size: number;
  Content: string;
  ParentType: AttachmentParentType;
  ParentId: string;
};

export type NativeReportRow = { Name: string; Amount: Money; AccountId?: string; Kind?: 'Group' | 'Account' | 'NetIncome'; Rows: NativeReportRow[] };
export type NativeBalanceSheet = NativeMeta & {
  PeriodStart: DateOnly;
  PeriodEnd: DateOnly;
  CurrencyCode: string;
  Assets: NativeReportRow;
  Liabilities: NativeReportRow;
  Equity: NativeReportRow;
  TotalAssets: Money;
  TotalLiabilities: Money;
  TotalEquity: Money;
};

/** A month's profit and loss: one Account row per income and expense account (natural signs), grouped. */
export type NativeIncomeStatement = NativeMeta & {
  PeriodStart: DateOnly;
  PeriodEnd: DateOnly;
  CurrencyCode: string;
  Basis: 'Accrual';
  Income: NativeReportRow;
  CostOfSales: NativeReportRow;
  Expenses: NativeReportRow;
  TotalIncome: Money;
  NetSales: Money;
  TotalCostOfSales: Money;
  GrossProfit: Money;
  TotalExpenses: Money;
  NetOperatingIncome: Money;
  NetIncome: Money;
};

/**
 * A month's cash flow (indirect method): Net Income and one Account row per other non-cash account, its change
 * as it moved cash (the negated debit movement). Cash is the Bank accounts.
 */
export type NativeCashFlow = NativeMeta & {
  PeriodStart: DateOnly;
  PeriodEnd: DateOnly;
  CurrencyCode: string;
  StartingBalance: Money;
  EndingBalance: Money;
  Operating: NativeReportRow;
  Investing: NativeReportRow;
  Financing: NativeReportRow;
  TotalOperating: Money;
  TotalInvesting: Money;
  TotalFinancing: Money;
  CashIn: Money;
  CashOut: Money;
};

export type NativeOrderLine = {
  LineId: string;
  ProductId: string;
  VariantId: string;
  Title: string;
  Sku: string;
  Price: Money;
  UnitCost: Money;
  Qty: number;
};
export type NativeOrderAddress = {
  FirstName: string;
  LastName: string;
  Line1: string;
  Line2?: string;
  City: string;
  Region: string;
  PostalCode: string;
  CountryCode: string;
  Phone?: string;
};
export type NativeOrder = NativeMeta & {
  OrderNumber: string;
  Status: 'Open' | 'Closed' | 'Cancelled';
  FinancialStatus: 'Pending' | 'Paid' | 'PartiallyRefunded' | 'Refunded';
  FulfillmentStatus: 'Unfulfilled' | 'Partial' | 'Fulfilled';
  CurrencyCode: string;
  Lines: NativeOrderLine[];
  Shipping: Money;
  Discount: Money;
  Tax: Money;
  Total: Money;
  Buyer: { Id: string; Email: string; FirstName: string; LastName: string; OrdersCount: number; Verified: boolean; Phone?: string };
  BillingAddress: NativeOrderAddress;
  ShippingAddress: NativeOrderAddress;
  Fulfillments: NativeFulfillment[];
  Refunds: { LineId: string; Qty: number }[];
};

/** A shipment of an order's lines; Quantities (by LineId) where it ships part of a line, else every line named in full. */
export type NativeFulfillment = {
  Carrier: string;
  Service: string | null;
  TrackingNumber: string;
  TrackingUrl: string | null;
  LineIds: string[];
  Quantities?: Record<string, number>;
};

/**
 * A payout of the web shop's card gateway to the checking account: the charges and refunds of a week, less the
 * gateway's fees. A paid payout is posted to the books by the journal entry JournalEntryId.
 */
export type NativePayout = NativeMeta & {
  ArrivalDate: DateOnly;
  Amount: Money;
  CurrencyCode: string;
  Status: 'Paid' | 'InTransit';
  Schedule: 'Automatic';
  Method: 'standard';
  GatewayAccountId: string;
  DestinationAccountId: string;
  DestinationLast4: string;
  DestinationBank: string;
  RoutingNumber: string;
  JournalEntryId?: string;
  Transactions: NativePayoutTransaction[];
};
export type NativePayoutTransaction = {
  Id: string;
  OrderId: string;
  Kind: 'Charge' | 'Refund';
  Amount: Money;
  Fee: Money;
  CreatedAt: string;
};

/** The business's web shop: the store its orders and payouts belong to. */
export type NativeStore = NativeMeta & { Name: string; Domain: string; Currency: string; ContactEmail: string };

/**
 * A product of the web shop's catalogue. The generated ones are the business's items, each sold in one variant (their
 * Id is the item's); products written through the API have ids of their own and any number of variants.
 */
export type NativeProduct = NativeMeta & {
  Name: string;
  Description: string;
  Status: 'Active' | 'Archived';
  Tags: string[];
  CurrencyCode: string;
  Images?: string[];
  Variants: NativeVariant[];
};
export type NativeVariant = {
  Id: string;
  Sku: string;
  Title: string;
  Price: Money;
  UnitCost: Money;
  InventoryQty: number;
  Barcode?: string;
  Options?: { Name: string; Value: string }[];
};

/** A buyer of the web shop (an accounting customer of the business who ordered online). Its Id is the customer's. */
export type NativeShopper = NativeMeta & {
  Email: string;
  FirstName: string;
  LastName: string;
  Phone?: string;
  OrderIds: string[];
};

/**
 * A named group of the web shop's buyers, kept by a rule over their orders as a shop's customer segments are: Query is
 * the rule in Shopify's segment query language, ShopperIds the buyers it holds.
 */
export type NativeCustomerGroup = NativeMeta & { Name: string; Query: string; ShopperIds: string[] };

/**
 * A movement of the web shop's card gateway balance: a charge of an order (less its fee), its refund, or a payout
 * of the balance to the checking account. The charges and refunds a payout paid carry its PayoutId, and so does the
 * payout's own movement (its amount negative): the two sum to nothing, as a gateway's balance history does.
 */
export type NativeGatewayTransaction = NativeMeta & {
  Kind: 'Charge' | 'Refund' | 'Payout';
  OrderId: string | null;
  ShopperId: string | null;
  PayoutId: string | null;
  Amount: Money;
  Fee: Money;
  CurrencyCode: string;
};

/** Any native record: what the store keeps in `data`. */
export type NativeRecord = NativeMeta & Record<string, unknown>;

/** The native record type of each collection, by unified object type. */
export interface NativeOf {
  account: NativeAccount;
  attachment: NativeAttachment;
  balance_sheet: NativeBalanceSheet;
  bank_deposit: NativeDeposit;
  bank_feed_account: NativeFeedAccount;
  bank_transfer: NativeTransfer;
  bill: NativeBill;
  bill_credit_memo: NativeVendorCredit;
  bill_payment: NativeBillPayment;
  cash_flow_statement: NativeCashFlow;
  class: NativeClass;
  company_info: NativeCompany;
  currency: NativeCurrency;
  customer: NativeCustomer;
  customer_refund: NativeCustomerRefund;
  department: NativeDepartment;
  employee: NativeEmployee;
  exchange_rate: NativeExchangeRate;
  expense: NativeExpense;
  income_statement: NativeIncomeStatement;
  invoice: NativeInvoice;
  invoice_credit_memo: NativeCreditNote;
  invoice_payment: NativePayment;
  item: NativeItem;
  journal_entry: NativeJournalEntry;
  location: NativeLocation;
  order: NativeOrder;
  payment_method: NativePaymentMethod;
  payment_term: NativeTerm;
  payout: NativePayout;
  product: NativeProduct;
  commerce_customer: NativeShopper;
  customer_group: NativeCustomerGroup;
  transaction: NativeGatewayTransaction;
  project: NativeProject;
  purchase_order: NativePurchaseOrder;
  sales_order: NativeSalesOrder;
  sales_receipt: NativeSalesReceipt;
  store: NativeStore;
  subsidiary: NativeSubsidiary;
  task: NativeTask;
  tax_agency: NativeTaxAgency;
  tax_area: NativeTaxArea;
  tax_rate: NativeTaxCode;
  vendor: NativeVendor;
}

export type NativeType = keyof NativeOf;

/**
 * The sandbox platform's collections: which native collection holds each
 * unified object type, the id prefix of its records, and the field holding the
 * record's business date (for windows). One table for the generator, the store,
 * the REST API and the connector.
 */
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';

export interface CollectionSpec {
  type: UnifiedObjectType;
  /** URL segment of the native REST API: /v1/<collection>. */
  collection: string;
  /** Platform ids are `<prefix>-<6 digits>` unless the record has a natural id. */
  prefix: string;
  dateField: 'TxnDate' | 'PeriodEnd' | 'CreatedAt' | 'ArrivalDate' | null;
  /** Field the platform keeps unique, indexed for duplicate checks. */
  uniqueField?: 'DocNumber' | 'DisplayName' | 'Name';
}

/** What files attach to on the platform (an attachment's ParentType), with the unified object type of each. */
export const ATTACHMENT_PARENT_TYPES = {
  JournalEntry: 'journal_entry',
  Bill: 'bill',
  Invoice: 'invoice',
  Expense: 'expense',
  Deposit: 'bank_deposit',
  Transfer: 'bank_transfer',
} as const satisfies Record<string, UnifiedObjectType>;
export type AttachmentParentType = keyof typeof ATTACHMENT_PARENT_TYPES;
export const ATTACHMENT_PARENT_NAMES = Object.keys(ATTACHMENT_PARENT_TYPES) as readonly AttachmentParentType[];

/** The ParentType of a unified object type files attach to, or undefined when nothing attaches to it. */
export function attachmentParentType(type: UnifiedObjectType): AttachmentParentType | undefined {
  return ATTACHMENT_PARENT_NAMES.find((name) => ATTACHMENT_PARENT_TYPES[name] === type);
}

const SPECS: readonly CollectionSpec[] = [
  { type: 'account', collection: 'Accounts', prefix: 'ACC', dateField: null, uniqueField: 'Name' },
  { type: 'attachment', collection: 'Attachments', prefix: 'ATT', dateField: 'CreatedAt' },
  { type: 'balance_sheet', collection: 'BalanceSheets', prefix: 'BS', dateField: 'PeriodEnd' },
  { type: 'bank_deposit', collection: 'Deposits', prefix: 'DEP', dateField: 'TxnDate' },
  { type: 'bank_feed_account', collection: 'FeedAccounts', prefix: 'FEED', dateField: null },
  { type: 'bank_transfer', collection: 'Transfers', prefix: 'TRF', dateField: 'TxnDate' },
  { type: 'bill', collection: 'Bills', prefix: 'BILL', dateField: 'TxnDate', uniqueField: 'DocNumber' },
  { type: 'bill_credit_memo', collection: 'VendorCredits', prefix: 'VCR', dateField: 'TxnDate', uniqueField: 'DocNumber' },
  { type: 'bill_payment', collection: 'BillPayments', prefix: 'BPAY', dateField: 'TxnDate' },
  { type: 'cash_flow_statement', collection: 'CashFlows', prefix: 'CF', dateField: 'PeriodEnd' },
  { type: 'class', collection: 'Classes', prefix: 'CLS', dateField: null },
  { type: 'company_info', collection: 'Company', prefix: 'CO', dateField: null },
  { type: 'currency', collection: 'Currencies', prefix: 'CUR', dateField: null },
  { type: 'customer', collection: 'Customers', prefix: 'CUS', dateField: null, uniqueField: 'DisplayName' },
  { type: 'customer_refund', collection: 'CustomerRefunds', prefix: 'CRF', dateField: 'TxnDate', uniqueField: 'DocNumber' },
  { type: 'department', collection: 'Departments', prefix: 'DEPT', dateField: null },
  { type: 'employee', collection: 'Employees', prefix: 'EMP', dateField: null },
  { type: 'exchange_rate', collection: 'ExchangeRates', prefix: 'FX', dateField: null },
  { type: 'expense', collection: 'Expenses', prefix: 'EXP', dateField: 'TxnDate' },
  { type: 'income_statement', collection: 'IncomeStatements', prefix: 'IS', dateField: 'PeriodEnd' },
  { type: 'invoice', collection: 'Invoices', prefix: 'INV', dateField: 'TxnDate', uniqueField: 'DocNumber' },
  { type: 'invoice_credit_memo', collection: 'CreditNotes', prefix: 'CN', dateField: 'TxnDate' },
  { type: 'invoice_payment', collection: 'Payments', prefix: 'PAY', dateField: 'TxnDate' },
  { type: 'item', collection: 'Items', prefix: 'ITEM', dateField: null },
  { type: 'journal_entry', collection: 'JournalEntries', prefix: 'JE', dateField: 'TxnDate' },
  { type: 'location', collection: 'Locations', prefix: 'LOC', dateField: null },
  { type: 'order', collection: 'Orders', prefix: 'ORD', dateField: 'CreatedAt' },
  { type: 'payment_method', collection: 'PaymentMethods', prefix: 'PM', dateField: null, uniqueField: 'Name' },
  { type: 'payment_term', collection: 'Terms', prefix: 'TERM', dateField: null },
  { type: 'payout', collection: 'Payouts', prefix: 'PAYOUT', dateField: 'ArrivalDate' },
  { type: 'product', collection: 'Products', prefix: 'PROD', dateField: null },
  { type: 'commerce_customer', collection: 'Shoppers', prefix: 'SHOP', dateField: null },
  { type: 'customer_group', collection: 'CustomerGroups', prefix: 'CGRP', dateField: null },
  { type: 'transaction', collection: 'GatewayTransactions', prefix: 'GTX', dateField: 'CreatedAt' },
  { type: 'project', collection: 'Projects', prefix: 'PRJ', dateField: null },
  { type: 'purchase_order', collection: 'PurchaseOrders', prefix: 'PO', dateField: 'TxnDate' },
  { type: 'sales_order', collection: 'SalesOrders', prefix: 'SO', dateField: 'TxnDate' },
  { type: 'sales_receipt', collection: 'SalesReceipts', prefix: 'SR', dateField: 'TxnDate', uniqueField: 'DocNumber' },
  { type: 'store', collection: 'Stores', prefix: 'STORE', dateField: null },
  { type: 'subsidiary', collection: 'Subsidiaries', prefix: 'SUB', dateField: null },
  { type: 'task', collection: 'Tasks', prefix: 'TASK', dateField: null },
  { type: 'tax_agency', collection: 'TaxAgencies', prefix: 'AGY', dateField: null },
  { type: 'tax_area', collection: 'TaxAreas', prefix: 'AREA', dateField: null },
  { type: 'tax_rate', collection: 'TaxCodes', prefix: 'TAX', dateField: null, uniqueField: 'Name' },
  { type: 'vendor', collection: 'Vendors', prefix: 'VEN', dateField: null, uniqueField: 'DisplayName' },
];

export const COLLECTIONS: ReadonlyMap<UnifiedObjectType, CollectionSpec> = new Map(SPECS.map((s) => [s.type, s]));
const BY_NAME: ReadonlyMap<string, CollectionSpec> = new Map(SPECS.map((s) => [s.collection.toLowerCase(), s]));

export function collectionOf(type: UnifiedObjectType): CollectionSpec {
  const spec = COLLECTIONS.get(type);
  if (spec === undefined) throw new Error(`sandbox has no collection for ${type}`);
  return spec;
}

export function collectionByName(name: string): CollectionSpec | undefined {
  return BY_NAME.get(name.toLowerCase());
}

export function platformIdFor(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(6, '0')}`;
}

/** The value of the collection's unique field, or null. */
export function lookupOf(spec: CollectionSpec, data: Record<string, unknown>): string | null {
  const value = spec.uniqueField === undefined ? undefined : data[spec.uniqueField];
  return typeof value === 'string' ? value : null;
}

/** The business date of a native record, as YYYY-MM-DD, or null. */
export function businessDateOf(spec: CollectionSpec, data: Record<string, unknown>): string | null {
  if (spec.dateField === null) return null;
  const value = data[spec.dateField];
  return typeof value === 'string' && value.length >= 10 ? value.slice(0, 10) : null;
}

/**
 * Per object type metadata the rest of the service uses generically:
 * - FILTERABLE: the F fields (filterable and sortable) with the kind of value,
 *   which decides the operators a filter accepts (`~` only on 'string').
 * - LINKS: which fields hold service ids of other objects, so write-side code can
 *   translate them to platform ids (and the sync the other way round).
 */
import type { UnifiedObjectType } from './object-types.ts';
import { reportTreeLinks } from './report-tree.ts';
import type { Account } from './account.ts';
import type { Attachment } from './attachment.ts';
import type { BalanceSheet } from './balance-sheet.ts';
import type { BankDeposit } from './bank-deposit.ts';
import type { BankFeedAccount } from './bank-feed-account.ts';
import type { BankTransfer } from './bank-transfer.ts';
import type { Bill } from './bill.ts';
import type { BillCreditMemo } from './bill-credit-memo.ts';
import type { BillPayment } from './bill-payment.ts';
import type { CashFlowStatement } from './cash-flow-statement.ts';
import type { Class } from './class.ts';
import type { CompanyInfo } from './company-info.ts';
import type { Currency } from './currency.ts';
import type { Customer } from './customer.ts';
import type { Department } from './department.ts';
import type { Employee } from './employee.ts';
import type { ExchangeRate } from './exchange-rate.ts';
import type { Expense } from './expense.ts';
import type { IncomeStatement } from './income-statement.ts';
import type { Invoice } from './invoice.ts';
import type { InvoiceCreditMemo } from './invoice-credit-memo.ts';
import type { InvoicePayment } from './invoice-payment.ts';
import type { Item } from './item.ts';
import type { JournalEntry } from './journal-entry.ts';
import type { Location } from './location.ts';
import type { CustomerGroup } from './customer-group.ts';
import type { CustomerRefund } from './customer-refund.ts';
import type { Order } from './order.ts';
import type { PaymentMethod } from './payment-method.ts';
import type { PaymentTerm } from './payment-term.ts';
import type { Payout } from './payout.ts';
import type { Product } from './product.ts';
import type { CommerceCustomer } from './commerce-customer.ts';
import type { Transaction } from './transaction.ts';
import type { Dispute } from './dispute.ts';
import type { Project } from './project.ts';
import type { PurchaseOrder } from './purchase-order.ts';
import type { SalesOrder } from './sales-order.ts';
import { SALES_RECEIPT_LINKED_TYPES, type SalesReceipt } from './sales-receipt.ts';
import type { Store } from './store.ts';
import type { Subscription } from './subscription.ts';
import type { Subsidiary } from './subsidiary.ts';
import type { Task } from './task.ts';
import type { TaxAgency } from './tax-agency.ts';
import type { TaxArea } from './tax-area.ts';
import type { TaxRate } from './tax-rate.ts';
import type { Vendor } from './vendor.ts';

/** The unified object of each object type. */
export interface ObjectTypeMap {
  account: Account;
  attachment: Attachment;
  balance_sheet: BalanceSheet;
  bank_deposit: BankDeposit;
  bank_feed_account: BankFeedAccount;
  bank_transfer: BankTransfer;
  bill: Bill;
  bill_credit_memo: BillCreditMemo;
  bill_payment: BillPayment;
  cash_flow_statement: CashFlowStatement;
  class: Class;
  company_info: CompanyInfo;
  currency: Currency;
  customer: Customer;
  customer_group: CustomerGroup;
  customer_refund: CustomerRefund;
  department: Department;
  employee: Employee;
  exchange_rate: ExchangeRate;
  expense: Expense;
  income_statement: IncomeStatement;
  invoice: Invoice;
  invoice_credit_memo: InvoiceCreditMemo;
  invoice_payment: InvoicePayment;
  item: Item;
  journal_entry: JournalEntry;
  location: Location;
  order: Order;
  payment_method: PaymentMethod;
  payment_term: PaymentTerm;
  payout: Payout;
  product: Product;
  commerce_customer: CommerceCustomer;
  transaction: Transaction;
  dispute: Dispute;
  project: Project;
  purchase_order: PurchaseOrder;
  sales_order: SalesOrder;
  sales_receipt: SalesReceipt;
  store: Store;
  subscription: Subscription;
  subsidiary: Subsidiary;
  task: Task;
  tax_agency: TaxAgency;
  tax_area: TaxArea;
  tax_rate: TaxRate;
  vendor: Vendor;
}

// ---------------------------------------------------------------------------
// Filterable (F) fields
// ---------------------------------------------------------------------------

/**
 * string: free text (the `~` word-prefix operator applies); enum: one of fixed
 * values; date: ISO 8601 timestamp; id: a service id; array: matches elements
 * (subsidiaries match on their id).
 */
export type FilterKind = 'string' | 'enum' | 'date' | 'id' | 'number' | 'boolean' | 'array';

/** F fields of one object: only its own top-level fields can be named. */
export type FilterableFields<T = Record<string, unknown>> = Partial<Readonly<Record<keyof T & string, FilterKind>>>;

const SYNC_TIMESTAMPS = { created_at: 'date', updated_at: 'date', last_synced_at: 'date' } as const;

/**
 * For the spec's resources exactly its F fields (several have none: then only the
 * default updated_at DESC order applies). For the designed ones: ids, dates,
 * status, names and document numbers, following their spec'd twin where there is one.
 */
export const FILTERABLE = {
  account: {
    account_type: 'enum',
    category: 'enum',
    status: 'enum',
    balance: 'number',
    name: 'string',
    nominal_code: 'string',
    subsidiaries: 'array',
  },
  attachment: {},
  balance_sheet: { start_date: 'date', end_date: 'date' },
  bank_deposit: {},
  bank_feed_account: { last_synced_at: 'date' },
  bank_transfer: {},
  bill: { vendor_id: 'id', due_date: 'date', status: 'enum', document_number: 'string', ...SYNC_TIMESTAMPS },
  bill_credit_memo: { vendor_id: 'id', document_number: 'string', ...SYNC_TIMESTAMPS },
  bill_payment: { account_id: 'id', vendor_id: 'id', reference: 'string' },
  cash_flow_statement: { start_date: 'date', end_date: 'date' },
  class: { name: 'string', status: 'enum', ...SYNC_TIMESTAMPS },
  commerce_customer: { email: 'string', first_name: 'string', last_name: 'string', phone: 'string', ...SYNC_TIMESTAMPS },
  company_info: { ...SYNC_TIMESTAMPS },
  currency: { currency_code: 'enum', ...SYNC_TIMESTAMPS },
  // The reference's list takes no filter; the name and the sync times.
  customer_group: { name: 'string', ...SYNC_TIMESTAMPS },
  // The reference's list names no filterable field; the customer, number and date as on sales receipts, and the sync times.
  customer_refund: { customer_id: 'id', document_number: 'string', transaction_date: 'date', ...SYNC_TIMESTAMPS },
  customer: { status: 'enum', customer_name: 'string', email: 'string', phone: 'string', subsidiaries: 'array' },
  department: { name: 'string', status: 'enum', ...SYNC_TIMESTAMPS },
  dispute: {
    status: 'enum',
    reason: 'string',
    transaction_id: 'id',
    order_id: 'id',
    iso_currency_code: 'enum',
    amount: 'number',
    ...SYNC_TIMESTAMPS,
  },
  // The reference's list takes no filter; ours offers what a client narrows people by (docs/reference.md).
  employee: { status: 'enum', department_id: 'id', manager_id: 'id', hire_date: 'date', ...SYNC_TIMESTAMPS },
  exchange_rate: { source_currency_code: 'enum', target_currency_code: 'enum', as_of_date: 'date', ...SYNC_TIMESTAMPS },
  expense: { account_id: 'id', vendor_id: 'id', transaction_date: 'date', document_number: 'string', ...SYNC_TIMESTAMPS },
  income_statement: { start_date: 'date', end_date: 'date' },
  invoice: { customer_id: 'id', due_date: 'date', status: 'enum', document_number: 'string', ...SYNC_TIMESTAMPS },
  invoice_credit_memo: { customer_id: 'id', document_number: 'string', ...SYNC_TIMESTAMPS },
  invoice_payment: { account_id: 'id', customer_id: 'id', reference: 'string' },
  item: { name: 'string', code: 'string', type: 'enum', status: 'enum', ...SYNC_TIMESTAMPS },
  journal_entry: {},
  location: { status: 'enum' },
  // The spec's sample shows no F fields for orders; these are what a lender narrows orders by (docs/reference.md).
  order: {
    status: 'string',
    payment_status: 'string',
    fulfillment_status: 'string',
    order_number: 'string',
    iso_currency_code: 'enum',
    total_price: 'number',
    created_at: 'date',
    updated_at: 'date',
  },
  // The reference's list takes no filter; name and the sync times as payment terms'.
  payment_method: { name: 'string', ...SYNC_TIMESTAMPS },
  payment_term: { name: 'string', status: 'enum', ...SYNC_TIMESTAMPS },
  // The reference's list takes arrival_at and created_at bounds (served as parameters too); status and currency are ours.
  payout: { arrival_at: 'date', status: 'enum', iso_currency_code: 'enum', ...SYNC_TIMESTAMPS },
  product: { name: 'string', status: 'enum', type: 'string', ...SYNC_TIMESTAMPS },
  project: {},
  purchase_order: {
    vendor_id: 'id',
    issue_date: 'date',
    status: 'enum',
    document_number: 'string',
    ...SYNC_TIMESTAMPS,
  },
  // The reference marks customer_id and created_at (its page is cut after them); the sync times as its other objects.
  sales_order: { customer_id: 'id', ...SYNC_TIMESTAMPS },
  // The reference's F fields.
  sales_receipt: { customer_id: 'id', document_number: 'string', reference: 'string', ...SYNC_TIMESTAMPS },
  store: {},
  subscription: { status: 'enum', customer_id: 'id', iso_currency_code: 'enum', ...SYNC_TIMESTAMPS },
  subsidiary: { name: 'string', status: 'enum', ...SYNC_TIMESTAMPS },
  task: {},
  tax_agency: { ...SYNC_TIMESTAMPS },
  // The reference's list takes no filter; the country and the sync times.
  tax_area: { country: 'string', ...SYNC_TIMESTAMPS },
  tax_rate: { status: 'enum', subsidiaries: 'array' },
  transaction: {
    type: 'enum',
    status: 'enum',
    order_id: 'id',
    customer_id: 'id',
    payout_id: 'id',
    iso_currency_code: 'enum',
    amount: 'number',
    ...SYNC_TIMESTAMPS,
  },
  vendor: { status: 'enum', vendor_name: 'string', email: 'string', phone: 'string', subsidiaries: 'array' },
} as const satisfies { readonly [K in UnifiedObjectType]: FilterableFields<ObjectTypeMap[K]> };

// ---------------------------------------------------------------------------
// Link fields
// ---------------------------------------------------------------------------

/**
 * A field holding the service id of another object.
 *
 * `path` is dotted from the object root; `name[]` steps into each element of an
 * array: 'vendor_id', 'line_items[].account_id', 'line_items[].item.id'. Null or
 * missing values along the way mean "no link".
 */
export interface LinkField {
  readonly path: string;
  /** Object types the id may belong to; more than one when the link is polymorphic. */
  readonly targets: readonly [UnifiedObjectType, ...UnifiedObjectType[]];
  /** Sibling field naming the kind of the linked object, for polymorphic links. */
  readonly discriminator?: string;
  /** Child array of tree nodes: the link repeats at every node below the path's parent. */
  readonly recursive?: string;
  /** "" means "no link" here (a balance sheet's section rows); everywhere else "" is an id, and a wrong one. */
  readonly emptyIsNone?: true;
}

function link(path: string, target: UnifiedObjectType, ...more: UnifiedObjectType[]): LinkField {
  return { path, targets: [target, ...more] };
}

/** Links of the standard line item (and of lines designed after it). */
function standardLineItemLinks(array = 'line_items[]'): LinkField[] {
  return [
    link(`${array}.account_id`, 'account'),
    link(`${array}.class_id`, 'class'),
    link(`${array}.customer_id`, 'customer'),
    link(`${array}.department_id`, 'department'),
    link(`${array}.location_id`, 'location'),
    link(`${array}.project_id`, 'project'),
    link(`${array}.tax_rate_id`, 'tax_rate'),
    link(`${array}.item.id`, 'item'),
  ];
}

const SUBSIDIARIES = link('subsidiaries[].id', 'subsidiary');

/** Entities attachments are known to hang off (journal entries are the documented case). */
const ATTACHABLE: readonly [UnifiedObjectType, ...UnifiedObjectType[]] = [
  'journal_entry',
  'bill',
  'bill_credit_memo',
  'bill_payment',
  'invoice',
  'invoice_credit_memo',
  'invoice_payment',
  'expense',
  'purchase_order',
  'bank_deposit',
  'bank_transfer',
  'customer',
  'vendor',
];

export const LINKS: Readonly<Record<UnifiedObjectType, readonly LinkField[]>> = {
  account: [link('parent_id', 'account'), SUBSIDIARIES],
  attachment: [{ path: 'attached_to_id', targets: ATTACHABLE, discriminator: 'attached_to_type' }],
  balance_sheet: reportTreeLinks('assets', 'equity', 'liabilities'),
  bank_deposit: [
    link('account_id', 'account'),
    link('department_id', 'department'),
    link('subsidiary_id', 'subsidiary'),
    // Deposits group received payments; journal entries debiting undeposited funds count as payments too.
    { path: 'linked_payments[].id', targets: ['invoice_payment', 'journal_entry'], discriminator: 'type' },
    link('line_items[].account_id', 'account'),
    link('line_items[].class_id', 'class'),
    link('line_items[].customer_id', 'customer'),
    link('line_items[].department_id', 'department'),
    link('line_items[].location_id', 'location'),
    link('line_items[].project_id', 'project'),
    link('line_items[].tax_rate_id', 'tax_rate'),
    link('line_items[].vendor_id', 'vendor'),
  ],
  // contact_id names a bank feed contact, which is no unified object type.
  bank_feed_account: [link('account_id', 'account'), link('parent_bank_feed_account_id', 'bank_feed_account')],
  bank_transfer: [
    link('class_id', 'class'),
    link('department_id', 'department'),
    link('location_id', 'location'),
    link('project_id', 'project'),
    link('credit_account_id', 'account'),
    link('debit_account_id', 'account'),
    link('subsidiary_id', 'subsidiary'),
  ],
  bill: [
    link('account_id', 'account'),
    link('payment_terms_id', 'payment_term'),
    link('subsidiary_id', 'subsidiary'),
    link('vendor_id', 'vendor'),
    link('linked_purchase_orders[].id', 'purchase_order'),
    link('linked_credit_memos[].id', 'bill_credit_memo'),
    link('linked_payments[].id', 'bill_payment'),
    ...standardLineItemLinks(),
  ],
  bill_credit_memo: [link('account_id', 'account'), link('vendor_id', 'vendor'), link('linked_bills[].id', 'bill'), ...standardLineItemLinks()],
  bill_payment: [
    link('account_id', 'account'),
    link('vendor_id', 'vendor'),
    link('linked_bills[].id', 'bill'),
    link('linked_credit_memos[].id', 'bill_credit_memo'),
  ],
  cash_flow_statement: reportTreeLinks('financing_activities', 'investing_activities', 'operating_activities'),
  class: [link('parent_id', 'class'), SUBSIDIARIES],
  company_info: [],
  currency: [],
  customer_refund: [
    link('account_id', 'account'),
    link('class_id', 'class'),
    link('customer_id', 'customer'),
    link('department_id', 'department'),
    link('tax_rate_id', 'tax_rate'),
    link('line_items[].account_id', 'account'),
    link('line_items[].class_id', 'class'),
    link('line_items[].tax_rate_id', 'tax_rate'),
    link('line_items[].item.id', 'item'),
  ],
  customer: [link('parent_id', 'customer'), link('payment_terms_id', 'payment_term'), link('subsidiary_id', 'subsidiary'), SUBSIDIARIES],
  department: [link('parent_id', 'department'), SUBSIDIARIES],
  employee: [link('department_id', 'department'), link('manager_id', 'employee')],
  exchange_rate: [],
  expense: [link('account_id', 'account'), link('vendor_id', 'vendor'), link('subsidiary_id', 'subsidiary'), ...standardLineItemLinks()],
  income_statement: reportTreeLinks('income', 'expenses', 'cost_of_sales'),
  invoice: [
    link('account_id', 'account'),
    link('customer_id', 'customer'),
    link('payment_terms_id', 'payment_term'),
    link('subsidiary_id', 'subsidiary'),
    link('linked_payments[].id', 'invoice_payment'),
    link('linked_credit_memos[].id', 'invoice_credit_memo'),
    ...standardLineItemLinks(),
  ],
  invoice_credit_memo: [
    link('account_id', 'account'),
    link('customer_id', 'customer'),
    link('linked_invoices[].id', 'invoice'),
    ...standardLineItemLinks(),
    // The reference's flat copy of line_items[].item.id.
    link('line_items[].item_id', 'item'),
  ],
  invoice_payment: [
    link('account_id', 'account'),
    link('customer_id', 'customer'),
    link('payment_method_id', 'payment_method'),
    link('linked_invoices[].id', 'invoice'),
    link('linked_credit_memos[].id', 'invoice_credit_memo'),
  ],
  item: [
    link('asset_account_id', 'account'),
    link('bill_item.account_id', 'account'),
    link('bill_item.tax_rate_id', 'tax_rate'),
    link('invoice_item.account_id', 'account'),
    link('invoice_item.tax_rate_id', 'tax_rate'),
    SUBSIDIARIES,
  ],
  journal_entry: [link('subsidiary_id', 'subsidiary'), link('line_items[].account_id', 'account'), link('line_items[].tax_rate_id', 'tax_rate')],
  location: [link('parent_id', 'location'), SUBSIDIARIES],
  // Links are service ids (spec, Shared rules); a variant id is the platform's (unique within its product, as the reference has it).
  order: [
    link('line_items[].product_id', 'product'),
    link('customer.id', 'commerce_customer'),
    link('fulfillments[].order_id', 'order'),
    // A fulfillment's lines are the order's lines, with their product links.
    link('fulfillments[].line_items[].product_id', 'product'),
  ],
  payment_method: [],
  payment_term: [SUBSIDIARIES],
  payout: [link('transactions[].order_id', 'order')],
  product: [link('variants[].product_id', 'product')],
  commerce_customer: [link('orders[].id', 'order')],
  customer_group: [],
  transaction: [link('order_id', 'order'), link('customer_id', 'commerce_customer'), link('payout_id', 'payout')],
  dispute: [link('transaction_id', 'transaction'), link('order_id', 'order')],
  project: [],
  purchase_order: [link('vendor_id', 'vendor'), link('subsidiary_id', 'subsidiary'), link('linked_bills[].id', 'bill'), ...standardLineItemLinks()],
  sales_order: [
    link('class_id', 'class'),
    link('customer_id', 'customer'),
    link('department_id', 'department'),
    link('location_id', 'location'),
    link('payment_terms_id', 'payment_term'),
    link('subsidiary_id', 'subsidiary'),
    link('line_items[].tax_rate_id', 'tax_rate'),
    link('line_items[].item.id', 'item'),
  ],
  sales_receipt: [
    link('account_id', 'account'),
    link('customer_id', 'customer'),
    { path: 'linked_transactions[].id', targets: SALES_RECEIPT_LINKED_TYPES, discriminator: 'type' },
    ...standardLineItemLinks(),
  ],
  store: [],
  subscription: [link('customer_id', 'commerce_customer')],
  subsidiary: [link('parent_id', 'subsidiary')],
  task: [],
  tax_agency: [],
  tax_area: [],
  tax_rate: [SUBSIDIARIES],
  vendor: [link('parent_id', 'vendor'), link('payment_terms_id', 'payment_term'), SUBSIDIARIES],
};

// ---------------------------------------------------------------------------
// Walking links in an object
// ---------------------------------------------------------------------------

/** One link found in an object: `holder[key]` is the id, at the concrete `path`. */
export interface LinkOccurrence {
  readonly link: LinkField;
  /** Concrete path with indexes, e.g. 'line_items[2].account_id'. */
  readonly path: string;
  readonly holder: Record<string, unknown>;
  readonly key: string;
  readonly id: string;
}

interface Located {
  node: unknown;
  path: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function step(at: Located, segment: string): Located[] {
  if (!isRecord(at.node)) return [];
  const isArray = segment.endsWith('[]');
  const name = isArray ? segment.slice(0, -2) : segment;
  const child = at.node[name];
  const path = join(at.path, name);
  if (!isArray) return [{ node: child, path }];
  return Array.isArray(child) ? child.map((node: unknown, i) => ({ node, path: `${path}[${i}]` })) : [];
}

function withDescendants(at: Located, via: string): Located[] {
  return [at, ...step(at, `${via}[]`).flatMap((child) => withDescendants(child, via))];
}

/**
 * Calls `visit` for every link id in `value`: not null, and not "" where the link says "" is none (a balance
 * sheet's section rows). The holder and key let a
 * caller replace ids in place (on a copy) when translating service ids to
 * platform ids.
 */
export function visitLinks(links: readonly LinkField[], value: unknown, visit: (occurrence: LinkOccurrence) => void): void {
  for (const link of links) {
    const segments = link.path.split('.');
    const key = segments.pop();
    if (key === undefined) continue;
    let holders: Located[] = [{ node: value, path: '' }];
    for (const segment of segments) holders = holders.flatMap((at) => step(at, segment));
    if (link.recursive !== undefined) {
      const via = link.recursive;
      holders = holders.flatMap((at) => withDescendants(at, via));
    }
    for (const at of holders) {
      if (!isRecord(at.node)) continue;
      const id = at.node[key];
      if (typeof id === 'string' && !(id === '' && link.emptyIsNone === true)) visit({ link, path: join(at.path, key), holder: at.node, key, id });
    }
  }
}

/** Every link id in `value` (as visitLinks), with its concrete path and possible target types. */
export function collectLinks(links: readonly LinkField[], value: unknown): { path: string; id: string; targets: LinkField['targets'] }[] {
  const found: { path: string; id: string; targets: LinkField['targets'] }[] = [];
  visitLinks(links, value, ({ path, id, link }) => {
    found.push({ path, id, targets: link.targets });
  });
  return found;
}

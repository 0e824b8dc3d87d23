/**
 * Every unified object type the service stores and serves, with the names the
 * contract uses for it: list key, fetch key, URL path and webhook entity name.
 * One table, so routes, webhooks, syncConfig and docs cannot disagree.
 */
export const OBJECT_TYPES = {
  account: { plural: 'accounts', singular: 'account', path: '/accounting/accounts', entity: 'ACCOUNT' },
  attachment: { plural: 'attachments', singular: 'attachment', path: '/accounting/journal_entries/attachments', entity: 'ATTACHMENT' },
  balance_sheet: { plural: 'balance_sheets', singular: 'balance_sheet', path: '/accounting/balance_sheets', entity: 'BALANCE_SHEET' },
  bank_deposit: { plural: 'bank_deposits', singular: 'bank_deposit', path: '/accounting/bank_deposits', entity: 'BANK_DEPOSIT' },
  bank_feed_account: {
    plural: 'bank_feed_accounts',
    singular: 'bank_feed_account',
    path: '/accounting/bank_feeds/accounts',
    entity: 'BANK_FEED_ACCOUNT',
  },
  bank_transfer: { plural: 'bank_transfers', singular: 'bank_transfer', path: '/accounting/bank_transfers', entity: 'BANK_TRANSFER' },
  bill: { plural: 'bills', singular: 'bill', path: '/accounting/bills', entity: 'BILL' },
  bill_credit_memo: { plural: 'bill_credit_memos', singular: 'bill_credit_memo', path: '/accounting/bill_credit_memos', entity: 'BILL_CREDIT_MEMO' },
  bill_payment: { plural: 'bill_payments', singular: 'bill_payment', path: '/accounting/bill_payments', entity: 'BILL_PAYMENT' },
  cash_flow_statement: { plural: 'cash_flows', singular: 'cash_flow', path: '/accounting/cash_flow_statements', entity: 'CASH_FLOW_STATEMENT' },
  class: { plural: 'classes', singular: 'class', path: '/accounting/classes', entity: 'CLASS' },
  commerce_customer: {
    plural: 'customers',
    singular: 'customer',
    path: '/commerce/customers',
    entity: 'COMMERCE_CUSTOMER',
  },
  company_info: { plural: 'company_info', singular: 'company_info', path: '/accounting/company_info', entity: 'COMPANY_INFO' },
  currency: { plural: 'currencies', singular: 'currency', path: '/accounting/currencies', entity: 'CURRENCY' },
  customer: { plural: 'customers', singular: 'customer', path: '/accounting/customers', entity: 'CUSTOMER' },
  customer_group: { plural: 'customer_groups', singular: 'customer_group', path: '/commerce/customer_groups', entity: 'CUSTOMER_GROUP' },
  customer_refund: { plural: 'customer_refunds', singular: 'customer_refund', path: '/accounting/customer_refunds', entity: 'CUSTOMER_REFUND' },
  department: { plural: 'departments', singular: 'department', path: '/accounting/departments', entity: 'DEPARTMENT' },
  dispute: { plural: 'disputes', singular: 'dispute', path: '/commerce/disputes', entity: 'DISPUTE' },
  employee: { plural: 'employees', singular: 'employee', path: '/hris/employees', entity: 'EMPLOYEE' },
  exchange_rate: { plural: 'exchange_rates', singular: 'exchange_rate', path: '/accounting/exchange_rates', entity: 'EXCHANGE_RATE' },
  expense: { plural: 'expenses', singular: 'expense', path: '/accounting/expenses', entity: 'EXPENSE' },
  income_statement: { plural: 'income_statements', singular: 'income_statement', path: '/accounting/income_statements', entity: 'INCOME_STATEMENT' },
  invoice: { plural: 'invoices', singular: 'invoice', path: '/accounting/invoices', entity: 'INVOICE' },
  invoice_credit_memo: {
    plural: 'invoice_credit_memos',
    singular: 'invoice_credit_memo',
    path: '/accounting/invoice_credit_memos',
    entity: 'INVOICE_CREDIT_MEMO',
  },
  invoice_payment: { plural: 'invoice_payments', singular: 'invoice_payment', path: '/accounting/invoice_payments', entity: 'INVOICE_PAYMENT' },
  item: { plural: 'items', singular: 'item', path: '/accounting/items', entity: 'ITEM' },
  journal_entry: { plural: 'journal_entries', singular: 'journal_entry', path: '/accounting/journal_entries', entity: 'JOURNAL_ENTRY' },
  location: { plural: 'locations', singular: 'location', path: '/accounting/locations', entity: 'LOCATION' },
  order: { plural: 'orders', singular: 'order', path: '/commerce/orders', entity: 'ORDER' },
  payment_method: { plural: 'payment_methods', singular: 'payment_method', path: '/accounting/payment_methods', entity: 'PAYMENT_METHOD' },
  payout: { plural: 'payouts', singular: 'payout', path: '/payouts', entity: 'PAYOUT' },
  payment_term: { plural: 'payment_terms', singular: 'payment_term', path: '/accounting/payment_terms', entity: 'PAYMENT_TERM' },
  product: { plural: 'products', singular: 'product', path: '/commerce/products', entity: 'PRODUCT' },
  project: { plural: 'projects', singular: 'project', path: '/accounting/projects', entity: 'PROJECT' },
  purchase_order: { plural: 'purchase_orders', singular: 'purchase_order', path: '/accounting/purchase_orders', entity: 'PURCHASE_ORDER' },
  sales_order: { plural: 'sales_orders', singular: 'sales_order', path: '/accounting/sales_orders', entity: 'SALES_ORDER' },
  sales_receipt: { plural: 'sales_receipts', singular: 'sales_receipt', path: '/accounting/sales_receipts', entity: 'SALES_RECEIPT' },
  store: { plural: 'stores', singular: 'store', path: '/store', entity: 'STORE' },
  subscription: { plural: 'subscriptions', singular: 'subscription', path: '/commerce/subscriptions', entity: 'SUBSCRIPTION' },
  subsidiary: { plural: 'subsidiaries', singular: 'subsidiary', path: '/accounting/subsidiaries', entity: 'SUBSIDIARY' },
  task: { plural: 'tasks', singular: 'task', path: '/accounting/tasks', entity: 'TASK' },
  tax_agency: { plural: 'tax_agencies', singular: 'tax_agency', path: '/accounting/tax_agencies', entity: 'TAX_AGENCY' },
  tax_area: { plural: 'tax_areas', singular: 'tax_area', path: '/accounting/tax_areas', entity: 'TAX_AREA' },
  tax_rate: { plural: 'tax_rates', singular: 'tax_rate', path: '/accounting/tax_rates', entity: 'TAX_RATE' },
  transaction: { plural: 'transactions', singular: 'transaction', path: '/commerce/transactions', entity: 'TRANSACTION' },
  vendor: { plural: 'vendors', singular: 'vendor', path: '/accounting/vendors', entity: 'VENDOR' },
} as const satisfies Record<string, { plural: string; singular: string; path: string; entity: string }>;

export type UnifiedObjectType = keyof typeof OBJECT_TYPES;

export const UNIFIED_OBJECT_TYPES = Object.keys(OBJECT_TYPES) as UnifiedObjectType[];

export function isUnifiedObjectType(value: string): value is UnifiedObjectType {
  return Object.hasOwn(OBJECT_TYPES, value);
}

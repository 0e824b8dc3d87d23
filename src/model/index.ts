/**
 * The unified object model: one registry entry per object type with its
 * schema, its F fields and its link fields, so code can handle any type generically.
 */
import type { TSchema } from 'typebox';
import type { UnifiedObjectType } from './object-types.ts';
import { FILTERABLE, LINKS, type FilterableFields, type LinkField, type ObjectTypeMap } from './fields.ts';
import { AccountSchema } from './account.ts';
import { AttachmentSchema } from './attachment.ts';
import { BalanceSheetSchema } from './balance-sheet.ts';
import { BankDepositSchema } from './bank-deposit.ts';
import { BankFeedAccountSchema } from './bank-feed-account.ts';
import { BankTransferSchema } from './bank-transfer.ts';
import { BillSchema } from './bill.ts';
import { BillCreditMemoSchema } from './bill-credit-memo.ts';
import { BillPaymentSchema } from './bill-payment.ts';
import { CashFlowStatementSchema } from './cash-flow-statement.ts';
import { ClassSchema } from './class.ts';
import { CompanyInfoSchema } from './company-info.ts';
import { CurrencySchema } from './currency.ts';
import { CustomerSchema } from './customer.ts';
import { DepartmentSchema } from './department.ts';
import { EmployeeSchema } from './employee.ts';
import { ExchangeRateSchema } from './exchange-rate.ts';
import { ExpenseSchema } from './expense.ts';
import { IncomeStatementSchema } from './income-statement.ts';
import { InvoiceSchema } from './invoice.ts';
import { InvoiceCreditMemoSchema } from './invoice-credit-memo.ts';
import { InvoicePaymentSchema } from './invoice-payment.ts';
import { ItemSchema } from './item.ts';
import { JournalEntrySchema } from './journal-entry.ts';
import { LocationSchema } from './location.ts';
import { CustomerGroupSchema } from './customer-group.ts';
import { CustomerRefundSchema } from './customer-refund.ts';
import { OrderSchema } from './order.ts';
import { PaymentMethodSchema } from './payment-method.ts';
import { PaymentTermSchema } from './payment-term.ts';
import { PayoutSchema } from './payout.ts';
import { ProductSchema } from './product.ts';
import { CommerceCustomerSchema } from './commerce-customer.ts';
import { TransactionSchema } from './transaction.ts';
import { DisputeSchema } from './dispute.ts';
import { ProjectSchema } from './project.ts';
import { PurchaseOrderSchema } from './purchase-order.ts';
import { SalesOrderSchema } from './sales-order.ts';
import { SalesReceiptSchema } from './sales-receipt.ts';
import { StoreSchema } from './store.ts';
import { SubscriptionSchema } from './subscription.ts';
import { SubsidiarySchema } from './subsidiary.ts';
import { TaskSchema } from './task.ts';
import { TaxAgencySchema } from './tax-agency.ts';
import { TaxAreaSchema } from './tax-area.ts';
import { TaxRateSchema } from './tax-rate.ts';
import { VendorSchema } from './vendor.ts';

export interface ModelEntry {
  /** Response schema of one object (plain, no $id). */
  readonly schema: TSchema;
  /** F fields: filterable and sortable. */
  readonly filterable: FilterableFields;
  /** Fields holding service ids of other objects. */
  readonly links: readonly LinkField[];
}

function entry<K extends UnifiedObjectType, S extends TSchema>(type: K, schema: S) {
  return { schema, filterable: FILTERABLE[type], links: LINKS[type] };
}

export const MODEL = {
  account: entry('account', AccountSchema),
  attachment: entry('attachment', AttachmentSchema),
  balance_sheet: entry('balance_sheet', BalanceSheetSchema),
  bank_deposit: entry('bank_deposit', BankDepositSchema),
  bank_feed_account: entry('bank_feed_account', BankFeedAccountSchema),
  bank_transfer: entry('bank_transfer', BankTransferSchema),
  bill: entry('bill', BillSchema),
  bill_credit_memo: entry('bill_credit_memo', BillCreditMemoSchema),
  bill_payment: entry('bill_payment', BillPaymentSchema),
  cash_flow_statement: entry('cash_flow_statement', CashFlowStatementSchema),
  class: entry('class', ClassSchema),
  commerce_customer: entry('commerce_customer', CommerceCustomerSchema),
  company_info: entry('company_info', CompanyInfoSchema),
  currency: entry('currency', CurrencySchema),
  customer: entry('customer', CustomerSchema),
  customer_group: entry('customer_group', CustomerGroupSchema),
  customer_refund: entry('customer_refund', CustomerRefundSchema),
  department: entry('department', DepartmentSchema),
  dispute: entry('dispute', DisputeSchema),
  employee: entry('employee', EmployeeSchema),
  exchange_rate: entry('exchange_rate', ExchangeRateSchema),
  expense: entry('expense', ExpenseSchema),
  income_statement: entry('income_statement', IncomeStatementSchema),
  invoice: entry('invoice', InvoiceSchema),
  invoice_credit_memo: entry('invoice_credit_memo', InvoiceCreditMemoSchema),
  invoice_payment: entry('invoice_payment', InvoicePaymentSchema),
  item: entry('item', ItemSchema),
  journal_entry: entry('journal_entry', JournalEntrySchema),
  location: entry('location', LocationSchema),
  order: entry('order', OrderSchema),
  payment_method: entry('payment_method', PaymentMethodSchema),
  payment_term: entry('payment_term', PaymentTermSchema),
  payout: entry('payout', PayoutSchema),
  product: entry('product', ProductSchema),
  project: entry('project', ProjectSchema),
  purchase_order: entry('purchase_order', PurchaseOrderSchema),
  sales_order: entry('sales_order', SalesOrderSchema),
  sales_receipt: entry('sales_receipt', SalesReceiptSchema),
  store: entry('store', StoreSchema),
  subscription: entry('subscription', SubscriptionSchema),
  subsidiary: entry('subsidiary', SubsidiarySchema),
  task: entry('task', TaskSchema),
  tax_agency: entry('tax_agency', TaxAgencySchema),
  tax_area: entry('tax_area', TaxAreaSchema),
  tax_rate: entry('tax_rate', TaxRateSchema),
  transaction: entry('transaction', TransactionSchema),
  vendor: entry('vendor', VendorSchema),
} as const satisfies Readonly<Record<UnifiedObjectType, ModelEntry>>;

/** Registry entry of any type, widened for generic code. */
export function modelEntry(type: UnifiedObjectType): ModelEntry {
  return MODEL[type];
}

/** The unified object of type K, from its schema. */
export type UnifiedObject<K extends UnifiedObjectType> = ObjectTypeMap[K];

/** Schema of type K, typed so Static of it is the unified object. */
export type SchemaOf<K extends UnifiedObjectType> = (typeof MODEL)[K]['schema'];

export type { FilterKind, FilterableFields, LinkField, LinkOccurrence, ObjectTypeMap } from './fields.ts';
export { FILTERABLE, LINKS, collectLinks, visitLinks } from './fields.ts';
export { OBJECT_TYPES, UNIFIED_OBJECT_TYPES, isUnifiedObjectType, type UnifiedObjectType } from './object-types.ts';

export * from './shared.ts';
export * from './account.ts';
export * from './attachment.ts';
export * from './balance-sheet.ts';
export * from './report-tree.ts';
export * from './bank-deposit.ts';
export * from './bank-feed-account.ts';
export * from './bank-transfer.ts';
export * from './bill.ts';
export * from './bill-credit-memo.ts';
export * from './bill-payment.ts';
export * from './cash-flow-statement.ts';
export * from './class.ts';
export * from './company-info.ts';
export * from './currency.ts';
export * from './customer.ts';
export * from './department.ts';
export * from './employee.ts';
export * from './exchange-rate.ts';
export * from './expense.ts';
export * from './income-statement.ts';
export * from './invoice.ts';
export * from './invoice-credit-memo.ts';
export * from './invoice-payment.ts';
export * from './item.ts';
export * from './journal-entry.ts';
export * from './location.ts';
export * from './customer-group.ts';
export * from './customer-refund.ts';
export * from './order.ts';
export * from './payment-method.ts';
export * from './payment-term.ts';
export * from './payout.ts';
export * from './product.ts';
export * from './commerce-customer.ts';
export * from './transaction.ts';
export * from './dispute.ts';
export * from './project.ts';
export * from './purchase-order.ts';
export * from './sales-order.ts';
export * from './sales-receipt.ts';
export * from './store.ts';
export * from './subscription.ts';
export * from './subsidiary.ts';
export * from './task.ts';
export * from './tax-agency.ts';
export * from './tax-area.ts';
export * from './tax-rate.ts';
export * from './vendor.ts';

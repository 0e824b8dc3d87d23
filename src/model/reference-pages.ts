/**
 * What each unified object follows: a section of the spec (../shared/spec/accounting-resources.md), whose field table
 * is exact, or — where the spec shows no shape — a page of the reference (docs.rutter.com, 2024-08-31), with our
 * decisions in docs/reference.md; or, where neither has the object, our own shape, designed in the section of
 * docs/reference.md named. docs/objects.md is generated from this and the model (scripts/gen-object-docs.ts),
 * and src/model/docs.test.ts checks the spec's field tables against the schemas.
 */
import type { UnifiedObjectType } from './object-types.ts';

export type ObjectSource = { follows: 'spec'; section: string } | { follows: 'reference'; page: string } | { follows: 'ours'; decision: string };

const REFERENCE = 'https://docs.rutter.com/rest/2024-08-31';
const spec = (section: string): ObjectSource => ({ follows: 'spec', section });
const reference = (page: string): ObjectSource => ({ follows: 'reference', page: `${REFERENCE}/${page}` });
const ours = (decision: string): ObjectSource => ({ follows: 'ours', decision });

export const OBJECT_SOURCES: Readonly<Record<UnifiedObjectType, ObjectSource>> = {
  account: spec('Account'),
  attachment: spec('Attachment'),
  balance_sheet: spec('Balance sheet'),
  bank_deposit: spec('Bank deposit'),
  bank_feed_account: spec('Bank feed account'),
  bank_transfer: spec('Bank transfer'),
  bill: spec('Bill'),
  bill_credit_memo: spec('Bill credit memo'),
  bill_payment: spec('Bill payment'),
  cash_flow_statement: reference('cash-flow-statements'),
  class: reference('classes'),
  company_info: reference('company-info'),
  currency: spec('Currency'),
  customer: spec('Accounting customer'),
  customer_group: reference('customer-groups'),
  customer_refund: reference('customer-refunds'),
  department: reference('departments'),
  employee: reference('hris-employees'),
  exchange_rate: ours('Exchange rates'),
  expense: reference('expenses'),
  income_statement: reference('income-statements'),
  invoice: reference('invoices'),
  invoice_credit_memo: reference('invoice-credit-memos'),
  invoice_payment: reference('invoice-payments'),
  item: reference('items'),
  journal_entry: spec('Journal entry'),
  location: spec('Location'),
  order: spec('Commerce order (list sample)'),
  payment_method: reference('payment-methods'),
  payment_term: reference('payment-terms'),
  payout: reference('payouts'),
  product: reference('products'),
  commerce_customer: reference('customers'),
  transaction: reference('transactions'),
  dispute: ours('Dispute'),
  project: spec('Project'),
  purchase_order: reference('purchase-orders'),
  sales_order: reference('sales-orders'),
  sales_receipt: reference('sales-receipts'),
  store: reference('store'),
  subscription: reference('subscriptions'),
  subsidiary: reference('subsidiaries'),
  task: spec('Task'),
  tax_agency: spec('Tax agency'),
  tax_area: reference('tax-areas'),
  tax_rate: spec('Tax rate'),
  vendor: reference('vendors'),
};

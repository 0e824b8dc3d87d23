/**
 * The reference's `unavailable_objects` (GET /connections/access_token): the objects, by the reference's own names, a
 * connection cannot read. An object is available when the connection's connector reads the unified type that serves
 * it; reference objects no endpoint of ours serves yet are unavailable everywhere (docs/reference.md).
 */
import type { UnifiedObjectType } from '../model/object-types.ts';
import { getConnector } from '../platforms/registry.ts';

/** The reference's object names (2024-08-31, "Fetch a Connection by access token"), in its order. */
export const REFERENCE_OBJECTS = [
  'account',
  'accounting_customer',
  'accounting_customer_refund',
  'accounting_transaction',
  'account_transaction',
  'attachment',
  'balance_sheet',
  'bank_deposit',
  'bank_feed_account',
  'bank_feed_transaction',
  'bank_transfer',
  'bill',
  'bill_credit_memo',
  'bill_payment',
  'cash_flow',
  'categories',
  'class',
  'commerce_customer',
  'company_info',
  'currencies',
  'customer_group',
  'department',
  'expense',
  'income_statement',
  'invoice',
  'invoice_credit_memo',
  'invoice_payment',
  'items',
  'journal_entry',
  'location',
  'order',
  'payment_method',
  'payment_term',
  'payout',
  'product',
  'project',
  'purchase_order',
  'sales_order',
  'sales_receipt',
  'store',
  'subscription',
  'subsidiary',
  'task',
  'tax_agency',
  'tax_area',
  'tax_rates',
  'transaction',
  'updated_transaction',
  'vendor',
] as const;

export type ReferenceObject = (typeof REFERENCE_OBJECTS)[number];

/**
 * The unified type serving each reference object; null where we serve none yet. Bank feed transactions are the
 * client's to push into a bank feed account, so they go with it; the reference's commerce transactions are ours.
 */
const SERVED_BY: Readonly<Record<ReferenceObject, UnifiedObjectType | null>> = {
  account: 'account',
  accounting_customer: 'customer',
  accounting_customer_refund: 'customer_refund',
  accounting_transaction: null,
  account_transaction: null,
  attachment: 'attachment',
  balance_sheet: 'balance_sheet',
  bank_deposit: 'bank_deposit',
  bank_feed_account: 'bank_feed_account',
  bank_feed_transaction: 'bank_feed_account',
  bank_transfer: 'bank_transfer',
  bill: 'bill',
  bill_credit_memo: 'bill_credit_memo',
  bill_payment: 'bill_payment',
  cash_flow: 'cash_flow_statement',
  categories: null,
  class: 'class',
  commerce_customer: 'commerce_customer',
  company_info: 'company_info',
  currencies: 'currency',
  customer_group: 'customer_group',
  department: 'department',
  expense: 'expense',
  income_statement: 'income_statement',
  invoice: 'invoice',
  invoice_credit_memo: 'invoice_credit_memo',
  invoice_payment: 'invoice_payment',
  items: 'item',
  journal_entry: 'journal_entry',
  location: 'location',
  order: 'order',
  payment_method: 'payment_method',
  payment_term: 'payment_term',
  payout: 'payout',
  product: 'product',
  project: 'project',
  purchase_order: 'purchase_order',
  sales_order: 'sales_order',
  sales_receipt: 'sales_receipt',
  store: 'store',
  subscription: null,
  subsidiary: 'subsidiary',
  task: 'task',
  tax_agency: 'tax_agency',
  tax_area: 'tax_area',
  tax_rates: 'tax_rate',
  transaction: 'transaction',
  updated_transaction: null,
  vendor: 'vendor',
};

/** The reference objects a connection of `platform` cannot read; null until the end user picked a platform. */
export function unavailableObjects(platform: string | null): ReferenceObject[] | null {
  const connector = platform === null ? undefined : getConnector(platform);
  if (connector === undefined) return null;
  return REFERENCE_OBJECTS.filter((name) => {
    const type = SERVED_BY[name];
    return type === null || connector.objects[type]?.capabilities.read !== true;
  });
}

/**
 * The two kinds of credit application: a bill credit memo applied to bills, an invoice credit memo to invoices.
 * Their routes (src/api/accounting/credit-applications) and their write operation (operations.ts) read the names
 * from here, so the two stay one implementation.
 */
import type { UnifiedObjectType } from '../model/object-types.ts';

export interface CreditSide {
  memoType: Extract<UnifiedObjectType, 'bill_credit_memo' | 'invoice_credit_memo'>;
  docType: Extract<UnifiedObjectType, 'bill' | 'invoice'>;
  /** The body's wrapper key, and the memo's id field in it. */
  key: 'bill_credit_application' | 'invoice_credit_application';
  memoIdField: 'bill_credit_memo_id' | 'invoice_credit_memo_id';
  /** The memo's list of applications (and the body's list of documents). */
  linkedField: 'linked_bills' | 'linked_invoices';
  partyField: 'vendor_id' | 'customer_id';
  partyType: 'vendor' | 'customer';
  path: '/accounting/bill_credit_applications' | '/accounting/invoice_credit_applications';
  /** The reference's answer keys, `{success: true}` beside the credit memo. */
  referenceKeys: { apply: string; unapply: string };
}

export const CREDIT_SIDES = {
  bill_credit_memo: {
    memoType: 'bill_credit_memo',
    docType: 'bill',
    key: 'bill_credit_application',
    memoIdField: 'bill_credit_memo_id',
    linkedField: 'linked_bills',
    partyField: 'vendor_id',
    partyType: 'vendor',
    path: '/accounting/bill_credit_applications',
    referenceKeys: { apply: 'bill_credit_application', unapply: 'bill_credit_unapplication' },
  },
  invoice_credit_memo: {
    memoType: 'invoice_credit_memo',
    docType: 'invoice',
    key: 'invoice_credit_application',
    memoIdField: 'invoice_credit_memo_id',
    linkedField: 'linked_invoices',
    partyField: 'customer_id',
    partyType: 'customer',
    path: '/accounting/invoice_credit_applications',
    referenceKeys: { apply: 'invoice_credit_application', unapply: 'invoice_credit_unapplication' },
  },
} as const satisfies Record<string, CreditSide>;

export function creditSideOf(type: UnifiedObjectType): CreditSide | null {
  return type === 'bill_credit_memo' || type === 'invoice_credit_memo' ? CREDIT_SIDES[type] : null;
}

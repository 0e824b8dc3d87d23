/** The writable collections of the native API and their handlers. */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { NativeRecord } from '../native.ts';
import type { Unit } from '../store/unit.ts';
import { depositWriter, journalWriter, transferWriter } from './banking.ts';
import { customerRefundWriter, expenseWriter, salesOrderWriter, salesReceiptWriter } from './direct.ts';
import { billWriter, creditNoteWriter, invoiceWriter, purchaseOrderWriter, vendorCreditWriter } from './documents.ts';
import { feedWriter } from './feeds.ts';
import { classWriter, departmentWriter, termWriter } from './lists.ts';
import { accountWriter, customerWriter, itemWriter, vendorWriter } from './master.ts';
import { orderWriter } from './orders.ts';
import { billPaymentWriter, invoicePaymentWriter } from './payments.ts';
import { productWriter } from './catalogue.ts';
import { taxCodeWriter } from './tax-codes.ts';
import type { Body } from './validate.ts';

export interface Writer {
  create(unit: Unit, body: Body): Promise<NativeRecord>;
  update(unit: Unit, id: string, body: Body): Promise<NativeRecord>;
  delete(unit: Unit, id: string): Promise<void>;
}

export const WRITERS: Readonly<Partial<Record<UnifiedObjectType, Writer>>> = {
  account: accountWriter,
  bank_deposit: depositWriter,
  bank_feed_account: feedWriter,
  bank_transfer: transferWriter,
  bill: billWriter,
  bill_credit_memo: vendorCreditWriter,
  bill_payment: billPaymentWriter,
  class: classWriter,
  customer: customerWriter,
  customer_refund: customerRefundWriter,
  department: departmentWriter,
  expense: expenseWriter,
  invoice: invoiceWriter,
  invoice_credit_memo: creditNoteWriter,
  invoice_payment: invoicePaymentWriter,
  item: itemWriter,
  journal_entry: journalWriter,
  order: orderWriter,
  payment_term: termWriter,
  product: productWriter,
  purchase_order: purchaseOrderWriter,
  sales_order: salesOrderWriter,
  sales_receipt: salesReceiptWriter,
  tax_rate: taxCodeWriter,
  vendor: vendorWriter,
};

export { isBody, type Body } from './validate.ts';

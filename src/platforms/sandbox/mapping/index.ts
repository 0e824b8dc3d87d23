/**
 * Native record → unified object, one small function per object type. The
 * table is the only place that knows which native shape each collection holds.
 */
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import type * as N from '../native.ts';
import { mapAccount, mapAttachment, mapBalanceSheet, mapDeposit, mapFeedAccount, mapJournalEntry, mapTransfer } from './banking.ts';
import type { Ref } from './common.ts';
import { mapOrder } from './commerce.ts';
import {
  mapClass, mapCompany, mapCurrency, mapCustomer, mapDepartment, mapItem, mapLocation, mapProject, mapSubsidiary,
  mapTask, mapTaxAgency, mapTaxCode, mapTerm, mapVendor,
} from './master.ts';
import { mapBill, mapBillPayment, mapExpense, mapPurchaseOrder, mapVendorCredit } from './payables.ts';
import { mapCreditNote, mapInvoice, mapPayment } from './receivables.ts';

export type { Mapped, Ref } from './common.ts';

type Mapper = (raw: Record<string, unknown>, ref: Ref) => Record<string, unknown>;

/** Records come from the sandbox itself, so their shape is the native one by construction. */
function as<T>(fn: (record: T, ref: Ref) => object): Mapper {
  return (raw, ref) => ({ ...fn(raw as T, ref) });
}

export const MAPPERS: Readonly<Record<UnifiedObjectType, Mapper>> = {
  account: as<N.NativeAccount>(mapAccount),
  attachment: as<N.NativeAttachment>(mapAttachment),
  balance_sheet: as<N.NativeBalanceSheet>(mapBalanceSheet),
  bank_deposit: as<N.NativeDeposit>(mapDeposit),
  bank_feed_account: as<N.NativeFeedAccount>(mapFeedAccount),
  bank_transfer: as<N.NativeTransfer>(mapTransfer),
  bill: as<N.NativeBill>(mapBill),
  bill_credit_memo: as<N.NativeVendorCredit>(mapVendorCredit),
  bill_payment: as<N.NativeBillPayment>(mapBillPayment),
  class: as<N.NativeClass>(mapClass),
  company_info: as<N.NativeCompany>(mapCompany),
  currency: as<N.NativeCurrency>(mapCurrency),
  customer: as<N.NativeCustomer>(mapCustomer),
  department: as<N.NativeDepartment>(mapDepartment),
  expense: as<N.NativeExpense>(mapExpense),
  invoice: as<N.NativeInvoice>(mapInvoice),
  invoice_credit_memo: as<N.NativeCreditNote>(mapCreditNote),
  invoice_payment: as<N.NativePayment>(mapPayment),
  item: as<N.NativeItem>(mapItem),
  journal_entry: as<N.NativeJournalEntry>(mapJournalEntry),
  location: as<N.NativeLocation>(mapLocation),
  order: as<N.NativeOrder>(mapOrder),
  payment_term: as<N.NativeTerm>(mapTerm),
  project: as<N.NativeProject>(mapProject),
  purchase_order: as<N.NativePurchaseOrder>(mapPurchaseOrder),
  subsidiary: as<N.NativeSubsidiary>(mapSubsidiary),
  task: as<N.NativeTask>(mapTask),
  tax_agency: as<N.NativeTaxAgency>(mapTaxAgency),
  tax_rate: as<N.NativeTaxCode>(mapTaxCode),
  vendor: as<N.NativeVendor>(mapVendor),
};

export function mapRecord(type: UnifiedObjectType, raw: Record<string, unknown>, ref: Ref): Record<string, unknown> {
  return MAPPERS[type](raw, ref);
}

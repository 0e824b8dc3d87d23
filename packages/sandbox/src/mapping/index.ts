/**
 * Native record → unified object, one small function per object type. The
 * table is the only place that knows which native shape each collection holds.
 */
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type * as N from '../native.ts';
import { mapAccount, mapAttachment, mapBalanceSheet, mapDeposit, mapFeedAccount, mapJournalEntry, mapTransfer } from './banking.ts';
import type { Ref } from './common.ts';
import { mapCustomerGroup, mapGatewayTransaction, mapOrder, mapPayout, mapProduct, mapShopper, mapStore } from './commerce.ts';
import {
  mapClass,
  mapCompany,
  mapCurrency,
  mapCustomer,
  mapDepartment,
  mapEmployee,
  mapExchangeRate,
  mapItem,
  mapLocation,
  mapPaymentMethod,
  mapTaxArea,
  mapProject,
  mapSubsidiary,
  mapTask,
  mapTaxAgency,
  mapTaxCode,
  mapTerm,
  mapVendor,
} from './master.ts';
import { mapBill, mapBillPayment, mapExpense, mapPurchaseOrder, mapVendorCredit } from './payables.ts';
import { mapCreditNote, mapCustomerRefund, mapInvoice, mapPayment, mapSalesOrder, mapSalesReceipt } from './receivables.ts';
import { mapCashFlow, mapIncomeStatement } from './statements.ts';

export type { Mapped, Ref } from './common.ts';

type Mapper = (raw: Record<string, unknown>, ref: Ref) => Record<string, unknown>;

// Records come from the sandbox itself, so their shape is the collection's native one by construction.
export const MAPPERS: Readonly<Record<N.NativeType, Mapper>> = {
  account: (raw, ref) => ({ ...mapAccount(raw as N.NativeAccount, ref) }),
  attachment: (raw, ref) => ({ ...mapAttachment(raw as N.NativeAttachment, ref) }),
  balance_sheet: (raw, ref) => ({ ...mapBalanceSheet(raw as N.NativeBalanceSheet, ref) }),
  bank_deposit: (raw, ref) => ({ ...mapDeposit(raw as N.NativeDeposit, ref) }),
  bank_feed_account: (raw, ref) => ({ ...mapFeedAccount(raw as N.NativeFeedAccount, ref) }),
  bank_transfer: (raw, ref) => ({ ...mapTransfer(raw as N.NativeTransfer, ref) }),
  bill: (raw, ref) => ({ ...mapBill(raw as N.NativeBill, ref) }),
  bill_credit_memo: (raw, ref) => ({ ...mapVendorCredit(raw as N.NativeVendorCredit, ref) }),
  bill_payment: (raw, ref) => ({ ...mapBillPayment(raw as N.NativeBillPayment, ref) }),
  cash_flow_statement: (raw, ref) => ({ ...mapCashFlow(raw as N.NativeCashFlow, ref) }),
  class: (raw, ref) => ({ ...mapClass(raw as N.NativeClass, ref) }),
  company_info: (raw) => ({ ...mapCompany(raw as N.NativeCompany) }),
  currency: (raw) => ({ ...mapCurrency(raw as N.NativeCurrency) }),
  customer: (raw, ref) => ({ ...mapCustomer(raw as N.NativeCustomer, ref) }),
  department: (raw, ref) => ({ ...mapDepartment(raw as N.NativeDepartment, ref) }),
  employee: (raw, ref) => ({ ...mapEmployee(raw as N.NativeEmployee, ref) }),
  exchange_rate: (raw) => ({ ...mapExchangeRate(raw as N.NativeExchangeRate) }),
  expense: (raw, ref) => ({ ...mapExpense(raw as N.NativeExpense, ref) }),
  income_statement: (raw, ref) => ({ ...mapIncomeStatement(raw as N.NativeIncomeStatement, ref) }),
  invoice: (raw, ref) => ({ ...mapInvoice(raw as N.NativeInvoice, ref) }),
  invoice_credit_memo: (raw, ref) => ({ ...mapCreditNote(raw as N.NativeCreditNote, ref) }),
  invoice_payment: (raw, ref) => ({ ...mapPayment(raw as N.NativePayment, ref) }),
  item: (raw, ref) => ({ ...mapItem(raw as N.NativeItem, ref) }),
  journal_entry: (raw, ref) => ({ ...mapJournalEntry(raw as N.NativeJournalEntry, ref) }),
  location: (raw, ref) => ({ ...mapLocation(raw as N.NativeLocation, ref) }),
  order: (raw, ref) => ({ ...mapOrder(raw as N.NativeOrder, ref) }),
  payment_method: (raw) => ({ ...mapPaymentMethod(raw as N.NativePaymentMethod) }),
  payment_term: (raw) => ({ ...mapTerm(raw as N.NativeTerm) }),
  tax_area: (raw) => ({ ...mapTaxArea(raw as N.NativeTaxArea) }),
  payout: (raw, ref) => ({ ...mapPayout(raw as N.NativePayout, ref) }),
  product: (raw, ref) => ({ ...mapProduct(raw as N.NativeProduct, ref) }),
  commerce_customer: (raw, ref) => ({ ...mapShopper(raw as N.NativeShopper, ref) }),
  customer_group: (raw) => ({ ...mapCustomerGroup(raw as N.NativeCustomerGroup) }),
  transaction: (raw, ref) => ({ ...mapGatewayTransaction(raw as N.NativeGatewayTransaction, ref) }),
  project: (raw) => ({ ...mapProject(raw as N.NativeProject) }),
  purchase_order: (raw, ref) => ({ ...mapPurchaseOrder(raw as N.NativePurchaseOrder, ref) }),
  sales_order: (raw, ref) => ({ ...mapSalesOrder(raw as N.NativeSalesOrder, ref) }),
  customer_refund: (raw, ref) => ({ ...mapCustomerRefund(raw as N.NativeCustomerRefund, ref) }),
  sales_receipt: (raw, ref) => ({ ...mapSalesReceipt(raw as N.NativeSalesReceipt, ref) }),
  store: (raw) => ({ ...mapStore(raw as N.NativeStore) }),
  subsidiary: (raw, ref) => ({ ...mapSubsidiary(raw as N.NativeSubsidiary, ref) }),
  task: (raw) => ({ ...mapTask(raw as N.NativeTask) }),
  tax_agency: (raw) => ({ ...mapTaxAgency(raw as N.NativeTaxAgency) }),
  tax_rate: (raw, ref) => ({ ...mapTaxCode(raw as N.NativeTaxCode, ref) }),
  vendor: (raw, ref) => ({ ...mapVendor(raw as N.NativeVendor, ref) }),
};

export function mapRecord(type: UnifiedObjectType, raw: Record<string, unknown>, ref: Ref): Record<string, unknown> {
  if (!isNativeType(type)) throw new Error(`SANDBOX keeps no ${type} records`);
  return MAPPERS[type](raw, ref);
}

/** Whether SANDBOX keeps records of a unified type (it keeps no disputes: its gateway has none). */
export function isNativeType(type: UnifiedObjectType): type is N.NativeType {
  return Object.hasOwn(MAPPERS, type);
}

/** The unified types SANDBOX serves. */
export const NATIVE_TYPES: readonly N.NativeType[] = UNIFIED_OBJECT_TYPES.filter(isNativeType);

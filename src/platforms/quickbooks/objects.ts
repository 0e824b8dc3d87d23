/**
 * QuickBooks Online's object table (../objects.ts): which QBO entity each unified object is read from, and how.
 * Entities are in ChangeDataCapture unless `cdc: false` (Intuit lists TaxRate, TaxAgency, TaxCode, JournalCode and
 * TimeActivity as not covered); `dated` ones have a TxnDate to window initial syncs on.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectorContext, ObjectCapabilities } from '../connector.ts';
import { defineObject, type Mapped, type ObjectEntry } from '../objects.ts';
import { knownBase } from '../readers.ts';
import { parseEntity } from './contract.ts';
import { QBO_BASE } from './currencies.ts';
import { invoiceBody, invoicePaymentBody } from './inbound-receivables.ts';
import { expenseBody } from './inbound-expenses.ts';
import { billPaymentBody, vendorBody, vendorCreditBody } from './inbound-payables.ts';
import { billBody, classBody, customerBody, departmentBody, itemBody, journalEntryBody, salesReceiptBody, termBody } from './inbound.ts';
import { mapAttachment, mapDeposit, mapJournalEntry, mapTransfer, isFileAttachable } from './mapping/banking.ts';
import { day, type MapContext } from './mapping/common.ts';
import * as master from './mapping/master.ts';
import { mapExpense } from './mapping/expenses.ts';
import { mapBill, mapBillPayment, mapCreditMemo, mapInvoice, mapPayment, mapSalesReceipt, mapVendorCredit } from './mapping/documents.ts';
import type { QboEntities } from './generated/native.ts';
import { readEntity, type EntityRead } from './read.ts';
import { writeHandlers, type WriteSpec } from './writes.ts';

type Raw = Record<string, unknown>;

/** The entities read as objects (the others are read by company.ts and currencies.ts). */
export type EntityName = Exclude<keyof QboEntities, 'CompanyInfo' | 'Preferences' | 'CompanyCurrency' | 'ExchangeRate'>;

export interface EntitySpec extends EntityRead {
  type: UnifiedObjectType;
  /** Name in queries, CDC and webhooks ("Bill"); lower-cased it is the REST resource ("bill"). */
  entity: EntityName;
  /** The unified object of a raw record, parsed through the contract. */
  map: (raw: Raw, mc: MapContext) => Raw;
  object: ObjectEntry;
}

interface EntityOptions<E extends EntityName> {
  cdc?: false;
  dated?: true;
  keep?: (record: QboEntities[E]) => boolean;
  /** Unified fields QBO never fills. */
  unmapped?: readonly string[];
  /** QBO fields served only in platform_data. */
  dataOnly: readonly string[];
  attachedTo?: ObjectCapabilities['attachedTo'];
  write?: Omit<WriteSpec, 'entity'>;
}

/** Every object is read, filtered and fetched by id; the written ones say so. */
export const READ_ONLY = { read: true, filter: true, fetchByPlatformId: true, create: false, update: false, delete: false } as const;

/** What a mapper needs beyond the record: links, the environment for deep links, the home currency once learnt. */
export const mapContext = (ctx: ConnectorContext): MapContext => ({
  ref: (type, id) => ctx.ref(type, id),
  environment: ctx.environment,
  homeCurrency: knownBase(QBO_BASE, ctx),
});

function entitySpec<K extends UnifiedObjectType, E extends EntityName>(
  type: K,
  entity: E,
  mapper: (record: QboEntities[E], mc: MapContext) => Mapped<K>,
  options: EntityOptions<E>,
): EntitySpec {
  const { keep, write } = options;
  const cdc = options.cdc ?? true;
  const map = (raw: Raw, mc: MapContext): Mapped<K> => mapper(parseEntity(entity, raw), mc);
  const spec: Omit<EntitySpec, 'object'> = {
    type,
    entity,
    cdc,
    dated: options.dated === true,
    map: (raw, mc) => ({ ...map(raw, mc) }),
    ...(keep === undefined ? {} : { keep: (raw: Raw) => keep(parseEntity(entity, raw)) }),
  };
  const object = defineObject<K>({
    capabilities: {
      ...READ_ONLY,
      incremental: cdc ? 'cursor' : 'none',
      // Without CDC (tax rates and agencies) each sync reads the whole list, and what is missing from it is gone.
      deletions: cdc ? 'reported' : 'full_listing',
      create: write?.body !== undefined,
      update: write?.body !== undefined && write.createOnly !== true,
      delete: write?.deletes !== undefined,
      unmappedFields: options.unmapped ?? [],
      platformDataOnly: options.dataOnly,
      ...(options.attachedTo === undefined ? {} : { attachedTo: options.attachedTo }),
    },
    read: (ctx, request) => readEntity(ctx, spec, request),
    map: (record, ctx) => map(record.raw, mapContext(ctx)),
    ...(spec.dated ? { businessDate: (record) => day(record.raw.TxnDate) } : {}),
    ...(write === undefined ? {} : writeHandlers({ entity, ...write })),
  });
  return { ...spec, object };
}

const TXN_ONLY = ['SyncToken', 'domain', 'sparse', 'TxnTaxDetail.TaxLine', 'CustomField', 'RecurDataRef'] as const;
const TAXED_LINE = ['Line[].…TaxCodeRef', 'Line[].…BillableStatus'] as const;
const NAME_LIST = ['CompanyName', 'Title', 'Suffix', 'PrintOnCheckName'] as const;
const SALES_LINE = ['Line[].SalesItemLineDetail.TaxCodeRef', 'Line[].SubTotalLineDetail'] as const;

export const ENTITIES: readonly EntitySpec[] = [
  entitySpec('account', 'Account', master.mapAccount, {
    dataOnly: ['AccountSubType', 'FullyQualifiedName', 'SubAccount', 'CurrentBalanceWithSubAccounts', 'Description', 'TaxCodeRef', 'SyncToken'],
  }),
  entitySpec('vendor', 'Vendor', master.mapVendor, {
    unmapped: ['parent_id', 'registration_number', 'subsidiaries'],
    dataOnly: [...NAME_LIST, 'Mobile', 'Fax', 'AcctNum', 'Balance', 'Vendor1099', 'SyncToken'],
    // DELETE makes one inactive: QBO never deletes a name list entry.
    write: { body: vendorBody, deletes: 'deactivate', duplicateProperty: 'vendor_name' },
  }),
  entitySpec('customer', 'Customer', master.mapCustomer, {
    unmapped: ['subsidiary_id', 'registration_number', 'subsidiaries'],
    dataOnly: [
      ...NAME_LIST,
      'WebAddr',
      'Mobile',
      'Fax',
      'Job',
      'Level',
      'FullyQualifiedName',
      'Balance',
      'BalanceWithJobs',
      'Taxable',
      'Notes',
      'PreferredDeliveryMethod',
      'SyncToken',
    ],
    write: { body: customerBody, duplicateProperty: 'customer_name' },
  }),
  entitySpec('bill', 'Bill', mapBill, {
    dated: true,
    unmapped: ['subsidiary_id', 'total_discount'],
    dataOnly: ['LinkedTxn', ...TAXED_LINE, 'Line[].ProjectRef', 'HomeBalance', 'GlobalTaxCalculation', 'IncludeInAnnualTPAR', ...TXN_ONLY],
    write: { body: billBody, deletes: 'delete' },
  }),
  entitySpec('bill_payment', 'BillPayment', mapBillPayment, {
    dated: true,
    dataOnly: ['PayType', 'CheckPayment.PrintStatus', 'APAccountRef', 'ProcessBillPayment', ...TXN_ONLY],
    write: { body: billPaymentBody, deletes: 'delete', voids: { operation: 'update', include: 'void' } },
  }),
  entitySpec('bill_credit_memo', 'VendorCredit', mapVendorCredit, {
    dated: true,
    dataOnly: [...TAXED_LINE, 'GlobalTaxCalculation', ...TXN_ONLY],
    write: { body: vendorCreditBody, deletes: 'delete' },
  }),
  entitySpec('expense', 'Purchase', mapExpense, {
    dated: true,
    unmapped: ['subsidiary_id'],
    dataOnly: ['EntityRef (a Customer or Employee payee)', 'PaymentMethodRef', 'PrintStatus', ...TAXED_LINE, 'GlobalTaxCalculation', ...TXN_ONLY],
    write: { body: expenseBody, deletes: 'delete' },
  }),
  entitySpec('bank_deposit', 'Deposit', mapDeposit, {
    dated: true,
    unmapped: ['subsidiary_id'],
    dataOnly: [
      'Line[].LinkedTxn (kinds other than Payment and JournalEntry)',
      'Line[].DepositLineDetail.PaymentMethodRef',
      'Line[].DepositLineDetail.CheckNum',
      'CashBack',
      ...TXN_ONLY,
    ],
  }),
  entitySpec('bank_transfer', 'Transfer', mapTransfer, {
    dated: true,
    unmapped: ['location_id', 'project_id', 'subsidiary_id'],
    dataOnly: ['SyncToken'],
  }),
  entitySpec('journal_entry', 'JournalEntry', mapJournalEntry, {
    dated: true,
    unmapped: ['subsidiary_id', 'deposited'],
    dataOnly: [
      'DocNumber',
      'Adjustment',
      'Line[].JournalEntryLineDetail.Entity',
      'Line[].JournalEntryLineDetail.ClassRef',
      'Line[].JournalEntryLineDetail.DepartmentRef',
      'Line[].JournalEntryLineDetail.TaxCodeRef',
      ...TXN_ONLY,
    ],
    write: { body: journalEntryBody, deletes: 'delete' },
  }),
  entitySpec('tax_rate', 'TaxRate', master.mapTaxRate, {
    cdc: false,
    unmapped: ['code'],
    dataOnly: ['Description', 'AgencyRef', 'SpecialTaxType', 'DisplayType', 'EffectiveTaxRate', 'TaxReturnLineRef'],
  }),
  entitySpec('tax_agency', 'TaxAgency', master.mapTaxAgency, {
    cdc: false,
    dataOnly: ['TaxTrackedOnSales', 'TaxTrackedOnPurchases', 'TaxRegistrationNumber'],
  }),
  entitySpec('department', 'Department', master.mapDepartment, {
    unmapped: ['has_children', 'platform_url'],
    dataOnly: ['FullyQualifiedName', 'SubDepartment'],
    write: { body: departmentBody, createOnly: true },
  }),
  entitySpec('employee', 'Employee', master.mapEmployee, {
    unmapped: ['department_id', 'manager_id', 'position', 'salary'],
    dataOnly: [
      'DisplayName',
      'MiddleName',
      'PrintOnCheckName',
      'Title',
      'Suffix',
      'PrimaryEmailAddr',
      'PrimaryPhone',
      'Mobile',
      'PrimaryAddr',
      'BillableTime',
      'BillRate',
      'CostRate',
      'Gender',
      'BirthDate',
      'SSN (masked)',
      'SyncToken',
    ],
  }),
  entitySpec('class', 'Class', master.mapTracking('class'), {
    unmapped: ['has_children'],
    dataOnly: ['FullyQualifiedName', 'SubClass'],
    write: { body: classBody, createOnly: true },
  }),
  entitySpec('attachment', 'Attachable', mapAttachment, {
    keep: isFileAttachable,
    // QBO takes no uploads through us yet.
    attachedTo: { read: ['bill', 'expense', 'invoice', 'journal_entry', 'bank_deposit', 'bank_transfer'], upload: [] },
    dataOnly: ['Note', 'Category', 'ContentType', 'Size', 'TempDownloadUri', 'ThumbnailFileAccessUri', 'AttachableRef[1..]'],
  }),
  entitySpec('item', 'Item', master.mapItem, {
    dataOnly: ['FullyQualifiedName', 'Taxable', 'TrackQtyOnHand', 'InvStartDate', 'SalesTaxCodeRef', 'PurchaseTaxCodeRef', 'ParentRef'],
    // QBO deletes no item, it makes one inactive: DELETE is not offered (404), PATCH status archived does that.
    write: { body: itemBody, duplicateProperty: 'name' },
  }),
  entitySpec('payment_method', 'PaymentMethod', master.mapPaymentMethod, { dataOnly: ['Active', 'Type'] }),
  // QBO never deletes a Term: DELETE makes it inactive, as its own screens do (docs/reference.md, "Small writes").
  entitySpec('payment_term', 'Term', master.mapTerm, {
    dataOnly: ['Type', 'DayOfMonthDue', 'DueNextMonthDays', 'DiscountDayOfMonth'],
    write: { body: termBody, deletes: 'deactivate', createOnly: true },
  }),
  entitySpec('invoice', 'Invoice', mapInvoice, {
    dated: true,
    unmapped: ['subsidiary_id'],
    dataOnly: ['LinkedTxn', 'BillAddr', 'ShipAddr', 'BillEmail', 'CustomerMemo', 'EmailStatus', 'PrintStatus', 'Deposit', ...SALES_LINE, ...TXN_ONLY],
    // DELETE deletes the invoice; PATCH status void is QBO's void operation.
    write: { body: invoiceBody, deletes: 'delete', voids: { operation: 'void' } },
  }),
  entitySpec('invoice_payment', 'Payment', mapPayment, {
    dated: true,
    unmapped: ['deposited'],
    dataOnly: ['UnappliedAmt', 'ARAccountRef', 'ProcessPayment', ...TXN_ONLY],
    // DELETE deletes the payment; PATCH status void is QBO's void, a sparse update with include=void.
    write: { body: invoicePaymentBody, deletes: 'delete', voids: { operation: 'update', include: 'void' } },
  }),
  entitySpec('invoice_credit_memo', 'CreditMemo', mapCreditMemo, {
    dated: true,
    unmapped: ['allocated_at'],
    dataOnly: ['BillAddr', 'ShipAddr', 'BillEmail', 'CustomerMemo', SALES_LINE[0], ...TXN_ONLY],
  }),
  entitySpec('sales_receipt', 'SalesReceipt', mapSalesReceipt, {
    dated: true,
    dataOnly: [
      'PaymentMethodRef',
      'ShipDate',
      'ShipMethodRef',
      'TrackingNum',
      'ClassRef',
      'CreditCardPayment',
      'PrintStatus',
      'EmailStatus',
      'ApplyTaxAfterDiscount',
      'GlobalTaxCalculation',
      'HomeBalance',
      'LinkedTxn (kinds other than Deposit)',
      ...SALES_LINE,
      ...TXN_ONLY,
    ],
    // Created only, as the reference does (no PATCH or DELETE of receipts is served).
    write: { body: salesReceiptBody, createOnly: true },
  }),
];

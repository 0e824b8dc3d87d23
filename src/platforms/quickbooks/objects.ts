/**
 * Which QBO entity each unified object is read from, and how: one row per
 * object. `cdc` says whether ChangeDataCapture covers the entity (Intuit lists
 * TaxRate, TaxAgency, TaxCode, JournalCode and TimeActivity as not covered);
 * `dated` whether it has a TxnDate to window initial syncs on.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ObjectCapabilities } from '../connector.ts';
import { mapAttachment, mapDeposit, mapJournalEntry, mapTransfer, isFileAttachable } from './mapping/banking.ts';
import type { MapContext } from './mapping/common.ts';
import {
  mapAccount,
  mapClass,
  mapCustomer,
  mapDepartment,
  mapEmployee,
  mapItem,
  mapTaxAgency,
  mapTaxRate,
  mapTerm,
  mapVendor,
} from './mapping/master.ts';
import { mapBill, mapBillPayment, mapVendorCredit } from './mapping/payables.ts';
import { mapCreditMemo, mapInvoice, mapPayment, mapSalesReceipt } from './mapping/receivables.ts';

type Raw = Record<string, unknown>;
type Mapper = (raw: Raw, mc: MapContext) => Record<string, unknown>;

export interface EntitySpec {
  type: UnifiedObjectType;
  /** Name in queries and CDC ("Bill"); lower-cased it is the REST resource ("bill"). */
  entity: string;
  cdc: boolean;
  dated: boolean;
  map: Mapper;
  /** Records of the entity that are not objects of the type (note-only attachables). */
  keep?: (raw: Raw) => boolean;
  /** Unified fields QBO never fills. */
  unmapped: readonly string[];
  /** QBO fields served only in platform_data. */
  platformDataOnly: readonly string[];
  /** Attachments only: which objects' attachments are served under their paths (ObjectCapabilities.attachedTo). */
  attachedTo?: ObjectCapabilities['attachedTo'];
}

/**
 * A record of QBO's JSON answer for the entity, with its Id as text: its
 * shape is the entity's by construction, so mappers take it as typed.
 */
export function entity(raw: Raw): Raw & { Id: string } {
  return { ...raw, Id: typeof raw.Id === 'string' ? raw.Id : String(raw.Id) };
}

const TXN_ONLY = ['SyncToken', 'domain', 'sparse', 'TxnTaxDetail.TaxLine', 'CustomField', 'RecurDataRef'] as const;

export const ENTITIES: readonly EntitySpec[] = [
  {
    type: 'account',
    entity: 'Account',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapAccount(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: [
      'AccountSubType',
      'FullyQualifiedName',
      'SubAccount',
      'CurrentBalanceWithSubAccounts',
      'Description',
      'TaxCodeRef',
      'SyncToken',
    ],
  },
  {
    type: 'vendor',
    entity: 'Vendor',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapVendor(entity(r), mc) }),
    unmapped: ['parent_id', 'registration_number', 'subsidiaries'],
    platformDataOnly: ['CompanyName', 'Title', 'Suffix', 'PrintOnCheckName', 'Mobile', 'Fax', 'AcctNum', 'Balance', 'Vendor1099', 'SyncToken'],
  },
  {
    type: 'customer',
    entity: 'Customer',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapCustomer(entity(r), mc) }),
    unmapped: ['subsidiary_id', 'registration_number', 'subsidiaries'],
    platformDataOnly: [
      'CompanyName',
      'Title',
      'Suffix',
      'PrintOnCheckName',
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
  },
  {
    type: 'bill',
    entity: 'Bill',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapBill(entity(r), mc) }),
    unmapped: ['subsidiary_id', 'total_discount'],
    platformDataOnly: [
      'LinkedTxn',
      'Line[].…TaxCodeRef',
      'Line[].…BillableStatus',
      'Line[].ProjectRef',
      'HomeBalance',
      'GlobalTaxCalculation',
      'IncludeInAnnualTPAR',
      ...TXN_ONLY,
    ],
  },
  {
    type: 'bill_payment',
    entity: 'BillPayment',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapBillPayment(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: ['PayType', 'CheckPayment.PrintStatus', 'APAccountRef', 'ProcessBillPayment', ...TXN_ONLY],
  },
  {
    type: 'bill_credit_memo',
    entity: 'VendorCredit',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapVendorCredit(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: ['Line[].…TaxCodeRef', 'Line[].…BillableStatus', 'GlobalTaxCalculation', ...TXN_ONLY],
  },
  {
    type: 'bank_deposit',
    entity: 'Deposit',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapDeposit(entity(r), mc) }),
    unmapped: ['subsidiary_id'],
    platformDataOnly: [
      'Line[].LinkedTxn (kinds other than Payment and JournalEntry)',
      'Line[].DepositLineDetail.PaymentMethodRef',
      'Line[].DepositLineDetail.CheckNum',
      'CashBack',
      ...TXN_ONLY,
    ],
  },
  {
    type: 'bank_transfer',
    entity: 'Transfer',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapTransfer(entity(r), mc) }),
    unmapped: ['location_id', 'project_id', 'subsidiary_id'],
    platformDataOnly: ['SyncToken'],
  },
  {
    type: 'journal_entry',
    entity: 'JournalEntry',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapJournalEntry(entity(r), mc) }),
    unmapped: ['subsidiary_id', 'deposited'],
    platformDataOnly: [
      'DocNumber',
      'Adjustment',
      'Line[].JournalEntryLineDetail.Entity',
      'Line[].JournalEntryLineDetail.ClassRef',
      'Line[].JournalEntryLineDetail.DepartmentRef',
      'Line[].JournalEntryLineDetail.TaxCodeRef',
      ...TXN_ONLY,
    ],
  },
  {
    type: 'tax_rate',
    entity: 'TaxRate',
    cdc: false,
    dated: false,
    map: (r) => ({ ...mapTaxRate(entity(r)) }),
    unmapped: ['code'],
    platformDataOnly: ['Description', 'AgencyRef', 'SpecialTaxType', 'DisplayType', 'EffectiveTaxRate', 'TaxReturnLineRef'],
  },
  {
    type: 'tax_agency',
    entity: 'TaxAgency',
    cdc: false,
    dated: false,
    map: (r) => ({ ...mapTaxAgency(entity(r)) }),
    unmapped: [],
    platformDataOnly: ['TaxTrackedOnSales', 'TaxTrackedOnPurchases', 'TaxRegistrationNumber'],
  },
  {
    type: 'department',
    entity: 'Department',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapDepartment(entity(r), mc) }),
    unmapped: ['has_children'],
    platformDataOnly: ['FullyQualifiedName', 'SubDepartment'],
  },
  {
    type: 'employee',
    entity: 'Employee',
    cdc: true,
    dated: false,
    map: (r) => ({ ...mapEmployee(entity(r)) }),
    unmapped: ['department_id', 'manager_id', 'position', 'salary'],
    platformDataOnly: [
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
  },
  {
    type: 'class',
    entity: 'Class',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapClass(entity(r), mc) }),
    unmapped: ['has_children'],
    platformDataOnly: ['FullyQualifiedName', 'SubClass'],
  },
  {
    type: 'attachment',
    entity: 'Attachable',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapAttachment(entity(r), mc) }),
    keep: (r) => isFileAttachable(entity(r)),
    // Attachables of a Purchase have no expense to hang off (Purchase is not read); QBO takes no uploads through us yet.
    attachedTo: { read: ['bill', 'invoice', 'journal_entry'], upload: [] },
    unmapped: [],
    platformDataOnly: ['Note', 'Category', 'ContentType', 'Size', 'TempDownloadUri', 'ThumbnailFileAccessUri', 'AttachableRef[1..]'],
  },
  {
    type: 'item',
    entity: 'Item',
    cdc: true,
    dated: false,
    map: (r, mc) => ({ ...mapItem(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: ['FullyQualifiedName', 'Taxable', 'TrackQtyOnHand', 'InvStartDate', 'SalesTaxCodeRef', 'PurchaseTaxCodeRef', 'ParentRef'],
  },
  {
    type: 'payment_term',
    entity: 'Term',
    cdc: true,
    dated: false,
    map: (r) => ({ ...mapTerm(entity(r)) }),
    unmapped: [],
    platformDataOnly: ['Type', 'DayOfMonthDue', 'DueNextMonthDays', 'DiscountDayOfMonth'],
  },
  {
    type: 'invoice',
    entity: 'Invoice',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapInvoice(entity(r), mc) }),
    unmapped: ['subsidiary_id'],
    platformDataOnly: [
      'LinkedTxn',
      'BillAddr',
      'ShipAddr',
      'BillEmail',
      'CustomerMemo',
      'EmailStatus',
      'PrintStatus',
      'Deposit',
      'Line[].SalesItemLineDetail.TaxCodeRef',
      'Line[].SubTotalLineDetail',
      ...TXN_ONLY,
    ],
  },
  {
    type: 'invoice_payment',
    entity: 'Payment',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapPayment(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: ['UnappliedAmt', 'PaymentMethodRef', 'ARAccountRef', 'ProcessPayment', ...TXN_ONLY],
  },
  {
    type: 'invoice_credit_memo',
    entity: 'CreditMemo',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapCreditMemo(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: ['BillAddr', 'ShipAddr', 'BillEmail', 'CustomerMemo', 'Line[].SalesItemLineDetail.TaxCodeRef', ...TXN_ONLY],
  },
  {
    type: 'sales_receipt',
    entity: 'SalesReceipt',
    cdc: true,
    dated: true,
    map: (r, mc) => ({ ...mapSalesReceipt(entity(r), mc) }),
    unmapped: [],
    platformDataOnly: [
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
      'Line[].SalesItemLineDetail.TaxCodeRef',
      'Line[].SubTotalLineDetail',
      ...TXN_ONLY,
    ],
  },
];

export function entitySpec(type: UnifiedObjectType): EntitySpec {
  const spec = ENTITIES.find((e) => e.type === type);
  if (spec === undefined) throw new Error(`QuickBooks Online reads no ${type}`);
  return spec;
}

/**
 * Name lists in QBO's shapes: Account, Vendor, Customer, Item, Term, PaymentMethod, Class, Department, Employee, TaxRate, TaxCode and
 * TaxAgency. Each renderer gives the entity's own fields; the entity table (entities.ts) adds QBO's bookkeeping fields.
 * Vendors, customers and items are written too: their tables are read backwards (writes.ts).
 */
import type {
  NativeAccount,
  NativeAddress,
  NativeContact,
  NativeDepartment,
  NativeEmployee,
  NativeItem,
  NativePaymentMethod,
  NativeTaxAgency,
  NativeTaxCode,
  NativeTerm,
} from '../../native.ts';
import type { Body } from '../../writes/validate.ts';
import { decimal, fixed, money as writtenMoney, outOnly, readFields, renderFields, shown, type Codec, type FieldTable } from '../field-table.ts';
import { isRecord, recordsIn } from '../wire.ts';
import { activeWhen, compact, currencyCode, money, optRef, ref, refTo, text, type Json } from './shapes.ts';

/** QBO's AccountType is SANDBOX's as words ("Accounts Receivable"), with "of" in lower case ("Cost of Goods Sold"). */
const accountType = outOnly((type) => (typeof type === 'string' ? type.replace(/\B([A-Z])/g, ' $1').replace(' Of ', ' of ') : undefined));

const isSet = outOnly((value) => value !== undefined);
const active = activeWhen('Active');

const ACCOUNT: FieldTable<NativeAccount> = {
  Name: 'Name',
  SubAccount: ['ParentId', isSet],
  'ParentRef.value': ['ParentId', refTo('account')],
  FullyQualifiedName: ['Name', shown],
  Active: ['Status', active],
  Classification: 'Class',
  AccountType: ['Type', accountType],
  AcctNum: 'Code',
  Description: 'Description',
  CurrentBalance: ['Balance', money],
  CurrentBalanceWithSubAccounts: ['Balance', money],
  'CurrencyRef.value': ['CurrencyCode', currencyCode],
};

export const account = (r: NativeAccount): Json => renderFields(ACCOUNT, r);

const ADDRESS: FieldTable<NativeAddress> = {
  Line1: ['Line1', text],
  Line2: ['Line2', text],
  City: ['City', text],
  CountrySubDivisionCode: ['Region', text],
  PostalCode: ['PostalCode', text],
  Country: ['Country', text],
};

/** A SANDBOX address as a PhysicalAddress. */
export const postalAddress: Codec = outOnly((a) => (isRecord(a) ? renderFields(ADDRESS, a) : undefined));

/** A contact's address of one kind as a PhysicalAddress. */
const addressOf = (kind: NativeAddress['Kind']): Codec =>
  outOnly((addresses) => postalAddress.out(recordsIn(addresses).find((a) => a.Kind === kind)));

/** What vendors and customers share. */
const CONTACT: FieldTable<NativeContact> = {
  DisplayName: 'DisplayName',
  CompanyName: ['DisplayName', shown],
  PrintOnCheckName: ['DisplayName', shown],
  Active: ['Status', active],
  'PrimaryEmailAddr.Address': 'Email',
  'PrimaryPhone.FreeFormNumber': 'Phone',
  'WebAddr.URI': 'Website',
  BillAddr: ['Addresses', addressOf('Billing')],
  'CurrencyRef.value': ['CurrencyCode', currencyCode],
};

const VENDOR: FieldTable<NativeContact> = { ...CONTACT, TaxIdentifier: 'TaxNumber', 'TermRef.value': ['TermId', refTo('payment_term')] };

const CUSTOMER: FieldTable<NativeContact> = {
  ...CONTACT,
  ShipAddr: ['Addresses', addressOf('Shipping')],
  PrimaryTaxIdentifier: 'TaxNumber',
  'SalesTermRef.value': ['TermId', refTo('payment_term')],
  'ParentRef.value': ['ParentId', refTo('customer')],
  Job: ['ParentId', isSet],
  Level: ['ParentId', outOnly((parent) => (parent === undefined ? 0 : 1))],
  FullyQualifiedName: ['DisplayName', shown],
};

/** QBO keeps a person's given and family names apart; SANDBOX keeps the contact person's name whole. */
function person(r: NativeContact): Json {
  const [given, ...family] = (r.ContactName ?? '').trim().split(/\s+/);
  return given === undefined || given === '' ? {} : { GivenName: given, ...(family.length === 0 ? {} : { FamilyName: family.join(' ') }) };
}

export const vendor = (r: NativeContact): Json => ({ ...person(r), ...renderFields(VENDOR, r), Vendor1099: false });
export const customer = (r: NativeContact): Json => ({ ...person(r), ...renderFields(CUSTOMER, r) });

const address = (Kind: NativeAddress['Kind'], from: unknown): Body | undefined =>
  isRecord(from) ? { Kind, ...readFields(ADDRESS, from) } : undefined;

/** A vendor's or customer's write body: its table read backwards, then the person's name and the addresses. */
function contactBody(table: FieldTable<NativeContact>, from: Json): Body {
  const out = readFields(table, from);
  if (Object.hasOwn(from, 'GivenName') || Object.hasOwn(from, 'FamilyName')) {
    const name = [from.GivenName, from.FamilyName].filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(' ');
    out.ContactName = name === '' ? null : name;
  }
  const addresses = [address('Billing', from.BillAddr), address('Shipping', from.ShipAddr)].filter((a): a is Body => a !== undefined);
  if (addresses.length > 0) out.Addresses = addresses;
  return out;
}

export const vendorBody = (from: Json): Body => contactBody(VENDOR, from);
export const customerBody = (from: Json): Body => contactBody(CUSTOMER, from);

/** An item's price, rendered as QBO's amounts are and written back as sent: SANDBOX's item writer checks it. */
const itemPrice: Codec = { out: (value) => money.out(value), in: (value) => writtenMoney.in?.(value) };

const ITEM: FieldTable<NativeItem> = {
  Name: 'Name',
  Sku: 'Sku',
  Description: 'Description',
  // SANDBOX keeps one description: the purchase side's shows it too, and a write of either sets it.
  PurchaseDesc: 'Description',
  Active: ['Status', active],
  FullyQualifiedName: ['Name', shown],
  Type: 'Kind',
  UnitPrice: ['SalesPrice', itemPrice],
  PurchaseCost: ['PurchaseCost', itemPrice],
  'IncomeAccountRef.value': ['IncomeAccountId', refTo('account')],
  'ExpenseAccountRef.value': ['ExpenseAccountId', refTo('account')],
  TrackQtyOnHand: fixed(false),
};

export const item = (r: NativeItem): Json => renderFields(ITEM, r);
export const itemBody = (from: Json): Body => readFields(ITEM, from);

const TERM: FieldTable<NativeTerm> = {
  Name: 'Name',
  Active: ['Status', active],
  DueDays: 'DueDays',
  DiscountDays: 'DiscountDays',
  DiscountPercent: ['DiscountPct', decimal],
  Type: fixed('STANDARD'),
};

export const term = (r: NativeTerm): Json => renderFields(TERM, r);

/** QBO tells cards from every other way of paying, and nothing more (Type CREDIT_CARD or NON_CREDIT_CARD). */
const PAYMENT_METHOD: FieldTable<NativePaymentMethod> = {
  Name: 'Name',
  Active: ['Status', active],
  Type: ['Kind', outOnly((kind) => (kind === 'CreditCard' ? 'CREDIT_CARD' : 'NON_CREDIT_CARD'))],
};

export const paymentMethod = (r: NativePaymentMethod): Json => renderFields(PAYMENT_METHOD, r);

/** Class and Department: a name list with sub-entries. */
export const trackingCategory = (kind: 'Class' | 'Department', r: NativeDepartment): Json =>
  renderFields(
    {
      Name: 'Name',
      [`Sub${kind}`]: ['ParentId', isSet],
      'ParentRef.value': ['ParentId', refTo(kind === 'Class' ? 'class' : 'department')],
      FullyQualifiedName: ['Name', shown],
      Active: ['Status', active],
    },
    r,
  );

export function employee(r: NativeEmployee): Json {
  const name = `${r.FirstName} ${r.LastName}`;
  return compact({
    GivenName: r.FirstName,
    FamilyName: r.LastName,
    DisplayName: name,
    PrintOnCheckName: name,
    Active: r.Status !== 'Terminated',
    PrimaryEmailAddr: { Address: r.Email },
    EmployeeNumber: r.EmployeeNumber,
    HiredDate: r.HireDate,
    ReleasedDate: r.Status === 'Terminated' ? r.EndDate : undefined,
    BillableTime: false,
  });
}

/** A SANDBOX tax code is one QBO TaxRate of its total rate (QBO groups rates into TaxCodes, which the connector does not read). */
export function taxRate(r: NativeTaxCode): Json {
  const rate = Number(r.TotalRate);
  return compact({
    Name: r.Name,
    Description: r.Code,
    Active: r.Status === 'Active',
    RateValue: rate,
    AgencyRef: optRef(r.Components.find((c) => c.AgencyId !== undefined)?.AgencyId),
    SpecialTaxType: 'NONE',
    DisplayType: 'ReadOnly',
    EffectiveTaxRate: [{ RateValue: rate, EffectiveDate: '1970-01-01T00:00:00-07:00' }],
  });
}

/**
 * The TaxCode lines reference (TaxCodeRef): one per SANDBOX tax code, under the same id, listing the TaxRate rendered
 * from that code for sales and purchases as its components allow.
 */
export function taxCode(r: NativeTaxCode): Json {
  const detail = [{ TaxRateRef: { ...ref(r.Id), name: r.Name }, TaxTypeApplicable: 'TaxOnAmount', TaxOrder: 0 }];
  return {
    Name: r.Name,
    Description: r.Code,
    Active: r.Status === 'Active',
    Taxable: Number(r.TotalRate) !== 0,
    TaxGroup: r.Components.length > 1,
    SalesTaxRateList: { TaxRateDetail: r.Components.some((c) => c.Sales) ? detail : [] },
    PurchaseTaxRateList: { TaxRateDetail: r.Components.some((c) => c.Purchases) ? detail : [] },
  };
}

/** Whether an agency taxes sales or purchases is told by the tax codes' components. */
export function taxAgency(r: NativeTaxAgency, codes: readonly NativeTaxCode[]): Json {
  const components = codes.flatMap((c) => c.Components.filter((component) => component.AgencyId === r.Id));
  return compact({
    DisplayName: r.Name,
    TaxTrackedOnSales: components.some((c) => c.Sales),
    TaxTrackedOnPurchases: components.some((c) => c.Purchases),
    TaxRegistrationNumber: r.RegistrationNumber,
  });
}

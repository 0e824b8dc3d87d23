/** Name lists and settings: accounts, vendors, customers, departments, classes, tax rates and agencies, items, terms, the company. */
import { ACCOUNT_CATEGORIES, ACCOUNT_TYPES } from '../../../model/account.ts';
import { ITEM_TYPES } from '../../../model/item.ts';
import { currencyCodesOf } from '../../../model/vendor.ts';
import { withReferenceNames } from '../../../model/payment-term.ts';
import type {
  QboAccount,
  QboCompanyInfo,
  QboCustomer,
  QboEmployee,
  QboItem,
  QboNameEntity,
  QboPaymentMethod,
  QboRef,
  QboTaxAgency,
  QboTaxRate,
  QboTerm,
  QboTrackingCategory,
  QboVendor,
} from '../generated/native.ts';
import {
  addresses,
  amount,
  appHost,
  appUrl,
  createdUpdated,
  day,
  modelValue,
  optAmount,
  optCurrency,
  refTo,
  text,
  type MapContext,
  type Mapped,
} from './common.ts';

export function mapAccount(r: QboAccount, mc: MapContext): Mapped<'account'> {
  const status = r.Active === false ? 'inactive' : 'active';
  const { created_at, updated_at } = createdUpdated(r);
  return {
    platform_id: r.Id,
    parent_id: refTo(mc.ref, 'account', r.ParentRef),
    account_type: modelValue(ACCOUNT_TYPES, r.AccountType),
    // QBO's Revenue is the model's income; its other classifications are the model's categories.
    category: r.Classification === 'Revenue' ? 'income' : modelValue(ACCOUNT_CATEGORIES, r.Classification),
    status,
    balance: optAmount(r.CurrentBalance),
    currency_code: optCurrency(r.CurrencyRef),
    name: text(r.Name),
    nominal_code: text(r.AcctNum),
    subsidiaries: [],
    created_at,
    // The model promises an update time; QBO always sends one, the epoch only guards a malformed record.
    updated_at: updated_at ?? created_at ?? new Date(0).toISOString(),
    platform_url: null,
  };
}

/** GivenName and FamilyName as one contact name; null when QBO has neither. */
function contactName(r: QboNameEntity): string | null {
  const name = [r.GivenName, r.MiddleName, r.FamilyName].filter((p) => p !== undefined && p.trim() !== '').join(' ');
  return name === '' ? null : name;
}

function nameFields(r: QboNameEntity) {
  return {
    platform_id: r.Id,
    status: r.Active === false ? ('archived' as const) : ('active' as const),
    contact_name: contactName(r),
    currency_code: optCurrency(r.CurrencyRef),
    email: text(r.PrimaryEmailAddr?.Address),
    phone: text(r.PrimaryPhone?.FreeFormNumber) ?? text(r.Mobile?.FreeFormNumber),
    registration_number: null,
    subsidiaries: null,
    contacts: [],
    ...createdUpdated(r),
  };
}

export function mapVendor(r: QboVendor, mc: MapContext): Mapped<'vendor'> {
  return {
    ...nameFields(r),
    parent_id: null,
    payment_terms_id: refTo(mc.ref, 'payment_term', r.TermRef),
    vendor_name: text(r.DisplayName),
    display_name: text(r.DisplayName),
    // Only Australian companies keep one (for batch payments to the vendor).
    bank_account_number: text(r.VendorPaymentBankDetail?.BankAccountNumber),
    currency_codes: currencyCodesOf(optCurrency(r.CurrencyRef)),
    tax_number: text(r.TaxIdentifier),
    website: text(r.WebAddr?.URI),
    addresses: addresses(['billing', r.BillAddr]),
    platform_url: appUrl('vendor', r.Id, mc.environment),
  };
}

export function mapCustomer(r: QboCustomer, mc: MapContext): Mapped<'customer'> {
  return {
    ...nameFields(r),
    parent_id: refTo(mc.ref, 'customer', r.ParentRef),
    payment_terms_id: refTo(mc.ref, 'payment_term', r.SalesTermRef),
    subsidiary_id: null,
    customer_name: text(r.DisplayName),
    first_name: text(r.GivenName),
    last_name: text(r.FamilyName),
    tax_number: text(r.PrimaryTaxIdentifier),
    addresses: addresses(['billing', r.BillAddr], ['shipping', r.ShipAddr]),
    platform_url: appUrl('customer', r.Id, mc.environment),
  };
}

/** A Department or a Class: the same QBO shape as either tracking category. */
export const mapTracking =
  (type: 'department' | 'class') =>
  (r: QboTrackingCategory, mc: MapContext): Mapped<typeof type> => ({
    platform_id: r.Id,
    parent_id: refTo(mc.ref, type, r.ParentRef),
    has_children: null,
    name: text(r.Name),
    status: r.Active === false ? 'archived' : 'active',
    subsidiaries: [],
    ...createdUpdated(r),
  });

/** A Department: the tracking shape and its web app page (null while APP_PAGES names no department page). */
export function mapDepartment(r: QboTrackingCategory, mc: MapContext): Mapped<'department'> {
  return { ...mapTracking('department')(r, mc), platform_url: appUrl('department', r.Id, mc.environment) };
}

/**
 * A QBO TaxRate is one rate of one agency (compound taxes are TaxCodes that
 * group rates): its RateValue is both the total and the effective rate, and it
 * has no components of its own.
 */
export function mapTaxRate(r: QboTaxRate): Mapped<'tax_rate'> {
  const rate = r.RateValue ?? null;
  return {
    platform_id: r.Id,
    status: r.Active === false ? 'inactive' : 'active',
    code: null,
    name: text(r.Name),
    effective_tax_rate: rate,
    total_tax_rate: rate,
    subsidiaries: [],
    components: [],
    ...createdUpdated(r),
  };
}

/** Active and Type (CREDIT_CARD or NON_CREDIT_CARD) have no place in the reference's object: platform_data keeps them. */
export function mapPaymentMethod(r: QboPaymentMethod): Mapped<'payment_method'> {
  return { platform_id: r.Id, name: r.Name ?? '', ...createdUpdated(r) };
}

export function mapTaxAgency(r: QboTaxAgency): Mapped<'tax_agency'> {
  return { platform_id: r.Id, name: r.DisplayName ?? '', ...createdUpdated(r) };
}

/** What an item is bought or sold for and the account it posts to; null when QBO gives neither. */
function itemSide(account: QboRef | undefined, price: number | undefined, description: string | null, mc: MapContext) {
  if (account === undefined && price === undefined) return null;
  return { unit_price: amount(price), account_id: refTo(mc.ref, 'account', account), tax_rate_id: null, description };
}

export function mapItem(r: QboItem, mc: MapContext): Mapped<'item'> {
  const description = text(r.Description);
  return {
    platform_id: r.Id,
    name: r.Name ?? '',
    code: text(r.Sku),
    type: modelValue(ITEM_TYPES, r.Type),
    status: r.Active === false ? 'archived' : 'active',
    quantity_on_hand: r.Type === 'Inventory' ? (r.QtyOnHand ?? null) : null,
    asset_account_id: refTo(mc.ref, 'account', r.AssetAccountRef),
    bill_item: itemSide(r.ExpenseAccountRef, r.PurchaseCost, text(r.PurchaseDesc) ?? description, mc),
    invoice_item: itemSide(r.IncomeAccountRef, r.UnitPrice, description, mc),
    subsidiaries: [],
    ...createdUpdated(r),
    platform_url: null,
  };
}

export function mapTerm(r: QboTerm): Mapped<'payment_term'> {
  return withReferenceNames({
    platform_id: r.Id,
    name: r.Name ?? '',
    status: r.Active === false ? 'archived' : 'active',
    // DATE_DRIVEN terms count from a day of the month, not from the document date: no due_days then.
    due_days: r.Type === 'DATE_DRIVEN' ? null : (r.DueDays ?? null),
    discount_days: r.DiscountDays ?? null,
    discount_percentage: r.DiscountPercent ?? null,
    subsidiaries: [],
    ...createdUpdated(r),
  });
}

/** A released employee (ReleasedDate) is terminated; one made inactive without a release date is inactive. */
export function mapEmployee(r: QboEmployee): Mapped<'employee'> {
  const released = day(r.ReleasedDate);
  return {
    platform_id: r.Id,
    // QBO has no department, manager, job title (Title is the courtesy title) or salary (BillRate and CostRate are hourly).
    department_id: null,
    manager_id: null,
    hire_date: day(r.HiredDate),
    termination_date: released,
    first_name: r.GivenName ?? '',
    last_name: text(r.FamilyName),
    status: released !== null ? 'terminated' : r.Active === false ? 'inactive' : 'active',
    custom_fields: {},
    employee_number: text(r.EmployeeNumber),
    position: null,
    salary: null,
    ...createdUpdated(r),
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function mapCompany(r: QboCompanyInfo, mc: MapContext): Mapped<'company_info'> {
  const month = MONTHS.indexOf(r.FiscalYearStartMonth ?? '');
  return {
    platform_id: r.Id,
    name: text(r.CompanyName),
    legal_name: text(r.LegalName),
    addresses: addresses(['company', r.CompanyAddr], ['legal', r.LegalAddr], ['customer_communication', r.CustomerCommunicationAddr]),
    currency_code: optCurrency(r.HomeCurrency),
    fiscal_year_start_month: month === -1 ? null : month + 1,
    tax_number: null,
    registration_number: null,
    email: text(r.Email?.Address),
    phone: text(r.PrimaryPhone?.FreeFormNumber),
    ...createdUpdated(r),
    platform_url: `${appHost(mc.environment)}/app/settings?p=Company`,
  };
}

/** Name lists in QBO's shapes: Account, Vendor, Customer, Item, Term, Class, Department, Employee, TaxRate, TaxAgency. */
import type {
  AccountType,
  NativeAccount,
  NativeAddress,
  NativeContact,
  NativeDepartment,
  NativeEmployee,
  NativeItem,
  NativeTaxAgency,
  NativeTaxCode,
  NativeTerm,
} from '../../native.ts';
import { amount, compact, entityMeta, optRef, ref, type Json } from './shapes.ts';

/** QBO's AccountType is a display name. */
const ACCOUNT_TYPES: Readonly<Record<AccountType, string>> = {
  Bank: 'Bank',
  AccountsReceivable: 'Accounts Receivable',
  OtherCurrentAsset: 'Other Current Asset',
  FixedAsset: 'Fixed Asset',
  OtherAsset: 'Other Asset',
  AccountsPayable: 'Accounts Payable',
  CreditCard: 'Credit Card',
  OtherCurrentLiability: 'Other Current Liability',
  LongTermLiability: 'Long Term Liability',
  Equity: 'Equity',
  Income: 'Income',
  OtherIncome: 'Other Income',
  CostOfGoodsSold: 'Cost of Goods Sold',
  Expense: 'Expense',
  OtherExpense: 'Other Expense',
};

export function currencyRef(code: string): { value: string } {
  return { value: code };
}

export function account(r: NativeAccount): Json {
  return compact({
    Name: r.Name,
    SubAccount: r.ParentId !== undefined,
    ParentRef: optRef(r.ParentId),
    FullyQualifiedName: r.Name,
    Active: r.Status === 'Active',
    Classification: r.Class,
    AccountType: ACCOUNT_TYPES[r.Type],
    AcctNum: r.Code,
    Description: r.Description,
    CurrentBalance: amount(r.Balance),
    CurrentBalanceWithSubAccounts: amount(r.Balance),
    CurrencyRef: currencyRef(r.CurrencyCode),
    ...entityMeta(r),
  });
}

/** A PhysicalAddress. */
export function physicalAddress(a: NativeAddress | undefined): Json | undefined {
  if (a === undefined) return undefined;
  return compact({ Line1: a.Line1, Line2: a.Line2, City: a.City, CountrySubDivisionCode: a.Region, PostalCode: a.PostalCode, Country: a.Country });
}

function person(r: NativeContact): Json {
  const [given, ...family] = (r.ContactName ?? '').trim().split(/\s+/);
  return given === undefined || given === '' ? {} : { GivenName: given, ...(family.length === 0 ? {} : { FamilyName: family.join(' ') }) };
}

/** What vendors and customers share. */
function nameEntity(r: NativeContact): Json {
  return {
    ...person(r),
    DisplayName: r.DisplayName,
    CompanyName: r.DisplayName,
    PrintOnCheckName: r.DisplayName,
    Active: r.Status === 'Active',
    PrimaryEmailAddr: r.Email === undefined ? undefined : { Address: r.Email },
    PrimaryPhone: r.Phone === undefined ? undefined : { FreeFormNumber: r.Phone },
    WebAddr: r.Website === undefined ? undefined : { URI: r.Website },
    BillAddr: physicalAddress(r.Addresses.find((a) => a.Kind === 'Billing')),
    CurrencyRef: currencyRef(r.CurrencyCode),
  };
}

export function vendor(r: NativeContact): Json {
  return compact({ ...nameEntity(r), TaxIdentifier: r.TaxNumber, TermRef: optRef(r.TermId), Vendor1099: false, ...entityMeta(r) });
}

export function customer(r: NativeContact): Json {
  return compact({
    ...nameEntity(r),
    ShipAddr: physicalAddress(r.Addresses.find((a) => a.Kind === 'Shipping')),
    PrimaryTaxIdentifier: r.TaxNumber,
    SalesTermRef: optRef(r.TermId),
    ParentRef: optRef(r.ParentId),
    Job: r.ParentId !== undefined,
    Level: r.ParentId === undefined ? 0 : 1,
    FullyQualifiedName: r.DisplayName,
    ...entityMeta(r),
  });
}

export function item(r: NativeItem): Json {
  return compact({
    Name: r.Name,
    Sku: r.Sku,
    Description: r.Description,
    Active: r.Status === 'Active',
    FullyQualifiedName: r.Name,
    Type: r.Kind,
    UnitPrice: amount(r.SalesPrice),
    PurchaseCost: amount(r.PurchaseCost),
    IncomeAccountRef: ref(r.IncomeAccountId),
    ExpenseAccountRef: ref(r.ExpenseAccountId),
    TrackQtyOnHand: false,
    ...entityMeta(r),
  });
}

export function term(r: NativeTerm): Json {
  return compact({
    Name: r.Name,
    Active: r.Status === 'Active',
    Type: 'STANDARD',
    DueDays: r.DueDays,
    DiscountDays: r.DiscountDays,
    DiscountPercent: r.DiscountPct === undefined ? undefined : Number(r.DiscountPct),
    ...entityMeta(r),
  });
}

/** Class and Department: a name list with sub-entries. */
export function trackingCategory(kind: 'Class' | 'Department', r: NativeDepartment): Json {
  return compact({
    Name: r.Name,
    [kind === 'Class' ? 'SubClass' : 'SubDepartment']: r.ParentId !== undefined,
    ParentRef: optRef(r.ParentId),
    FullyQualifiedName: r.Name,
    Active: r.Status === 'Active',
    ...entityMeta(r),
  });
}

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
    ...entityMeta(r),
  });
}

/** A SANDBOX tax code is one QBO TaxRate of its total rate (QBO groups rates into TaxCodes, which the connector does not read). */
export function taxRate(r: NativeTaxCode): Json {
  const rate = Number(r.TotalRate);
  const agency = r.Components.find((c) => c.AgencyId !== undefined)?.AgencyId;
  return compact({
    Name: r.Name,
    Description: r.Code,
    Active: r.Status === 'Active',
    RateValue: rate,
    AgencyRef: optRef(agency),
    SpecialTaxType: 'NONE',
    DisplayType: 'ReadOnly',
    EffectiveTaxRate: [{ RateValue: rate, EffectiveDate: '1970-01-01T00:00:00-07:00' }],
    ...entityMeta(r),
  });
}

/**
 * The TaxCode lines reference (TaxCodeRef): one per SANDBOX tax code, under the same id, listing the TaxRate rendered
 * from that code for sales and purchases as its components allow.
 */
export function taxCode(r: NativeTaxCode): Json {
  const detail = [{ TaxRateRef: { ...ref(r.Id), name: r.Name }, TaxTypeApplicable: 'TaxOnAmount', TaxOrder: 0 }];
  return compact({
    Name: r.Name,
    Description: r.Code,
    Active: r.Status === 'Active',
    Taxable: Number(r.TotalRate) !== 0,
    TaxGroup: r.Components.length > 1,
    SalesTaxRateList: { TaxRateDetail: r.Components.some((c) => c.Sales) ? detail : [] },
    PurchaseTaxRateList: { TaxRateDetail: r.Components.some((c) => c.Purchases) ? detail : [] },
    ...entityMeta(r),
  });
}

export function taxAgency(r: NativeTaxAgency, codes: readonly NativeTaxCode[]): Json {
  const components = codes.flatMap((c) => c.Components.filter((component) => component.AgencyId === r.Id));
  return compact({
    DisplayName: r.Name,
    TaxTrackedOnSales: components.some((c) => c.Sales),
    TaxTrackedOnPurchases: components.some((c) => c.Purchases),
    TaxRegistrationNumber: r.RegistrationNumber,
    ...entityMeta(r),
  });
}

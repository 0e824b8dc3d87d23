/** Master data: contacts, items, tax, currencies, company and the tracking categories. */
import { withReferenceNames } from '../../../../src/model/payment-term.ts';
import { currencyCodesOf } from '../../../../src/model/vendor.ts';
import type {
  NativeClass,
  NativeCompany,
  NativeContact,
  NativeCurrency,
  NativeDepartment,
  NativeEmployee,
  NativeExchangeRate,
  NativeItem,
  NativeLocation,
  NativeProject,
  NativeSubsidiary,
  NativeTask,
  NativePaymentMethod,
  NativeTaxAgency,
  NativeTaxArea,
  NativeTaxCode,
  NativeTerm,
} from '../native.ts';
import { address, currency, day, link, money, optDay, subsidiaryRefs, type Mapped, type Ref } from './common.ts';

function contactFields(r: NativeContact, ref: Ref) {
  return {
    platform_id: r.Id,
    parent_id: ref(r.Id.startsWith('VEN') ? 'vendor' : 'customer', r.ParentId),
    payment_terms_id: ref('payment_term', r.TermId),
    status: r.Status === 'Active' ? ('active' as const) : ('archived' as const),
    contact_name: r.ContactName ?? null,
    currency_code: r.CurrencyCode,
    email: r.Email ?? null,
    phone: r.Phone ?? null,
    registration_number: r.CompanyNumber ?? null,
    tax_number: r.TaxNumber ?? null,
    subsidiaries: r.SubsidiaryIds.map((id) => ({ id: link(ref, 'subsidiary', id), status: 'active' as const })),
    addresses: r.Addresses.map(address),
    contacts: r.People.map((p) => ({ first_name: p.FirstName, last_name: p.LastName, email: p.Email ?? null, phone: p.Phone ?? null })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapCustomer(r: NativeContact, ref: Ref): Mapped<'customer'> {
  const first = r.SubsidiaryIds[0];
  // The first person is the one ContactName names.
  const person = r.People[0];
  return {
    ...contactFields(r, ref),
    customer_name: r.DisplayName,
    first_name: person?.FirstName ?? null,
    last_name: person?.LastName ?? null,
    subsidiary_id: first === undefined ? null : ref('subsidiary', first),
  };
}

export function mapVendor(r: NativeContact, ref: Ref): Mapped<'vendor'> {
  // The first subsidiary is the one the vendor was created in: its primary one.
  const subsidiaries = r.SubsidiaryIds.map((id, index) => ({ id: link(ref, 'subsidiary', id), status: 'active' as const, primary: index === 0 }));
  return {
    ...contactFields(r, ref),
    subsidiaries,
    vendor_name: r.DisplayName,
    display_name: r.DisplayName,
    // SANDBOX keeps no bank details for its contacts.
    bank_account_number: null,
    currency_codes: currencyCodesOf(r.CurrencyCode),
    website: r.Website ?? null,
  };
}

const ITEM_TYPES = { Inventory: 'inventory', Service: 'service', NonInventory: 'non_inventory' } as const;

export function mapItem(r: NativeItem, ref: Ref): Mapped<'item'> {
  return {
    platform_id: r.Id,
    name: r.Name,
    code: r.Sku,
    type: ITEM_TYPES[r.Kind],
    status: r.Status === 'Active' ? 'active' : 'archived',
    quantity_on_hand: null,
    asset_account_id: null,
    bill_item: {
      unit_price: money(r.PurchaseCost),
      account_id: ref('account', r.ExpenseAccountId),
      tax_rate_id: null,
      description: r.Description ?? r.Name,
    },
    invoice_item: {
      unit_price: money(r.SalesPrice),
      account_id: ref('account', r.IncomeAccountId),
      tax_rate_id: null,
      description: r.Description ?? r.Name,
    },
    subsidiaries: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapTaxCode(r: NativeTaxCode, ref: Ref): Mapped<'tax_rate'> {
  return {
    platform_id: r.Id,
    status: r.Status === 'Active' ? 'active' : 'inactive',
    code: r.Code,
    name: r.Name,
    effective_tax_rate: Number(r.EffectiveRate),
    total_tax_rate: Number(r.TotalRate),
    subsidiaries: subsidiaryRefs(r.SubsidiaryIds, ref),
    components: r.Components.map((c) => ({
      is_compound: c.Compound,
      is_purchases_tax: c.Purchases,
      is_sales_tax: c.Sales,
      name: c.Name,
      rate: Number(c.Rate),
    })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

export function mapPaymentMethod(r: NativePaymentMethod): Mapped<'payment_method'> {
  return { platform_id: r.Id, name: r.Name, created_at: r.CreatedAt, updated_at: r.UpdatedAt };
}

/** Code, region and status have no place in the reference's object: platform_data keeps them. */
export function mapTaxArea(r: NativeTaxArea): Mapped<'tax_area'> {
  return { platform_id: r.Id, country: r.Country, description: r.Description, created_at: r.CreatedAt, updated_at: r.UpdatedAt };
}

export function mapTaxAgency(r: NativeTaxAgency): Mapped<'tax_agency'> {
  return { platform_id: r.Id, name: r.Name, created_at: r.CreatedAt, updated_at: r.UpdatedAt };
}

export function mapCurrency(r: NativeCurrency): Mapped<'currency'> {
  return { currency_code: currency(r.Code), currency_name: r.Name, created_at: r.CreatedAt, updated_at: r.UpdatedAt };
}

export function mapExchangeRate(r: NativeExchangeRate): Mapped<'exchange_rate'> {
  return {
    source_currency_code: currency(r.SourceCurrencyCode),
    target_currency_code: currency(r.TargetCurrencyCode),
    rate: Number(r.Rate),
    as_of_date: day(r.AsOfDate),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

export function mapCompany(r: NativeCompany): Mapped<'company_info'> {
  return {
    platform_id: r.Id,
    name: r.TradingName,
    legal_name: r.LegalName,
    addresses: [address(r.Address)],
    currency_code: currency(r.BaseCurrency),
    fiscal_year_start_month: r.FiscalYearStartMonth,
    tax_number: r.TaxNumber,
    registration_number: r.CompanyNumber,
    email: r.Email,
    phone: r.Phone,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapTerm(r: NativeTerm): Mapped<'payment_term'> {
  return withReferenceNames({
    platform_id: r.Id,
    name: r.Name,
    status: r.Status === 'Active' ? 'active' : 'archived',
    due_days: r.DueDays,
    discount_days: r.DiscountDays ?? null,
    discount_percentage: r.DiscountPct === undefined ? null : Number(r.DiscountPct),
    subsidiaries: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  });
}

export function mapSubsidiary(r: NativeSubsidiary, ref: Ref): Mapped<'subsidiary'> {
  return {
    platform_id: r.Id,
    parent_id: ref('subsidiary', r.ParentId),
    name: r.Name,
    status: r.Status === 'Active' ? 'active' : 'inactive',
    currency_code: currency(r.CurrencyCode),
    // SANDBOX's subsidiaries are all operating entities.
    elimination: false,
    country: r.Country,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

function tracking(type: 'department' | 'class', r: NativeDepartment, ref: Ref) {
  return {
    platform_id: r.Id,
    parent_id: ref(type, r.ParentId),
    has_children: null,
    name: r.Name,
    status: r.Status === 'Active' ? ('active' as const) : ('archived' as const),
    subsidiaries: [],
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

export function mapDepartment(r: NativeDepartment, ref: Ref): Mapped<'department'> {
  return { ...tracking('department', r, ref), platform_url: null };
}

export function mapClass(r: NativeClass, ref: Ref): Mapped<'class'> {
  return tracking('class', r, ref);
}

export function mapLocation(r: NativeLocation, ref: Ref): Mapped<'location'> {
  return {
    platform_id: r.Id,
    parent_id: ref('location', r.ParentId),
    has_children: null,
    name: r.Name,
    status: r.Status === 'Active' ? 'active' : 'archived',
    subsidiaries: subsidiaryRefs(r.SubsidiaryIds, ref),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

const PROJECT_STATUSES = { Active: 'active', Completed: 'completed', OnHold: 'on_hold' } as const;

export function mapProject(r: NativeProject): Mapped<'project'> {
  return {
    platform_id: r.Id,
    name: r.Name,
    status: PROJECT_STATUSES[r.Status],
    project_category: r.Category ?? null,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

const TASK_STATUSES = {
  NotStarted: 'not_started',
  Planned: 'planned',
  InProgress: 'in_progress',
  Completed: 'completed',
  OnHold: 'on_hold',
} as const;

export function mapTask(r: NativeTask): Mapped<'task'> {
  return { platform_id: r.Id, name: r.Name, status: TASK_STATUSES[r.Status], created_at: r.CreatedAt, updated_at: r.UpdatedAt, platform_url: null };
}

const EMPLOYEE_STATUSES = { Active: 'active', OnLeave: 'inactive', Terminated: 'terminated' } as const;

export function mapEmployee(r: NativeEmployee, ref: Ref): Mapped<'employee'> {
  return {
    platform_id: r.Id,
    department_id: ref('department', r.DepartmentId),
    manager_id: ref('employee', r.ManagerId),
    hire_date: day(r.HireDate),
    termination_date: optDay(r.EndDate),
    first_name: r.FirstName,
    last_name: r.LastName,
    status: EMPLOYEE_STATUSES[r.Status],
    custom_fields: Object.fromEntries(r.CustomFields.map((f) => [f.Name, f.Value])),
    employee_number: r.EmployeeNumber,
    position: r.JobTitle,
    salary: money(r.AnnualSalary),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

/**
 * Master data of a sandbox business: company, currencies, chart of accounts,
 * tax codes and agencies, terms, subsidiaries, departments, classes, locations,
 * items, projects and tasks, vendors and customers.
 */
import { formatCents, formatRate, parseCents, parseRate } from '../money.ts';
import { taxRates } from '../books.ts';
import type {
  NativeAccount,
  NativeAddress,
  NativeCompany,
  NativeContact,
  NativeCurrency,
  NativeDepartment,
  NativeItem,
  NativeLocation,
  NativeProject,
  NativeSubsidiary,
  NativeTask,
  NativeTaxAgency,
  NativeTaxCode,
  NativeTaxComponent,
  NativeTerm,
} from '../native.ts';
import { Rng } from '../prng.ts';
import type { Palette, TaxChoice } from '../documents.ts';
import { stamp } from '../dates.ts';
import { CHART, acc } from './chart.ts';
import type { Emitter } from './emitter.ts';
import { CompanyNames, emailFor, personName, phone, street, websiteFor } from './names.ts';
import { PROFILES, USD_RATES, postalCode, type Profile, type TaxCodeDef } from './profiles.ts';

export interface Reference {
  profile: Profile;
  currency: string;
  company: NativeCompany;
  accounts: NativeAccount[];
  purchaseTax: TaxChoice[];
  salesTax: TaxChoice[];
  terms: NativeTerm[];
  subsidiaries: string[];
  departments: string[];
  classes: string[];
  locations: string[];
  items: NativeItem[];
  projects: string[];
  vendors: NativeContact[];
  customers: NativeContact[];
  names: CompanyNames;
}

/** The slice of master data that inventing documents needs; kept with the account state for the clock. */
export function paletteOf(ref: Reference): Palette {
  return {
    currency: ref.currency,
    purchaseTax: ref.purchaseTax,
    salesTax: ref.salesTax,
    terms: ref.terms.map((t) => ({ id: t.Id, dueDays: t.DueDays })),
    classes: ref.classes,
    departments: ref.departments,
    locations: ref.locations.slice(0, 3),
    projects: ref.projects,
    subsidiaries: ref.subsidiaries,
    items: ref.items
      .filter((i) => i.Status === 'Active')
      .slice(0, 200)
      .map((i) => ({
        id: i.Id,
        name: i.Name,
        salesCents: parseCents(i.SalesPrice),
        costCents: parseCents(i.PurchaseCost),
        incomeAccountId: i.IncomeAccountId,
        expenseAccountId: i.ExpenseAccountId,
      })),
  };
}

/** The departments of every sandbox business, in the order of `Reference.departments`. */
export const DEPARTMENT_NAMES = ['Sales', 'Operations', 'Finance', 'Marketing', 'Field Sales'] as const;

export interface ReferenceCounts {
  vendors: number;
  customers: number;
  items: number;
  projects: number;
}

export function address(rng: Rng, profile: Profile, kind: NativeAddress['Kind']): NativeAddress {
  const place = rng.pick(profile.cities);
  return {
    Kind: kind,
    Line1: street(rng),
    City: place.city,
    Region: place.region,
    PostalCode: postalCode(profile.postal, rng.int(0, 99_999)),
    Country: profile.country,
  };
}

function meta(id: string, date: string, rng: Rng): { Id: string; CreatedAt: string; UpdatedAt: string } {
  const at = stamp(date, rng.int(28_800, 64_800));
  return { Id: id, CreatedAt: at, UpdatedAt: at };
}

export function contact(
  rng: Rng,
  id: string,
  name: string,
  profile: Profile,
  date: string,
  terms: readonly NativeTerm[],
  subsidiaries: readonly string[],
): NativeContact {
  const person = personName(rng);
  const record: NativeContact = {
    ...meta(id, date, rng),
    DisplayName: name,
    ContactName: `${person.first} ${person.last}`,
    Email: emailFor(person.first, name),
    Phone: phone(rng),
    Website: websiteFor(name),
    CurrencyCode: profile.currency,
    SubsidiaryIds: subsidiaries.slice(0, rng.chance(0.2) ? 2 : 1),
    Status: rng.chance(0.05) ? 'Archived' : 'Active',
    Addresses: [address(rng, profile, 'Billing')],
    People: [{ FirstName: person.first, LastName: person.last, Email: emailFor(person.first, name) }],
  };
  const term = rng.chance(0.8) ? rng.pick(terms) : undefined;
  if (term !== undefined) record.TermId = term.Id;
  if (rng.chance(0.5)) record.TaxNumber = `TX${rng.int(10_000_000, 99_999_999)}`;
  if (rng.chance(0.3)) record.CompanyNumber = `C${rng.int(1_000_000, 9_999_999)}`;
  if (rng.chance(0.3)) record.Addresses.push(address(rng, profile, 'Shipping'));
  return record;
}

function taxCode(def: TaxCodeDef, id: string, agencies: readonly string[], date: string, rng: Rng, subsidiary: string): NativeTaxCode {
  const components: NativeTaxComponent[] = def.components.map((c) => {
    const component: NativeTaxComponent = { Name: c.name, Rate: c.rate, Compound: c.compound ?? false, Purchases: c.purchases, Sales: c.sales };
    const agency = agencies[c.agency];
    if (agency !== undefined) component.AgencyId = agency;
    return component;
  });
  const rates = taxRates(components);
  return {
    ...meta(id, date, rng),
    Code: def.code,
    Name: def.name,
    Status: 'Active',
    Components: components,
    TotalRate: formatRate(rates.total),
    EffectiveRate: formatRate(rates.effective),
    SubsidiaryIds: [subsidiary],
  };
}

/** The first draws of every generation: country profile and company name. */
function companyStart(rng: Rng): { profile: Profile; names: CompanyNames; companyName: string } {
  const profile = rng.pick(PROFILES);
  const names = new CompanyNames(rng);
  return { profile, names, companyName: names.next() };
}

/** The company a seed will generate, without generating anything else (identify before materializing). */
export function companyOf(seed: number): { legalName: string; tradingName: string; country: string; currency: string } {
  const { profile, companyName } = companyStart(new Rng(seed));
  return { legalName: companyName, tradingName: tradingName(companyName), country: profile.country, currency: profile.currency };
}

/** A currency's rate as the business's currency list shows it: units of the currency per unit of the home currency. */
export function listedRate(code: string, home: string): string {
  return ((USD_RATES[code]?.perUsd ?? 1) / (USD_RATES[home]?.perUsd ?? 1)).toFixed(6);
}

function tradingName(legalName: string): string {
  return legalName.replace(/ (Inc|LLC|Ltd|Co|Group|Partners|Corp|GmbH)$/, '');
}

/** Emits the master data and returns what the transaction generator needs. */
export function generateReference(rng: Rng, out: Emitter, start: string, counts: ReferenceCounts): Reference {
  const { profile, names, companyName } = companyStart(rng);
  const place = rng.pick(profile.cities);
  const company: NativeCompany = {
    ...meta(out.nextId('company_info'), start, rng),
    LegalName: companyName,
    TradingName: tradingName(companyName),
    BaseCurrency: profile.currency,
    Country: profile.country,
    FiscalYearStartMonth: rng.pick([1, 1, 4, 7]),
    Email: emailFor('accounts', companyName),
    Phone: phone(rng),
    Website: `https://${companyName.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
    TaxNumber: `TN-${rng.int(100_000_000, 999_999_999)}`,
    CompanyNumber: `CN-${rng.int(1_000_000, 9_999_999)}`,
    Industry: rng.pick(['Wholesale', 'Professional services', 'Retail', 'Manufacturing']),
    Address: {
      Kind: 'Billing',
      Line1: street(rng),
      City: place.city,
      Region: place.region,
      PostalCode: postalCode(profile.postal, rng.int(0, 99_999)),
      Country: profile.country,
    },
  };
  out.push('company_info', company);

  for (const [code, info] of Object.entries(USD_RATES)) {
    const currency: NativeCurrency = {
      ...meta(code, start, rng),
      Code: code,
      Name: info.name,
      Symbol: info.symbol,
      ExchangeRate: listedRate(code, profile.currency),
      IsBase: code === profile.currency,
    };
    out.push('currency', currency);
  }

  const subsidiaries: string[] = [];
  for (const [n, suffix] of [' (HQ)', ' Services'].entries()) {
    const id = out.nextId('subsidiary');
    const record: NativeSubsidiary = {
      ...meta(id, start, rng),
      Name: `${company.TradingName}${suffix}`,
      LegalName: `${company.TradingName}${suffix}`,
      Country: profile.country,
      CurrencyCode: profile.currency,
      Status: 'Active',
    };
    const parent = subsidiaries[0];
    if (n > 0 && parent !== undefined) record.ParentId = parent;
    subsidiaries.push(id);
    out.push('subsidiary', record);
  }
  const hq = subsidiaries[0] ?? '';

  const accounts: NativeAccount[] = CHART.map((row) => {
    const account: NativeAccount = {
      ...meta(out.nextId('account'), start, rng),
      Code: row.code,
      Name: row.name,
      Class: row.cls,
      Type: row.type,
      Status: 'Active',
      CurrencyCode: profile.currency,
      Balance: '0.00',
      SubsidiaryIds: row.cls === 'Asset' && row.type === 'Bank' ? [...subsidiaries] : [hq],
    };
    if (row.role !== undefined) account.Role = row.role;
    if (row.parent !== undefined) account.ParentId = acc(row.parent);
    if (row.type === 'Bank') account.BankAccountNumber = `****${rng.int(1000, 9999)}`;
    return account;
  });
  // Emitted at the end, with the balances the transactions produce.

  const agencies: string[] = profile.agencies.map((name) => {
    const id = out.nextId('tax_agency');
    const record: NativeTaxAgency = {
      ...meta(id, start, rng),
      Name: name,
      Country: profile.country,
      RegistrationNumber: `REG-${rng.int(100_000, 999_999)}`,
    };
    out.push('tax_agency', record);
    return id;
  });
  const purchaseTax: TaxChoice[] = [];
  const salesTax: TaxChoice[] = [];
  for (const def of profile.taxCodes) {
    const record = taxCode(def, out.nextId('tax_rate'), agencies, start, rng, hq);
    out.push('tax_rate', record);
    const choice = { id: record.Id, rateMilli: parseRate(record.EffectiveRate) };
    if (def.components.every((c) => c.purchases)) purchaseTax.push(choice);
    if (def.components.every((c) => c.sales)) salesTax.push(choice);
  }

  const terms: NativeTerm[] = (
    [
      ['Due on receipt', 0],
      ['Net 15', 15],
      ['Net 30', 30],
      ['Net 60', 60],
      ['2% 10, Net 30', 30],
    ] as const
  ).map(([name, days]) => {
    const term: NativeTerm = { ...meta(out.nextId('payment_term'), start, rng), Name: name, DueDays: days, Status: 'Active' };
    if (name.startsWith('2%')) {
      term.DiscountDays = 10;
      term.DiscountPct = '2.000';
    }
    out.push('payment_term', term);
    return term;
  });

  const departments = tree(out, 'department', start, rng, DEPARTMENT_NAMES);
  const classes = tree(out, 'class', start, rng, ['Retail', 'Wholesale', 'Online', 'Online Marketplace']);
  const locations: string[] = [];
  for (const [n, name] of ['Head Office', 'Warehouse', 'Retail Store', 'Old Depot'].entries()) {
    const record: NativeLocation = {
      ...meta(out.nextId('location'), start, rng),
      Name: name,
      Status: n === 3 ? 'Archived' : 'Active',
      SubsidiaryIds: [hq],
      Address: address(rng, profile, 'Shipping'),
    };
    const parent = locations[0];
    if (n === 1 && parent !== undefined) record.ParentId = parent;
    locations.push(record.Id);
    out.push('location', record);
  }

  const items: NativeItem[] = [];
  for (let n = 0; n < counts.items; n++) {
    const kind = rng.weighted([
      ['Inventory', 5],
      ['Service', 3],
      ['NonInventory', 2],
    ] as const);
    const cost = rng.int(200, 40_000);
    const item: NativeItem = {
      ...meta(out.nextId('item'), start, rng),
      Sku: `SKU-${String(n + 1).padStart(5, '0')}`,
      Name: `${rng.pick(['Standard', 'Premium', 'Basic', 'Pro', 'Deluxe'])} ${rng.pick(['Widget', 'Gadget', 'Service Hour', 'Kit', 'Module', 'Bundle', 'Licence', 'Cable', 'Panel'])} ${n + 1}`,
      Kind: kind,
      SalesPrice: formatCents(Math.round(cost * (1.3 + rng.next()))),
      PurchaseCost: formatCents(cost),
      IncomeAccountId: acc(kind === 'Service' ? '4100' : '4000'),
      ExpenseAccountId: acc(kind === 'Service' ? '6600' : '5000'),
      Status: rng.chance(0.05) ? 'Archived' : 'Active',
    };
    items.push(item);
    out.push('item', item);
  }

  const vendors: NativeContact[] = [];
  for (let n = 0; n < counts.vendors; n++) {
    const vendor = contact(rng, out.nextId('vendor'), names.next(), profile, start, terms, subsidiaries);
    vendors.push(vendor);
    out.push('vendor', vendor);
  }
  const customers: NativeContact[] = [];
  for (let n = 0; n < counts.customers; n++) {
    const customer = contact(rng, out.nextId('customer'), names.next(), profile, start, terms, subsidiaries);
    const parent = customers[n - 1];
    if (parent !== undefined && rng.chance(0.05)) customer.ParentId = parent.Id;
    customers.push(customer);
    out.push('customer', customer);
  }

  const projects: string[] = [];
  for (let n = 0; n < counts.projects; n++) {
    const customer = rng.pick(customers);
    const project: NativeProject = {
      ...meta(out.nextId('project'), start, rng),
      Name: `${customer.DisplayName} ${rng.pick(['Fit-out', 'Rollout', 'Audit', 'Migration', 'Expansion'])}`,
      Status: rng.weighted([
        ['Active', 6],
        ['Completed', 3],
        ['OnHold', 1],
      ] as const),
      Category: rng.pick(['Fixed fee', 'Time and materials', 'Internal']),
      CustomerId: customer.Id,
      StartDate: start,
    };
    projects.push(project.Id);
    out.push('project', project);
    for (let t = rng.int(2, 4); t > 0; t--) {
      const task: NativeTask = {
        ...meta(out.nextId('task'), start, rng),
        Name: rng.pick(['Kick-off', 'Design', 'Build', 'Review', 'Handover', 'Training']),
        ProjectId: project.Id,
        Status: rng.pick(['NotStarted', 'Planned', 'InProgress', 'Completed', 'OnHold'] as const),
      };
      out.push('task', task);
    }
  }

  return {
    profile,
    currency: profile.currency,
    company,
    accounts,
    purchaseTax,
    salesTax,
    terms,
    subsidiaries,
    departments,
    classes,
    locations,
    items,
    projects,
    vendors,
    customers,
    names,
  };
}

function tree(out: Emitter, type: 'department' | 'class', start: string, rng: Rng, names: readonly string[]): string[] {
  const ids: string[] = [];
  for (const [n, name] of names.entries()) {
    const record: NativeDepartment = { ...meta(out.nextId(type), start, rng), Name: name, Status: 'Active' };
    // The last entry is a child of the first: hierarchies exist on real platforms.
    const parent = ids[0];
    if (n === names.length - 1 && parent !== undefined) record.ParentId = parent;
    ids.push(record.Id);
    out.push(type, record);
  }
  return ids;
}

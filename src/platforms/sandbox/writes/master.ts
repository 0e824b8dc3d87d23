/** Writes of customers, vendors, accounts, tax codes and bank feed accounts. */
import type { UnifiedObjectType } from '../../../model/object-types.ts';
import { formatCents, formatRate } from '../money.ts';
import type {
  AccountClass, AccountType, NativeAccount, NativeAddress, NativeContact, NativeFeedAccount, NativeRecord, NativeTaxCode, NativeTaxComponent,
} from '../native.ts';
import { invalid } from '../native-error.ts';
import { taxRates } from '../generator/reference.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { account, cents, date, existing, list, notFound, oneOf, rate, text, unique, type Body } from './validate.ts';

/** Sets or clears optional text fields from a payload (patch semantics when base exists). */
function optionalTexts(record: Record<string, unknown>, body: Body, fields: readonly string[], isNew: boolean): void {
  for (const field of fields) {
    if (!isNew && !Object.hasOwn(body, field)) continue;
    const value = text(body, field);
    if (value === undefined) delete record[field];
    else record[field] = value;
  }
}

async function loadOr404<T extends NativeRecord>(unit: Unit, type: UnifiedObjectType, id: string): Promise<T> {
  const record = await unit.get<T>(type, id);
  if (record === null) throw notFound(type, id);
  return record;
}

function addresses(body: Body): NativeAddress[] {
  return list(body, 'Addresses').map((a, n) => {
    const field = `Addresses[${n}]`;
    const address: NativeAddress = {
      Kind: oneOf(a, 'Kind', ['Billing', 'Shipping', 'Remittance'] as const, 'Billing'), Line1: text(a, 'Line1') ?? '', City: text(a, 'City') ?? '',
      Region: text(a, 'Region') ?? '', PostalCode: text(a, 'PostalCode') ?? '', Country: text(a, 'Country') ?? '',
    };
    const line2 = text(a, 'Line2');
    if (line2 !== undefined) address.Line2 = line2;
    if (address.Line1 === '' && address.City === '') throw invalid('RequiredField', `${field} needs Line1 or City`, field);
    return address;
  });
}

/** Records that may point at a contact; a contact they use cannot be deleted. */
const CONTACT_USERS: readonly UnifiedObjectType[] = [
  'bill', 'bill_credit_memo', 'bill_payment', 'expense', 'purchase_order', 'invoice', 'invoice_credit_memo', 'invoice_payment', 'order', 'project', 'customer', 'vendor', 'bank_deposit',
];

function contactWriter(type: 'customer' | 'vendor') {
  async function write(unit: Unit, body: Body, base: NativeContact | null): Promise<NativeContact> {
    const record: NativeContact = base ?? {
      Id: unit.nextId(type), CreatedAt: unit.at, UpdatedAt: unit.at, DisplayName: '', CurrencyCode: unit.state.palette?.currency ?? 'USD',
      SubsidiaryIds: [], Status: 'Active', Addresses: [], People: [],
    };
    const name = base === null ? text(body, 'DisplayName', true) : pick(body, 'DisplayName', () => text(body, 'DisplayName', true), base.DisplayName);
    await unique(unit, type, 'DisplayName', name, base?.Id ?? null);
    record.DisplayName = name;
    optionalTexts(record, body, ['ContactName', 'Email', 'Phone', 'TaxNumber', 'CompanyNumber', 'TermId', 'ParentId'], base === null);
    await existing(unit, 'payment_term', record.TermId, 'TermId');
    await existing(unit, type, record.ParentId, 'ParentId');
    if (record.ParentId === record.Id) throw invalid('BusinessRule', `a ${type} cannot be its own parent`, 'ParentId');
    if (base === null || Object.hasOwn(body, 'CurrencyCode')) record.CurrencyCode = text(body, 'CurrencyCode') ?? record.CurrencyCode;
    if (base === null || Object.hasOwn(body, 'Addresses')) record.Addresses = addresses(body);
    if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
    if (base === null || Object.hasOwn(body, 'SubsidiaryIds')) {
      record.SubsidiaryIds = ids(body, 'SubsidiaryIds');
      for (const id of record.SubsidiaryIds) await existing(unit, 'subsidiary', id, 'SubsidiaryIds');
    }
    if (base === null) unit.create(type, record);
    else unit.touch(type, record);
    return record;
  }
  return {
    create: (unit: Unit, body: Body) => write(unit, body, null),
    update: async (unit: Unit, id: string, body: Body) => write(unit, body, await loadOr404<NativeContact>(unit, type, id)),
    delete: async (unit: Unit, id: string) => {
      await loadOr404(unit, type, id);
      const user = await unit.referencedBy(CONTACT_USERS, id);
      if (user !== null) throw invalid('InUse', `${type} ${id} is used by ${user}; archive it instead (Status: Archived)`, 'Id');
      unit.remove(type, id);
    },
  };
}

function ids(body: Body, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid('InvalidField', `${field} must be a list of ids`, field);
  return value;
}

export const customerWriter = contactWriter('customer');
export const vendorWriter = contactWriter('vendor');

const CLASS_OF: Readonly<Record<AccountType, AccountClass>> = {
  Bank: 'Asset', AccountsReceivable: 'Asset', OtherCurrentAsset: 'Asset', FixedAsset: 'Asset', OtherAsset: 'Asset',
  AccountsPayable: 'Liability', CreditCard: 'Liability', OtherCurrentLiability: 'Liability', LongTermLiability: 'Liability',
  Equity: 'Equity', Income: 'Revenue', OtherIncome: 'Revenue', CostOfGoodsSold: 'Expense', Expense: 'Expense', OtherExpense: 'Expense',
};
const ACCOUNT_TYPES = Object.keys(CLASS_OF) as AccountType[];

/** Everything that may post to or point at an account. */
const ACCOUNT_USERS: readonly UnifiedObjectType[] = [
  'bill', 'bill_credit_memo', 'bill_payment', 'expense', 'purchase_order', 'invoice', 'invoice_credit_memo', 'invoice_payment',
  'bank_deposit', 'bank_transfer', 'journal_entry', 'item', 'bank_feed_account', 'account',
];

async function writeAccount(unit: Unit, body: Body, base: NativeAccount | null): Promise<NativeAccount> {
  const record: NativeAccount = base ?? {
    Id: unit.nextId('account'), CreatedAt: unit.at, UpdatedAt: unit.at, Code: '', Name: '', Class: 'Asset', Type: 'Bank', Status: 'Active',
    CurrencyCode: unit.state.palette?.currency ?? 'USD', Balance: '0.00', SubsidiaryIds: [],
  };
  const name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  await unique(unit, 'account', 'Name', name, base?.Id ?? null);
  const code = base === null ? text(body, 'Code') : pick(body, 'Code', () => text(body, 'Code'), base.Code);
  await unique(unit, 'account', 'Code', code, base?.Id ?? null);
  const type = base === null ? oneOf(body, 'Type', ACCOUNT_TYPES, 'Expense') : oneOf(body, 'Type', ACCOUNT_TYPES, base.Type);
  if (base === null && body.Type === undefined) throw invalid('RequiredField', 'Type is required', 'Type');
  if (base !== null && CLASS_OF[type] !== base.Class) throw invalid('BusinessRule', `an ${base.Class} account cannot become ${type}`, 'Type');
  if (base?.Role !== undefined && type !== base.Type) throw invalid('BusinessRule', `${base.Name} is a system account; its type cannot change`, 'Type');
  Object.assign(record, { Name: name, Code: code ?? record.Code, Type: type, Class: CLASS_OF[type] });
  optionalTexts(record, body, ['Description', 'ParentId', 'BankAccountNumber'], base === null);
  const parent = await account(unit, record.ParentId, 'ParentId');
  if (parent !== undefined && (parent.Class !== record.Class || parent.Id === record.Id)) throw invalid('BusinessRule', 'ParentId must be another account of the same class', 'ParentId');
  if (base === null || Object.hasOwn(body, 'CurrencyCode')) record.CurrencyCode = text(body, 'CurrencyCode') ?? record.CurrencyCode;
  if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
  if (base === null || Object.hasOwn(body, 'SubsidiaryIds')) {
    record.SubsidiaryIds = ids(body, 'SubsidiaryIds');
    for (const id of record.SubsidiaryIds) await existing(unit, 'subsidiary', id, 'SubsidiaryIds');
  }
  if (base === null) unit.create('account', record);
  else unit.touch('account', record);
  return record;
}

export const accountWriter = {
  create: (unit: Unit, body: Body) => writeAccount(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeAccount(unit, body, await loadOr404<NativeAccount>(unit, 'account', id)),
  delete: async (unit: Unit, id: string) => {
    const record = await loadOr404<NativeAccount>(unit, 'account', id);
    if (record.Role !== undefined) throw invalid('BusinessRule', `${record.Name} is a system account and cannot be deleted`, 'Id');
    const user = await unit.referencedBy(ACCOUNT_USERS, id);
    if (user !== null || record.Balance !== '0.00') throw invalid('InUse', `account ${id} is in use${user === null ? '' : ` by ${user}`}; archive it instead`, 'Id');
    unit.remove('account', id);
  },
};

async function writeTaxCode(unit: Unit, body: Body, base: NativeTaxCode | null): Promise<NativeTaxCode> {
  const record: NativeTaxCode = base ?? {
    Id: unit.nextId('tax_rate'), CreatedAt: unit.at, UpdatedAt: unit.at, Code: '', Name: '', Status: 'Active', Components: [],
    TotalRate: '0.000', EffectiveRate: '0.000', SubsidiaryIds: [],
  };
  const name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  await unique(unit, 'tax_rate', 'Name', name, base?.Id ?? null);
  record.Name = name;
  record.Code = (base === null ? text(body, 'Code') : pick(body, 'Code', () => text(body, 'Code'), base.Code)) ?? name.toUpperCase().replace(/[^A-Z0-9]+/g, '').slice(0, 12);
  await unique(unit, 'tax_rate', 'Code', record.Code, base?.Id ?? null);
  if (base === null || Object.hasOwn(body, 'Components')) {
    const components = list(body, 'Components', true);
    if (components.length === 0) throw invalid('RequiredField', 'Components must have at least one component', 'Components');
    record.Components = [];
    for (const [n, c] of components.entries()) {
      const field = `Components[${n}]`;
      const flag = (key: string, fallback: boolean): boolean => {
        const value = c[key];
        if (value === undefined || value === null) return fallback;
        if (typeof value !== 'boolean') throw invalid('InvalidField', `${field}.${key} must be true or false`, `${field}.${key}`);
        return value;
      };
      const rateText = c.Rate;
      if (typeof rateText !== 'string' && typeof rateText !== 'number') throw invalid('RequiredField', `${field}.Rate is required`, `${field}.Rate`);
      const component: NativeTaxComponent = {
        Name: text(c, 'Name') ?? name, Rate: formatRate(rate(String(rateText), `${field}.Rate`)),
        Compound: flag('Compound', false), Purchases: flag('Purchases', true), Sales: flag('Sales', true),
      };
      const agency = text(c, 'AgencyId');
      if ((await existing(unit, 'tax_agency', agency, `${field}.AgencyId`)) !== undefined) component.AgencyId = agency;
      record.Components.push(component);
    }
    const rates = taxRates(record.Components);
    record.TotalRate = formatRate(rates.total);
    record.EffectiveRate = formatRate(rates.effective);
  }
  if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
  if (base === null || Object.hasOwn(body, 'SubsidiaryIds')) {
    record.SubsidiaryIds = ids(body, 'SubsidiaryIds');
    for (const id of record.SubsidiaryIds) await existing(unit, 'subsidiary', id, 'SubsidiaryIds');
  }
  if (base === null) unit.create('tax_rate', record);
  else unit.touch('tax_rate', record);
  return record;
}

export const taxCodeWriter = {
  create: (unit: Unit, body: Body) => writeTaxCode(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeTaxCode(unit, body, await loadOr404<NativeTaxCode>(unit, 'tax_rate', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'tax_rate', id);
    const user = await unit.referencedBy(['bill', 'bill_credit_memo', 'invoice', 'invoice_credit_memo', 'expense', 'purchase_order', 'journal_entry', 'bank_deposit'], id);
    if (user !== null) throw invalid('InUse', `tax code ${id} is used by ${user}; archive it instead`, 'Id');
    unit.remove('tax_rate', id);
  },
};

const FEED_KINDS = ['Bank', 'Checking', 'Savings', 'CreditCard'] as const;

async function writeFeed(unit: Unit, body: Body, base: NativeFeedAccount | null): Promise<NativeFeedAccount> {
  const record: NativeFeedAccount = base ?? {
    Id: unit.nextId('bank_feed_account'), CreatedAt: unit.at, UpdatedAt: unit.at, Name: '', Kind: 'Checking', CurrencyCode: unit.state.palette?.currency ?? 'USD',
    AccountNumber: '', Institution: 'Sandbox Bank', InstitutionAccountId: '', FeedStatus: 'Active', Ready: true, CurrentBalance: '0.00',
    TransactionStartDate: unit.at.slice(0, 10),
  };
  record.Name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  record.Kind = oneOf(body, 'Kind', FEED_KINDS, record.Kind);
  optionalTexts(record, body, ['AccountId', 'ParentFeedId', 'ContactId', 'RoutingNumber', 'LineOfBusiness'], base === null);
  const linked = await account(unit, record.AccountId, 'AccountId', ['Bank', 'CreditCard']);
  await existing(unit, 'bank_feed_account', record.ParentFeedId, 'ParentFeedId');
  if (linked !== undefined) {
    const other = await unit.findBy('bank_feed_account', 'AccountId', linked.Id, record.Id);
    if (other !== null) {
      // additional_fields.override_existing: the new feed takes the account over from the old one.
      if (body.Override !== true) throw invalid('DuplicateValue', `feed ${other} is already linked to account ${linked.Id}; send Override to replace it`, 'AccountId');
      const old = await loadOr404<NativeFeedAccount>(unit, 'bank_feed_account', other);
      delete old.AccountId;
      old.FeedStatus = 'Inactive';
      unit.touch('bank_feed_account', old);
    }
  }
  for (const field of ['AccountNumber', 'InstitutionAccountId', 'CurrencyCode'] as const) {
    if (base === null || Object.hasOwn(body, field)) record[field] = text(body, field) ?? record[field];
  }
  if (record.InstitutionAccountId === '') record.InstitutionAccountId = `SBX-${record.Id.slice(5)}`;
  for (const field of ['CurrentBalance', 'AvailableBalance', 'CreditLimit'] as const) {
    if (base !== null && !Object.hasOwn(body, field)) continue;
    const amount = cents(body, field);
    if (amount !== undefined) record[field] = formatCents(amount);
    else if (field !== 'CurrentBalance') delete record[field];
  }
  if (base === null || Object.hasOwn(body, 'TransactionStartDate')) record.TransactionStartDate = date(body, 'TransactionStartDate') ?? record.TransactionStartDate;
  if (base === null || Object.hasOwn(body, 'PaymentNetworks')) {
    const networks = ids(body, 'PaymentNetworks');
    if (networks.length > 0) record.PaymentNetworks = networks;
    else delete record.PaymentNetworks;
  }
  if (Object.hasOwn(body, 'FeedStatus')) record.FeedStatus = oneOf(body, 'FeedStatus', ['Active', 'Inactive'] as const, record.FeedStatus);
  if (base === null) unit.create('bank_feed_account', record);
  else unit.touch('bank_feed_account', record);
  return record;
}

export const feedWriter = {
  create: (unit: Unit, body: Body) => writeFeed(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeFeed(unit, body, await loadOr404<NativeFeedAccount>(unit, 'bank_feed_account', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'bank_feed_account', id);
    const child = await unit.findBy('bank_feed_account', 'ParentFeedId', id, null);
    if (child !== null) throw invalid('InUse', `feed ${child} is a sub-account of ${id}`, 'Id');
    unit.remove('bank_feed_account', id);
  },
};


/** Writes of customers, vendors, accounts and items. */
import type { UnifiedObjectType } from '../../../../src/model/object-types.ts';
import type { AccountClass, AccountType, NativeAccount, NativeAddress, NativeContact, NativeItem } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { account, cents, existing, ids, list, loadOr404, oneOf, optionalTexts, text, unique, type Body } from './validate.ts';

function addresses(body: Body): NativeAddress[] {
  return list(body, 'Addresses').map((a, n) => {
    const field = `Addresses[${n}]`;
    const address: NativeAddress = {
      Kind: oneOf(a, 'Kind', ['Billing', 'Shipping', 'Remittance'] as const, 'Billing'),
      Line1: text(a, 'Line1') ?? '',
      City: text(a, 'City') ?? '',
      Region: text(a, 'Region') ?? '',
      PostalCode: text(a, 'PostalCode') ?? '',
      Country: text(a, 'Country') ?? '',
    };
    const line2 = text(a, 'Line2');
    if (line2 !== undefined) address.Line2 = line2;
    if (address.Line1 === '' && address.City === '') throw invalid('RequiredField', `${field} needs Line1 or City`, field);
    return address;
  });
}

/** Records that may point at a contact; a contact they use cannot be deleted. */
const CONTACT_USERS: readonly UnifiedObjectType[] = [
  'bill',
  'bill_credit_memo',
  'bill_payment',
  'expense',
  'purchase_order',
  'invoice',
  'invoice_credit_memo',
  'invoice_payment',
  'order',
  'project',
  'customer',
  'vendor',
  'bank_deposit',
  'sales_order',
];

function contactWriter(type: 'customer' | 'vendor') {
  async function write(unit: Unit, body: Body, base: NativeContact | null): Promise<NativeContact> {
    const record: NativeContact = base ?? {
      Id: unit.nextId(type),
      CreatedAt: unit.at,
      UpdatedAt: unit.at,
      DisplayName: '',
      CurrencyCode: unit.state.palette?.currency ?? 'USD',
      SubsidiaryIds: [],
      Status: 'Active',
      Addresses: [],
      People: [],
    };
    const name = base === null ? text(body, 'DisplayName', true) : pick(body, 'DisplayName', () => text(body, 'DisplayName', true), base.DisplayName);
    await unique(unit, type, 'DisplayName', name, base?.Id ?? null);
    record.DisplayName = name;
    optionalTexts(record, body, ['ContactName', 'Email', 'Phone', 'TaxNumber', 'CompanyNumber', 'Website', 'TermId', 'ParentId'], base === null);
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
    update: async (unit: Unit, id: string, body: Body) => write(unit, body, await loadOr404(unit, type, id)),
    delete: async (unit: Unit, id: string) => {
      await loadOr404(unit, type, id);
      const user = await unit.referencedBy(CONTACT_USERS, id);
      if (user !== null) throw invalid('InUse', `${type} ${id} is used by ${user}; archive it instead (Status: Archived)`, 'Id');
      unit.remove(type, id);
    },
  };
}

export const customerWriter = contactWriter('customer');
export const vendorWriter = contactWriter('vendor');

const CLASS_OF: Readonly<Record<AccountType, AccountClass>> = {
  Bank: 'Asset',
  AccountsReceivable: 'Asset',
  OtherCurrentAsset: 'Asset',
  FixedAsset: 'Asset',
  OtherAsset: 'Asset',
  AccountsPayable: 'Liability',
  CreditCard: 'Liability',
  OtherCurrentLiability: 'Liability',
  LongTermLiability: 'Liability',
  Equity: 'Equity',
  Income: 'Revenue',
  OtherIncome: 'Revenue',
  CostOfGoodsSold: 'Expense',
  Expense: 'Expense',
  OtherExpense: 'Expense',
};
const ACCOUNT_TYPES = Object.keys(CLASS_OF) as AccountType[];

/** Everything that may post to or point at an account. */
const ACCOUNT_USERS: readonly UnifiedObjectType[] = [
  'bill',
  'bill_credit_memo',
  'bill_payment',
  'expense',
  'purchase_order',
  'invoice',
  'invoice_credit_memo',
  'invoice_payment',
  'bank_deposit',
  'bank_transfer',
  'journal_entry',
  'item',
  'bank_feed_account',
  'account',
  'sales_order',
];

async function writeAccount(unit: Unit, body: Body, base: NativeAccount | null): Promise<NativeAccount> {
  const record: NativeAccount = base ?? {
    Id: unit.nextId('account'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Code: '',
    Name: '',
    Class: 'Asset',
    Type: 'Bank',
    Status: 'Active',
    CurrencyCode: unit.state.palette?.currency ?? 'USD',
    Balance: '0.00',
    SubsidiaryIds: [],
  };
  const name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  await unique(unit, 'account', 'Name', name, base?.Id ?? null);
  const code = base === null ? text(body, 'Code') : pick(body, 'Code', () => text(body, 'Code'), base.Code);
  await unique(unit, 'account', 'Code', code, base?.Id ?? null);
  const type = base === null ? oneOf(body, 'Type', ACCOUNT_TYPES, 'Expense') : oneOf(body, 'Type', ACCOUNT_TYPES, base.Type);
  if (base === null && body.Type === undefined) throw invalid('RequiredField', 'Type is required', 'Type');
  if (base !== null && CLASS_OF[type] !== base.Class) throw invalid('BusinessRule', `an ${base.Class} account cannot become ${type}`, 'Type');
  if (base?.Role !== undefined && type !== base.Type)
    throw invalid('BusinessRule', `${base.Name} is a system account; its type cannot change`, 'Type');
  Object.assign(record, { Name: name, Code: code ?? record.Code, Type: type, Class: CLASS_OF[type] });
  optionalTexts(record, body, ['Description', 'ParentId', 'BankAccountNumber'], base === null);
  const parent = await account(unit, record.ParentId, 'ParentId');
  if (parent !== undefined && (parent.Class !== record.Class || parent.Id === record.Id))
    throw invalid('BusinessRule', 'ParentId must be another account of the same class', 'ParentId');
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
  update: async (unit: Unit, id: string, body: Body) => writeAccount(unit, body, await loadOr404(unit, 'account', id)),
  delete: async (unit: Unit, id: string) => {
    const record = await loadOr404(unit, 'account', id);
    if (record.Role !== undefined) throw invalid('BusinessRule', `${record.Name} is a system account and cannot be deleted`, 'Id');
    const user = await unit.referencedBy(ACCOUNT_USERS, id);
    if (user !== null || record.Balance !== '0.00')
      throw invalid('InUse', `account ${id} is in use${user === null ? '' : ` by ${user}`}; archive it instead`, 'Id');
    unit.remove('account', id);
  },
};

/** Documents whose lines may name an item; an item they use cannot be deleted. */
const ITEM_USERS: readonly UnifiedObjectType[] = [
  'bill',
  'bill_credit_memo',
  'expense',
  'purchase_order',
  'invoice',
  'invoice_credit_memo',
  'sales_order',
  'sales_receipt',
];

const ITEM_KINDS = ['Service', 'NonInventory'] as const;
const INCOME_TYPES = ['Income', 'OtherIncome'] as const;
const EXPENSE_TYPES = ['Expense', 'CostOfGoodsSold', 'OtherExpense'] as const;

/** A price of an item: never negative. */
function price(body: Body, field: string, current: string): string {
  if (!Object.hasOwn(body, field)) return current;
  const value = cents(body, field) ?? 0;
  if (value < 0) throw invalid('InvalidAmount', `${field} cannot be negative`, field);
  return (value / 100).toFixed(2);
}

/** An item posts nothing itself; the documents that name it post to its accounts, which must exist and fit its sides. */
async function writeItem(unit: Unit, body: Body, base: NativeItem | null): Promise<NativeItem> {
  const record: NativeItem = base ?? {
    Id: unit.nextId('item'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Sku: '',
    Name: '',
    Kind: 'Service',
    SalesPrice: '0.00',
    PurchaseCost: '0.00',
    IncomeAccountId: '',
    ExpenseAccountId: '',
    Status: 'Active',
  };
  const name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  await unique(unit, 'item', 'Name', name, base?.Id ?? null);
  record.Name = name;
  if (base === null || Object.hasOwn(body, 'Sku')) record.Sku = text(body, 'Sku') ?? '';
  if (base === null && body.Kind === undefined) throw invalid('RequiredField', 'Kind is required', 'Kind');
  if (base?.Kind === 'Inventory' && Object.hasOwn(body, 'Kind') && body.Kind !== 'Inventory')
    throw invalid('BusinessRule', 'an inventory item cannot change its kind', 'Kind');
  if (base?.Kind !== 'Inventory') record.Kind = oneOf(body, 'Kind', ITEM_KINDS, base?.Kind === 'NonInventory' ? 'NonInventory' : 'Service');
  optionalTexts(record, body, ['Description'], base === null);
  record.SalesPrice = price(body, 'SalesPrice', record.SalesPrice);
  record.PurchaseCost = price(body, 'PurchaseCost', record.PurchaseCost);
  if (base === null || Object.hasOwn(body, 'IncomeAccountId')) record.IncomeAccountId = text(body, 'IncomeAccountId', true);
  if (base === null || Object.hasOwn(body, 'ExpenseAccountId')) record.ExpenseAccountId = text(body, 'ExpenseAccountId', true);
  await account(unit, record.IncomeAccountId, 'IncomeAccountId', INCOME_TYPES);
  await account(unit, record.ExpenseAccountId, 'ExpenseAccountId', EXPENSE_TYPES);
  if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
  if (base === null) unit.create('item', record);
  else unit.touch('item', record);
  return record;
}

export const itemWriter = {
  create: (unit: Unit, body: Body) => writeItem(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeItem(unit, body, await loadOr404(unit, 'item', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'item', id);
    const user = await unit.referencedBy(ITEM_USERS, id);
    if (user !== null) throw invalid('InUse', `item ${id} is used by ${user}; archive it instead (Status: Archived)`, 'Id');
    unit.remove('item', id);
  },
};

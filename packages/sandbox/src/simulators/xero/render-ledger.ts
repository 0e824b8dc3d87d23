/** The chart of accounts, manual journals, bank transfers, tax rates, currencies, tracking categories and employees. */
import type {
  AccountType,
  NativeAccount,
  NativeClass,
  NativeCurrency,
  NativeEmployee,
  NativeJournalEntry,
  NativeTaxCode,
  NativeTransfer,
} from '../../native.ts';
import { parseCents } from '../../money.ts';
import { num } from '../amounts.ts';
import { renderFields } from '../field-table.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { dateString, msDate } from './dates.ts';
import { LEDGER_LINE_FIELDS } from './fields.ts';
import type { Json, XeroView } from './view.ts';

/** Xero's account types; receivables and payables are CURRENT and CURRLIAB accounts Xero flags as system accounts. */
const TYPES: Readonly<Record<AccountType, string>> = {
  Bank: 'BANK',
  CreditCard: 'BANK',
  AccountsReceivable: 'CURRENT',
  OtherCurrentAsset: 'CURRENT',
  FixedAsset: 'FIXED',
  OtherAsset: 'NONCURRENT',
  AccountsPayable: 'CURRLIAB',
  OtherCurrentLiability: 'CURRLIAB',
  LongTermLiability: 'TERMLIAB',
  Equity: 'EQUITY',
  Income: 'REVENUE',
  OtherIncome: 'OTHERINCOME',
  CostOfGoodsSold: 'DIRECTCOSTS',
  Expense: 'EXPENSE',
  OtherExpense: 'EXPENSE',
};

const SYSTEM_ACCOUNTS: Readonly<Partial<Record<AccountType, string>>> = { AccountsReceivable: 'DEBTORS', AccountsPayable: 'CREDITORS' };

export function renderAccount(a: NativeAccount): Json {
  const bank = a.Type === 'Bank' || a.Type === 'CreditCard';
  const system = SYSTEM_ACCOUNTS[a.Type] ?? (a.Role === 'RetainedEarnings' ? 'RETAINEDEARNINGS' : undefined);
  return {
    AccountID: uuidOfId(a.Id),
    Code: a.Code,
    Name: a.Name,
    Type: TYPES[a.Type],
    Class: a.Class.toUpperCase(),
    Status: a.Status === 'Archived' ? 'ARCHIVED' : 'ACTIVE',
    ...(a.Description === undefined ? {} : { Description: a.Description }),
    ...(bank ? { BankAccountType: a.Type === 'CreditCard' ? 'CREDITCARD' : 'BANK', BankAccountNumber: a.BankAccountNumber ?? '' } : {}),
    CurrencyCode: a.CurrencyCode,
    ...(system === undefined ? {} : { SystemAccount: system }),
    EnablePaymentsToAccount: false,
    ShowInExpenseClaims: false,
    HasAttachments: false,
    AddToWatchlist: false,
    UpdatedDateUTC: msDate(a.UpdatedAt),
  };
}

/** An account as Xero names it inside a record: a line's code (and id), or an embedded account summary. */
export function accountRef(a: NativeAccount | undefined, id: string, form: 'line' | 'ref'): Json {
  if (form === 'line') return { AccountID: uuidOfId(id), ...(a === undefined ? {} : { AccountCode: a.Code }) };
  return { AccountID: uuidOfId(id), ...(a === undefined ? {} : { Code: a.Code, Name: a.Name }) };
}

export async function renderJournal(view: XeroView, j: NativeJournalEntry, deletedAt: string | null = null): Promise<Json> {
  const accounts = await view.byId('account');
  return {
    ManualJournalID: uuidOfId(j.Id),
    // Xero requires a narration; a SANDBOX entry without a memo has its number.
    Narration: j.Memo ?? j.DocNumber,
    Date: msDate(j.TxnDate),
    DateString: dateString(j.TxnDate),
    Status: deletedAt !== null ? 'DELETED' : j.Status === 'Voided' ? 'VOIDED' : 'POSTED',
    LineAmountTypes: 'NoTax',
    // Debits positive, credits negative, as Xero signs journal lines.
    JournalLines: j.Lines.map((line) => ({
      LineAmount: (parseCents(line.Debit ?? '0.00') - parseCents(line.Credit ?? '0.00')) / 100,
      ...accountRef(accounts.get(line.AccountId), line.AccountId, 'line'),
      ...renderFields(LEDGER_LINE_FIELDS, line),
      TaxAmount: 0,
      Tracking: [],
      IsBlank: false,
    })),
    ShowOnCashBasisReports: true,
    HasAttachments: (await view.attached()).has(j.Id),
    UpdatedDateUTC: msDate(deletedAt ?? j.UpdatedAt),
  };
}

export async function renderTransfer(view: XeroView, t: NativeTransfer): Promise<Json> {
  const accounts = await view.byId('account');
  return {
    BankTransferID: uuidOfId(t.Id),
    Date: msDate(t.TxnDate),
    DateString: dateString(t.TxnDate),
    Amount: num(t.Amount),
    FromBankAccount: accountRef(accounts.get(t.FromAccountId), t.FromAccountId, 'ref'),
    ToBankAccount: accountRef(accounts.get(t.ToAccountId), t.ToAccountId, 'ref'),
    CurrencyRate: 1,
    HasAttachments: (await view.attached()).has(t.Id),
    CreatedDateUTC: msDate(t.CreatedAt),
  };
}

/** A tax code; its TaxType (Xero's key for a rate, named on every taxed line) is the SANDBOX id. */
export function renderTaxRate(t: NativeTaxCode): Json {
  const sales = t.Components.some((c) => c.Sales);
  const purchases = t.Components.some((c) => c.Purchases);
  return {
    Name: t.Name,
    TaxType: t.Id,
    Status: t.Status === 'Archived' ? 'ARCHIVED' : 'ACTIVE',
    CanApplyToRevenue: sales,
    CanApplyToExpenses: purchases,
    CanApplyToAssets: purchases,
    CanApplyToLiabilities: false,
    CanApplyToEquity: false,
    DisplayTaxRate: Number(t.TotalRate),
    EffectiveRate: Number(t.EffectiveRate),
    TaxComponents: t.Components.map((c) => ({ Name: c.Name, Rate: Number(c.Rate), IsCompound: c.Compound, IsNonRecoverable: false })),
  };
}

export const renderCurrency = (c: NativeCurrency): Json => ({ Code: c.Code, Description: c.Name });

/** The one tracking category ("Class") whose options are SANDBOX's classes. */
export const CLASS_CATEGORY_ID = uuidOfId('TRACKING-CLASS');

export function renderTrackingCategories(classes: readonly NativeClass[], includeArchived: boolean): Json[] {
  const options = classes
    .filter((c) => includeArchived || c.Status === 'Active')
    .map((c) => ({
      TrackingOptionID: uuidOfId(c.Id),
      Name: c.Name,
      Status: c.Status === 'Archived' ? 'ARCHIVED' : 'ACTIVE',
      TrackingCategoryID: CLASS_CATEGORY_ID,
    }));
  return classes.length === 0 ? [] : [{ TrackingCategoryID: CLASS_CATEGORY_ID, Name: 'Class', Status: 'ACTIVE', Options: options }];
}

export function renderEmployee(e: NativeEmployee): Json {
  return {
    EmployeeID: uuidOfId(e.Id),
    Status: e.Status === 'Terminated' ? 'ARCHIVED' : 'ACTIVE',
    FirstName: e.FirstName,
    LastName: e.LastName,
    UpdatedDateUTC: msDate(e.UpdatedAt),
  };
}

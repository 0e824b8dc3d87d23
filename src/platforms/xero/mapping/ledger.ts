/** The chart of accounts, manual journals, bank transfers, tax rates, tracking categories and currencies. */
import type { AccountSchema } from '../../../model/account.ts';
import type { Static } from 'typebox';
import { xeroDay, xeroIso } from '../dates.ts';
import type {
  XeroAccount,
  XeroBankTransfer,
  XeroCurrency,
  XeroManualJournal,
  XeroTaxRate,
  XeroTrackingCategory,
  XeroTrackingOption,
} from '../types.ts';
import { currency, deepLink, link, money, optCurrency, text, type Mapped, type Ref } from './common.ts';
import { UNFILLED } from './unfilled.ts';

type AccountType = Static<typeof AccountSchema>['account_type'];
type AccountCategory = Static<typeof AccountSchema>['category'];

/** Xero account types (contract enum AccountType) → unified account_type. */
const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  BANK: 'bank',
  CURRENT: 'other_current_asset',
  INVENTORY: 'other_current_asset',
  PREPAYMENT: 'other_current_asset',
  FIXED: 'fixed_asset',
  NONCURRENT: 'other_asset',
  CURRLIAB: 'other_current_liability',
  PAYGLIABILITY: 'other_current_liability',
  PAYG: 'other_current_liability',
  SUPERANNUATIONLIABILITY: 'other_current_liability',
  LIABILITY: 'liability',
  TERMLIAB: 'long_term_liability',
  EQUITY: 'equity',
  REVENUE: 'income',
  SALES: 'income',
  OTHERINCOME: 'other_income',
  DIRECTCOSTS: 'cost_of_goods_sold',
  EXPENSE: 'expense',
  OVERHEADS: 'expense',
  DEPRECIATN: 'expense',
  WAGESEXPENSE: 'expense',
  SUPERANNUATIONEXPENSE: 'expense',
};

/** Xero account classes → unified category. */
const CLASSES: Readonly<Record<string, AccountCategory>> = {
  ASSET: 'asset',
  EQUITY: 'equity',
  EXPENSE: 'expense',
  LIABILITY: 'liability',
  REVENUE: 'income',
};

const CATEGORY_OF_TYPE: Readonly<Partial<Record<AccountType, AccountCategory>>> = {
  bank: 'asset',
  other_current_asset: 'asset',
  fixed_asset: 'asset',
  other_asset: 'asset',
  accounts_receivable: 'asset',
  other_current_liability: 'liability',
  liability: 'liability',
  long_term_liability: 'liability',
  accounts_payable: 'liability',
  credit_card: 'liability',
  equity: 'equity',
  income: 'income',
  other_income: 'income',
  cost_of_goods_sold: 'expense',
  expense: 'expense',
  other_expense: 'expense',
};

function accountType(a: XeroAccount): AccountType {
  if (a.SystemAccount === 'DEBTORS') return 'accounts_receivable';
  if (a.SystemAccount === 'CREDITORS') return 'accounts_payable';
  if (a.Type === 'BANK' && a.BankAccountType === 'CREDITCARD') return 'credit_card';
  return ACCOUNT_TYPES[a.Type ?? ''] ?? 'unknown';
}

export function mapAccount(a: XeroAccount): Mapped<'account'> {
  const type = accountType(a);
  return {
    ...UNFILLED.account,
    platform_id: a.AccountID ?? '',
    account_type: type,
    category: CLASSES[a.Class ?? ''] ?? CATEGORY_OF_TYPE[type] ?? 'unknown',
    status: a.Status === 'ARCHIVED' ? 'inactive' : 'active',
    currency_code: optCurrency(a.CurrencyCode),
    name: text(a.Name),
    nominal_code: text(a.Code),
    subsidiaries: [],
    // Never null in the unified model; Xero always sends it, the epoch only guards a record without one.
    updated_at: xeroIso(a.UpdatedDateUTC) ?? '1970-01-01T00:00:00.000Z',
    platform_url: null,
  };
}

/** `baseCurrency`: the organisation's, in which every manual journal is (the journal does not name it); null when not known. */
export function mapJournal(j: XeroManualJournal, ref: Ref, baseCurrency: string | null): Mapped<'journal_entry'> {
  return {
    ...UNFILLED.journal_entry,
    platform_id: j.ManualJournalID ?? '',
    transaction_date: xeroDay(j.Date) ?? '1970-01-01T00:00:00.000Z',
    currency_code: baseCurrency === null ? null : optCurrency(baseCurrency),
    memo: text(j.Narration),
    // Xero signs journal lines as the unified model does: debits positive, credits negative.
    line_items: (j.JournalLines ?? []).map((line) => ({
      account_id: link(ref, 'account', line.AccountID),
      tax_rate_id: ref('tax_rate', line.TaxType),
      total_amount: money((line.LineAmount ?? 0) + (j.LineAmountTypes === 'Exclusive' ? (line.TaxAmount ?? 0) : 0)),
      description: text(line.Description),
    })),
    updated_at: xeroIso(j.UpdatedDateUTC),
    platform_url: deepLink('journal_entry', j.ManualJournalID ?? ''),
  };
}

export function mapTransfer(t: XeroBankTransfer, ref: Ref): Mapped<'bank_transfer'> {
  const created = xeroIso(t.CreatedDateUTC);
  return {
    ...UNFILLED.bank_transfer,
    platform_id: t.BankTransferID ?? '',
    credit_account_id: ref('account', t.FromBankAccount?.AccountID),
    debit_account_id: ref('account', t.ToBankAccount?.AccountID),
    transaction_date: xeroDay(t.Date) ?? '1970-01-01T00:00:00.000Z',
    currency_code: currency(t.FromBankAccount?.CurrencyCode),
    total_amount: money(t.Amount),
    created_at: created,
    // Xero cannot edit a transfer (only delete it): it is as it was created.
    updated_at: created,
    platform_url: null,
  };
}

export function mapTaxRate(r: XeroTaxRate): Mapped<'tax_rate'> {
  const sales = r.CanApplyToRevenue === true;
  const purchases = r.CanApplyToExpenses === true || r.CanApplyToAssets === true;
  const components = (r.TaxComponents ?? []).map((c) => ({
    is_compound: c.IsCompound === true,
    is_purchases_tax: purchases,
    is_sales_tax: sales,
    name: text(c.Name),
    rate: c.Rate ?? 0,
  }));
  return {
    ...UNFILLED.tax_rate,
    platform_id: r.TaxType ?? '',
    status: r.Status === 'ACTIVE' ? 'active' : r.Status === 'ARCHIVED' ? 'inactive' : 'unknown',
    code: text(r.TaxType),
    name: text(r.Name),
    effective_tax_rate: r.EffectiveRate ?? null,
    total_tax_rate: components.length === 0 ? (r.DisplayTaxRate ?? null) : components.reduce((sum, c) => sum + c.rate, 0),
    subsidiaries: [],
    components,
  };
}

const trackingStatus = (s: string | undefined): Mapped<'class'>['status'] => (s === 'ARCHIVED' ? 'archived' : s === 'ACTIVE' ? 'active' : null);

/**
 * A tracking category is a top-level class; its options are classes under it (lines are tagged with options). An
 * option's record names its category and has no Options of its own.
 */
export function mapTracking(r: XeroTrackingCategory & XeroTrackingOption, ref: Ref): Mapped<'class'> {
  const option = typeof r.TrackingOptionID === 'string' && !Array.isArray(r.Options);
  return {
    ...UNFILLED.class,
    platform_id: (option ? r.TrackingOptionID : r.TrackingCategoryID) ?? '',
    parent_id: option ? ref('class', r.TrackingCategoryID) : null,
    has_children: !option && (r.Options ?? []).length > 0,
    name: text(r.Name),
    status: trackingStatus(r.Status),
    subsidiaries: [],
  };
}

export function mapCurrency(c: XeroCurrency): Mapped<'currency'> {
  return { ...UNFILLED.currency, currency_code: currency(c.Code), currency_name: text(c.Description) };
}

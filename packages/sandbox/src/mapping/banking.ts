/** Chart of accounts, deposits, transfers, bank feeds, journal entries, attachments and balance sheets. */
import type {
  AccountType,
  NativeAccount,
  NativeAttachment,
  NativeBalanceSheet,
  NativeDeposit,
  NativeFeedAccount,
  NativeJournalEntry,
  NativeReportRow,
  NativeTransfer,
} from '../native.ts';
import { journalLineCents } from '../books.ts';
import { ATTACHMENT_PARENT_TYPES } from '../collections.ts';
import { currency, day, link, money, optDay, optMoney, type Mapped, type Ref } from './common.ts';

const ACCOUNT_TYPES: Readonly<Record<AccountType, Mapped<'account'>['account_type']>> = {
  Bank: 'bank',
  AccountsReceivable: 'accounts_receivable',
  OtherCurrentAsset: 'other_current_asset',
  FixedAsset: 'fixed_asset',
  OtherAsset: 'other_asset',
  AccountsPayable: 'accounts_payable',
  CreditCard: 'credit_card',
  OtherCurrentLiability: 'other_current_liability',
  LongTermLiability: 'long_term_liability',
  Equity: 'equity',
  Income: 'income',
  OtherIncome: 'other_income',
  CostOfGoodsSold: 'cost_of_goods_sold',
  Expense: 'expense',
  OtherExpense: 'other_expense',
};
const CATEGORIES = { Asset: 'asset', Liability: 'liability', Equity: 'equity', Revenue: 'income', Expense: 'expense' } as const;

export function mapAccount(r: NativeAccount, ref: Ref): Mapped<'account'> {
  const status = r.Status === 'Active' ? 'active' : 'inactive';
  return {
    platform_id: r.Id,
    parent_id: ref('account', r.ParentId),
    account_type: ACCOUNT_TYPES[r.Type],
    category: CATEGORIES[r.Class],
    status,
    balance: money(r.Balance),
    currency_code: currency(r.CurrencyCode),
    name: r.Name,
    nominal_code: r.Code,
    subsidiaries: r.SubsidiaryIds.map((id) => ({ id: link(ref, 'subsidiary', id), status })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapDeposit(r: NativeDeposit, ref: Ref): Mapped<'bank_deposit'> {
  return {
    platform_id: r.Id,
    account_id: ref('account', r.BankAccountId),
    department_id: ref('department', r.DepartmentId),
    subsidiary_id: ref('subsidiary', r.SubsidiaryId),
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    total_amount: money(r.Total),
    memo: r.Memo ?? null,
    linked_payments: r.Payments.map((p) => ({
      id: link(ref, 'invoice_payment', p.PaymentId),
      payment_amount: money(p.Amount),
      type: 'invoice_payment',
    })),
    line_items: r.Lines.map((line) => ({
      platform_id: line.LineId,
      account_id: ref('account', line.AccountId),
      class_id: ref('class', line.ClassId),
      customer_id: ref('customer', line.CustomerId),
      department_id: ref('department', line.DepartmentId),
      location_id: ref('location', line.LocationId),
      project_id: ref('project', line.ProjectId),
      tax_rate_id: ref('tax_rate', line.TaxCodeId),
      vendor_id: ref('vendor', line.VendorId),
      total_amount: money(line.Amount),
      description: line.Description ?? null,
    })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapTransfer(r: NativeTransfer, ref: Ref): Mapped<'bank_transfer'> {
  return {
    platform_id: r.Id,
    class_id: ref('class', r.ClassId),
    department_id: ref('department', r.DepartmentId),
    location_id: ref('location', r.LocationId),
    project_id: ref('project', r.ProjectId),
    credit_account_id: ref('account', r.FromAccountId),
    debit_account_id: ref('account', r.ToAccountId),
    subsidiary_id: ref('subsidiary', r.SubsidiaryId),
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    total_amount: money(r.Amount),
    memo: r.Memo ?? null,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

const FEED_TYPES = { Bank: 'bank', Checking: 'checking', Savings: 'savings', CreditCard: 'credit_card' } as const;

export function mapFeedAccount(r: NativeFeedAccount, ref: Ref): Mapped<'bank_feed_account'> {
  return {
    account_id: ref('account', r.AccountId),
    contact_id: r.ContactId ?? null,
    internal_bank_account_id: r.InstitutionAccountId,
    parent_bank_feed_account_id: ref('bank_feed_account', r.ParentFeedId),
    last_statement_date: optDay(r.LastStatementDate),
    next_payment_date: optDay(r.NextPaymentDate),
    transaction_start_date: day(r.TransactionStartDate),
    bank_account_type: FEED_TYPES[r.Kind],
    feed_status: r.FeedStatus === 'Active' ? 'active' : 'inactive',
    transaction_ready: r.Ready,
    available_balance: optMoney(r.AvailableBalance),
    available_credit: optMoney(r.AvailableCredit),
    credit_limit: optMoney(r.CreditLimit),
    current_balance: money(r.CurrentBalance),
    finance_charges: optMoney(r.FinanceCharges),
    last_statement_balance: optMoney(r.LastStatementBalance),
    minimum_payment_amount: optMoney(r.MinimumPayment),
    next_payment_amount: optMoney(r.NextPaymentAmount),
    past_due_amount: optMoney(r.PastDue),
    purchases_apr: r.PurchasesApr === undefined ? null : Number(r.PurchasesApr),
    bank_account_number: r.AccountNumber,
    line_of_business: r.LineOfBusiness ?? null,
    name: r.Name,
    routing_number: r.RoutingNumber ?? null,
    currency_code: currency(r.CurrencyCode),
    payment_network_ids: r.PaymentNetworks ?? null,
  };
}

export function mapJournalEntry(r: NativeJournalEntry, ref: Ref): Mapped<'journal_entry'> {
  return {
    platform_id: r.Id,
    subsidiary_id: ref('subsidiary', r.SubsidiaryId),
    transaction_date: day(r.TxnDate),
    currency_code: currency(r.CurrencyCode),
    currency_rate: Number(r.ExchangeRate),
    // The sandbox never parks journal amounts in undeposited funds.
    deposited: null,
    memo: r.Memo ?? null,
    line_items: r.Lines.map((line) => ({
      account_id: link(ref, 'account', line.AccountId),
      tax_rate_id: ref('tax_rate', line.TaxCodeId),
      total_amount: journalLineCents(line) / 100,
      description: line.Description ?? null,
    })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
    platform_url: null,
  };
}

export function mapAttachment(r: NativeAttachment, ref: Ref): Mapped<'attachment'> {
  return {
    platform_id: r.Id,
    attached_to_id: ref(ATTACHMENT_PARENT_TYPES[r.ParentType], r.ParentId),
    file_name: r.FileName,
    // Self-contained: the file is small; the service may serve its own download address instead.
    file_url: `data:${r.ContentType};base64,${r.Content}`,
    attached_to_type: ATTACHMENT_PARENT_TYPES[r.ParentType],
    created_at: r.CreatedAt,
  };
}

type Node = Mapped<'balance_sheet'>['assets'];

function node(row: NativeReportRow, ref: Ref): Node {
  return {
    account_id: row.AccountId === undefined ? '' : (ref('account', row.AccountId) ?? ''),
    name: row.Name,
    value: row.Amount,
    items: row.Rows.map((child) => node(child, ref)),
  };
}

export function mapBalanceSheet(r: NativeBalanceSheet, ref: Ref): Mapped<'balance_sheet'> {
  return {
    start_date: day(r.PeriodStart),
    end_date: day(r.PeriodEnd),
    currency_code: r.CurrencyCode,
    total_assets: r.TotalAssets,
    total_equity: r.TotalEquity,
    total_liabilities: r.TotalLiabilities,
    assets: node(r.Assets, ref),
    equity: node(r.Equity, ref),
    liabilities: node(r.Liabilities, ref),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

/**
 * Ledger views built from postings: account balances and the monthly balance
 * sheet. Balances are kept debit-positive; the balance sheet shows natural
 * signs, with income less expenses rolled into equity as "Net Income", so
 * total assets = total liabilities + total equity whenever the postings balance.
 */
import { formatCents, parseCents } from './money.ts';
import type { AccountClass, AccountType, NativeAccount, NativeBalanceSheet, NativeReportRow } from './native.ts';

/** Key of the combined income-less-expenses balance in a balance map. */
export const PROFIT_AND_LOSS = '__pnl__';

export type Balances = Map<string, number>;

export function addTo(balances: Balances, accountId: string, cents: number): void {
  balances.set(accountId, (balances.get(accountId) ?? 0) + cents);
}

const isProfitAndLoss = (cls: AccountClass): boolean => cls === 'Revenue' || cls === 'Expense';

/** Natural sign: assets and expenses are debit balances, the rest credit balances. */
export function naturalCents(cls: AccountClass, debitPositive: number): number {
  return cls === 'Asset' || cls === 'Expense' ? debitPositive : -debitPositive;
}

const GROUPS: readonly { section: 'Assets' | 'Liabilities' | 'Equity'; type: AccountType; name: string }[] = [
  { section: 'Assets', type: 'Bank', name: 'Bank Accounts' },
  { section: 'Assets', type: 'AccountsReceivable', name: 'Accounts Receivable' },
  { section: 'Assets', type: 'OtherCurrentAsset', name: 'Other Current Assets' },
  { section: 'Assets', type: 'FixedAsset', name: 'Fixed Assets' },
  { section: 'Assets', type: 'OtherAsset', name: 'Other Assets' },
  { section: 'Liabilities', type: 'AccountsPayable', name: 'Accounts Payable' },
  { section: 'Liabilities', type: 'CreditCard', name: 'Credit Cards' },
  { section: 'Liabilities', type: 'OtherCurrentLiability', name: 'Other Current Liabilities' },
  { section: 'Liabilities', type: 'LongTermLiability', name: 'Long-Term Liabilities' },
  { section: 'Equity', type: 'Equity', name: 'Equity' },
];

/** Builds one month's balance sheet from cumulative debit-positive balances at its end. */
export function buildBalanceSheet(input: {
  id: string;
  periodStart: string;
  periodEnd: string;
  currencyCode: string;
  createdAt: string;
  updatedAt: string;
  accounts: readonly NativeAccount[];
  balances: Balances;
}): NativeBalanceSheet {
  const sections: Record<'Assets' | 'Liabilities' | 'Equity', NativeReportRow[]> = { Assets: [], Liabilities: [], Equity: [] };
  const totals = { Assets: 0, Liabilities: 0, Equity: 0 };
  let pnlDebit = input.balances.get(PROFIT_AND_LOSS) ?? 0;
  for (const account of input.accounts) {
    if (isProfitAndLoss(account.Class)) pnlDebit += input.balances.get(account.Id) ?? 0;
  }
  for (const group of GROUPS) {
    const members = input.accounts.filter((a) => a.Type === group.type);
    if (members.length === 0) continue;
    let sum = 0;
    const rows: NativeReportRow[] = members.map((account) => {
      const cents = naturalCents(account.Class, input.balances.get(account.Id) ?? 0);
      sum += cents;
      return { Name: account.Name, AccountId: account.Id, Kind: 'Account', Amount: formatCents(cents), Rows: [] };
    });
    if (group.section === 'Equity') {
      const retained = input.accounts.find((a) => a.Role === 'RetainedEarnings') ?? members[0];
      const netIncome = -pnlDebit;
      sum += netIncome;
      const row: NativeReportRow = { Name: 'Net Income', Kind: 'NetIncome', Amount: formatCents(netIncome), Rows: [] };
      if (retained !== undefined) row.AccountId = retained.Id;
      rows.push(row);
    }
    sections[group.section].push({ Name: group.name, Kind: 'Group', Amount: formatCents(sum), Rows: rows });
    totals[group.section] += sum;
  }
  const root = (name: string, key: 'Assets' | 'Liabilities' | 'Equity'): NativeReportRow => ({
    Name: name,
    Kind: 'Group',
    Amount: formatCents(totals[key]),
    Rows: sections[key],
  });
  return {
    Id: input.id,
    CreatedAt: input.createdAt,
    UpdatedAt: input.updatedAt,
    PeriodStart: input.periodStart,
    PeriodEnd: input.periodEnd,
    CurrencyCode: input.currencyCode,
    Assets: root('Total Assets', 'Assets'),
    Liabilities: root('Total Liabilities', 'Liabilities'),
    Equity: root('Total Equity', 'Equity'),
    TotalAssets: formatCents(totals.Assets),
    TotalLiabilities: formatCents(totals.Liabilities),
    TotalEquity: formatCents(totals.Equity),
  };
}

/** Debit-positive balances a balance sheet was built from (P&L combined under PROFIT_AND_LOSS). */
export function balancesOfSheet(sheet: NativeBalanceSheet): Balances {
  const balances: Balances = new Map();
  const walk = (row: NativeReportRow, debitSign: 1 | -1): void => {
    if (row.Kind === 'NetIncome') addTo(balances, PROFIT_AND_LOSS, -parseCents(row.Amount));
    else if (row.Kind === 'Account' && row.AccountId !== undefined) addTo(balances, row.AccountId, debitSign * parseCents(row.Amount));
    for (const child of row.Rows) walk(child, debitSign);
  };
  walk(sheet.Assets, 1);
  walk(sheet.Liabilities, -1);
  walk(sheet.Equity, -1);
  return balances;
}

/** Month key YYYY-MM of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function monthStart(month: string): string {
  return `${month}-01`;
}

export function monthEnd(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return `${month}-${String(last).padStart(2, '0')}`;
}

export function nextMonth(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`;
}

export function balanceSheetId(month: string): string {
  return `BS-${month}`;
}

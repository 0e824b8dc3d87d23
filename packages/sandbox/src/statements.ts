/**
 * The monthly income statement and cash flow statement, built from the month's debit-positive movements per account
 * (the same postings the balance sheets are built from), so the three statements tie out:
 * - a month's net income is the change of the balance sheet's Net Income row over the month;
 * - cash is the Bank accounts; the cash flow's ending balance is their sum on that month's balance sheet, and
 *   starting + operating + investing + financing = ending (indirect method: every non-cash account moves cash by
 *   its negated debit movement, and the postings balance).
 * Each statement keeps one Account row per account, so its movements can be read back and a change re-applied.
 */
import { PROFIT_AND_LOSS, addTo, naturalCents, type Balances } from './ledger.ts';
import { formatCents, parseCents } from './money.ts';
import type { AccountType, NativeAccount, NativeCashFlow, NativeIncomeStatement, NativeReportRow } from './native.ts';

interface Period {
  id: string;
  periodStart: string;
  periodEnd: string;
  currencyCode: string;
  createdAt: string;
  updatedAt: string;
}

/** The accounts that are cash: their movements are the cash flow, not a line of it. */
export function isCash(account: Pick<NativeAccount, 'Type'>): boolean {
  return account.Type === 'Bank';
}

const isProfitAndLoss = (account: NativeAccount): boolean => account.Class === 'Revenue' || account.Class === 'Expense';

function accountRow(account: NativeAccount, cents: number): NativeReportRow {
  return { Name: account.Name, AccountId: account.Id, Kind: 'Account', Amount: formatCents(cents), Rows: [] };
}

function group(name: string, rows: NativeReportRow[]): { row: NativeReportRow; cents: number } {
  const cents = rows.reduce((sum, row) => sum + parseCents(row.Amount), 0);
  return { row: { Name: name, Kind: 'Group', Amount: formatCents(cents), Rows: rows }, cents };
}

/** Debit-positive movements of the Account rows of `root`, each shown as `sign` × debit. */
function readRows(root: NativeReportRow, sign: 1 | -1, into: Balances): void {
  if (root.Kind === 'NetIncome') addTo(into, PROFIT_AND_LOSS, -parseCents(root.Amount));
  else if (root.Kind === 'Account' && root.AccountId !== undefined) addTo(into, root.AccountId, sign * parseCents(root.Amount));
  for (const child of root.Rows) readRows(child, sign, into);
}

// ---------------------------------------------------------------------------
// Income statement
// ---------------------------------------------------------------------------

type IncomeGroup = 'Income' | 'OtherIncome' | 'CostOfSales' | 'Expenses' | 'OtherExpenses';

function incomeGroupOf(account: NativeAccount): IncomeGroup {
  if (account.Class === 'Revenue') return account.Type === 'OtherIncome' ? 'OtherIncome' : 'Income';
  if (account.Type === 'CostOfGoodsSold') return 'CostOfSales';
  return account.Type === 'OtherExpense' ? 'OtherExpenses' : 'Expenses';
}

/** One month's profit and loss from the month's debit-positive movements. */
export function buildIncomeStatement(input: Period & { accounts: readonly NativeAccount[]; movements: Balances }): NativeIncomeStatement {
  const rows: Record<IncomeGroup, NativeReportRow[]> = { Income: [], OtherIncome: [], CostOfSales: [], Expenses: [], OtherExpenses: [] };
  for (const account of input.accounts) {
    if (!isProfitAndLoss(account)) continue;
    rows[incomeGroupOf(account)].push(accountRow(account, naturalCents(account.Class, input.movements.get(account.Id) ?? 0)));
  }
  const sales = group('Operating Income', rows.Income);
  const other = group('Other Income', rows.OtherIncome);
  const cost = group('Cost of Goods Sold', rows.CostOfSales);
  const operating = group('Operating Expenses', rows.Expenses);
  const otherExpenses = group('Other Expenses', rows.OtherExpenses);
  const income = sales.cents + other.cents;
  const expenses = operating.cents + otherExpenses.cents;
  const gross = sales.cents - cost.cents;
  return {
    Id: input.id,
    CreatedAt: input.createdAt,
    UpdatedAt: input.updatedAt,
    PeriodStart: input.periodStart,
    PeriodEnd: input.periodEnd,
    CurrencyCode: input.currencyCode,
    Basis: 'Accrual',
    Income: { Name: 'Total Income', Kind: 'Group', Amount: formatCents(income), Rows: [sales.row, other.row] },
    CostOfSales: { Name: 'Total Cost of Sales', Kind: 'Group', Amount: formatCents(cost.cents), Rows: cost.row.Rows },
    Expenses: { Name: 'Total Expenses', Kind: 'Group', Amount: formatCents(expenses), Rows: [operating.row, otherExpenses.row] },
    TotalIncome: formatCents(income),
    NetSales: formatCents(sales.cents),
    TotalCostOfSales: formatCents(cost.cents),
    GrossProfit: formatCents(gross),
    TotalExpenses: formatCents(expenses),
    NetOperatingIncome: formatCents(gross - operating.cents),
    NetIncome: formatCents(income - cost.cents - expenses),
  };
}

/** The debit-positive movements an income statement was built from. */
export function movementsOfIncomeStatement(statement: NativeIncomeStatement): Balances {
  const movements: Balances = new Map();
  readRows(statement.Income, -1, movements);
  readRows(statement.CostOfSales, 1, movements);
  readRows(statement.Expenses, 1, movements);
  return movements;
}

// ---------------------------------------------------------------------------
// Cash flow statement
// ---------------------------------------------------------------------------

const INVESTING: ReadonlySet<AccountType> = new Set(['FixedAsset', 'OtherAsset']);
const FINANCING: ReadonlySet<AccountType> = new Set(['LongTermLiability', 'Equity']);

/** One month's cash flow from its debit-positive movements, the cash it started with and the gross flows of cash. */
export function buildCashFlow(
  input: Period & {
    accounts: readonly NativeAccount[];
    movements: Balances;
    startingCents: number;
    cashInCents: number;
    cashOutCents: number;
  },
): NativeCashFlow {
  let netIncome = -(input.movements.get(PROFIT_AND_LOSS) ?? 0);
  const operating: NativeReportRow[] = [];
  const investing: NativeReportRow[] = [];
  const financing: NativeReportRow[] = [];
  for (const account of input.accounts) {
    const debit = input.movements.get(account.Id) ?? 0;
    if (isProfitAndLoss(account)) netIncome -= debit;
    else if (!isCash(account)) {
      const rows = INVESTING.has(account.Type) ? investing : FINANCING.has(account.Type) ? financing : operating;
      rows.push(accountRow(account, -debit));
    }
  }
  operating.unshift({ Name: 'Net Income', Kind: 'NetIncome', Amount: formatCents(netIncome), Rows: [] });
  const op = group('Net Cash from Operating Activities', operating);
  const inv = group('Net Cash from Investing Activities', investing);
  const fin = group('Net Cash from Financing Activities', financing);
  return {
    Id: input.id,
    CreatedAt: input.createdAt,
    UpdatedAt: input.updatedAt,
    PeriodStart: input.periodStart,
    PeriodEnd: input.periodEnd,
    CurrencyCode: input.currencyCode,
    StartingBalance: formatCents(input.startingCents),
    EndingBalance: formatCents(input.startingCents + op.cents + inv.cents + fin.cents),
    Operating: op.row,
    Investing: inv.row,
    Financing: fin.row,
    TotalOperating: formatCents(op.cents),
    TotalInvesting: formatCents(inv.cents),
    TotalFinancing: formatCents(fin.cents),
    CashIn: formatCents(input.cashInCents),
    CashOut: formatCents(input.cashOutCents),
  };
}

/** The debit-positive movements a cash flow was built from (income and expenses combined under PROFIT_AND_LOSS). */
export function movementsOfCashFlow(statement: NativeCashFlow): Balances {
  const movements: Balances = new Map();
  for (const root of [statement.Operating, statement.Investing, statement.Financing]) readRows(root, -1, movements);
  return movements;
}

export function incomeStatementId(month: string): string {
  return `IS-${month}`;
}

export function cashFlowId(month: string): string {
  return `CF-${month}`;
}

/** The chart of accounts every sandbox business starts with. Ids follow the row order: ACC-000001, … */
import type { AccountClass, AccountRole, AccountType } from '../native.ts';
import { platformIdFor } from '../collections.ts';

export interface ChartRow {
  code: string;
  name: string;
  cls: AccountClass;
  type: AccountType;
  role?: AccountRole;
  parent?: string;
}

export const CHART: readonly ChartRow[] = [
  { code: '1000', name: 'Business Checking', cls: 'Asset', type: 'Bank' },
  { code: '1010', name: 'Business Savings', cls: 'Asset', type: 'Bank' },
  { code: '1020', name: 'Payroll Account', cls: 'Asset', type: 'Bank', parent: '1000' },
  { code: '1100', name: 'Accounts Receivable', cls: 'Asset', type: 'AccountsReceivable', role: 'AR' },
  { code: '1150', name: 'Undeposited Funds', cls: 'Asset', type: 'OtherCurrentAsset', role: 'UndepositedFunds' },
  { code: '1200', name: 'Inventory Asset', cls: 'Asset', type: 'OtherCurrentAsset' },
  { code: '1300', name: 'Prepaid Expenses', cls: 'Asset', type: 'OtherCurrentAsset' },
  { code: '1350', name: 'Tax Receivable', cls: 'Asset', type: 'OtherCurrentAsset', role: 'InputTax' },
  { code: '1500', name: 'Equipment', cls: 'Asset', type: 'FixedAsset' },
  { code: '1510', name: 'Vehicles', cls: 'Asset', type: 'FixedAsset' },
  { code: '1550', name: 'Accumulated Depreciation', cls: 'Asset', type: 'FixedAsset' },
  { code: '1700', name: 'Security Deposits', cls: 'Asset', type: 'OtherAsset' },
  { code: '2000', name: 'Accounts Payable', cls: 'Liability', type: 'AccountsPayable', role: 'AP' },
  { code: '2100', name: 'Company Credit Card', cls: 'Liability', type: 'CreditCard' },
  { code: '2200', name: 'Sales Tax Payable', cls: 'Liability', type: 'OtherCurrentLiability', role: 'SalesTax' },
  { code: '2300', name: 'Payroll Liabilities', cls: 'Liability', type: 'OtherCurrentLiability' },
  { code: '2400', name: 'Accrued Expenses', cls: 'Liability', type: 'OtherCurrentLiability' },
  { code: '2700', name: 'Bank Loan', cls: 'Liability', type: 'LongTermLiability' },
  { code: '3000', name: "Owner's Capital", cls: 'Equity', type: 'Equity', role: 'OwnerCapital' },
  { code: '3100', name: "Owner's Drawings", cls: 'Equity', type: 'Equity' },
  { code: '3200', name: 'Retained Earnings', cls: 'Equity', type: 'Equity', role: 'RetainedEarnings' },
  { code: '4000', name: 'Product Sales', cls: 'Revenue', type: 'Income' },
  { code: '4100', name: 'Service Revenue', cls: 'Revenue', type: 'Income' },
  { code: '4200', name: 'Shipping Income', cls: 'Revenue', type: 'Income' },
  { code: '4900', name: 'Interest Income', cls: 'Revenue', type: 'OtherIncome' },
  { code: '5000', name: 'Cost of Goods Sold', cls: 'Expense', type: 'CostOfGoodsSold' },
  { code: '5100', name: 'Freight In', cls: 'Expense', type: 'CostOfGoodsSold', parent: '5000' },
  { code: '6000', name: 'Advertising & Marketing', cls: 'Expense', type: 'Expense' },
  { code: '6100', name: 'Bank Fees', cls: 'Expense', type: 'Expense' },
  { code: '6200', name: 'Rent', cls: 'Expense', type: 'Expense' },
  { code: '6300', name: 'Utilities', cls: 'Expense', type: 'Expense' },
  { code: '6400', name: 'Office Supplies', cls: 'Expense', type: 'Expense' },
  { code: '6500', name: 'Software Subscriptions', cls: 'Expense', type: 'Expense' },
  { code: '6600', name: 'Professional Fees', cls: 'Expense', type: 'Expense' },
  { code: '6700', name: 'Travel', cls: 'Expense', type: 'Expense' },
  { code: '6800', name: 'Meals & Entertainment', cls: 'Expense', type: 'Expense' },
  { code: '6900', name: 'Wages & Salaries', cls: 'Expense', type: 'Expense' },
  { code: '6950', name: 'Payroll Taxes', cls: 'Expense', type: 'Expense', parent: '6900' },
  { code: '7000', name: 'Insurance', cls: 'Expense', type: 'Expense' },
  { code: '7100', name: 'Repairs & Maintenance', cls: 'Expense', type: 'Expense' },
  { code: '7200', name: 'Depreciation Expense', cls: 'Expense', type: 'Expense' },
  { code: '7300', name: 'Telephone & Internet', cls: 'Expense', type: 'Expense' },
  { code: '8000', name: 'Interest Expense', cls: 'Expense', type: 'OtherExpense' },
  { code: '8100', name: 'Foreign Exchange Loss', cls: 'Expense', type: 'OtherExpense' },
];

const BY_CODE = new Map(CHART.map((row, index) => [row.code, platformIdFor('ACC', index + 1)]));

/** Platform id of a chart account by its code. */
export function acc(code: string): string {
  const id = BY_CODE.get(code);
  if (id === undefined) throw new Error(`no account with code ${code} in the sandbox chart`);
  return id;
}

function roleId(role: AccountRole): string {
  const row = CHART.find((r) => r.role === role);
  if (row === undefined) throw new Error(`no ${role} account in the sandbox chart`);
  return acc(row.code);
}

/** The accounts the platform posts to by itself; fixed ids in every sandbox business. */
export const ROLES = {
  AP: roleId('AP'),
  AR: roleId('AR'),
  UndepositedFunds: roleId('UndepositedFunds'),
  InputTax: roleId('InputTax'),
  SalesTax: roleId('SalesTax'),
  OwnerCapital: roleId('OwnerCapital'),
  RetainedEarnings: roleId('RetainedEarnings'),
} as const;

export const BILL_EXPENSE_CODES = ['5000', '5100', '6000', '6200', '6300', '6400', '6500', '6600', '7000', '7100', '7300'];
export const SPEND_CODES = ['6100', '6400', '6500', '6700', '6800', '7300'];
export const INCOME_CODES = ['4000', '4100', '4200'];
export const BANK_CODES = ['1000', '1010', '1020'];

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { auditRef, statementProblems } from './audit.ts';
import { generateAll } from './generator/index.ts';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { mapRecord } from './mapping/index.ts';
import { readAll, testContext, writeContext } from './testkit.ts';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';

type Obj = Record<string, unknown>;
interface Row {
  account_id: string;
  name: string;
  value: number | string;
  items: Row[];
}

/** Generated records as a reader sees them. */
const generated = (options: Parameters<typeof generateAll>[0]): { type: UnifiedObjectType; raw: Obj }[] =>
  generateAll(options).records.map((r) => ({ type: r.type, raw: r.data }));

const cents = (value: unknown): number => Math.round(Number(value) * 100);

/** The unified objects of each type, by month of start_date (accounts by id). */
function unifiedBooks(records: readonly { type: UnifiedObjectType; raw: Obj }[]): {
  sheets: Map<string, Obj>;
  incomes: Map<string, Obj>;
  flows: Map<string, Obj>;
  accounts: Map<string, Obj>;
} {
  const of = (type: UnifiedObjectType, key: (o: Obj) => string): Map<string, Obj> =>
    new Map(
      records
        .filter((r) => r.type === type)
        .map((r) => mapRecord(type, r.raw, auditRef))
        .map((o) => [key(o), o]),
    );
  const month = (o: Obj): string => String(o.start_date).slice(0, 7);
  return {
    sheets: of('balance_sheet', month),
    incomes: of('income_statement', month),
    flows: of('cash_flow_statement', month),
    accounts: new Map(records.filter((r) => r.type === 'account').map((r) => [`account:${String(r.raw.Id)}`, mapRecord('account', r.raw, auditRef)])),
  };
}

function leaves(row: Row, keep: (row: Row) => boolean): number {
  if (row.items.length > 0) return row.items.reduce((sum, child) => sum + leaves(child, keep), 0);
  return keep(row) ? cents(row.value) : 0;
}

/** The identities, asserted directly month by month (the audit checks them too, after every write and tick). */
function expectTiedOut(books: ReturnType<typeof unifiedBooks>, minimumMonths: number): void {
  const months = [...books.sheets.keys()].sort();
  expect(months.length).toBeGreaterThanOrEqual(minimumMonths);
  expect([...books.incomes.keys()].sort()).toEqual(months);
  expect([...books.flows.keys()].sort()).toEqual(months);
  const banks = new Set([...books.accounts].filter(([, a]) => a.account_type === 'bank').map(([id]) => id));
  const netIncomeOnSheet = (month: string | undefined): number => {
    const sheet = month === undefined ? undefined : books.sheets.get(month);
    return sheet === undefined ? 0 : leaves(sheet.equity as Row, (row) => row.name === 'Net Income');
  };
  let moving = 0;
  for (const [index, month] of months.entries()) {
    const income = books.incomes.get(month) ?? {};
    const flow = books.flows.get(month) ?? {};
    const sheet = books.sheets.get(month) ?? {};
    // Net income is the month's change of the balance sheet's Net Income (current-year earnings).
    expect(cents(income.net_income), month).toBe(netIncomeOnSheet(month) - netIncomeOnSheet(months[index - 1]));
    expect(cents(income.total_income) - cents(income.total_cost_of_sales) - cents(income.total_expenses)).toBe(cents(income.net_income));
    // The cash flow ends at the bank accounts of the month's balance sheet, and its activities explain the change.
    expect(cents(flow.ending_balance), month).toBe(leaves(sheet.assets as Row, (row) => banks.has(row.account_id)));
    expect(cents(flow.starting_balance) + cents(flow.total_operating) + cents(flow.total_investing) + cents(flow.total_financing)).toBe(
      cents(flow.ending_balance),
    );
    if (index > 0) expect(cents(flow.starting_balance), month).toBe(cents(books.flows.get(months[index - 1] ?? '')?.ending_balance));
    moving += Math.abs(cents(income.net_income)) + Math.abs(cents(flow.total_operating));
  }
  // Not vacuous: the business earns and spends.
  expect(moving).toBeGreaterThan(0);
}

describe('sandbox income statements and cash flows', () => {
  it('tie out with the balance sheets every month, for several seeds', () => {
    for (const seed of [1, 7, 42]) {
      const books = unifiedBooks(generated({ seed, size: 1_500, asOf: '2025-06-15', months: 12 }));
      expectTiedOut(books, 12);
      expect(statementProblems(books.sheets, books.incomes, books.flows, books.accounts)).toEqual([]);
    }
  });

  it('are what the audit checks: a statement that does not tie out is reported', () => {
    const books = unifiedBooks(generated({ seed: 3, size: 800, asOf: '2025-06-15', months: 6 }));
    const month = [...books.flows.keys()].sort()[2] ?? '';
    const flow = books.flows.get(month) ?? {};
    books.flows.set(month, { ...flow, ending_balance: Number(flow.ending_balance) + 1 });
    const income = books.incomes.get(month) ?? {};
    books.incomes.set(month, { ...income, net_income: Number(income.net_income) + 1 });
    const problems = statementProblems(books.sheets, books.incomes, books.flows, books.accounts);
    expect(problems.some((p) => p.includes("the balance sheet's bank accounts hold"))).toBe(true);
    expect(problems.some((p) => p.includes('starting + operating + investing + financing != ending'))).toBe(true);
    expect(problems.some((p) => p.includes("the balance sheet's Net Income moved"))).toBe(true);
  });
});

describe('sandbox statements after writes and ticks (PostgreSQL)', () => {
  let db: TestDatabase;
  let platform: SandboxPlatform;
  beforeAll(async () => {
    db = await createTestDatabase();
    platform = new SandboxPlatform(db.pool, { asOf: '2025-06-15', tickIntervalMs: 0, now: () => Date.parse('2025-06-16T09:00:00Z') });
  });
  afterAll(async () => {
    await db.close();
  });

  it('still tie out when a back-dated write moves cash and income of an old month, and when days pass', async () => {
    const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
    const ctx = testContext({ basic_username: 'user_statements_size_1500', basic_password: 'pass_good' });
    const before = unifiedBooks((await readAll(connector, ctx)).records);
    const month = [...before.incomes.keys()].sort()[3] ?? '';
    const journals = connector.objects.journal_entry?.handler;
    if (journals?.create === undefined) throw new Error('journal entries are writable on SANDBOX');
    // Interest earned straight into the checking account, four months back: income and cash of that month move,
    // and every later cash flow starts higher.
    await journals.create(writeContext(ctx, 'statements-1'), {
      transaction_date: `${month}-10T00:00:00Z`,
      currency_code: 'USD',
      memo: 'Interest',
      line_items: [
        { account_id: 'account:ACC-000001', total_amount: 123.45, description: 'Interest received' },
        { account_id: 'account:ACC-000025', total_amount: -123.45, description: 'Interest income' },
      ],
    });
    const after = unifiedBooks((await readAll(connector, ctx)).records);
    expectTiedOut(after, 12);
    expect(cents(after.incomes.get(month)?.net_income) - cents(before.incomes.get(month)?.net_income)).toBe(12_345);
    expect(cents(after.flows.get(month)?.ending_balance) - cents(before.flows.get(month)?.ending_balance)).toBe(12_345);
    const later = [...after.flows.keys()].sort().at(-1) ?? '';
    expect(cents(after.flows.get(later)?.starting_balance) - cents(before.flows.get(later)?.starting_balance)).toBe(12_345);

    await platform.advance('user_statements_size_1500', 30);
    expectTiedOut(unifiedBooks((await readAll(connector, ctx)).records), 13);
  });
});

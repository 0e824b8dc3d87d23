/**
 * Checks that a set of sandbox books adds up, on the unified objects users see:
 * document totals, amount due against allocations (both sides of each link),
 * balanced journals, balance sheets, deposits, sales receipts and customer refunds, the web shop's payouts
 * (audit-payouts.ts), ledger against balance sheet,
 * exchange rates against the currencies and documents (audit-rates.ts),
 * that every link points at an existing record, and that sales orders post
 * nothing and carry the lines of the invoices made from them; and, on the
 * platform's own records, that each account's balance is what the documents
 * post to it. Returns the problems found; the tests expect none, after
 * generation, after ticks and after writes.
 */
import { MODEL, collectLinks } from '../../../src/model/index.ts';
import { UNIFIED_OBJECT_TYPES, type UnifiedObjectType } from '../../../src/model/object-types.ts';
import { isPostingType, postingsOf } from './books.ts';
import { chargeProblems, payoutProblems } from './audit-payouts.ts';
import { exchangeRateProblems } from './audit-rates.ts';
import { ROLES, acc } from './generator/chart.ts';
import { naturalCents } from './ledger.ts';
import { mapRecord } from './mapping/index.ts';
import { parseCents } from './money.ts';
import type { AccountClass, NativeRecord } from './native.ts';

export interface AuditInput {
  type: UnifiedObjectType;
  raw: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
type Alloc = { id: string; allocated_amount: number };

const cents = (value: unknown): number => Math.round(Number(value) * 100);
const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const arr = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);
const allocs = (value: unknown): Alloc[] => arr(value) as Alloc[];

/** The objects that carry a currency_rate. */
const RATED: readonly UnifiedObjectType[] = [
  'bill',
  'bill_credit_memo',
  'bill_payment',
  'invoice',
  'invoice_credit_memo',
  'invoice_payment',
  'journal_entry',
  'expense',
  'purchase_order',
];

/** Service ids in audits are "<type>:<platform id>", so a link names its target. */
export const auditRef = (type: UnifiedObjectType, id: string | number | null | undefined): string | null =>
  id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`;

export function auditBooks(input: readonly AuditInput[]): string[] {
  const problems: string[] = [];
  const byType = new Map<UnifiedObjectType, Map<string, Obj>>();
  for (const type of UNIFIED_OBJECT_TYPES) byType.set(type, new Map());
  // Which invoices each sales order became: the platform keeps it, the unified order (as the reference's) does not.
  const invoicedAs = new Map<string, unknown>();
  const listed = new Map<string, string>();
  const postedBy = new Map<string, string>();
  for (const { type, raw } of input) {
    const id = typeof raw.Id === 'string' ? raw.Id : '';
    byType.get(type)?.set(`${type}:${id}`, mapRecord(type, raw, auditRef));
    if (type === 'sales_order') invoicedAs.set(`${type}:${id}`, raw.InvoiceIds);
    if (type === 'payout' && typeof raw.JournalEntryId === 'string') postedBy.set(`${type}:${id}`, `journal_entry:${raw.JournalEntryId}`);
    if (type === 'currency' && typeof raw.ExchangeRate === 'string') listed.set(id, raw.ExchangeRate);
  }
  const all = (type: UnifiedObjectType): Map<string, Obj> => byType.get(type) ?? new Map<string, Obj>();

  for (const type of UNIFIED_OBJECT_TYPES) {
    for (const [id, obj] of all(type)) {
      for (const found of collectLinks(MODEL[type].links, obj)) {
        const target = found.id.slice(0, found.id.indexOf(':'));
        if (!found.targets.some((t) => t === target) || !all(target as UnifiedObjectType).has(found.id)) {
          problems.push(`${id}: ${found.path} points at missing ${found.id}`);
        }
      }
    }
  }
  checkPayables(problems, all('bill'), all('bill_payment'), all('bill_credit_memo'), 'linked_bills');
  checkPayables(problems, all('invoice'), all('invoice_payment'), all('invoice_credit_memo'), 'linked_invoices');
  for (const [id, je] of all('journal_entry')) {
    const lines = arr(je.line_items);
    if (lines.length < 2) problems.push(`${id}: fewer than two lines`);
    const total = sum(lines.map((l) => cents(l.total_amount)));
    if (total !== 0) problems.push(`${id}: lines sum to ${total / 100}, not 0`);
  }
  for (const [id, deposit] of all('bank_deposit')) {
    const linked = arr(deposit.linked_payments);
    for (const p of linked) {
      const payment = all('invoice_payment').get(String(p.id));
      if (payment !== undefined && cents(payment.total_amount) !== cents(p.payment_amount))
        problems.push(`${id}: deposits ${String(p.id)} with another amount`);
    }
    const total = sum(linked.map((p) => cents(p.payment_amount))) + sum(arr(deposit.line_items).map((l) => cents(l.total_amount)));
    if (total !== cents(deposit.total_amount)) problems.push(`${id}: total ${String(deposit.total_amount)} is not payments + lines ${total / 100}`);
  }
  checkSalesReceipts(problems, all('sales_receipt'), all('account'));
  checkCustomerRefunds(problems, all('customer_refund'), all('account'));
  problems.push(
    ...payoutProblems({
      payouts: all('payout'),
      orders: all('order'),
      journals: all('journal_entry'),
      postedBy,
      checking: `account:${acc('1000')}`,
      transactions: all('transaction'),
    }),
    ...chargeProblems(all('order'), all('transaction')),
  );
  checkLedger(problems, input);
  checkBalanceSheets(problems, all('balance_sheet'), all('account'));
  problems.push(...statementProblems(all('balance_sheet'), all('income_statement'), all('cash_flow_statement'), all('account')));
  checkEmployees(problems, all('employee'));
  checkSalesOrders(problems, all('sales_order'), invoicedAs, all('invoice'));
  const home = [...all('company_info').values()][0]?.currency_code;
  problems.push(
    ...exchangeRateProblems({
      home: typeof home === 'string' ? home : null,
      currencies: all('currency'),
      listed,
      rates: all('exchange_rate'),
      documents: new Map(RATED.flatMap((type) => [...all(type)])),
    }),
  );
  return problems;
}

/** What an order line and an invoice line have in common: the order line's fields. */
const orderedLine = (line: Obj): string => {
  const item = line.item as Obj | null;
  return JSON.stringify([
    line.platform_id,
    line.tax_rate_id,
    line.description,
    cents(line.total_amount),
    item === null ? null : [item.id, item.quantity, cents(item.unit_amount)],
  ]);
};

/**
 * Orders move no money, so nothing of them reaches the ledger; an order is closed exactly when it was invoiced, and
 * its invoices are its customer's, dated on or after it, with the order's lines and total.
 */
function checkSalesOrders(problems: string[], orders: Map<string, Obj>, invoicedAs: Map<string, unknown>, invoices: Map<string, Obj>): void {
  if (orders.size > 0 && isPostingType('sales_order')) problems.push('sales orders post to the ledger');
  for (const [id, order] of orders) {
    const invoiceIds = invoicedAs.get(id);
    const named = Array.isArray(invoiceIds) ? invoiceIds.map(String) : [];
    if ((order.status === 'closed') !== named.length > 0)
      problems.push(`${id}: status ${String(order.status)} but invoiced as [${named.join(', ')}]`);
    if (sum(arr(order.line_items).map((l) => cents(l.total_amount))) !== cents(order.total_amount))
      problems.push(`${id}: line totals do not add up to total_amount`);
    if (named.length === 0) continue;
    const made = named.map((invoiceId) => invoices.get(`invoice:${invoiceId}`));
    const missing = named.filter((_invoiceId, n) => made[n] === undefined);
    if (missing.length > 0) {
      problems.push(`${id}: invoiced as missing ${missing.map((m) => `invoice:${m}`).join(', ')}`);
      continue;
    }
    const found = made.filter((invoice) => invoice !== undefined);
    for (const invoice of found) {
      if (invoice.customer_id !== order.customer_id)
        problems.push(`${id}: invoiced to ${String(invoice.customer_id)}, ordered by ${String(order.customer_id)}`);
      if (String(invoice.issue_date) < String(order.issue_date))
        problems.push(`${id}: invoiced on ${String(invoice.issue_date)}, before it was ordered`);
    }
    const invoiced = found.flatMap((invoice) => arr(invoice.line_items).map(orderedLine));
    if (JSON.stringify(invoiced) !== JSON.stringify(arr(order.line_items).map(orderedLine)))
      problems.push(`${id}: its lines are not those of its invoices`);
    if (sum(found.map((invoice) => cents(invoice.total_amount))) !== cents(order.total_amount))
      problems.push(`${id}: total ${String(order.total_amount)} is not its invoices'`);
  }
}

/**
 * Cash sales: the total is the lines', the discount and tax theirs too, nothing is due, and what they post goes from
 * income (and sales tax) into an asset account the money was deposited to.
 */
function checkSalesReceipts(problems: string[], receipts: Map<string, Obj>, accounts: Map<string, Obj>): void {
  for (const [id, receipt] of receipts) {
    const lines = arr(receipt.line_items);
    const extra = (receipt.additional_fields ?? {}) as Obj;
    if (sum(lines.map((l) => cents(l.total_amount))) !== cents(receipt.total_amount))
      problems.push(`${id}: line totals do not add up to total_amount`);
    if (sum(lines.map((l) => cents(l.discount_amount))) !== cents(receipt.discount_amount))
      problems.push(`${id}: line discounts do not add up to discount_amount`);
    if (sum(lines.map((l) => cents(l.tax_amount))) !== cents(extra.tax_amount)) problems.push(`${id}: line taxes do not add up to tax_amount`);
    if (cents(receipt.amount_due) !== 0) problems.push(`${id}: a sales receipt with ${String(receipt.amount_due)} due`);
    const deposit = accounts.get(String(receipt.account_id));
    if (deposit !== undefined && deposit.category !== 'asset')
      problems.push(`${id}: deposited to ${String(receipt.account_id)}, which is no asset account`);
    for (const line of lines) {
      const income = accounts.get(String(line.account_id));
      if (income !== undefined && income.category !== 'income')
        problems.push(`${id}: a line sells into ${String(line.account_id)}, which is no income account`);
    }
  }
}

/**
 * Refunds: the total is the lines', the tax theirs too, and what they post goes back out of income (and sales tax)
 * and out of an asset account the money was paid from.
 */
function checkCustomerRefunds(problems: string[], refunds: Map<string, Obj>, accounts: Map<string, Obj>): void {
  for (const [id, refund] of refunds) {
    const lines = arr(refund.line_items);
    if (sum(lines.map((l) => cents(l.total_amount))) !== cents(refund.total_amount))
      problems.push(`${id}: line totals do not add up to total_amount`);
    if (cents(refund.total_amount) <= 0) problems.push(`${id}: refunds ${String(refund.total_amount)}`);
    const paidFrom = accounts.get(String(refund.account_id));
    if (paidFrom !== undefined && paidFrom.category !== 'asset')
      problems.push(`${id}: paid from ${String(refund.account_id)}, which is no asset account`);
    for (const line of lines) {
      const income = accounts.get(String(line.account_id));
      if (income !== undefined && income.category !== 'income')
        problems.push(`${id}: a line refunds out of ${String(line.account_id)}, which is no income account`);
    }
  }
}

/**
 * The ledger: every account's balance is the sum of what the platform's documents post to it (receipts, bills,
 * payments, journals, …), so no document's posting is missing from the books or counted twice. Needs the whole
 * books: skipped when the input has no accounts.
 */
function checkLedger(problems: string[], input: readonly AuditInput[]): void {
  const accounts = input.filter((r) => r.type === 'account').map((r) => r.raw);
  if (accounts.length === 0) return;
  const posted = new Map<string, number>();
  for (const { type, raw } of input) {
    if (!isPostingType(type)) continue;
    // The sandbox's own records, as it serves them: each has its Id.
    for (const posting of postingsOf(type, raw as NativeRecord, ROLES)) {
      posted.set(posting.accountId, (posted.get(posting.accountId) ?? 0) + posting.cents);
    }
  }
  for (const account of accounts) {
    const id = String(account.Id);
    const expected = naturalCents(account.Class as AccountClass, posted.get(id) ?? 0);
    if (parseCents(String(account.Balance)) !== expected)
      problems.push(`account:${id}: balance ${String(account.Balance)} but its postings come to ${expected / 100}`);
  }
}

/** People: terminated exactly when they have a termination date after their hire, and a chain of managers that ends. */
function checkEmployees(problems: string[], employees: Map<string, Obj>): void {
  for (const [id, employee] of employees) {
    const ended = employee.termination_date;
    if ((employee.status === 'terminated') !== (typeof ended === 'string'))
      problems.push(`${id}: status ${String(employee.status)} with termination_date ${String(ended)}`);
    if (typeof ended === 'string' && typeof employee.hire_date === 'string' && ended < employee.hire_date)
      problems.push(`${id}: terminated before being hired`);
    const seen = new Set<string>([id]);
    for (let manager = employee.manager_id; typeof manager === 'string'; manager = employees.get(manager)?.manager_id) {
      if (seen.has(manager)) {
        problems.push(`${id}: its managers form a loop`);
        break;
      }
      seen.add(manager);
    }
  }
}

function checkDocument(problems: string[], id: string, doc: Obj, payments: Alloc[], credits: Alloc[]): void {
  const lines = arr(doc.line_items);
  const sub = cents(doc.sub_total);
  const total = cents(doc.total_amount);
  if (sum(lines.map((l) => cents(l.sub_total))) !== sub) problems.push(`${id}: line sub_totals do not add up to sub_total`);
  if (sum(lines.map((l) => cents(l.total_amount))) !== total) problems.push(`${id}: line totals do not add up to total_amount`);
  if (sub + cents(doc.tax_amount) - cents(doc.total_discount) !== total) problems.push(`${id}: sub_total + tax - discount != total`);
  const allocated = sum(payments.map((p) => cents(p.allocated_amount))) + sum(credits.map((c) => cents(c.allocated_amount)));
  const due = cents(doc.amount_due);
  if (doc.status === 'void') {
    if (due !== 0 || allocated !== 0) problems.push(`${id}: void but amount_due ${due / 100}, allocations ${allocated / 100}`);
    return;
  }
  if (due !== total - allocated) problems.push(`${id}: amount_due ${due / 100} != total ${total / 100} - allocations ${allocated / 100}`);
  const expected = doc.status === 'draft' ? 'draft' : due === 0 ? 'paid' : due < total ? 'partially_paid' : 'open';
  if (doc.status !== expected) problems.push(`${id}: status ${String(doc.status)} but expected ${expected}`);
}

/** Bills (or invoices) against their payments and credits, from both sides. */
function checkPayables(problems: string[], docs: Map<string, Obj>, payments: Map<string, Obj>, credits: Map<string, Obj>, back: string): void {
  for (const [id, doc] of docs) {
    const paid = allocs(doc.linked_payments);
    const credited = allocs(doc.linked_credit_memos);
    checkDocument(problems, id, doc, paid, credited);
    for (const [list, others] of [
      [paid, payments],
      [credited, credits],
    ] as const) {
      for (const a of list) {
        const other = others.get(a.id);
        const mirror = allocs(other?.[back]).find((x) => x.id === id);
        if (other === undefined || other.status === 'void' || mirror === undefined || cents(mirror.allocated_amount) !== cents(a.allocated_amount)) {
          problems.push(`${id}: allocation from ${a.id} has no matching entry on it`);
        }
      }
    }
  }
  for (const [id, payment] of payments) {
    const linked = allocs(payment[back]);
    if (sum(linked.map((a) => cents(a.allocated_amount))) !== cents(payment.total_amount))
      problems.push(`${id}: total is not the sum of its allocations`);
    if (payment.status === 'void') continue;
    for (const a of linked) {
      if (!allocs(docs.get(a.id)?.linked_payments).some((x) => x.id === id)) problems.push(`${id}: ${a.id} does not list this payment`);
    }
  }
  for (const [id, credit] of credits) {
    const linked = allocs(credit[back]);
    const used = sum(linked.map((a) => cents(a.allocated_amount)));
    if (credit.status !== 'void' && cents(credit.remaining_amount) !== cents(credit.total_amount) - used)
      problems.push(`${id}: remaining_amount is not total - applications`);
    for (const a of linked) {
      if (!allocs(docs.get(a.id)?.linked_credit_memos).some((x) => x.id === id)) problems.push(`${id}: ${a.id} does not list this credit`);
    }
  }
}

interface TreeNode {
  account_id: string;
  name: string;
  value: string;
  items: TreeNode[];
}

function checkNode(problems: string[], where: string, node: TreeNode, leaves: Map<string, number>): void {
  if (!/^-?\d+(\.\d+)?$/.test(node.value)) problems.push(`${where}: value ${node.value} is not numeric text`);
  if (node.items.length > 0) {
    if (sum(node.items.map((n) => cents(n.value))) !== cents(node.value)) problems.push(`${where}/${node.name}: children do not add up`);
    for (const child of node.items) checkNode(problems, `${where}/${node.name}`, child, leaves);
  } else if (node.account_id !== '' && node.name !== 'Net Income') {
    leaves.set(node.account_id, cents(node.value));
  }
}

function checkBalanceSheets(problems: string[], sheets: Map<string, Obj>, accounts: Map<string, Obj>): void {
  let latest: [string, Map<string, number>, Obj] | null = null;
  for (const [id, sheet] of sheets) {
    const assets = cents(sheet.total_assets);
    if (assets !== cents(sheet.total_liabilities) + cents(sheet.total_equity)) problems.push(`${id}: assets != liabilities + equity`);
    const leaves = new Map<string, number>();
    for (const part of ['assets', 'liabilities', 'equity'] as const) checkNode(problems, id, sheet[part] as TreeNode, leaves);
    const end = String(sheet.end_date);
    if (latest === null || end > String(latest[2].end_date)) latest = [id, leaves, sheet];
  }
  if (latest === null) return;
  // The newest sheet shows the same balances as the chart of accounts.
  const [id, leaves] = latest;
  for (const [accountId, value] of leaves) {
    const account = accounts.get(accountId);
    if (account !== undefined && cents(account.balance) !== value)
      problems.push(`${id}: ${accountId} shows ${value / 100}, account balance is ${String(account.balance)}`);
  }
}

interface NumberNode {
  account_id: string;
  name: string;
  value: number;
  items: NumberNode[];
}

function checkNumberTree(problems: string[], where: string, node: NumberNode): void {
  if (node.items.length === 0) return;
  if (sum(node.items.map((n) => cents(n.value))) !== cents(node.value)) problems.push(`${where}/${node.name}: children do not add up`);
  for (const child of node.items) checkNumberTree(problems, `${where}/${node.name}`, child);
}

function byMonth(objects: Map<string, Obj>): Map<string, Obj> {
  return new Map([...objects.values()].map((o) => [String(o.start_date).slice(0, 7), o]));
}

/** Cents of the leaves of `node` that stand for one of `accounts` (and of Net Income rows for NET_INCOME). */
function leafCents(node: TreeNode, accounts: ReadonlySet<string>): number {
  if (node.items.length > 0) return sum(node.items.map((n) => leafCents(n, accounts)));
  return accounts.has(node.name === 'Net Income' ? NET_INCOME : node.account_id) ? cents(node.value) : 0;
}

const NET_INCOME = '\u0000net income';

/**
 * The statements tie out with the balance sheets, month by month: net income is the change of the balance sheet's
 * Net Income over the month; the cash flow starts where the last one ended, moves by its three activities, and ends
 * at the Bank accounts' balance on the month's balance sheet. Exported for the statements' own tests.
 */
export function statementProblems(
  sheets: Map<string, Obj>,
  incomes: Map<string, Obj>,
  flows: Map<string, Obj>,
  accounts: Map<string, Obj>,
): string[] {
  const problems: string[] = [];
  const sheetOf = byMonth(sheets);
  const cash = new Set([...accounts].filter(([, a]) => a.account_type === 'bank').map(([id]) => id));
  const netIncomeOf = (month: string): number => {
    const sheet = sheetOf.get(month);
    return sheet === undefined ? 0 : leafCents(sheet.equity as TreeNode, new Set([NET_INCOME]));
  };
  const months = [...sheetOf.keys()].sort();
  const previous = (month: string): string | undefined => months[months.indexOf(month) - 1];
  for (const [month, statement] of byMonth(incomes)) {
    const id = String(statement.id);
    for (const part of ['income', 'expenses', 'cost_of_sales'] as const) checkNumberTree(problems, id, statement[part] as NumberNode);
    const income = cents(statement.total_income);
    const net = cents(statement.net_income);
    if (income - cents(statement.total_cost_of_sales) - cents(statement.total_expenses) !== net)
      problems.push(`${id}: income - cost of sales - expenses != net income`);
    for (const [field, part] of [
      ['total_income', 'income'],
      ['total_expenses', 'expenses'],
      ['total_cost_of_sales', 'cost_of_sales'],
    ] as const) {
      if (cents((statement[part] as NumberNode).value) !== cents(statement[field])) problems.push(`${id}: ${field} is not the ${part} tree's value`);
    }
    const before = previous(month);
    const change = netIncomeOf(month) - (before === undefined ? 0 : netIncomeOf(before));
    if (sheetOf.has(month) && change !== net)
      problems.push(`${id}: net income ${net / 100} but the balance sheet's Net Income moved ${change / 100}`);
  }
  let lastEnding: number | null = null;
  for (const [month, flow] of [...byMonth(flows)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const id = String(flow.id);
    for (const part of ['operating_activities', 'investing_activities', 'financing_activities'] as const)
      checkNumberTree(problems, id, flow[part] as NumberNode);
    const starting = cents(flow.starting_balance);
    const ending = cents(flow.ending_balance);
    if (starting + cents(flow.total_operating) + cents(flow.total_investing) + cents(flow.total_financing) !== ending)
      problems.push(`${id}: starting + operating + investing + financing != ending`);
    if (cents(flow.gross_cash_in_flow) - cents(flow.gross_cash_out_flow) !== ending - starting)
      problems.push(`${id}: cash in - cash out != ending - starting`);
    if (lastEnding !== null && starting !== lastEnding)
      problems.push(`${id}: starts at ${starting / 100}, the month before ended at ${lastEnding / 100}`);
    lastEnding = ending;
    const sheet = sheetOf.get(month);
    if (sheet !== undefined && leafCents(sheet.assets as TreeNode, cash) !== ending)
      problems.push(`${id}: ends at ${ending / 100}, the balance sheet's bank accounts hold ${leafCents(sheet.assets as TreeNode, cash) / 100}`);
  }
  return problems;
}

/**
 * The book generator: a deterministic, streaming history of one small business.
 * Same seed, size and asOf → the same records, byte for byte. Records come out
 * in batches so a million of them never sit in memory at once; then the cash
 * sales (generator/sales-receipts.ts), the web shop's store and payouts
 * (generator/payouts.ts); accounts, balance sheets and bank feed
 * accounts come next, carrying the balances the transactions produced, then the
 * employees (generator/employees.ts), the sales orders (generator/sales-orders.ts)
 * the exchange rates (generator/exchange-rates.ts), the payment methods (generator/payment-methods.ts), the tax
 * areas (generator/tax-areas.ts) and the web shop's customer groups last (generator/customer-groups.ts).
 */
import { ROLES } from './chart.ts';
import { Emitter, type GeneratedRecord } from './emitter.ts';
import { generateEmployees } from './employees.ts';
import { generateExchangeRates } from './exchange-rates.ts';
import { generateReference, paletteOf, type Reference } from './reference.ts';
import { documentAttachments, journalUnit, openingEntry } from './journals.ts';
import { orderUnit } from './orders.ts';
import { generateSalesOrders, InvoicedOrders } from './sales-orders.ts';
import { generatePayouts, generateStore, ShopCharges } from './payouts.ts';
import { generateShop, ShopOrders } from './shop.ts';
import { generatePaymentMethods } from './payment-methods.ts';
import { generateTaxAreas } from './tax-areas.ts';
import { generateCustomerGroups } from './customer-groups.ts';
import { generateSalesReceipts } from './sales-receipts.ts';
import { generateCustomerRefunds } from './customer-refunds.ts';
import {
  billUnit,
  depositPending,
  expenseUnit,
  invoiceUnit,
  otherDepositUnit,
  purchaseOrderUnit,
  transferUnit,
  type GenState,
} from './transactions.ts';
import { stamp, monthsBefore } from '../dates.ts';
import type { Palette } from '../documents.ts';
import { addTo, balanceSheetId, buildBalanceSheet, monthEnd, monthOf, monthStart, naturalCents, nextMonth, type Balances } from '../ledger.ts';
import { formatCents } from '../money.ts';
import { buildCashFlow, buildIncomeStatement, cashFlowId, incomeStatementId, isCash } from '../statements.ts';
import type { NativeFeedAccount } from '../native.ts';
import { Rng, deriveSeed } from '../prng.ts';

export type { GeneratedRecord } from './emitter.ts';

export interface GenerateOptions {
  seed: number;
  /** Approximate number of records. */
  size: number;
  /** Last business day of the history (YYYY-MM-DD). */
  asOf: string;
  /**
   * The moment the books are made (ms since epoch). Nothing is stamped after it: a business day of asOf that is not
   * over yet has had, as far as the books say, only what happened by then (see Emitter's `latest`). Omitted: the books
   * are of days already over.
   */
  madeAt?: number;
  /** Months of history, ending with the month of asOf. */
  months?: number;
  /** Records per batch handed out. */
  batchSize?: number;
}

export interface GenerationSummary {
  /** Last number used per id prefix, so later records continue the sequences. */
  counters: Record<string, number>;
  palette: Palette;
  vendors: number;
  customers: number;
  total: number;
}

type Unit = (s: GenState, from: string, to: string) => void;

/** Share of the transaction budget per family of documents (payments, credits and deposits included). */
const FAMILIES: readonly (readonly [Unit, number])[] = [
  [billUnit, 0.28],
  [invoiceUnit, 0.25],
  [journalUnit, 0.1],
  [expenseUnit, 0.09],
  [transferUnit, 0.02],
  [purchaseOrderUnit, 0.03],
  [orderUnit, 0.14],
  [otherDepositUnit, 0.005],
];
const FIXED_RECORDS = 110;

export class BookGenerator {
  readonly options: Required<Omit<GenerateOptions, 'madeAt'>> & Pick<GenerateOptions, 'madeAt'>;
  summary: GenerationSummary | null = null;

  constructor(options: GenerateOptions) {
    this.options = { months: 24, batchSize: 2_000, ...options };
  }

  *batches(): Generator<GeneratedRecord[]> {
    const { seed, size, asOf, months, batchSize, madeAt } = this.options;
    const rng = new Rng(seed);
    const out = new Emitter(
      {
        AP: ROLES.AP,
        AR: ROLES.AR,
        UndepositedFunds: ROLES.UndepositedFunds,
        InputTax: ROLES.InputTax,
        SalesTax: ROLES.SalesTax,
      },
      latestStamp(asOf, madeAt),
    );
    const start = monthsBefore(asOf, months - 1);
    const budget = Math.max(0, size - FIXED_RECORDS);
    const projects = clamp(Math.round(budget * 0.002), 2, 3_000);
    const counts = {
      vendors: Math.max(5, Math.round(budget * 0.02)),
      customers: Math.max(8, Math.round(budget * 0.03)),
      items: clamp(Math.round(budget * 0.004), 5, 5_000),
      projects,
    };
    const ref = generateReference(rng, out, start, counts);
    const palette = paletteOf(ref);
    yield out.take();

    const s: GenState = { rng, out, ref, palette, asOf, undeposited: [] };
    const files = { documents: new Rng(deriveSeed(seed, 'document-files')), banking: new Rng(deriveSeed(seed, 'banking-files')) };
    const invoiced = new InvoicedOrders(seed, size);
    const shop = new ShopCharges();
    const shopOrders = new ShopOrders();
    const transactions = Math.max(0, budget - out.total());
    const shareSum = FAMILIES.reduce((sum, [, share]) => sum + share, 0);
    const made = FAMILIES.map(() => 0);
    const monthList: string[] = [];
    for (let m = monthOf(start); m <= monthOf(asOf); m = nextMonth(m)) monthList.push(m);

    for (const [index, month] of monthList.entries()) {
      const from = monthStart(month);
      const to = monthEnd(month);
      if (index === 0) openingEntry(s, from);
      for (const [f, [unit, share]] of FAMILIES.entries()) {
        const target = Math.round((transactions * share * (index + 1)) / (shareSum * monthList.length));
        while ((made[f] ?? 0) < target) {
          const before = out.total() + s.undeposited.length;
          const mark = out.buffer.length;
          unit(s, from, to);
          made[f] = (made[f] ?? 0) + Math.max(1, out.total() + s.undeposited.length - before);
          const fresh = out.buffer.slice(mark);
          documentAttachments(s, files, fresh);
          invoiced.observe(fresh);
          shop.observe(fresh);
          shopOrders.observe(fresh);
          if (out.buffer.length >= batchSize) yield out.take();
        }
      }
      const mark = out.buffer.length;
      depositPending(s, to, index === monthList.length - 1);
      documentAttachments(s, files, out.buffer.slice(mark));
      if (out.buffer.length >= batchSize) yield out.take();
    }
    yield out.take();
    // From a generator of their own, after every transaction: the records before them are those of books without
    // them. Before the closing, whose balances, balance sheets and statements take in what they post.
    const receipts = generateSalesReceipts(seed, size, out, palette, ref.customers, monthStart(monthOf(start)), asOf);
    generateCustomerRefunds(seed, size, out, receipts, asOf);
    yield out.take();
    // The web shop and its gateway's payouts of the orders above, each arrived one posted to the books (so before
    // the closing too). Drawn from no random source: the orders decide them.
    const store = generateStore(out, ref);
    const payouts = generatePayouts(out, ref, shop, asOf);
    // The shop's catalogue, buyers and gateway balance history, drawn from its orders and payouts alone (no ledger
    // records, no ids drawn: the closing and everything after are what they were without them).
    generateShop(out, palette.items, shopOrders, payouts, store.CreatedAt);
    yield out.take();
    yield* this.#closing(out, ref, monthList);
    // Last, from generators of their own, each after the one before: every record before them is what it was before
    // employees, sales orders and exchange rates existed.
    generateEmployees(seed, size, out, ref, asOf);
    yield out.take();
    // The orders of some of the invoices above, and a few still open.
    generateSalesOrders(seed, size, out, ref, palette, asOf, invoiced);
    generateExchangeRates(seed, out, ref.currency, start, asOf);
    yield out.take();
    // The payment methods, from no random source: every record before them is what it was before they existed.
    generatePaymentMethods(out, start);
    yield out.take();
    // The tax areas, from the business's places alone: nothing before them changes.
    generateTaxAreas(out, ref.profile, start);
    yield out.take();
    // The shop's customer groups, from its orders alone: nothing before them changes.
    generateCustomerGroups(out, shopOrders, start);
    yield out.take();
    this.summary = {
      counters: Object.fromEntries(out.counters),
      palette,
      vendors: ref.vendors.length,
      customers: ref.customers.length,
      total: out.total(),
    };
  }

  /** Accounts with their balances, one balance sheet, income statement and cash flow per month, and the bank feeds. */
  *#closing(out: Emitter, ref: Reference, monthList: readonly string[]): Generator<GeneratedRecord[]> {
    const { asOf } = this.options;
    const cumulative: Balances = new Map();
    const closedAt = stamp(asOf, 82_800);
    const cash = ref.accounts.filter(isCash).map((a) => a.Id);
    const cashOf = (balances: Balances | undefined): number => cash.reduce((sum, id) => sum + (balances?.get(id) ?? 0), 0);
    for (const month of monthList) {
      const movements = out.monthly.get(month) ?? new Map<string, number>();
      const startingCents = cashOf(cumulative);
      for (const [account, cents] of movements) addTo(cumulative, account, cents);
      const end = monthEnd(month);
      const at = end < asOf ? stamp(end, 86_000) : closedAt;
      const period = {
        periodStart: monthStart(month),
        periodEnd: end,
        currencyCode: ref.currency,
        createdAt: at,
        updatedAt: at,
        accounts: ref.accounts,
      };
      out.push('balance_sheet', buildBalanceSheet({ id: balanceSheetId(month), ...period, balances: cumulative }));
      out.push('income_statement', buildIncomeStatement({ id: incomeStatementId(month), ...period, movements }));
      const cashIn = cashOf(out.monthlyDebits.get(month));
      out.push(
        'cash_flow_statement',
        buildCashFlow({
          id: cashFlowId(month),
          ...period,
          movements,
          startingCents,
          cashInCents: cashIn,
          cashOutCents: cashIn - cashOf(movements),
        }),
      );
    }
    for (const account of ref.accounts) {
      account.Balance = formatCents(naturalCents(account.Class, cumulative.get(account.Id) ?? 0));
      account.UpdatedAt = closedAt;
      out.push('account', account);
    }
    for (const feed of feedAccounts(out, ref, asOf)) out.push('bank_feed_account', feed);
    yield out.take();
  }
}

/**
 * The latest timestamp the books may carry: the moment they are made, when that falls on asOf or after it within the
 * day. Books asked for a later asOf than that day (an operator's explicit choice) or made after asOf's day are left as
 * generated.
 */
export function latestStamp(asOf: string, madeAt: number | undefined): string | null {
  if (madeAt === undefined) return null;
  const made = new Date(madeAt).toISOString();
  return made.slice(0, 10) === asOf ? made : null;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function feedAccounts(out: Emitter, ref: Reference, asOf: string): NativeFeedAccount[] {
  const meta = { CreatedAt: stamp(ref.company.CreatedAt.slice(0, 10), 40_000), UpdatedAt: stamp(asOf, 80_000) };
  const start = ref.company.CreatedAt.slice(0, 10);
  const feeds: NativeFeedAccount[] = [];
  for (const account of ref.accounts) {
    if (account.Type !== 'Bank' && account.Type !== 'CreditCard') continue;
    const card = account.Type === 'CreditCard';
    const feed: NativeFeedAccount = {
      Id: out.nextId('bank_feed_account'),
      ...meta,
      AccountId: account.Id,
      Name: account.Name,
      Kind: card ? 'CreditCard' : account.Name.includes('Savings') ? 'Savings' : 'Checking',
      CurrencyCode: ref.currency,
      AccountNumber: account.BankAccountNumber ?? '****4242',
      Institution: 'Sandbox Bank',
      InstitutionAccountId: `SBX-${account.Code}`,
      FeedStatus: 'Active',
      Ready: true,
      CurrentBalance: account.Balance,
      TransactionStartDate: start,
      LastStatementDate: asOf,
      LastStatementBalance: account.Balance,
      LineOfBusiness: 'Small business',
      PaymentNetworks: card ? ['VISA'] : ['ACH', 'WIRE'],
    };
    if (card) {
      feed.CreditLimit = '50000.00';
      feed.PurchasesApr = '19.990';
      feed.MinimumPayment = '35.00';
      feed.NextPaymentDate = asOf;
    } else {
      feed.RoutingNumber = '110000000';
      feed.AvailableBalance = account.Balance;
    }
    const parent = feeds[0];
    if (account.ParentId !== undefined && parent !== undefined) feed.ParentFeedId = parent.Id;
    feeds.push(feed);
  }
  feeds.push({
    Id: out.nextId('bank_feed_account'),
    ...meta,
    Name: 'Merchant Account (not linked)',
    Kind: 'Bank',
    CurrencyCode: ref.currency,
    AccountNumber: '****9001',
    Institution: 'Sandbox Bank',
    InstitutionAccountId: 'SBX-9001',
    FeedStatus: 'Inactive',
    Ready: false,
    CurrentBalance: '0.00',
    TransactionStartDate: asOf,
  });
  return feeds;
}

/** Generates everything into memory: for tests and small sizes. */
export function generateAll(options: GenerateOptions): { records: GeneratedRecord[]; summary: GenerationSummary } {
  const generator = new BookGenerator(options);
  const records: GeneratedRecord[] = [];
  for (const batch of generator.batches()) for (const record of batch) records.push(record);
  if (generator.summary === null) throw new Error('generator did not finish');
  return { records, summary: generator.summary };
}

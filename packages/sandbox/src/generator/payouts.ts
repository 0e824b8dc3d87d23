/**
 * The web shop's store and its card gateway's payouts. Every order paid by card is charged by the gateway, which keeps
 * a fee (2.9% + 0.30) and pays a period's charges, less refunds and fees, into the checking account when the next
 * period starts, arriving two days later: weekly (on Mondays) for a shop of ten or more charges a week, monthly for a
 * smaller one, as gateways let merchants choose (and so small books do not fill with payouts). A payout that has arrived is posted to the books by a journal entry of its own (checking
 * and bank fees debited; product sales, shipping income and sales tax credited): the web shop's takings enter the
 * ledger when their money does. Drawn after every transaction and before the closing, so the balances, balance
 * sheets and statements take in what the payouts post; the orders of the last period are not paid out yet.
 */
import { journalLine } from '../books.ts';
import { addDays, dateMs, daysBetween, stamp } from '../dates.ts';
import { monthStart, nextMonth, monthOf } from '../ledger.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeJournalEntry, NativeOrder, NativePayout, NativePayoutTransaction, NativeStore } from '../native.ts';
import { ROLES, acc } from './chart.ts';
import type { Emitter, GeneratedRecord } from './emitter.ts';
import type { Reference } from './reference.ts';

const CHECKING = acc('1000');
const BANK_FEES = acc('6100');
const PRODUCT_SALES = acc('4000');
const SHIPPING_INCOME = acc('4200');

/** The gateway's fee on a charge, in cents: 2.9% and 30 cents, as card gateways commonly price. */
export function gatewayFeeCents(chargeCents: number): number {
  return Math.round(chargeCents * 0.029) + 30;
}

/** What a charged order leaves for the books: its charge split by what it sold, and whether it was refunded. */
export interface Charge {
  orderId: string;
  at: string;
  totalCents: number;
  shippingCents: number;
  taxCents: number;
  refunded: boolean;
}

/** The orders the gateway charged, kept small (a few numbers each) while the transactions stream out. */
export class ShopCharges {
  readonly charges: Charge[] = [];

  observe(records: readonly GeneratedRecord[]): void {
    for (const record of records) {
      // Generated records of the collection have its native shape by construction.
      const charge = record.type === 'order' ? chargeOf(record.data as NativeOrder) : null;
      if (charge !== null) this.charges.push(charge);
    }
  }
}

/** The gateway's charge of an order; null for an order not charged yet (pending). */
export function chargeOf(order: NativeOrder): Charge | null {
  if (order.FinancialStatus === 'Pending') return null;
  return {
    orderId: order.Id,
    at: order.CreatedAt,
    totalCents: parseCents(order.Total),
    shippingCents: parseCents(order.Shipping),
    taxCents: parseCents(order.Tax),
    refunded: order.FinancialStatus === 'Refunded',
  };
}

/** Monday of the week of a date (YYYY-MM-DD). */
function mondayOf(date: string): string {
  const weekday = new Date(dateMs(date)).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** How often the gateway pays out: the start of a date's period, and the start of the period after it. */
interface PayoutSchedule {
  periodOf(date: string): string;
  next(period: string): string;
}

const WEEKLY: PayoutSchedule = { periodOf: mondayOf, next: (monday) => addDays(monday, 7) };
const MONTHLY: PayoutSchedule = { periodOf: (date) => monthStart(monthOf(date)), next: (first) => monthStart(nextMonth(monthOf(first))) };

/** Weekly for ten or more charges a week over the history, monthly below. */
export function scheduleFor(charges: readonly { at: string }[], asOf: string): 'weekly' | 'monthly' {
  const first = charges.reduce((min, c) => (c.at < min ? c.at : min), asOf).slice(0, 10);
  const weeks = Math.max(1, daysBetween(first, asOf) / 7);
  return charges.length / weeks >= 10 ? 'weekly' : 'monthly';
}

function transactionsOf(charge: Charge): NativePayoutTransaction[] {
  const fee = gatewayFeeCents(charge.totalCents);
  const sale: NativePayoutTransaction = {
    Id: `CH-${charge.orderId}`,
    OrderId: charge.orderId,
    Kind: 'Charge',
    Amount: formatCents(charge.totalCents),
    Fee: formatCents(fee),
    CreatedAt: charge.at,
  };
  if (!charge.refunded) return [sale];
  // Refunded within the hour it was charged, so in the same payout; the gateway keeps its fee.
  const refundAt = new Date(Date.parse(charge.at) + 3_600_000).toISOString();
  return [
    sale,
    {
      Id: `RE-${charge.orderId}`,
      OrderId: charge.orderId,
      Kind: 'Refund',
      Amount: formatCents(-charge.totalCents),
      Fee: '0.00',
      CreatedAt: refundAt,
    },
  ];
}

/** The store record: the business's web shop. */
export function generateStore(out: Emitter, ref: Reference): NativeStore {
  const host = new URL(ref.company.Website).host;
  const store: NativeStore = {
    Id: out.nextId('store'),
    CreatedAt: ref.company.CreatedAt,
    UpdatedAt: ref.company.CreatedAt,
    Name: ref.company.TradingName,
    Domain: `shop.${host}`,
    Currency: ref.currency,
    ContactEmail: ref.company.Email,
  };
  out.push('store', store);
  return store;
}

/**
 * One payout per period with charges, made when the next period starts and arriving two days later, up to asOf. A
 * period whose refunds and fees outweigh its charges pays nothing and carries over to the next payout, as gateways do.
 */
export function generatePayouts(out: Emitter, ref: Reference, shop: ShopCharges, asOf: string): NativePayout[] {
  const schedule = scheduleFor(shop.charges, asOf) === 'weekly' ? WEEKLY : MONTHLY;
  const byPeriod = new Map<string, Charge[]>();
  for (const charge of shop.charges) {
    const period = schedule.periodOf(charge.at.slice(0, 10));
    const list = byPeriod.get(period);
    if (list === undefined) byPeriod.set(period, [charge]);
    else list.push(charge);
  }
  const checking = ref.accounts.find((a) => a.Id === CHECKING);
  const last4 = (checking?.BankAccountNumber ?? '****0000').slice(-4);
  const payouts: NativePayout[] = [];
  let carried: Charge[] = [];
  for (const period of [...byPeriod.keys()].sort()) {
    const made = schedule.next(period);
    if (made > asOf) break;
    const charges = [...carried, ...(byPeriod.get(period) ?? [])];
    const transactions = charges.flatMap(transactionsOf);
    const amount = transactions.reduce((sum, t) => sum + parseCents(t.Amount) - parseCents(t.Fee), 0);
    if (amount <= 0) {
      carried = charges;
      continue;
    }
    carried = [];
    const arrival = addDays(made, 2);
    const paid = arrival <= asOf;
    const payout: NativePayout = {
      Id: out.nextId('payout'),
      CreatedAt: stamp(made, 21_600),
      UpdatedAt: paid ? stamp(arrival, 32_400) : stamp(made, 21_600),
      ArrivalDate: arrival,
      Amount: formatCents(amount),
      CurrencyCode: ref.currency,
      Status: paid ? 'Paid' : 'InTransit',
      Schedule: 'Automatic',
      Method: 'standard',
      GatewayAccountId: `acct_${ref.company.Id.toLowerCase().replace('-', '_')}`,
      DestinationAccountId: CHECKING,
      DestinationLast4: last4,
      DestinationBank: 'Sandbox Bank',
      RoutingNumber: '110000000',
      Transactions: transactions,
    };
    if (paid) {
      const entry = payoutJournal(out.nextId('journal_entry'), payout, charges);
      out.push('journal_entry', entry);
      payout.JournalEntryId = entry.Id;
    }
    out.push('payout', payout);
    payouts.push(payout);
  }
  return payouts;
}

/**
 * The journal entry of an arrived payout, dated its arrival: its money in checking, the fees as bank fees, and the
 * sales it paid out (a refunded order's charge and refund cancel out, its fee stays).
 */
export function payoutJournal(id: string, payout: NativePayout, charges: readonly Charge[]): NativeJournalEntry {
  let goods = 0;
  let shipping = 0;
  let tax = 0;
  let fees = 0;
  for (const charge of charges) {
    fees += gatewayFeeCents(charge.totalCents);
    if (charge.refunded) continue;
    goods += charge.totalCents - charge.shippingCents - charge.taxCents;
    shipping += charge.shippingCents;
    tax += charge.taxCents;
  }
  const lines = [
    journalLine('1', CHECKING, parseCents(payout.Amount), `Payout ${payout.Id}`),
    journalLine('2', BANK_FEES, fees, 'Card gateway fees'),
    journalLine('3', PRODUCT_SALES, -goods, 'Web shop sales'),
  ];
  if (shipping !== 0) lines.push(journalLine(String(lines.length + 1), SHIPPING_INCOME, -shipping, 'Web shop shipping'));
  if (tax !== 0) lines.push(journalLine(String(lines.length + 1), ROLES.SalesTax, -tax, 'Web shop sales tax'));
  const entry: NativeJournalEntry = {
    Id: id,
    CreatedAt: payout.UpdatedAt,
    UpdatedAt: payout.UpdatedAt,
    DocNumber: `JE-${id.slice(3)}`,
    TxnDate: payout.ArrivalDate,
    CurrencyCode: payout.CurrencyCode,
    ExchangeRate: '1.000000',
    Memo: `Web shop payout ${payout.Id}`,
    Status: 'Posted',
    Lines: lines,
  };
  return entry;
}

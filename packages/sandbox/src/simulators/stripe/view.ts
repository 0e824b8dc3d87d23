/**
 * One API call's view of the books: the shop's orders, gateway movements, payouts and shoppers read at most once per
 * call, indexed the way Stripe's objects link them (a charge to its order and refund, a payout to what it paid out).
 */
import type { NativeGatewayTransaction, NativeOrder, NativePayout, NativeShopper, NativeStore } from '../../native.ts';
import { BooksView } from '../view.ts';
import type { Json } from './answers.ts';
import {
  renderAccount,
  renderBalanceTransaction,
  renderCharge,
  renderCustomer,
  renderPayout,
  renderRefund,
  unix,
  type ChargeParts,
} from './render.ts';

/** The books as Stripe's objects link them, read once per call. */
export interface Indexed {
  orders: Map<string, NativeOrder>;
  charges: ChargeParts[];
  transactions: NativeGatewayTransaction[];
  payouts: Map<string, NativePayout>;
  shoppers: NativeShopper[];
  store: NativeStore | null;
}

export class StripeView extends BooksView {
  /** The SANDBOX clock, in unix seconds. */
  nowSeconds(): number {
    return Math.floor((this.books.now?.() ?? Date.now()) / 1000);
  }

  index(): Promise<Indexed> {
    return this.once('index', () => this.load());
  }

  private async load(): Promise<Indexed> {
    const [orders, transactions, payouts, shoppers, stores] = await Promise.all([
      this.all('order'),
      this.all('transaction'),
      this.all('payout'),
      this.all('commerce_customer'),
      this.all('store'),
    ]);
    // SANDBOX stamps some of today's records later in the day than its clock; Stripe shows nothing from the future, so
    // an object appears when its time comes (and an events cursor never runs ahead of what a later call can add).
    const now = this.nowSeconds();
    const due = (record: { CreatedAt: string }): boolean => unix(record.CreatedAt) <= now;
    const byOrder = new Map(orders.map((o) => [o.Id, o]));
    const seen = transactions.filter(due);
    const refunds = new Map<string, NativeGatewayTransaction>();
    for (const t of seen) if (t.Kind === 'Refund' && t.OrderId !== null) refunds.set(t.OrderId, t);
    const charges: ChargeParts[] = [];
    for (const t of seen) {
      const order = t.Kind === 'Charge' && t.OrderId !== null ? byOrder.get(t.OrderId) : undefined;
      if (order !== undefined) charges.push({ order, charge: t, refund: refunds.get(order.Id) ?? null });
    }
    return {
      orders: byOrder,
      charges,
      transactions: seen,
      payouts: new Map(payouts.filter(due).map((p) => [p.Id, p])),
      shoppers: shoppers.filter(due),
      store: stores[0] ?? null,
    };
  }

  async charges(): Promise<Json[]> {
    const { charges, store } = await this.index();
    const now = this.nowSeconds();
    return charges.map((parts) => renderCharge(parts, store, now));
  }

  async refunds(): Promise<Json[]> {
    return (await this.index()).charges.flatMap((c) => (c.refund === null ? [] : [renderRefund(c.order, c.refund)]));
  }

  async customers(): Promise<Json[]> {
    const { shoppers, orders, store } = await this.index();
    const currency = store?.Currency ?? this.books.company.currency;
    return shoppers.map((s) => renderCustomer(s, orders.get(s.OrderIds.at(-1) ?? '') ?? null, currency));
  }

  async payouts(): Promise<Json[]> {
    const now = this.nowSeconds();
    return [...(await this.index()).payouts.values()].map((p) => renderPayout(p, now));
  }

  /** Every balance transaction, with the SANDBOX payout that paid it out (null when none has). */
  async balanceTransactions(): Promise<{ payoutId: string | null; rendered: Json }[]> {
    const { transactions, payouts } = await this.index();
    const now = this.nowSeconds();
    return transactions.map((t) => {
      const payout = t.PayoutId === null ? null : (payouts.get(t.PayoutId) ?? null);
      return { payoutId: payout?.Id ?? null, rendered: renderBalanceTransaction(t, payout, now) };
    });
  }

  async account(): Promise<Json> {
    const { store } = await this.index();
    const company = (await this.all('company_info'))[0] ?? null;
    return renderAccount(this.books.accountKey, store, {
      ...this.books.company,
      createdAt: company?.CreatedAt ?? null,
      email: company?.Email ?? null,
    });
  }
}

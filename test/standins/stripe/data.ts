/**
 * The Stripe stand-in's records: one Stripe account's charges, refunds, disputes, payouts, customers, subscriptions, their balance
 * transactions and the events they raised, generated (deterministic ids and amounts) to validate against the component
 * schemas of Stripe's published OpenAPI description: each record writes the fields that mean something, and the
 * description fills in the rest it requires empty (null, false, [], {}: ../kit/openapi-records.ts). Stripe's published
 * fixtures are not used.
 */
import { eventObject } from '../../../packages/sandbox/src/simulators/stripe/events.ts';
import { feeDetails } from '../../../packages/sandbox/src/simulators/stripe/render.ts';
import type { CompleteRecord } from '../kit/openapi-records.ts';

export type Json = Record<string, unknown>;

export interface StripeRecord extends Json {
  id: string;
  object: string;
  created: number;
}

export interface AccountOptions {
  id: string;
  name: string;
  currency?: string;
  /** Charges made at seeding, every 3rd one refunded in part, every 10th disputed. */
  charges?: number;
  customers?: number;
  /** Subscriptions made at seeding, one per customer in turn; every 4th one canceled. */
  subscriptions?: number;
  /** Payouts made at seeding, spread over the charges. */
  payouts?: number;
  /** Seconds since the epoch of the first seeded record; default 20 days ago. */
  start?: number;
  /** Whether seeding raises events (a big account for a bench does not need them). */
  seedEvents?: boolean;
}

const ADDRESS = { city: 'Springfield', country: 'US', line1: '1 Main Street', line2: null, postal_code: '12345', state: 'IL' };

/** A card fee as Stripe's standard US pricing: 2.9 % + 30 (in minor units; zero-decimal currencies get no fixed part). */
export function cardFee(amount: number, currency: string): number {
  return Math.round(amount * 0.029) + (currency === 'jpy' ? 0 : 30);
}

export class StripeAccount {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly charges: StripeRecord[] = [];
  readonly customers: StripeRecord[] = [];
  readonly disputes: StripeRecord[] = [];
  readonly subscriptions: StripeRecord[] = [];
  readonly payouts: StripeRecord[] = [];
  readonly balanceTransactions: StripeRecord[] = [];
  readonly events: StripeRecord[] = [];
  /** Balance transaction id → the payout that paid it out. */
  readonly paidOutBy = new Map<string, string>();
  /** Set when the account connected through Connect: events carry it as `account`. */
  connect = false;
  /** Charges and customers by id (a 100,000-charge account refunds and disputes by id). */
  private readonly byId = new Map<string, StripeRecord>();
  private counter = 0;
  private clock: number;
  private readonly seedEvents: boolean;
  private seeding = true;
  private readonly complete: CompleteRecord;

  /** `complete` fills in what the contract requires empty (./contract.ts). */
  constructor(options: AccountOptions, complete: CompleteRecord) {
    this.complete = complete;
    this.id = options.id;
    this.name = options.name;
    this.currency = options.currency ?? 'usd';
    this.clock = options.start ?? Math.floor(Date.now() / 1000) - 20 * 86_400;
    this.seedEvents = options.seedEvents ?? true;
    const customers = options.customers ?? 3;
    for (let i = 0; i < customers; i++) this.addCustomer(`Customer ${i + 1} Example`);
    const charges = options.charges ?? 0;
    const payouts = options.payouts ?? 0;
    const every = payouts === 0 ? 0 : Math.max(1, Math.floor(charges / payouts));
    for (let i = 0; i < charges; i++) {
      const customer = this.customers.length === 0 ? null : (this.customers[i % this.customers.length]?.id ?? null);
      const charge = this.addCharge(1_000 + ((i * 137) % 9_000), customer);
      if (i % 3 === 2) this.refund(charge.id, 500);
      if (i % 10 === 9) this.dispute(charge.id);
      if (every > 0 && (i + 1) % every === 0 && this.payouts.length < payouts) this.payout();
    }
    const subscriptions = options.subscriptions ?? 0;
    for (let i = 0; i < subscriptions; i++) {
      const customer = this.customers[i % Math.max(1, this.customers.length)]?.id;
      if (customer === undefined) break;
      const subscription = this.addSubscription(customer, 1_500 + i * 100, i % 2 === 0 ? 'month' : 'year', 1 + (i % 3));
      if (i % 4 === 3) this.cancelSubscription(subscription.id);
    }
    this.seeding = false;
  }

  get account(): Json {
    return this.complete('account', {
      id: this.id,
      object: 'account',
      business_profile: { name: this.name, url: `https://${this.id}.example.com` },
      charges_enabled: true,
      country: 'US',
      default_currency: this.currency,
      details_submitted: true,
      email: `owner@${this.id}.example.com`,
      payouts_enabled: true,
      type: 'standard',
    });
  }

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.id.slice(5)}${String(this.counter).padStart(7, '0')}`;
  }

  /** Seconds: seeded records are a minute apart (never in the future); records made later carry the time they were made at. */
  private tick(): number {
    const now = Math.floor(Date.now() / 1000);
    this.clock = this.seeding ? Math.min(now, this.clock + 60) : Math.max(now, this.clock);
    return this.clock;
  }

  /** A record of `component` as Stripe sends it: `fields`, and what the contract requires empty. */
  private record(component: string, fields: StripeRecord): StripeRecord {
    return { ...this.complete(component, fields), id: fields.id, object: fields.object, created: fields.created };
  }

  private event(type: string, object: Json, created: number): void {
    if (this.seeding && !this.seedEvents) return;
    const event = eventObject(this.nextId('evt'), type, created, structuredClone(object));
    this.events.push(this.record('event', { ...event, ...(this.connect ? { account: this.id } : {}) }));
  }

  /** GET /v1/balance: the balance transactions' net amounts, available or pending, in the account's one currency. */
  balance(): Json {
    const sum = (status: string) => this.balanceTransactions.filter((bt) => bt.status === status).reduce((total, bt) => total + Number(bt.net), 0);
    const entry = (status: string) => [{ amount: sum(status), currency: this.currency, source_types: { card: sum(status) } }];
    return { object: 'balance', livemode: false, available: entry('available'), pending: entry('pending') };
  }

  /** The newest event, for a webhook. */
  lastEvent(): StripeRecord {
    const event = this.events.at(-1);
    if (event === undefined) throw new Error('no event yet');
    return event;
  }

  private balanceTransaction(type: string, source: string, amount: number, fee: number, created: number, description: string | null): StripeRecord {
    const bt = this.record('balance_transaction', {
      id: this.nextId('txn'),
      object: 'balance_transaction',
      amount,
      available_on: created + 2 * 86_400,
      balance_type: 'payments',
      created,
      currency: this.currency,
      description,
      fee,
      fee_details: feeDetails(fee, this.currency),
      net: amount - fee,
      reporting_category: type === 'charge' ? 'charge' : type === 'refund' ? 'refund' : type === 'payout' ? 'payout' : 'dispute',
      source,
      status: 'available',
      type,
    });
    this.balanceTransactions.push(bt);
    return bt;
  }

  addCustomer(name: string): StripeRecord {
    const created = this.tick();
    const id = this.nextId('cus');
    const customer = this.record('customer', {
      id,
      object: 'customer',
      address: ADDRESS,
      balance: 0,
      created,
      currency: this.currency,
      email: `${name.toLowerCase().replaceAll(' ', '.')}@example.com`,
      invoice_prefix: id.slice(4, 12).toUpperCase(),
      name,
      phone: null,
      tax_exempt: 'none',
    });
    this.customers.push(customer);
    this.byId.set(id, customer);
    this.event('customer.created', customer, created);
    return customer;
  }

  updateCustomer(id: string, changes: Json): StripeRecord {
    const customer = this.find('customer', id);
    Object.assign(customer, changes);
    this.event('customer.updated', customer, this.tick());
    return customer;
  }

  deleteCustomer(id: string): void {
    const index = this.customers.findIndex((c) => c.id === id);
    if (index < 0) throw new Error(`no customer ${id}`);
    this.customers.splice(index, 1);
    this.byId.delete(id);
    this.event('customer.deleted', { id, object: 'customer', deleted: true }, this.tick());
  }

  addCharge(amount: number, customer: string | null, description: string | null = null): StripeRecord {
    const created = this.tick();
    const id = this.nextId('ch');
    const fee = cardFee(amount, this.currency);
    const bt = this.balanceTransaction('charge', id, amount, fee, created, description ?? `Payment ${id}`);
    const owner = customer === null ? null : this.byId.get(customer);
    const charge = this.record('charge', {
      id,
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      balance_transaction: bt.id,
      billing_details: {
        address: ADDRESS,
        email: typeof owner?.email === 'string' ? owner.email : null,
        name: typeof owner?.name === 'string' ? owner.name : null,
      },
      captured: true,
      created,
      currency: this.currency,
      customer,
      description: description ?? `Payment ${id}`,
      paid: true,
      status: 'succeeded',
    });
    this.charges.push(charge);
    this.byId.set(id, charge);
    this.event('charge.succeeded', charge, created);
    return charge;
  }

  refund(chargeId: string, amount: number): StripeRecord {
    const charge = this.find('charge', chargeId);
    const created = this.tick();
    const refundId = this.nextId('re');
    const bt = this.balanceTransaction('refund', refundId, -amount, 0, created, 'REFUND FOR CHARGE');
    const refunded = Number(charge.amount_refunded) + amount;
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded >= Number(charge.amount) });
    this.event('charge.refunded', charge, created);
    return bt;
  }

  dispute(chargeId: string): StripeRecord {
    const charge = this.find('charge', chargeId);
    const created = this.tick();
    const id = this.nextId('dp');
    const amount = Number(charge.amount) - Number(charge.amount_refunded);
    const bt = this.balanceTransaction('adjustment', id, -amount, 1_500, created, `Chargeback withdrawal for ${chargeId}`);
    const dispute = this.record('dispute', {
      id,
      object: 'dispute',
      amount,
      balance_transactions: [structuredClone(bt)],
      charge: chargeId,
      created,
      currency: this.currency,
      evidence: {},
      evidence_details: { due_by: created + 7 * 86_400, submission_count: 0 },
      reason: 'fraudulent',
      status: 'needs_response',
    });
    charge.disputed = true;
    this.disputes.push(dispute);
    this.event('charge.dispute.created', dispute, created);
    return dispute;
  }

  /** A subscription of `customer` to one recurring price. */
  addSubscription(customer: string, unitAmount: number, interval: 'day' | 'week' | 'month' | 'year', quantity: number): StripeRecord {
    this.find('customer', customer);
    const created = this.tick();
    const id = this.nextId('sub');
    const price = this.complete('price', {
      id: this.nextId('price'),
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created,
      currency: this.currency,
      product: this.nextId('prod'),
      recurring: { interval, interval_count: 1, usage_type: 'licensed' },
      type: 'recurring',
      unit_amount: unitAmount,
    });
    const item = this.complete('subscription_item', {
      id: this.nextId('si'),
      object: 'subscription_item',
      created,
      price,
      quantity,
      subscription: id,
    });
    const subscription = this.record('subscription', {
      id,
      object: 'subscription',
      automatic_tax: { enabled: false },
      billing_cycle_anchor: created,
      collection_method: 'charge_automatically',
      created,
      currency: this.currency,
      current_period_start: created,
      current_period_end: created + 30 * 86_400,
      customer,
      items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
      start_date: created,
      status: 'active',
    });
    this.subscriptions.push(subscription);
    this.event('customer.subscription.created', subscription, created);
    return subscription;
  }

  cancelSubscription(id: string): StripeRecord {
    const subscription = this.subscriptions.find((s) => s.id === id);
    if (subscription === undefined) throw new Error(`no subscription ${id}`);
    const at = this.tick();
    Object.assign(subscription, { status: 'canceled', canceled_at: at, ended_at: at });
    this.event('customer.subscription.deleted', subscription, at);
    return subscription;
  }

  /** Pays out every balance transaction not paid out yet; null when their net is not positive. */
  payout(): StripeRecord | null {
    const open = this.balanceTransactions.filter((bt) => bt.type !== 'payout' && !this.paidOutBy.has(bt.id));
    const amount = open.reduce((sum, bt) => sum + Number(bt.net), 0);
    if (amount <= 0) return null;
    const created = this.tick();
    const id = this.nextId('po');
    const own = this.balanceTransaction('payout', id, -amount, 0, created, 'STRIPE PAYOUT');
    for (const bt of [...open, own]) this.paidOutBy.set(bt.id, id);
    const payout = this.record('payout', {
      id,
      object: 'payout',
      amount,
      arrival_date: created + 2 * 86_400,
      automatic: true,
      balance_transaction: own.id,
      created,
      currency: this.currency,
      description: 'STRIPE PAYOUT',
      destination: 'ba_standin0001',
      method: 'standard',
      reconciliation_status: 'completed',
      source_type: 'card',
      status: 'paid',
      type: 'bank_account',
    });
    this.payouts.push(payout);
    this.event('payout.created', payout, created);
    this.event('payout.paid', payout, created);
    return payout;
  }

  private find(object: 'charge' | 'customer', id: string): StripeRecord {
    const found = this.byId.get(id);
    if (found?.object !== object) throw new Error(`no ${object} ${id}`);
    return found;
  }
}

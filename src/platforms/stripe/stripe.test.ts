/**
 * The STRIPE connector's pure parts: minor units to major (zero- and three-decimal currencies), Stripe-Signature
 * verification with its 300 s tolerance both ways, error sorting, mapping (orders, transactions, payouts that add up,
 * disputes, customers) and what a webhook event says changed or revoked.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { PlatformRecord } from '../connector.ts';
import { classifyResponse, PlatformError } from '../errors.ts';
import { mapBalance } from './balance.ts';
import { classifyStripeError, sortStripeError } from './errors.ts';
import {
  disputeStatus,
  mapAccountingCustomer,
  mapCommerceCustomer,
  mapDispute,
  mapOrder,
  mapPayout,
  mapSubscription,
  mapTransaction,
  splitName,
  transactionType,
} from './mapping.ts';
import { decimalsOf, toMajor } from './money.ts';
import { stripeWebhooks, verifyStripeSignature } from './webhooks.ts';
import { validateConnector } from '../registry.ts';
import { stripeConnector } from './index.ts';

const refs = {
  ref: (type: string, id: string | number | null | undefined) => (id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`),
};
const record = (raw: Record<string, unknown>): PlatformRecord => ({ platformId: String(raw.id), raw });

describe('minor units', () => {
  it('divides by the currency decimals: two for most, none for zero-decimal currencies, three for KWD and co.', () => {
    expect(toMajor(1999, 'usd')).toBe(19.99);
    expect(toMajor(-500, 'eur')).toBe(-5);
    expect(toMajor(1, 'usd')).toBe(0.01);
    expect(toMajor(1234, 'jpy')).toBe(1234);
    expect(toMajor(1234, 'JPY')).toBe(1234);
    expect(toMajor(50_000, 'krw')).toBe(50_000);
    expect(toMajor(12_345, 'kwd')).toBe(12.345);
    expect([decimalsOf('vnd'), decimalsOf('bhd'), decimalsOf('gbp'), decimalsOf('huf')]).toEqual([0, 3, 2, 2]);
    // 0.1 + 0.2 style noise never shows: 1.005 USD cents round trip.
    expect(toMajor(100_5, 'usd')).toBe(10.05);
  });
});

describe('Stripe-Signature', () => {
  const secret = 'whsec_test_secret';
  const body = Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event' }));
  const sign = (t: number, key = secret, payload = body) =>
    `t=${t},v1=${createHmac('sha256', key).update(`${t}.${payload.toString()}`).digest('hex')}`;
  const now = 1_800_000_000;

  it('accepts a signature made with the secret within 300 s, and a header with a rotated secret beside it', () => {
    expect(verifyStripeSignature(body, sign(now), secret, now)).toBe(true);
    expect(verifyStripeSignature(body, sign(now - 299), secret, now)).toBe(true);
    expect(verifyStripeSignature(body, sign(now + 299), secret, now)).toBe(true);
    const rotated = `${sign(now)},v1=${createHmac('sha256', 'whsec_old').update(`${now}.${body.toString()}`).digest('hex')}`;
    expect(verifyStripeSignature(body, rotated, secret, now)).toBe(true);
  });

  it('refuses another secret, another body, no header, and timestamps more than 300 s old or ahead', () => {
    expect(verifyStripeSignature(body, sign(now, 'whsec_other'), secret, now)).toBe(false);
    expect(verifyStripeSignature(Buffer.from('{"id":"evt_2"}'), sign(now), secret, now)).toBe(false);
    expect(verifyStripeSignature(body, undefined, secret, now)).toBe(false);
    expect(verifyStripeSignature(body, '', secret, now)).toBe(false);
    expect(verifyStripeSignature(body, 'garbage', secret, now)).toBe(false);
    expect(verifyStripeSignature(body, sign(now - 301), secret, now)).toBe(false);
    expect(verifyStripeSignature(body, sign(now + 301), secret, now)).toBe(false);
  });

  it('is what the connector verifies with, reading the lower-case header', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(stripeWebhooks.verify(body, { 'stripe-signature': sign(t) }, secret)).toBe(true);
    expect(stripeWebhooks.verify(body, { 'stripe-signature': sign(t) }, 'whsec_wrong')).toBe(false);
  });
});

describe('error sorting', () => {
  const classify = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    classifyStripeError(classifyResponse({ status, headers, body }), { status, headers, body });

  it('sorts card errors (ours to pass on, not billing), keys, permissions, rate limits and server errors', () => {
    const card = classify(402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    expect([card.kind, card.retryable, card.platformCode, card.platformMessage]).toEqual([
      'bad_request',
      false,
      'card_declined',
      'Your card was declined.',
    ]);
    expect(classify(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***' } }).kind).toBe('unauthorized');
    expect(classify(403, { error: { type: 'permission_error', message: 'The provided key does not have access' } }).kind).toBe('forbidden');
    const limited = classify(429, JSON.stringify({ error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } }), {
      'retry-after': '2',
    });
    expect([limited.kind, limited.retryable, limited.retryAfterMs]).toEqual(['rate_limited', true, 2_000]);
    const server = classify(503, { error: { type: 'api_error', message: 'Something went wrong' } });
    expect([server.kind, server.retryable]).toEqual(['server', true]);
    expect(classify(409, { error: { type: 'idempotency_error', message: 'Keys reused' } }).kind).toBe('conflict');
  });

  it('takes our PlatformError back out of the library wrapper, and sorts library errors of its own', () => {
    const ours = new PlatformError({ kind: 'rate_limited', message: 'slow down', httpStatus: 429 });
    expect(
      sortStripeError(new Stripe.errors.StripeConnectionError({ message: 'An error occurred with our connection to Stripe.', detail: ours })),
    ).toBe(ours);
    const sorted = sortStripeError(
      new Stripe.errors.StripeAuthenticationError({ message: 'Invalid API Key', type: 'invalid_request_error', statusCode: 401 }),
    );
    expect(sorted).toBeInstanceOf(PlatformError);
    expect(sorted instanceof PlatformError ? sorted.kind : null).toBe('unauthorized');
  });
});

const charge = {
  id: 'ch_1',
  object: 'charge',
  amount: 2_500,
  amount_captured: 2_500,
  amount_refunded: 500,
  billing_details: {
    address: { line1: '1 Main St', line2: null, city: 'Springfield', postal_code: '12345', country: 'US', state: 'IL' },
    email: 'ada@example.com',
    name: 'Ada Lovelace King',
    phone: null,
  },
  created: 1_760_000_000,
  currency: 'usd',
  customer: 'cus_1',
  description: 'Two mugs',
  paid: true,
  refunded: false,
  receipt_number: null,
  status: 'succeeded',
};

describe('mapping', () => {
  it('maps a charge to an order with one line for its amount', () => {
    const order = mapOrder(record(charge), refs);
    expect(order).toMatchObject({
      platform_id: 'ch_1',
      order_number: 'ch_1',
      status: 'succeeded',
      payment_status: 'partially_refunded',
      total_price: 25,
      iso_currency_code: 'USD',
      created_at: '2025-10-09T08:53:20.000Z',
      refunds: [],
      customer: { id: 'commerce_customer:cus_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace King' },
      billing_address: { address1: '1 Main St', city: 'Springfield', country_code: 'US', region: 'IL' },
    });
    expect(order.line_items).toEqual([
      {
        id: 'ch_1:amount',
        product_id: null,
        variant_id: null,
        title: 'Two mugs',
        sku: null,
        unit_cost: null,
        price: 25,
        quantity: 1,
        iso_currency_code: 'USD',
        created_at: '2025-10-09T08:53:20.000Z',
        updated_at: '2025-10-09T08:53:20.000Z',
      },
    ]);
    expect(order.customer).toMatchObject({ created_at: null, updated_at: null });
    const refunded = mapOrder(record({ ...charge, amount_refunded: 2_500, refunded: true, currency: 'jpy', amount: 2_500 }), refs);
    expect([refunded.payment_status, refunded.total_price, refunded.refunds]).toEqual([
      'refunded',
      2_500,
      [{ line_items: [{ line_item_id: 'ch_1:amount', quantity: 1, status: 'completed' }] }],
    ]);
  });

  it('reads a currency the model does not know as the account default currency (docs/upgrading.md, issue 34)', () => {
    // Before the kit's readers a charge in such a currency stopped the read; without a known default it still does.
    expect(mapOrder(record({ ...charge, currency: 'zzz' }), refs, 'EUR').iso_currency_code).toBe('EUR');
    expect(() => mapOrder(record({ ...charge, currency: 'zzz' }), refs)).toThrow(/currency is not a known ISO 4217 code/);
  });

  it('maps balance transaction types and amounts, with zero-decimal currencies as they are', () => {
    expect(['charge', 'payment', 'refund', 'stripe_fee', 'application_fee', 'payout', 'adjustment', 'transfer'].map(transactionType)).toEqual([
      'sale',
      'sale',
      'refund',
      'fee',
      'fee',
      'payout',
      'other',
      'other',
    ]);
    const sale = mapTransaction(
      record({
        id: 'txn_1',
        object: 'balance_transaction',
        type: 'charge',
        source: 'ch_1',
        amount: 10_000,
        fee: 320,
        net: 9_680,
        currency: 'jpy',
        status: 'pending',
        created: 1_760_000_000,
        description: null,
      }),
      refs,
    );
    expect(sale).toMatchObject({
      type: 'sale',
      amount: 10_000,
      fee: 320,
      iso_currency_code: 'JPY',
      order_id: 'order:ch_1',
      status: 'pending',
      payment_method_type: 'card',
    });
    const payout = mapTransaction(
      record({
        id: 'txn_2',
        object: 'balance_transaction',
        type: 'payout',
        source: 'po_1',
        amount: -9_680,
        fee: 0,
        currency: 'usd',
        status: 'available',
        created: 1,
      }),
      refs,
    );
    expect(payout).toMatchObject({ type: 'payout', amount: -96.8, payout_id: 'payout:po_1', order_id: null, status: 'success' });
  });

  it('maps a payout with what it paid out, which adds up to its amount', () => {
    const bts = [
      {
        id: 'txn_a',
        object: 'balance_transaction',
        type: 'charge',
        source: 'ch_a',
        amount: 1_999,
        fee: 88,
        net: 1_911,
        currency: 'usd',
        status: 'available',
        created: 10,
      },
      {
        id: 'txn_b',
        object: 'balance_transaction',
        type: 'refund',
        source: 're_b',
        amount: -500,
        fee: 0,
        net: -500,
        currency: 'usd',
        status: 'available',
        created: 11,
      },
      {
        id: 'txn_c',
        object: 'balance_transaction',
        type: 'adjustment',
        source: 'dp_c',
        amount: -1_000,
        fee: 1_500,
        net: -2_500,
        currency: 'usd',
        status: 'available',
        created: 12,
      },
      {
        id: 'txn_d',
        object: 'balance_transaction',
        type: 'charge',
        source: 'ch_d',
        amount: 5_001,
        fee: 175,
        net: 4_826,
        currency: 'usd',
        status: 'available',
        created: 13,
      },
    ];
    const amount = bts.reduce((sum, bt) => sum + bt.net, 0);
    const payout = mapPayout(
      record({
        id: 'po_1',
        object: 'payout',
        amount,
        arrival_date: 100,
        automatic: true,
        created: 50,
        currency: 'usd',
        method: 'standard',
        status: 'paid',
        type: 'bank_account',
        destination: 'ba_1',
        account: 'acct_1',
        balance_transactions: bts,
      }),
      refs,
    );
    expect(payout).toMatchObject({
      amount: 37.37,
      status: 'paid',
      schedule: 'automatic',
      gateway_account_id: 'acct_1',
      destination: { destination_id: 'ba_1' },
    });
    const sum = payout.transactions.reduce((total, t) => total + (t.amount ?? 0) - t.fee, 0);
    expect(Math.round(sum * 100) / 100).toBe(payout.amount);
    expect(payout.transactions.map((t) => t.type)).toEqual(['sale', 'refund', 'other', 'sale']);
  });

  it('maps disputes, customers and names', () => {
    const dispute = mapDispute(
      record({
        id: 'dp_1',
        object: 'dispute',
        amount: 2_000,
        charge: 'ch_1',
        currency: 'eur',
        reason: 'fraudulent',
        status: 'needs_response',
        created: 1,
        evidence_details: { due_by: 2 },
      }),
      refs,
    );
    expect(dispute).toMatchObject({
      amount: 20,
      order_id: 'order:ch_1',
      status: 'needs_response',
      evidence_due_by: '1970-01-01T00:00:02.000Z',
      iso_currency_code: 'EUR',
    });
    expect(['won', 'charge_refunded', 'prevented', 'something_new'].map(disputeStatus)).toEqual(['won', 'warning_closed', 'won', 'under_review']);
    const customer = {
      id: 'cus_1',
      object: 'customer',
      name: 'Grace Hopper',
      email: 'g@example.com',
      phone: null,
      currency: 'usd',
      created: 5,
      address: { line1: 'x', city: 'y', country: 'US' },
    };
    expect(mapCommerceCustomer(record(customer))).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', email: 'g@example.com', orders: [] });
    expect(mapAccountingCustomer(record(customer))).toMatchObject({
      customer_name: 'Grace Hopper',
      currency_code: 'USD',
      status: 'active',
      addresses: [{ type: 'billing', address1: 'x' }],
    });
    expect(splitName('Cher')).toEqual({ first: 'Cher', last: null });
    // A subscription: its customer linked and named, each item's amount the unit price × quantity; JPY as sent.
    const item = (unit: number | null, quantity?: number, interval = 'month') => ({
      id: `si_${String(unit)}`,
      ...(quantity === undefined ? {} : { quantity }),
      price: { unit_amount: unit, recurring: { interval, interval_count: 3 } },
    });
    const subscription = (status: string, currency = 'usd', items = [item(1_999, 2), item(null, undefined, 'year')]) =>
      mapSubscription(record({ id: 'sub_1', object: 'subscription', customer: 'cus_1', currency, status, created: 7, items: { data: items } }), refs);
    expect(subscription('active')).toMatchObject({
      customer_id: 'commerce_customer:cus_1',
      platform_customer_id: 'cus_1',
      iso_currency_code: 'USD',
      status: 'active',
      items: [
        { platform_id: 'si_1999', interval: 'month', interval_count: 3, quantity: 2, unit_amount: 19.99, amount: 39.98 },
        { platform_id: 'si_null', interval: 'year', quantity: 1, unit_amount: null, amount: null },
      ],
      created_at: '1970-01-01T00:00:07.000Z',
      updated_at: null,
    });
    expect(subscription('active', 'jpy', [item(500, 3)]).items[0]).toMatchObject({ unit_amount: 500, amount: 1_500 });
    const statuses = ['active', 'past_due', 'trialing', 'canceled', 'incomplete_expired', 'paused', 'incomplete', 'unpaid', 'something_new'];
    expect(statuses.map((s) => subscription(s).status)).toEqual([
      'active',
      'active',
      'in_trial',
      'canceled',
      'canceled',
      'paused',
      'unknown',
      'unknown',
      'unknown',
    ]);
    // A record that does not fit Stripe's contract is refused before any mapping (./contract.ts).
    expect(() => mapOrder(record({ ...charge, amount: '25' }), refs)).toThrow(/does not fit its published contract: charge\.amount must be integer/);
  });
});

describe('webhook events', () => {
  const event = (type: string, object: Record<string, unknown>, account?: string) => ({
    id: 'evt_1',
    object: 'event',
    type,
    data: { object },
    ...(account === undefined ? {} : { account }),
  });

  it('names the changed objects of a Connect event, by its account', () => {
    expect(stripeWebhooks.changes(event('charge.refunded', { id: 'ch_1', object: 'charge' }, 'acct_1'), {})).toEqual([
      { account: 'acct_1', type: 'order', platformId: 'ch_1' },
      { account: 'acct_1', type: 'transaction', platformId: null },
    ]);
    expect(stripeWebhooks.changes(event('customer.deleted', { id: 'cus_1', object: 'customer', deleted: true }, 'acct_1'), {})).toEqual([
      { account: 'acct_1', type: 'commerce_customer', platformId: 'cus_1' },
      { account: 'acct_1', type: 'customer', platformId: 'cus_1' },
    ]);
    expect(
      stripeWebhooks.changes(event('charge.dispute.created', { id: 'dp_1', object: 'dispute', charge: 'ch_9' }, 'acct_1'), {})?.map((c) => c.type),
    ).toEqual(['dispute', 'order', 'transaction']);
    expect(stripeWebhooks.changes(event('customer.subscription.deleted', { id: 'sub_1', object: 'subscription' }, 'acct_1'), {})).toEqual([
      { account: 'acct_1', type: 'subscription', platformId: 'sub_1' },
    ]);
    expect(stripeWebhooks.changes(event('payout.paid', { id: 'po_1', object: 'payout' }, 'acct_1'), {})?.[0]).toEqual({
      account: 'acct_1',
      type: 'payout',
      platformId: 'po_1',
    });
    // An account's own endpoint names no account: nothing to match a connection by.
    expect(stripeWebhooks.changes(event('charge.refunded', { id: 'ch_1', object: 'charge' }), {})).toEqual([]);
    expect(stripeWebhooks.changes({ hello: 'world' }, {})).toBeNull();
  });

  it('reads account.application.deauthorized as a revocation of that account', () => {
    const deauthorized = event('account.application.deauthorized', { id: 'ca_1', object: 'application' }, 'acct_9');
    expect(stripeWebhooks.revocations?.(deauthorized, {})).toEqual([
      { account: 'acct_9', reason: expect.stringContaining('account.application.deauthorized') as string },
    ]);
    expect(stripeWebhooks.changes(deauthorized, {})).toEqual([]);
    expect(stripeWebhooks.revocations?.(event('charge.refunded', { id: 'ch_1', object: 'charge' }, 'acct_9'), {})).toEqual([]);
  });
});

describe('the connector', () => {
  it('passes registration checks', () => {
    expect(validateConnector(stripeConnector)).toEqual([]);
  });
});

describe('the balance (GET /v1/balance)', () => {
  it('gives each currency its available amount in major units, pending only in platform_data', () => {
    const entries = mapBalance({
      available: [
        { amount: 12_345, currency: 'usd' },
        { amount: 5_000, currency: 'jpy' },
      ],
      pending: [
        { amount: 700, currency: 'usd' },
        { amount: 990, currency: 'eur' },
      ],
    });
    expect(entries.map((e) => [e.iso_currency_code, e.amount])).toEqual([
      ['EUR', 0],
      ['JPY', 5_000],
      ['USD', 123.45],
    ]);
    expect(entries[2]?.platform_data).toEqual({
      currency: 'usd',
      available: [{ amount: 12_345, currency: 'usd' }],
      pending: [{ amount: 700, currency: 'usd' }],
    });
  });
});

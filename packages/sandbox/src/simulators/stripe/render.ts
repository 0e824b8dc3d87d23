/**
 * SANDBOX's web shop and card gateway as Stripe objects (API v1): a charge per charged order, a refund per refunded
 * one, the gateway's balance history as balance transactions, its payouts, its shoppers as customers and the shop as
 * the account. Amounts are Stripe's minor units (integers), times unix seconds, currencies lower case; every object is
 * test mode (`livemode: false`). Pure: the same records render the same objects.
 */
import type Stripe from 'stripe';
import { parseCents } from '../../money.ts';
import type { NativeGatewayTransaction, NativeOrder, NativeOrderAddress, NativePayout, NativeShopper, NativeStore } from '../../native.ts';
import type { Rendered } from '../kit.ts';
import type { Json } from './answers.ts';
import { accountIdOf, stripeId } from './ids.ts';

/** Stripe's standard payout delay for a new US account: a charge's funds are available two days after it. */
export const AVAILABLE_AFTER_SECONDS = 2 * 86_400;
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** SANDBOX's decimal text as Stripe's minor units of the currency (https://docs.stripe.com/currencies). */
export function minor(amount: string, currency: string): number {
  const cents = parseCents(amount);
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? Math.round(cents / 100) : cents;
}

export const unix = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const lower = (currency: string): string => currency.toLowerCase();

function address(a: NativeOrderAddress): Stripe.Address {
  return { city: a.City, country: a.CountryCode, line1: a.Line1, line2: a.Line2 ?? null, postal_code: a.PostalCode, state: a.Region };
}

const fullName = (a: { FirstName: string; LastName: string }): string => `${a.FirstName} ${a.LastName}`.trim();

/** What a charge is made of: the order, its charge on the gateway and, when refunded, its refund. */
export interface ChargeParts {
  order: NativeOrder;
  charge: NativeGatewayTransaction;
  refund: NativeGatewayTransaction | null;
}

/** A charge as it was at `asOf` (unix seconds; events show it as it was then), by default as it is now. */
export function renderCharge(parts: ChargeParts, store: NativeStore | null, asOf = Number.POSITIVE_INFINITY): Json {
  const { order, charge, refund } = parts;
  const currency = charge.CurrencyCode;
  const amount = minor(charge.Amount, currency);
  const refunded = refund !== null && unix(refund.CreatedAt) <= asOf;
  const amountRefunded = refunded ? -minor(refund.Amount, currency) : 0;
  const billing = order.BillingAddress;
  const shipping = order.ShippingAddress;
  const descriptor = (store?.Name ?? 'SANDBOX SHOP')
    .toUpperCase()
    .replace(/[^A-Z0-9 .]/g, '')
    .slice(0, 22);
  const rendered = {
    id: stripeId('charge', order.Id),
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: stripeId('balance_transaction', charge.Id),
    billing_details: {
      address: address(billing),
      email: order.Buyer.Email,
      name: fullName(billing),
      phone: billing.Phone ?? order.Buyer.Phone ?? null,
    },
    calculated_statement_descriptor: descriptor,
    captured: true,
    created: unix(charge.CreatedAt),
    currency: lower(currency),
    customer: stripeId('customer', order.Buyer.Id),
    description: `Order ${order.OrderNumber}`,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: { order_id: order.Id, order_number: order.OrderNumber },
    on_behalf_of: null,
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      risk_score: 12,
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: null,
    payment_method: null,
    payment_method_details: null,
    receipt_email: order.Buyer.Email,
    receipt_number: null,
    receipt_url: null,
    refunded: refunded && amountRefunded >= amount,
    review: null,
    shipping: { address: address(shipping), carrier: null, name: fullName(shipping), phone: shipping.Phone ?? null, tracking_number: null },
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  } satisfies Rendered<Stripe.Charge>;
  // A field of earlier API versions the pinned SDK's types no longer have, served as it always was.
  return { ...rendered, invoice: null };
}

export function renderRefund(order: NativeOrder, refund: NativeGatewayTransaction): Json {
  return {
    id: stripeId('refund', order.Id),
    object: 'refund',
    amount: -minor(refund.Amount, refund.CurrencyCode),
    balance_transaction: stripeId('balance_transaction', refund.Id),
    charge: stripeId('charge', order.Id),
    created: unix(refund.CreatedAt),
    currency: lower(refund.CurrencyCode),
    metadata: { order_id: order.Id, order_number: order.OrderNumber },
    payment_intent: null,
    reason: 'requested_by_customer',
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  } satisfies Rendered<Stripe.Refund>;
}

/** A shopper as a customer: its address the billing address of its latest order. */
export function renderCustomer(shopper: NativeShopper, latest: NativeOrder | null, currency: string): Json {
  return {
    id: stripeId('customer', shopper.Id),
    object: 'customer',
    address: latest === null ? null : address(latest.BillingAddress),
    balance: 0,
    created: unix(shopper.CreatedAt),
    currency: lower(currency),
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: shopper.Email,
    invoice_prefix: shopper.Id.replace(/[^A-Z0-9]/g, '').slice(0, 12),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: { shopper_id: shopper.Id },
    name: fullName(shopper),
    next_invoice_sequence: 1,
    phone: shopper.Phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  } satisfies Rendered<Stripe.Customer>;
}

/** Stripe's processing fee of a balance transaction as its fee_details (none when it took no fee). */
export const feeDetails = (fee: number, currency: string): Stripe.BalanceTransaction.FeeDetail[] =>
  fee === 0 ? [] : [{ amount: fee, application: null, currency, description: 'Stripe processing fees', type: 'stripe_fee' }];

const KINDS = {
  Charge: { type: 'charge', category: 'charge', object: 'charge' },
  Refund: { type: 'refund', category: 'refund', object: 'refund' },
  Payout: { type: 'payout', category: 'payout', object: 'payout' },
} as const;

/**
 * A movement of the gateway's balance. A charge or refund paid out is available (by its payout's creation at the
 * latest); one not paid out yet turns available two days after it. A payout's own movement is available at once.
 */
export function renderBalanceTransaction(t: NativeGatewayTransaction, payout: NativePayout | null, nowSeconds: number): Json {
  const kind = KINDS[t.Kind];
  const currency = t.CurrencyCode;
  const amount = minor(t.Amount, currency);
  const fee = minor(t.Fee, currency);
  const created = unix(t.CreatedAt);
  let availableOn = t.Kind === 'Payout' ? created : created + AVAILABLE_AFTER_SECONDS;
  if (payout !== null && t.Kind !== 'Payout') availableOn = Math.min(availableOn, unix(payout.CreatedAt));
  const paidOut = payout !== null;
  const sourceId = t.Kind === 'Payout' ? (t.PayoutId ?? t.Id.replace(/^PO-/, '')) : (t.OrderId ?? '');
  const description =
    t.Kind === 'Payout' ? 'STRIPE PAYOUT' : t.Kind === 'Charge' ? `Order charge (${t.OrderId ?? ''})` : `REFUND FOR CHARGE (${t.OrderId ?? ''})`;
  return {
    id: stripeId('balance_transaction', t.Id),
    object: 'balance_transaction',
    amount,
    available_on: availableOn,
    created,
    currency: lower(currency),
    description,
    exchange_rate: null,
    fee,
    fee_details: feeDetails(fee, lower(currency)),
    net: amount - fee,
    reporting_category: kind.category,
    source: stripeId(kind.object, sourceId),
    status: paidOut || availableOn <= nowSeconds ? 'available' : 'pending',
    type: kind.type,
  } satisfies Rendered<Stripe.BalanceTransaction>;
}

/** A payout as it was at `asOf` (unix seconds): in transit until it arrived, paid after. */
export function renderPayout(payout: NativePayout, asOf = Number.POSITIVE_INFINITY): Json {
  const paid = payout.Status === 'Paid' && unix(payout.UpdatedAt) <= asOf;
  return {
    id: stripeId('payout', payout.Id),
    object: 'payout',
    amount: minor(payout.Amount, payout.CurrencyCode),
    arrival_date: unix(`${payout.ArrivalDate}T00:00:00Z`),
    // SANDBOX's gateway pays out on its schedule only.
    automatic: true,
    balance_transaction: stripeId('balance_transaction', `PO-${payout.Id}`),
    created: unix(payout.CreatedAt),
    currency: lower(payout.CurrencyCode),
    description: 'STRIPE PAYOUT',
    destination: stripeId('bank_account', payout.DestinationAccountId),
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: { payout_id: payout.Id },
    method: payout.Method,
    original_payout: null,
    reconciliation_status: paid ? 'completed' : 'in_progress',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: paid ? 'paid' : 'in_transit',
    type: 'bank_account',
  } satisfies Rendered<Stripe.Payout>;
}

/** The connected account: the business's web shop. */
export function renderAccount(
  accountKey: string,
  store: NativeStore | null,
  company: { name: string; country: string; currency: string; createdAt: string | null; email: string | null },
): Json {
  const currency = store?.Currency ?? company.currency;
  const email = store?.ContactEmail ?? company.email;
  const created = store?.CreatedAt ?? company.createdAt;
  return {
    id: accountIdOf(accountKey),
    object: 'account',
    business_profile: {
      mcc: '5999',
      name: store?.Name ?? company.name,
      product_description: null,
      support_address: null,
      support_email: email,
      support_phone: null,
      support_url: null,
      url: store === null ? null : `https://${store.Domain}`,
    },
    business_type: 'company',
    capabilities: { card_payments: 'active', transfers: 'active' },
    charges_enabled: true,
    country: company.country,
    ...(created === null ? {} : { created: unix(created) }),
    default_currency: lower(currency),
    details_submitted: true,
    email,
    metadata: {},
    payouts_enabled: true,
    type: 'standard',
  } satisfies Rendered<Stripe.Account>;
}

/**
 * Stripe objects → unified objects. Pure: a record read once maps the same way every time. A raw record is the SDK's
 * object as Stripe sent it (kept as platform_data), parsed against Stripe's contract into the SDK's type cut to what
 * is read here (./contract.ts); values that need a policy go through the kit's readers (../readers.ts): blank text is
 * null, amounts are converted from Stripe's minor units by the currency's decimals (./money.ts), and a currency the
 * model does not know is the account's default currency.
 */
import { DISPUTE_STATUSES } from '../../model/dispute.ts';
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { CurrencyCode } from '../../model/shared.ts';
import type { ConnectorContext, PlatformRecord } from '../connector.ts';
import type { Mapped } from '../objects.ts';
import { currency as currencyCode, isRecord, strictReaders, text, unixIso } from '../readers.ts';
import { parseRecord, type Account, type Address, type BalanceTransaction } from './contract.ts';
import { toMajor } from './money.ts';

export type { Mapped } from '../objects.ts';
// auth.ts and webhooks.ts read with these names.
export { isRecord as isObject, text, unixIso } from '../readers.ts';

type Ref = Pick<ConnectorContext, 'ref'>;
type Base = CurrencyCode | null;

const { needCurrency } = strictReaders('Stripe');

/** An expandable field: an id, or the expanded object's id. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  return isRecord(value) ? text(value.id) : null;
}

/** An amount of a record in major units of its currency; a currency the model does not know is `base`. */
function moneyOf(record: { amount: number; currency: string; id: string }, base: Base) {
  return { amount: toMajor(record.amount, record.currency), iso_currency_code: needCurrency(record, 'currency', base) };
}

/** "Ada Lovelace King" → first "Ada", last "Lovelace King". */
export function splitName(name: string | null): { first: string | null; last: string | null } {
  if (name === null) return { first: null, last: null };
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first: text(first), last: text(rest.join(' ')) };
}

function orderAddress(address: Address | null | undefined, name: unknown, phone: unknown): Mapped<'order'>['billing_address'] {
  if (address === null || address === undefined) return null;
  const { first, last } = splitName(text(name));
  return {
    address1: text(address.line1),
    address2: text(address.line2),
    city: text(address.city),
    first_name: first,
    last_name: last,
    phone: text(phone),
    postal_code: text(address.postal_code),
    country_code: text(address.country),
    region: text(address.state),
  };
}

/**
 * A charge as an order: Stripe knows no products for a charge, so the order has one line for the amount (its title the
 * charge's description). A full refund refunds that line; a partial refund is no quantity of it, so it shows only in
 * payment_status (partially_refunded) and in the refund transactions. No shipping, discount or tax lines.
 */
export function mapOrder(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'order'> {
  const charge = parseRecord('charge', record.raw);
  const { amount, iso_currency_code: currency } = moneyOf(charge, base);
  const billing = charge.billing_details;
  const shipping = charge.shipping;
  const customerId = idOf(charge.customer);
  const { first, last } = splitName(text(billing?.name));
  const lineId = `${record.platformId}:amount`;
  const refunded = charge.refunded === true;
  const created = unixIso(charge.created);
  return {
    platform_id: record.platformId,
    order_number: text(charge.receipt_number) ?? record.platformId,
    status: charge.status,
    payment_status: refunded ? 'refunded' : (charge.amount_refunded ?? 0) > 0 ? 'partially_refunded' : charge.paid === true ? 'paid' : 'unpaid',
    fulfillment_status: null,
    fulfillments: [],
    line_items: [
      {
        id: lineId,
        product_id: null,
        variant_id: null,
        title: text(charge.description) ?? text(charge.statement_descriptor) ?? 'Charge',
        sku: null,
        unit_cost: null,
        price: amount,
        quantity: 1,
        iso_currency_code: currency,
        // The line is the charge's amount, fixed when the charge was made.
        created_at: created,
        updated_at: created,
      },
    ],
    // `refunded` is set once the whole amount went back.
    refunds: refunded ? [{ line_items: [{ line_item_id: lineId, quantity: 1, status: 'completed' }] }] : [],
    billing_address: orderAddress(billing?.address, billing?.name, billing?.phone),
    shipping_address: shipping === null || shipping === undefined ? null : orderAddress(shipping.address, shipping.name, shipping.phone),
    customer:
      customerId === null
        ? null
        : {
            id: ref.ref('commerce_customer', customerId) ?? customerId,
            email: text(billing?.email) ?? text(charge.receipt_email),
            first_name: first,
            last_name: last,
            orders_count: null,
            verified_email: null,
            phone: text(billing?.phone),
            // The charge names its customer by id only; the customer's dates are on the commerce customer.
            created_at: null,
            updated_at: null,
          },
    total_shipping: 0,
    total_discount: 0,
    total_tax: 0,
    total_price: amount,
    iso_currency_code: currency,
    created_at: created,
    updated_at: null,
  };
}

const SALE = new Set(['charge', 'payment']);
const REFUND = new Set(['refund', 'payment_refund', 'payment_failure_refund']);
const FEE = new Set(['stripe_fee', 'application_fee', 'tax_fee', 'stripe_fx_fee', 'payment_network_reserve_hold']);

/** Stripe's balance transaction type → ours: charge → sale, refund → refund, fees → fee, payout → payout, rest → other. */
export function transactionType(type: string): Mapped<'transaction'>['type'] {
  if (SALE.has(type)) return 'sale';
  if (REFUND.has(type)) return 'refund';
  if (FEE.has(type)) return 'fee';
  if (type === 'payout') return 'payout';
  // adjustment (disputes, their reversals), transfer, topup, reserve movements, payout_cancel / payout_failure, …
  return 'other';
}

function transactionFields(bt: BalanceTransaction, ref: Ref, base: Base) {
  const source = idOf(bt.source);
  return {
    order_id: bt.type === 'charge' || bt.type === 'payment' ? ref.ref('order', source) : null,
    payment_method_type: bt.type === 'charge' || bt.type === 'refund' ? ('card' as const) : ('other' as const),
    status: bt.status === 'available' ? ('success' as const) : bt.status === 'pending' ? ('pending' as const) : ('other' as const),
    type: transactionType(bt.type),
    ...moneyOf(bt, base),
    fee: toMajor(bt.fee, bt.currency),
    gateway: 'stripe',
    description: text(bt.description),
    created_at: unixIso(bt.created),
  };
}

/** A balance transaction. Its amount is Stripe's gross with Stripe's sign; fee what Stripe kept; amount - fee is net. */
export function mapTransaction(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'transaction'> {
  const bt = parseRecord('balance_transaction', record.raw);
  return {
    platform_id: record.platformId,
    ...transactionFields(bt, ref, base),
    customer_id: null,
    payout_id: bt.type === 'payout' ? ref.ref('payout', idOf(bt.source)) : null,
    updated_at: null,
  };
}

const PAYOUT_STATUS: Readonly<Record<string, Mapped<'payout'>['status']>> = {
  paid: 'paid',
  pending: 'pending',
  in_transit: 'in_transit',
  canceled: 'cancelled',
  failed: 'failed',
};

/**
 * A payout with the balance transactions it paid out, which the reader puts beside it in the raw record
 * (`balance_transactions`, from GET /v1/balance_transactions?payout=…, the payout's own one left out) with the account
 * (`account`). The payout's amount is the sum of their amount less fee.
 */
export function mapPayout(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'payout'> {
  const payout = parseRecord('payout', record.raw);
  const destination = payout.destination;
  const expanded = typeof destination === 'object' && destination !== null ? destination : null;
  const last4 = expanded !== null && 'last4' in expanded ? text(expanded.last4) : null;
  const created = unixIso(payout.created);
  const { amount, iso_currency_code } = moneyOf(payout, base);
  return {
    platform_id: record.platformId,
    gateway_account_id: text(payout.account) ?? '',
    arrival_at: unixIso(payout.arrival_date) ?? created ?? new Date(0).toISOString(),
    amount,
    gateway: 'stripe',
    iso_currency_code,
    schedule: payout.automatic === true ? 'automatic' : payout.automatic === false ? 'manual' : 'unknown',
    status: PAYOUT_STATUS[payout.status ?? ''] ?? 'unknown',
    type: payout.type === 'card' ? 'card' : payout.type === 'bank_account' ? 'bank_account' : 'unknown',
    method: text(payout.method),
    destination:
      destination === null || destination === undefined
        ? null
        : {
            destination_id: idOf(destination),
            account_number_last_digits: last4,
            bank_name: expanded !== null && 'bank_name' in expanded ? text(expanded.bank_name) : null,
            brand: expanded !== null && 'brand' in expanded ? text(expanded.brand) : null,
            last_four: last4,
            routing_number: expanded !== null && 'routing_number' in expanded ? text(expanded.routing_number) : null,
          },
    transactions: (payout.balance_transactions ?? []).map((bt) => {
      const fields = transactionFields(bt, ref, base);
      const at = fields.created_at ?? created ?? new Date(0).toISOString();
      return { id: bt.id, ...fields, created_at: at, updated_at: at };
    }),
    created_at: created,
    updated_at: null,
  };
}

const isDisputeStatus = (value: string): value is Mapped<'dispute'>['status'] => DISPUTE_STATUSES.some((known) => known === value);

/**
 * Stripe's dispute status as ours: the same names, except charge_refunded (an inquiry closed by refunding the charge)
 * → warning_closed and prevented (stopped before it became a dispute) → won; anything newer → under_review.
 */
export function disputeStatus(status: string): Mapped<'dispute'>['status'] {
  if (isDisputeStatus(status)) return status;
  if (status === 'charge_refunded') return 'warning_closed';
  return status === 'prevented' ? 'won' : 'under_review';
}

/** A dispute: linked to the disputed charge (our order). The disputed sale's balance transaction is not on it: null. */
export function mapDispute(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'dispute'> {
  const dispute = parseRecord('dispute', record.raw);
  return {
    platform_id: record.platformId,
    transaction_id: null,
    order_id: ref.ref('order', idOf(dispute.charge)),
    ...moneyOf(dispute, base),
    reason: dispute.reason,
    status: disputeStatus(dispute.status),
    evidence_due_by: unixIso(dispute.evidence_details?.due_by),
    created_at: unixIso(dispute.created),
    updated_at: null,
  };
}

/** A Stripe customer as a commerce customer; its orders are not listed (Stripe lists them per customer, a call each). */
export function mapCommerceCustomer(record: PlatformRecord): Mapped<'commerce_customer'> {
  const customer = parseRecord('customer', record.raw);
  const { first, last } = splitName(text(customer.name));
  return {
    platform_id: record.platformId,
    email: text(customer.email),
    first_name: first,
    last_name: last,
    phone: text(customer.phone),
    orders: [],
    created_at: unixIso(customer.created),
    updated_at: null,
  };
}

function accountingAddress(type: string, address: Address | null | undefined): Mapped<'customer'>['addresses'][number] | null {
  if (address === null || address === undefined) return null;
  return {
    type,
    address1: text(address.line1),
    address2: text(address.line2),
    address3: null,
    city: text(address.city),
    country: text(address.country),
    postal_code: text(address.postal_code),
    region: text(address.state),
  };
}

/** The same Stripe customer as an accounting customer (what a lender reconciles invoices against). */
export function mapAccountingCustomer(record: PlatformRecord, _ref?: Ref, base: Base = null): Mapped<'customer'> {
  const customer = parseRecord('customer', record.raw);
  return {
    platform_id: record.platformId,
    parent_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    status: 'active',
    contact_name: text(customer.name),
    currency_code: currencyCode(customer.currency, base),
    customer_name: text(customer.name) ?? text(customer.email),
    // Stripe keeps one name, not its parts.
    first_name: null,
    last_name: null,
    email: text(customer.email),
    phone: text(customer.phone),
    registration_number: null,
    tax_number: null,
    subsidiaries: null,
    addresses: [accountingAddress('billing', customer.address), accountingAddress('shipping', customer.shipping?.address)].filter((a) => a !== null),
    contacts: [],
    created_at: unixIso(customer.created),
    updated_at: null,
    platform_url: stripeDashboardUrl('customer', record.platformId),
  };
}

/**
 * Stripe's subscription status as the reference's: past_due is still billed (active), trialing is in_trial,
 * incomplete_expired never started (canceled); incomplete and unpaid (billing stopped, invoices left open) are unknown.
 */
const SUBSCRIPTION_STATUSES: Readonly<Record<string, Mapped<'subscription'>['status']>> = {
  active: 'active',
  past_due: 'active',
  trialing: 'in_trial',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
  paused: 'paused',
};

/** A subscription: one item per price, amounts in major units (the unit price × quantity, computed in minor units). */
export function mapSubscription(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'subscription'> {
  const subscription = parseRecord('subscription', record.raw);
  const customer = idOf(subscription.customer);
  const currency = subscription.currency;
  return {
    platform_id: record.platformId,
    customer_id: ref.ref('commerce_customer', customer),
    platform_customer_id: customer,
    iso_currency_code: needCurrency(subscription, 'currency', base),
    status: SUBSCRIPTION_STATUSES[subscription.status] ?? 'unknown',
    items: (subscription.items?.data ?? []).map((item) => {
      const unit = item.price?.unit_amount ?? null;
      const quantity = item.quantity ?? 1;
      return {
        platform_id: text(item.id),
        interval: item.price?.recurring?.interval ?? 'unknown',
        interval_count: item.price?.recurring?.interval_count ?? 1,
        quantity,
        amount: unit === null ? null : toMajor(unit * quantity, currency),
        unit_amount: unit === null ? null : toMajor(unit, currency),
      };
    }),
    created_at: unixIso(subscription.created),
    // Stripe keeps no time of a subscription's last change.
    updated_at: null,
  };
}

/** The account as the store. */
export function mapStore(record: PlatformRecord): Mapped<'store'> {
  const account = parseRecord('account', record.raw);
  const profile = account.business_profile;
  return {
    platform_id: record.platformId,
    store_name: storeName(account) ?? record.platformId,
    url: text(profile?.url) ?? `https://dashboard.stripe.com/${record.platformId}`,
    default_currency: currencyCode(account.default_currency, null),
    email: text(account.email) ?? text(profile?.support_email),
    updated_at: null,
  };
}

/** Business name, else the dashboard's display name. */
export const storeName = (account: Account): string | null => text(account.business_profile?.name) ?? text(account.settings?.dashboard?.display_name);

const DASHBOARD_PATHS: Partial<Record<UnifiedObjectType, string>> = {
  order: 'payments',
  transaction: 'balance/transactions',
  payout: 'payouts',
  dispute: 'disputes',
  commerce_customer: 'customers',
  customer: 'customers',
  subscription: 'subscriptions',
};

export function stripeDashboardUrl(type: UnifiedObjectType, platformId: string): string | null {
  const path = DASHBOARD_PATHS[type];
  return path === undefined ? null : `https://dashboard.stripe.com/${path}/${encodeURIComponent(platformId)}`;
}

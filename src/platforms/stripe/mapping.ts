/**
 * Stripe objects → unified objects. Pure: a record read once maps the same way every time. Raw records are the
 * library's JSON (Stripe's own field names, kept as platform_data), read with the kit's readers (../readers.ts), never
 * cast; a required field of the wrong type is an AnswerShapeError. Amounts are converted from Stripe's minor units by
 * the currency's decimals (./money.ts); a currency the model does not know is the account's default currency.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { CurrencyCode } from '../../model/shared.ts';
import type { ConnectorContext, PlatformRecord } from '../connector.ts';
import type { Mapped } from '../objects.ts';
import { currency as currencyCode, isRecord, record as object, records, strictReaders, text, unixIso } from '../readers.ts';
import { toMajor } from './money.ts';

export type { Mapped } from '../objects.ts';
// auth.ts and webhooks.ts read with these names.
export { isRecord as isObject, text, unixIso } from '../readers.ts';

type Raw = Record<string, unknown>;
type Ref = Pick<ConnectorContext, 'ref'>;
type Base = CurrencyCode | null;

const { needText: required, needInteger: integer, needCurrency } = strictReaders('Stripe');

/** An expandable field: an id, or the expanded object's id. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  return isRecord(value) ? text(value.id) : null;
}

/** The record's currency; one the model does not know is the account's default currency (`base`). */
export const currencyOf = (raw: Raw, base: Base = null): CurrencyCode => needCurrency(raw, 'currency', base);

/** `amount`-like field in major units of the record's currency. */
function money(raw: Raw, field: string): number {
  return toMajor(integer(raw, field), required(raw, 'currency'));
}

/** "Ada Lovelace King" → first "Ada", last "Lovelace King". */
export function splitName(name: string | null): { first: string | null; last: string | null } {
  if (name === null) return { first: null, last: null };
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first: text(first), last: text(rest.join(' ')) };
}

function orderAddress(address: Raw | null, name: string | null, phone: string | null): Mapped<'order'>['billing_address'] {
  if (address === null) return null;
  const { first, last } = splitName(name);
  return {
    address1: text(address.line1),
    address2: text(address.line2),
    city: text(address.city),
    first_name: first,
    last_name: last,
    phone,
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
  const charge = record.raw;
  const currency = currencyOf(charge, base);
  const amount = money(charge, 'amount');
  const billing = object(charge.billing_details) ?? {};
  const shipping = object(charge.shipping);
  const customerId = idOf(charge.customer);
  const name = text(billing.name);
  const { first, last } = splitName(name);
  const lineId = `${record.platformId}:amount`;
  const refunded = charge.refunded === true;
  const amountRefunded = typeof charge.amount_refunded === 'number' ? charge.amount_refunded : 0;
  return {
    platform_id: record.platformId,
    order_number: text(charge.receipt_number) ?? record.platformId,
    status: required(charge, 'status'),
    payment_status: refunded ? 'refunded' : amountRefunded > 0 ? 'partially_refunded' : charge.paid === true ? 'paid' : 'unpaid',
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
      },
    ],
    refunds: refunded ? [{ line_items: [{ line_item_id: lineId, quantity: 1 }] }] : [],
    billing_address: orderAddress(object(billing.address), name, text(billing.phone)),
    shipping_address: shipping === null ? null : orderAddress(object(shipping.address), text(shipping.name), text(shipping.phone)),
    customer:
      customerId === null
        ? null
        : {
            id: ref.ref('commerce_customer', customerId) ?? customerId,
            email: text(billing.email) ?? text(charge.receipt_email),
            first_name: first,
            last_name: last,
            orders_count: null,
            verified_email: null,
            phone: text(billing.phone),
          },
    total_shipping: 0,
    total_discount: 0,
    total_tax: 0,
    total_price: amount,
    iso_currency_code: currency,
    created_at: unixIso(charge.created),
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

function transactionFields(bt: Raw, ref: Ref, base: Base) {
  const type = required(bt, 'type');
  const source = idOf(bt.source);
  return {
    order_id: type === 'charge' || type === 'payment' ? ref.ref('order', source) : null,
    payment_method_type: type === 'charge' || type === 'refund' ? ('card' as const) : ('other' as const),
    status: bt.status === 'available' ? ('success' as const) : bt.status === 'pending' ? ('pending' as const) : ('other' as const),
    type: transactionType(type),
    amount: money(bt, 'amount'),
    fee: money(bt, 'fee'),
    gateway: 'stripe',
    iso_currency_code: currencyOf(bt, base),
    description: text(bt.description),
    created_at: unixIso(bt.created),
  };
}

/** A balance transaction. Its amount is Stripe's gross with Stripe's sign; fee what Stripe kept; amount - fee is net. */
export function mapTransaction(record: PlatformRecord, ref: Ref, base: Base = null): Mapped<'transaction'> {
  const bt = record.raw;
  const fields = transactionFields(bt, ref, base);
  return {
    platform_id: record.platformId,
    ...fields,
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
  const payout = record.raw;
  const transactions = records(payout.balance_transactions);
  const destination = payout.destination;
  const destinationObject = object(destination);
  const type = payout.type === 'card' ? 'card' : payout.type === 'bank_account' ? 'bank_account' : 'unknown';
  const created = unixIso(payout.created);
  return {
    platform_id: record.platformId,
    gateway_account_id: text(payout.account) ?? '',
    arrival_at: unixIso(payout.arrival_date) ?? created ?? new Date(0).toISOString(),
    amount: money(payout, 'amount'),
    gateway: 'stripe',
    iso_currency_code: currencyOf(payout, base),
    schedule: payout.automatic === true ? 'automatic' : payout.automatic === false ? 'manual' : 'unknown',
    status: PAYOUT_STATUS[text(payout.status) ?? ''] ?? 'unknown',
    type,
    method: text(payout.method),
    destination:
      destination === null || destination === undefined
        ? null
        : {
            destination_id: idOf(destination),
            account_number_last_digits: destinationObject === null ? null : text(destinationObject.last4),
            bank_name: destinationObject === null ? null : text(destinationObject.bank_name),
            brand: destinationObject === null ? null : text(destinationObject.brand),
            last_four: destinationObject === null ? null : text(destinationObject.last4),
            routing_number: destinationObject === null ? null : text(destinationObject.routing_number),
          },
    transactions: transactions.map((bt) => {
      const fields = transactionFields(bt, ref, base);
      return {
        id: required(bt, 'id'),
        ...fields,
        created_at: fields.created_at ?? created ?? new Date(0).toISOString(),
        updated_at: fields.created_at ?? created ?? new Date(0).toISOString(),
      };
    }),
    created_at: created,
    updated_at: null,
  };
}

const DISPUTE_STATUSES: ReadonlySet<string> = new Set([
  'needs_response',
  'under_review',
  'won',
  'lost',
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
]);
const isDisputeStatus = (value: string): value is Mapped<'dispute'>['status'] => DISPUTE_STATUSES.has(value);

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
  const dispute = record.raw;
  const status = required(dispute, 'status');
  const evidence = object(dispute.evidence_details);
  return {
    platform_id: record.platformId,
    transaction_id: null,
    order_id: ref.ref('order', idOf(dispute.charge)),
    amount: money(dispute, 'amount'),
    iso_currency_code: currencyOf(dispute, base),
    reason: required(dispute, 'reason'),
    status: disputeStatus(status),
    evidence_due_by: evidence === null ? null : unixIso(evidence.due_by),
    created_at: unixIso(dispute.created),
    updated_at: null,
  };
}

/** A Stripe customer as a commerce customer; its orders are not listed (Stripe lists them per customer, a call each). */
export function mapCommerceCustomer(record: PlatformRecord): Mapped<'commerce_customer'> {
  const customer = record.raw;
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

function accountingAddress(kind: string, address: Raw | null): Mapped<'customer'>['addresses'][number] | null {
  if (address === null) return null;
  return {
    type: kind,
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
export function mapAccountingCustomer(record: PlatformRecord, base: Base = null): Mapped<'customer'> {
  const customer = record.raw;
  const shipping = object(customer.shipping);
  return {
    platform_id: record.platformId,
    parent_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    status: 'active',
    contact_name: text(customer.name),
    currency_code: currencyCode(customer.currency, base),
    customer_name: text(customer.name) ?? text(customer.email),
    email: text(customer.email),
    phone: text(customer.phone),
    registration_number: null,
    tax_number: null,
    subsidiaries: null,
    addresses: [
      accountingAddress('billing', object(customer.address)),
      accountingAddress('shipping', shipping === null ? null : object(shipping.address)),
    ].filter((a) => a !== null),
    contacts: [],
    created_at: unixIso(customer.created),
    updated_at: null,
    platform_url: stripeDashboardUrl('customer', record.platformId),
  };
}

/** The account as the store. */
export function mapStore(record: PlatformRecord): Mapped<'store'> {
  const account = record.raw;
  const profile = object(account.business_profile) ?? {};
  return {
    platform_id: record.platformId,
    store_name: storeName(account) ?? record.platformId,
    url: text(profile.url) ?? `https://dashboard.stripe.com/${record.platformId}`,
    default_currency: currencyCode(account.default_currency, null),
    email: text(account.email) ?? text(profile.support_email),
    updated_at: null,
  };
}

/** Business name, else the dashboard's display name. */
export function storeName(account: Raw): string | null {
  const profile = object(account.business_profile);
  const settings = object(account.settings);
  const dashboard = settings === null ? null : object(settings.dashboard);
  return (profile === null ? null : text(profile.name)) ?? (dashboard === null ? null : text(dashboard.display_name));
}

const DASHBOARD_PATHS: Partial<Record<UnifiedObjectType, string>> = {
  order: 'payments',
  transaction: 'balance/transactions',
  payout: 'payouts',
  dispute: 'disputes',
  commerce_customer: 'customers',
  customer: 'customers',
};

export function stripeDashboardUrl(type: UnifiedObjectType, platformId: string): string | null {
  const path = DASHBOARD_PATHS[type];
  return path === undefined ? null : `https://dashboard.stripe.com/${path}/${encodeURIComponent(platformId)}`;
}

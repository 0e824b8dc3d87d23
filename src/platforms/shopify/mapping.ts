/**
 * Shopify records (as the 2026-10 GraphQL queries of queries.ts return them, or as a bulk export's lines are put back
 * together by bulk.ts) to the unified commerce objects, typed by the model (Mapped<K>). Pure: links are service ids via
 * ctx.ref. A record's raw value is what parseAnswer let through (./contract.ts), or a copy stored from it: typed by
 * the document that read it, every field optional, since the contract checks types, not presence. Values go through
 * the kit's policy readers (../readers.ts): blank text is null, amounts are decimal text, a field Shopify leaves out
 * maps to null (or 0 / [] where the unified field is not nullable). A currency code the model does not know is the
 * shop's currency (`base`: SHOPIFY_BASE, learnt once per job); a record that names none falls back to it where the
 * model needs one.
 */
import type { CurrencyCode } from '../../model/shared.ts';
import type { ConnectorContext, PlatformRecord } from '../connector.ts';
import type { Mapped } from '../objects.ts';
import { currency as currencyCode, decimal, lower, sumAmounts, text } from '../readers.ts';
import type { Customers, Disputes, NodeOf, Orders, Payouts, PayoutTransactions, Products, Shop, TransactionsBulk } from './contract.ts';
import { isWriteKeyTag } from './products.ts';
import type { Connection } from './read.ts';

export { text } from '../readers.ts';
type Base = CurrencyCode | null;

export type ShopifyOrder = NodeOf<Orders['orders']>;
type LineItem = NodeOf<ShopifyOrder['lineItems']>;
type Address = ShopifyOrder['billingAddress'];
type Variant = NodeOf<NodeOf<Products['products']>['variants']>;
/** A variant as stored: one read before media replaced the deprecated `image` has that instead. */
type StoredVariant = Variant & { image?: { url?: string | null } | null };
export type ShopifyProduct = Omit<NodeOf<Products['products']>, 'variants'> & { variants?: Connection<StoredVariant> };
type ShopifyCustomer = NodeOf<Customers['customers']>;
/** An order as read for its transactions (the bulk export's, which has the paged query's fields and the name). */
export type TransactionsOrder = TransactionsBulk;
/** An order transaction, as transactionsOf flattens them: the order's id, name and customer ride along in `_order`. */
export type ShopifyTransaction = NonNullable<TransactionsOrder['transactions']>[number] & {
  _order?: Pick<TransactionsOrder, 'id' | 'name' | 'customer'>;
};
export type BalanceTransaction = NodeOf<NonNullable<PayoutTransactions['shopifyPaymentsAccount']>['balanceTransactions']>;
/** A payout with the payments account's id (`_account`) and the balance transactions it paid out (`_transactions`). */
export type ShopifyPayout = NodeOf<NonNullable<Payouts['shopifyPaymentsAccount']>['payouts']> & {
  _account?: string | null;
  _transactions?: BalanceTransaction[];
};
type ShopifyDispute = NodeOf<NonNullable<Disputes['shopifyPaymentsAccount']>['disputes']>;
export type ShopifyShop = NonNullable<Shop['shop']>;

type MoneyV2 = NonNullable<ShopifyPayout['net']>;

/** A MoneyV2's amount and currency (a MoneyBag's is its shopMoney: the shop's currency). */
function money(value: MoneyV2 | null | undefined, base: Base): { amount: number | null; currency: CurrencyCode | null } {
  return { amount: decimal(value?.amount), currency: currencyCode(value?.currencyCode, base) };
}
const amountOf = (value: MoneyV2 | null | undefined): number => money(value, null).amount ?? 0;

function address(raw: Address): Mapped<'order'>['billing_address'] {
  if (raw === null || raw === undefined) return null;
  return {
    address1: text(raw.address1),
    address2: text(raw.address2),
    city: text(raw.city),
    first_name: text(raw.firstName),
    last_name: text(raw.lastName),
    phone: text(raw.phone),
    postal_code: text(raw.zip),
    country_code: text(raw.countryCodeV2),
    region: text(raw.province),
  };
}

type Reachable = Pick<ShopifyCustomer, 'defaultEmailAddress' | 'defaultPhoneNumber'>;
const emailOf = (customer: Reachable): string | null => text(customer.defaultEmailAddress?.emailAddress);
const phoneOf = (customer: Reachable): string | null => text(customer.defaultPhoneNumber?.phoneNumber);

function lineItem(raw: LineItem, ctx: ConnectorContext, fallbackCurrency: CurrencyCode | null, base: Base): Mapped<'order'>['line_items'][number] {
  const price = money(raw.originalUnitPriceSet?.shopMoney, base);
  return {
    id: text(raw.id) ?? '',
    product_id: ctx.ref('product', text(raw.product?.id)),
    variant_id: text(raw.variant?.id),
    title: text(raw.title),
    sku: text(raw.sku),
    unit_cost: null,
    price: price.amount ?? 0,
    quantity: raw.quantity ?? 0,
    iso_currency_code: price.currency ?? fallbackCurrency,
    // Shopify's LineItem keeps no dates of its own.
    created_at: null,
    updated_at: null,
  };
}

export function orderStatus(raw: Pick<ShopifyOrder, 'cancelledAt' | 'closed'>): string {
  if (text(raw.cancelledAt) !== null) return 'cancelled';
  return raw.closed === true ? 'closed' : 'open';
}

export function mapOrder(recordIn: PlatformRecord, ctx: ConnectorContext, base: Base = null): Mapped<'order'> {
  const raw: ShopifyOrder = recordIn.raw;
  const orderCurrency = currencyCode(raw.currencyCode, base);
  const lines = (raw.lineItems?.nodes ?? []).map((line) => lineItem(line, ctx, orderCurrency, base));
  const byId = new Map(lines.map((line) => [line.id, line]));
  const customer = raw.customer ?? null;
  const orders = customer === null ? null : decimal(customer.numberOfOrders);
  // A fulfillment's order is this one, by its service id: links are service ids (spec, shared rules), never Shopify's gid.
  const orderId = ctx.ref('order', recordIn.platformId) ?? '';
  return {
    platform_id: recordIn.platformId,
    order_number: text(raw.name) ?? recordIn.platformId,
    status: orderStatus(raw),
    payment_status: lower(raw.displayFinancialStatus),
    fulfillment_status: lower(raw.displayFulfillmentStatus),
    fulfillments: (raw.fulfillments ?? []).map((fulfillment) => {
      const tracking = fulfillment.trackingInfo?.[0] ?? null;
      return {
        id: text(fulfillment.id),
        order_id: orderId,
        carrier: text(tracking?.company),
        service: text(fulfillment.service?.serviceName),
        tracking_number: text(tracking?.number),
        tracking_url: text(tracking?.url),
        line_items: (fulfillment.fulfillmentLineItems?.nodes ?? []).flatMap((item) => {
          const line = byId.get(text(item.lineItem?.id) ?? '');
          return line === undefined ? [] : [{ ...line, quantity: item.quantity ?? line.quantity }];
        }),
      };
    }),
    line_items: lines,
    refunds: (raw.refunds ?? []).map((refund) => ({
      line_items: (refund.refundLineItems?.nodes ?? []).map((item) => ({
        line_item_id: text(item.lineItem?.id) ?? '',
        quantity: item.quantity ?? 0,
        // A refund line item has no status: whether the money went back is on the refund's transactions, not read here.
        status: null,
      })),
    })),
    billing_address: address(raw.billingAddress),
    shipping_address: address(raw.shippingAddress),
    customer:
      customer === null
        ? null
        : {
            id: ctx.ref('commerce_customer', text(customer.id)) ?? '',
            email: emailOf(customer),
            first_name: text(customer.firstName),
            last_name: text(customer.lastName),
            orders_count: orders === null ? null : Math.trunc(orders),
            verified_email: customer.verifiedEmail ?? null,
            phone: phoneOf(customer),
            created_at: text(customer.createdAt),
            updated_at: text(customer.updatedAt),
          },
    total_shipping: amountOf(raw.totalShippingPriceSet?.shopMoney),
    total_discount: amountOf(raw.totalDiscountsSet?.shopMoney),
    total_tax: amountOf(raw.totalTaxSet?.shopMoney),
    total_price: amountOf(raw.totalPriceSet?.shopMoney),
    iso_currency_code: orderCurrency ?? money(raw.totalPriceSet?.shopMoney, base).currency ?? base ?? 'USD',
    created_at: text(raw.createdAt),
    updated_at: text(raw.updatedAt),
  };
}

const PRODUCT_STATUS: Readonly<Record<string, Mapped<'product'>['status']>> = {
  ACTIVE: 'active',
  DRAFT: 'draft',
  ARCHIVED: 'archived',
  UNLISTED: 'inactive',
};

export function mapProduct(recordIn: PlatformRecord, ctx: ConnectorContext, base: Base = null): Mapped<'product'> {
  const raw: ShopifyProduct = recordIn.raw;
  const productId = ctx.ref('product', recordIn.platformId) ?? '';
  const featured = text(raw.featuredMedia?.preview?.image?.url);
  return {
    platform_id: recordIn.platformId,
    name: text(raw.title) ?? '',
    description: text(raw.description) ?? '',
    type: text(raw.productType) ?? '',
    status: PRODUCT_STATUS[text(raw.status) ?? ''] ?? 'unknown',
    product_url: text(raw.onlineStoreUrl),
    images: featured === null ? [] : [{ src: featured }],
    // The tag a create leaves to be found by after an interrupted attempt (products.ts) is not the merchant's.
    tags: (raw.tags ?? []).filter((tag) => !isWriteKeyTag(tag)),
    variants: (raw.variants?.nodes ?? []).map((variant) => {
      const item = variant.inventoryItem;
      const tracked = item?.tracked === true;
      // Its first media's picture; `image` in what was read before media replaced that deprecated field.
      const image = text(variant.media?.nodes?.[0]?.preview?.image?.url) ?? text(variant.image?.url);
      return {
        id: text(variant.id) ?? '',
        platform_id: text(variant.id) ?? '',
        product_id: productId,
        title: text(variant.title),
        sku: text(variant.sku),
        barcode: text(variant.barcode),
        price: decimal(variant.price) ?? 0,
        unit_cost: money(item?.unitCost, base).amount,
        // Shopify prices a variant in the shop's currency without naming it on the variant.
        iso_currency_code: money(item?.unitCost, base).currency,
        requires_shipping: item?.requiresShipping !== false,
        fulfillment_service: null,
        inventory_management: tracked ? 'shopify' : null,
        inventory_quantity: tracked ? (variant.inventoryQuantity ?? null) : null,
        option_values: (variant.selectedOptions ?? []).map((option) => ({ name: text(option.name) ?? '', value: text(option.value) ?? '' })),
        images: image === null ? [] : [{ src: image }],
        created_at: text(variant.createdAt),
        updated_at: text(variant.updatedAt),
      };
    }),
    created_at: text(raw.createdAt),
    updated_at: text(raw.updatedAt),
  };
}

export function mapCustomer(recordIn: PlatformRecord): Mapped<'commerce_customer'> {
  const raw: ShopifyCustomer = recordIn.raw;
  return {
    platform_id: recordIn.platformId,
    email: emailOf(raw),
    first_name: text(raw.firstName),
    last_name: text(raw.lastName),
    phone: phoneOf(raw),
    // The orders a customer placed are linked from the orders (order.customer); Shopify's customer query is not asked for them.
    orders: [],
    created_at: text(raw.createdAt),
    updated_at: text(raw.updatedAt),
  };
}

const TRANSACTION_TYPES: Readonly<Record<string, Mapped<'transaction'>['type']>> = { SALE: 'sale', CAPTURE: 'sale', REFUND: 'refund', VOID: 'void' };
const TRANSACTION_STATUSES: Readonly<Record<string, Mapped<'transaction'>['status']>> = {
  SUCCESS: 'success',
  FAILURE: 'failure',
  ERROR: 'failure',
  PENDING: 'pending',
  AWAITING_RESPONSE: 'pending',
};

/** An order transaction, as transactionsOf flattens them: the order's id and customer ride along in `_order`. */
export function mapTransaction(recordIn: PlatformRecord, ctx: ConnectorContext, base: Base = null): Mapped<'transaction'> {
  const raw: ShopifyTransaction = recordIn.raw;
  const order = raw._order;
  const amount = money(raw.amountSet?.shopMoney, base);
  const type = TRANSACTION_TYPES[text(raw.kind) ?? ''] ?? 'other';
  const fee = sumAmounts((raw.fees ?? []).map((fee) => money(fee.amount, base).amount ?? 0));
  return {
    platform_id: recordIn.platformId,
    order_id: ctx.ref('order', text(order?.id)),
    customer_id: ctx.ref('commerce_customer', text(order?.customer?.id)),
    payout_id: null,
    payment_method_type: text(raw.gateway) === 'cash' ? 'cash' : text(raw.gateway) === 'shopify_payments' ? 'card' : 'other',
    status: TRANSACTION_STATUSES[text(raw.status) ?? ''] ?? 'other',
    type,
    amount: amount.amount === null ? null : type === 'refund' ? -amount.amount : amount.amount,
    fee,
    gateway: text(raw.gateway),
    iso_currency_code: amount.currency,
    description: text(raw.kind) === null ? null : `${lower(raw.kind) ?? ''} of order ${text(order?.name) ?? text(order?.id) ?? ''}`.trim(),
    created_at: text(raw.createdAt),
    updated_at: text(raw.processedAt) ?? text(raw.createdAt),
  };
}

const PAYOUT_STATUSES: Readonly<Record<string, Mapped<'payout'>['status']>> = {
  PAID: 'paid',
  IN_TRANSIT: 'in_transit',
  SCHEDULED: 'pending',
  CANCELED: 'cancelled',
  FAILED: 'failed',
};

/** Balance transaction types by the unified payout transaction type; the many others (adjustments, lending, …) are `other`. */
type PayoutTransaction = Mapped<'payout'>['transactions'][number];
const BALANCE_TYPES: Readonly<Record<string, PayoutTransaction['type']>> = {
  CHARGE: 'sale',
  REFUND: 'refund',
  TRANSFER: 'payout',
  STRIPE_FEE: 'fee',
  CHARGEBACK_FEE: 'fee',
};

function payoutTransaction(raw: BalanceTransaction, ctx: ConnectorContext, payoutStatus: string, base: Base): PayoutTransaction {
  const amount = money(raw.amount, base);
  const when = text(raw.transactionDate) ?? '';
  const order = raw.associatedOrder ?? null;
  return {
    id: text(raw.id) ?? '',
    order_id: ctx.ref('order', text(order?.id)),
    payment_method_type: text(raw.type) === 'CHARGE' || text(raw.type) === 'REFUND' ? 'card' : 'other',
    // A transaction a payout carries is settled when the payout is paid, pending until then.
    status: payoutStatus === 'paid' ? 'success' : payoutStatus === 'failed' || payoutStatus === 'cancelled' ? 'failure' : 'pending',
    type: BALANCE_TYPES[text(raw.type) ?? ''] ?? 'other',
    amount: amount.amount,
    fee: Math.abs(amountOf(raw.fee)),
    gateway: 'shopify_payments',
    iso_currency_code: amount.currency,
    description: order === null ? lower(raw.type) : `${lower(raw.type) ?? ''} of order ${text(order.name) ?? ''}`.trim(),
    created_at: when,
    updated_at: when,
  };
}

export function mapPayout(recordIn: PlatformRecord, ctx: ConnectorContext, base: Base = null): Mapped<'payout'> {
  const raw: ShopifyPayout = recordIn.raw;
  const net = money(raw.net, base);
  const issued = text(raw.issuedAt);
  const status = PAYOUT_STATUSES[text(raw.status) ?? ''] ?? 'unknown';
  return {
    platform_id: recordIn.platformId,
    gateway_account_id: text(raw._account) ?? '',
    arrival_at: issued ?? '',
    amount: net.amount ?? 0,
    gateway: 'shopify_payments',
    iso_currency_code: net.currency ?? base ?? 'USD',
    schedule: 'unknown',
    status,
    type: 'bank_account',
    method: null,
    destination: null,
    transactions: (raw._transactions ?? [])
      .filter((transaction) => transaction.test !== true)
      .map((transaction) => payoutTransaction(transaction, ctx, status, base)),
    created_at: issued,
    updated_at: issued,
  };
}

const DISPUTE_STATUSES: Readonly<Record<string, Mapped<'dispute'>['status']>> = {
  NEEDS_RESPONSE: 'needs_response',
  UNDER_REVIEW: 'under_review',
  WON: 'won',
  LOST: 'lost',
  ACCEPTED: 'lost',
  // The merchant refunded the charge instead of contesting it: the money is gone as in a lost dispute.
  CHARGE_REFUNDED: 'lost',
  // An inquiry settled before it became a chargeback.
  PREVENTED: 'won',
};

export function mapDispute(recordIn: PlatformRecord, ctx: ConnectorContext, base: Base = null): Mapped<'dispute'> {
  const raw: ShopifyDispute = recordIn.raw;
  const amount = money(raw.amount, base);
  const status = DISPUTE_STATUSES[text(raw.status) ?? ''] ?? 'under_review';
  return {
    platform_id: recordIn.platformId,
    transaction_id: null,
    order_id: ctx.ref('order', text(raw.order?.id)),
    amount: Math.abs(amount.amount ?? 0),
    iso_currency_code: amount.currency ?? base ?? 'USD',
    reason: lower(raw.reasonDetails?.reason) ?? 'unknown',
    status,
    evidence_due_by: text(raw.evidenceDueBy),
    created_at: text(raw.initiatedAt),
    updated_at: text(raw.finalizedOn) ?? text(raw.initiatedAt),
  };
}

export function mapStore(recordIn: PlatformRecord): Mapped<'store'> {
  const raw: ShopifyShop = recordIn.raw;
  return {
    platform_id: recordIn.platformId,
    store_name: text(raw.name) ?? text(raw.myshopifyDomain) ?? '',
    url: text(raw.url) ?? `https://${text(raw.myshopifyDomain) ?? ''}`,
    default_currency: currencyCode(raw.currencyCode, null),
    email: text(raw.contactEmail) ?? text(raw.email),
    updated_at: text(raw.updatedAt),
  };
}

/** Commerce orders, the store, its products and buyers, and the gateway's transactions and payouts. */
import type {
  NativeCustomerGroup,
  NativeGatewayTransaction,
  NativeOrder,
  NativeOrderAddress,
  NativePayout,
  NativeProduct,
  NativeShopper,
  NativeStore,
} from '../native.ts';
import { currency, day, money, type Mapped, type Ref } from './common.ts';

type OrderAddress = NonNullable<Mapped<'order'>['billing_address']>;

function orderAddress(a: NativeOrderAddress): OrderAddress {
  return {
    address1: a.Line1,
    address2: a.Line2 ?? null,
    city: a.City,
    first_name: a.FirstName,
    last_name: a.LastName,
    phone: a.Phone ?? null,
    postal_code: a.PostalCode,
    country_code: a.CountryCode,
    region: a.Region,
  };
}

const PAYMENT = { Pending: 'pending', Paid: 'paid', PartiallyRefunded: 'partially_refunded', Refunded: 'refunded' } as const;
const FULFILMENT = { Unfulfilled: 'unfulfilled', Partial: 'partial', Fulfilled: 'fulfilled' } as const;

export function mapOrder(r: NativeOrder, ref: Ref): Mapped<'order'> {
  const code = currency(r.CurrencyCode);
  const lines = r.Lines.map((l) => ({
    id: l.LineId,
    product_id: ref('product', l.ProductId),
    variant_id: l.VariantId,
    title: l.Title,
    sku: l.Sku,
    unit_cost: money(l.UnitCost),
    price: money(l.Price),
    quantity: l.Qty,
    iso_currency_code: code,
    // Lines are made with the order and never change after: only its statuses do.
    created_at: r.CreatedAt,
    updated_at: r.CreatedAt,
  }));
  const orderId = ref('order', r.Id) ?? r.Id;
  return {
    platform_id: r.Id,
    order_number: r.OrderNumber,
    status: r.Status.toLowerCase(),
    payment_status: PAYMENT[r.FinancialStatus],
    fulfillment_status: FULFILMENT[r.FulfillmentStatus],
    // The native fulfillment has no id of its own: its place in the order, which never changes, names it.
    fulfillments: r.Fulfillments.map((f, index) => ({
      id: `${r.Id}-F${index + 1}`,
      order_id: orderId,
      carrier: f.Carrier,
      service: f.Service,
      tracking_number: f.TrackingNumber,
      tracking_url: f.TrackingUrl,
      line_items: lines.filter((l) => f.LineIds.includes(l.id)).map((l) => ({ ...l, quantity: f.Quantities?.[l.id] ?? l.quantity })),
    })),
    line_items: lines,
    // The shop refunds an order when it is cancelled, at once.
    refunds:
      r.Refunds.length === 0
        ? []
        : [{ line_items: r.Refunds.map((x) => ({ line_item_id: x.LineId, quantity: x.Qty, status: 'completed' as const })) }],
    billing_address: orderAddress(r.BillingAddress),
    shipping_address: orderAddress(r.ShippingAddress),
    customer: {
      id: ref('commerce_customer', r.Buyer.Id) ?? r.Buyer.Id,
      email: r.Buyer.Email,
      first_name: r.Buyer.FirstName,
      last_name: r.Buyer.LastName,
      orders_count: r.Buyer.OrdersCount,
      verified_email: r.Buyer.Verified,
      phone: r.Buyer.Phone ?? null,
      // The order names its buyer without the shopper's dates (those are on the commerce customer record).
      created_at: null,
      updated_at: null,
    },
    total_shipping: money(r.Shipping),
    total_discount: money(r.Discount),
    total_tax: money(r.Tax),
    total_price: money(r.Total),
    iso_currency_code: code,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

const PAYOUT_STATUS = { Paid: 'paid', InTransit: 'in_transit' } as const;

/** A payout of the web shop's card gateway; its transactions name their orders by service id. */
export function mapPayout(r: NativePayout, ref: Ref): Mapped<'payout'> {
  const code = currency(r.CurrencyCode);
  return {
    platform_id: r.Id,
    gateway_account_id: r.GatewayAccountId,
    arrival_at: day(r.ArrivalDate),
    amount: money(r.Amount),
    gateway: 'sandbox_payments',
    iso_currency_code: code,
    schedule: 'automatic',
    status: PAYOUT_STATUS[r.Status],
    type: 'bank_account',
    method: r.Method,
    destination: {
      destination_id: r.DestinationAccountId,
      account_number_last_digits: r.DestinationLast4,
      bank_name: r.DestinationBank,
      brand: null,
      last_four: r.DestinationLast4,
      routing_number: r.RoutingNumber,
    },
    transactions: r.Transactions.map((t) => ({
      id: t.Id,
      order_id: ref('order', t.OrderId),
      payment_method_type: 'card',
      status: 'success',
      type: t.Kind === 'Charge' ? 'sale' : 'refund',
      amount: money(t.Amount),
      fee: money(t.Fee),
      gateway: 'sandbox_payments',
      iso_currency_code: code,
      description: t.Kind === 'Charge' ? `Charge for order ${t.OrderId}` : `Refund of order ${t.OrderId}`,
      created_at: t.CreatedAt,
      updated_at: t.CreatedAt,
    })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

export function mapStore(r: NativeStore): Mapped<'store'> {
  return {
    platform_id: r.Id,
    store_name: r.Name,
    url: `https://${r.Domain}`,
    default_currency: currency(r.Currency),
    email: r.ContactEmail,
    updated_at: r.UpdatedAt,
  };
}

export function mapProduct(r: NativeProduct, ref: Ref): Mapped<'product'> {
  const productId = ref('product', r.Id) ?? r.Id;
  const code = currency(r.CurrencyCode);
  return {
    platform_id: r.Id,
    name: r.Name,
    description: r.Description,
    type: 'physical',
    status: r.Status === 'Active' ? 'active' : 'archived',
    product_url: null,
    images: (r.Images ?? []).map((src) => ({ src })),
    tags: r.Tags,
    variants: r.Variants.map((v) => ({
      id: v.Id,
      platform_id: v.Id,
      product_id: productId,
      title: v.Title,
      sku: v.Sku,
      barcode: v.Barcode ?? null,
      price: money(v.Price),
      unit_cost: money(v.UnitCost),
      iso_currency_code: code,
      requires_shipping: true,
      fulfillment_service: 'manual',
      inventory_management: 'sandbox',
      inventory_quantity: v.InventoryQty,
      option_values: (v.Options ?? []).map((o) => ({ name: o.Name, value: o.Value })),
      images: [],
      created_at: r.CreatedAt,
      updated_at: r.UpdatedAt,
    })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

export function mapShopper(r: NativeShopper, ref: Ref): Mapped<'commerce_customer'> {
  return {
    platform_id: r.Id,
    email: r.Email,
    first_name: r.FirstName,
    last_name: r.LastName,
    phone: r.Phone ?? null,
    orders: r.OrderIds.map((id) => ({ id: ref('order', id) ?? id })),
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

/** The rule and the members have no place in the reference's object: platform_data keeps them. */
export function mapCustomerGroup(r: NativeCustomerGroup): Mapped<'customer_group'> {
  return { platform_id: r.Id, name: r.Name, created_at: r.CreatedAt, updated_at: r.UpdatedAt };
}

const TRANSACTION_TYPE = { Charge: 'sale', Refund: 'refund', Payout: 'payout' } as const;

export function mapGatewayTransaction(r: NativeGatewayTransaction, ref: Ref): Mapped<'transaction'> {
  return {
    platform_id: r.Id,
    order_id: ref('order', r.OrderId),
    customer_id: ref('commerce_customer', r.ShopperId),
    payout_id: ref('payout', r.PayoutId),
    payment_method_type: r.Kind === 'Payout' ? 'other' : 'card',
    status: 'success',
    type: TRANSACTION_TYPE[r.Kind],
    amount: money(r.Amount),
    fee: money(r.Fee),
    gateway: 'sandbox_payments',
    iso_currency_code: currency(r.CurrencyCode),
    description:
      r.Kind === 'Charge'
        ? `Charge for order ${r.OrderId ?? ''}`
        : r.Kind === 'Refund'
          ? `Refund of order ${r.OrderId ?? ''}`
          : `Payout ${r.PayoutId ?? ''}`,
    created_at: r.CreatedAt,
    updated_at: r.UpdatedAt,
  };
}

/** Commerce orders. */
import type { NativeOrder, NativeOrderAddress } from '../native.ts';
import { currency, money, type Mapped, type Ref } from './common.ts';

type OrderAddress = NonNullable<Mapped<'order'>['billing_address']>;

function orderAddress(a: NativeOrderAddress): OrderAddress {
  return {
    address1: a.Line1, address2: a.Line2 ?? null, city: a.City, first_name: a.FirstName, last_name: a.LastName,
    phone: a.Phone ?? null, postal_code: a.PostalCode, country_code: a.CountryCode, region: a.Region,
  };
}

const PAYMENT = { Pending: 'pending', Paid: 'paid', PartiallyRefunded: 'partially_refunded', Refunded: 'refunded' } as const;
const FULFILMENT = { Unfulfilled: 'unfulfilled', Partial: 'partial', Fulfilled: 'fulfilled' } as const;

export function mapOrder(r: NativeOrder, ref: Ref): Mapped<'order'> {
  const code = currency(r.CurrencyCode);
  const lines = r.Lines.map((l) => ({
    id: l.LineId, product_id: ref('item', l.ProductId), variant_id: l.VariantId, title: l.Title, sku: l.Sku,
    unit_cost: money(l.UnitCost), price: money(l.Price), quantity: l.Qty, iso_currency_code: code,
  }));
  const orderId = ref('order', r.Id) ?? r.Id;
  return {
    platform_id: r.Id,
    order_number: r.OrderNumber,
    status: r.Status.toLowerCase(),
    payment_status: PAYMENT[r.FinancialStatus],
    fulfillment_status: FULFILMENT[r.FulfillmentStatus],
    fulfillments: r.Fulfillments.map((f) => ({
      order_id: orderId, carrier: f.Carrier, service: f.Service, tracking_number: f.TrackingNumber, tracking_url: f.TrackingUrl,
      line_items: lines.filter((l) => f.LineIds.includes(l.id)),
    })),
    line_items: lines,
    refunds: r.Refunds.length === 0 ? [] : [{ line_items: r.Refunds.map((x) => ({ line_item_id: x.LineId, quantity: x.Qty })) }],
    billing_address: orderAddress(r.BillingAddress),
    shipping_address: orderAddress(r.ShippingAddress),
    customer: {
      id: ref('customer', r.Buyer.Id) ?? r.Buyer.Id, email: r.Buyer.Email, first_name: r.Buyer.FirstName, last_name: r.Buyer.LastName,
      orders_count: r.Buyer.OrdersCount, verified_email: r.Buyer.Verified, phone: r.Buyer.Phone ?? null,
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

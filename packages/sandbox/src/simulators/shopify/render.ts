/**
 * SANDBOX's web shop in Shopify's Admin GraphQL shapes (API 2026-10; the fields schema.graphql has): plain objects
 * the simulator's schema executes over, so every answer has the published types' shapes.
 */
import type {
  NativeCustomerGroup,
  NativeGatewayTransaction,
  NativeOrder,
  NativeOrderAddress,
  NativePayout,
  NativeProduct,
  NativeShopper,
  NativeVariant,
  NativeStore,
} from '../../native.ts';
import { gid, numberOf, partNumber, productGid, writtenVariantNumber } from './ids.ts';

type View = Record<string, unknown>;

const money = (amount: string, currency: string): View => ({ amount, currencyCode: currency });
const bag = (amount: string, currency: string): View => ({ shopMoney: money(amount, currency) });

function address(a: NativeOrderAddress): View {
  return {
    address1: a.Line1,
    address2: a.Line2 ?? null,
    city: a.City,
    countryCodeV2: a.CountryCode,
    firstName: a.FirstName,
    lastName: a.LastName,
    phone: a.Phone ?? null,
    province: a.Region,
    zip: a.PostalCode,
  };
}

const FINANCIAL = { Pending: 'PENDING', Paid: 'PAID', PartiallyRefunded: 'PARTIALLY_REFUNDED', Refunded: 'REFUNDED' } as const;
const FULFILMENT = { Unfulfilled: 'UNFULFILLED', Partial: 'PARTIALLY_FULFILLED', Fulfilled: 'FULFILLED' } as const;

export function customerView(shopper: NativeShopper | null, buyer: NativeOrder['Buyer'] | null): View | null {
  const id = shopper?.Id ?? buyer?.Id;
  if (id === undefined) return null;
  const email = shopper?.Email ?? buyer?.Email ?? null;
  const phone = shopper?.Phone ?? buyer?.Phone ?? null;
  return {
    id: gid('Customer', numberOf(id)),
    firstName: shopper?.FirstName ?? buyer?.FirstName ?? null,
    lastName: shopper?.LastName ?? buyer?.LastName ?? null,
    createdAt: shopper?.CreatedAt ?? null,
    updatedAt: shopper?.UpdatedAt ?? null,
    numberOfOrders: String(shopper?.OrderIds.length ?? buyer?.OrdersCount ?? 0),
    verifiedEmail: buyer?.Verified ?? true,
    defaultEmailAddress: email === null ? null : { emailAddress: email },
    defaultPhoneNumber: phone === null ? null : { phoneNumber: phone },
  };
}

/** A SANDBOX customer group as Shopify's Segment: its rule is already in Shopify's segment query language. */
export function segmentView(group: NativeCustomerGroup): View {
  return {
    id: gid('Segment', numberOf(group.Id)),
    name: group.Name,
    query: group.Query,
    creationDate: group.CreatedAt,
    lastEditDate: group.UpdatedAt,
  };
}

/** Fields of a connection's item the simulator pages: `nodes` and `edges` over the same list. */
export const listConnection = (items: readonly View[]): View => ({
  nodes: items,
  edges: items.map((node) => ({ node })),
  pageInfo: { hasNextPage: false, endCursor: null },
});

export function transactionView(t: NativeGatewayTransaction): View {
  const charge = t.Kind === 'Charge';
  return {
    id: gid('OrderTransaction', partNumber(t.OrderId ?? t.Id, charge ? 1 : 2)),
    kind: charge ? 'SALE' : 'REFUND',
    status: 'SUCCESS',
    gateway: 'shopify_payments',
    createdAt: t.CreatedAt,
    processedAt: t.CreatedAt,
    amountSet: bag(t.Amount.replace(/^-/, ''), t.CurrencyCode),
    fees: t.Fee === '0.00' ? [] : [{ amount: money(t.Fee, t.CurrencyCode) }],
  };
}

export function orderView(order: NativeOrder, shopper: NativeShopper | null, transactions: readonly NativeGatewayTransaction[]): View {
  const c = order.CurrencyCode;
  const lines = order.Lines.map((line, index) => ({
    id: gid('LineItem', partNumber(order.Id, index + 1)),
    title: line.Title,
    sku: line.Sku,
    quantity: line.Qty,
    originalUnitPriceSet: bag(line.Price, c),
    variant: { id: gid('ProductVariant', partNumber(line.ProductId, 1)) },
    product: { id: productGid(line.ProductId) },
  }));
  // A fulfillment's or refund's line, by its SANDBOX id (the first line when none has it).
  const lineOf = (lineId: string): View => {
    const index = order.Lines.findIndex((l) => l.LineId === lineId);
    return lines[Math.max(0, index)] ?? {};
  };
  // SANDBOX's refunded lines of an order are one Shopify refund.
  const refund = {
    id: gid('Refund', partNumber(order.Id, 1)),
    createdAt: order.UpdatedAt,
    refundLineItems: listConnection(order.Refunds.map((r) => ({ quantity: r.Qty, lineItem: lineOf(r.LineId) }))),
  };
  const subtotal = order.Lines.reduce((sum, l) => sum + Math.round(Number(l.Price) * 100) * l.Qty, 0);
  return {
    id: gid('Order', numberOf(order.Id)),
    legacyResourceId: String(numberOf(order.Id)),
    name: order.OrderNumber,
    displayFinancialStatus: FINANCIAL[order.FinancialStatus],
    displayFulfillmentStatus: FULFILMENT[order.FulfillmentStatus],
    cancelledAt: order.Status === 'Cancelled' ? order.UpdatedAt : null,
    closed: order.Status !== 'Open',
    createdAt: order.CreatedAt,
    updatedAt: order.UpdatedAt,
    currencyCode: c,
    email: order.Buyer.Email,
    totalPriceSet: bag(order.Total, c),
    subtotalPriceSet: bag((subtotal / 100).toFixed(2), c),
    totalTaxSet: bag(order.Tax, c),
    totalShippingPriceSet: bag(order.Shipping, c),
    totalDiscountsSet: bag(order.Discount, c),
    billingAddress: address(order.BillingAddress),
    shippingAddress: address(order.ShippingAddress),
    customer: customerView(shopper, order.Buyer),
    lineItems: listConnection(lines),
    fulfillments: order.Fulfillments.map((f, index) => ({
      id: gid('Fulfillment', partNumber(order.Id, index + 1)),
      trackingInfo: [{ company: f.Carrier, number: f.TrackingNumber, url: f.TrackingUrl }],
      service: { serviceName: f.Service },
      fulfillmentLineItems: listConnection(
        f.LineIds.map((id) => ({ quantity: f.Quantities?.[id] ?? order.Lines.find((l) => l.LineId === id)?.Qty ?? 0, lineItem: lineOf(id) })),
      ),
    })),
    refunds: order.Refunds.length === 0 ? [] : [refund],
    transactions: transactions.filter((t) => t.Kind !== 'Payout').map(transactionView),
  };
}

/** A variant's GID: a generated one's (`<product>-V<n>`) by its place, a written one's (VAR-…) by its own number. */
export function variantGid(product: NativeProduct, variant: NativeVariant): string {
  const place = /-V(\d+)$/.exec(variant.Id)?.[1];
  return gid('ProductVariant', place === undefined ? writtenVariantNumber(variant.Id) : partNumber(product.Id, Number(place)));
}

/** A variant's options as Shopify's selectedOptions: its own, or its title as the value of one `Title` option. */
const selectedOptions = (v: NativeVariant): { name: string; value: string }[] =>
  v.Options?.map((o) => ({ name: o.Name, value: o.Value })) ?? [{ name: 'Title', value: v.Title }];

export function productView(product: NativeProduct): View {
  const variants = product.Variants.map((v) => ({
    id: variantGid(product, v),
    title: v.Title,
    sku: v.Sku,
    barcode: v.Barcode ?? null,
    price: v.Price,
    inventoryQuantity: v.InventoryQty,
    createdAt: product.CreatedAt,
    updatedAt: product.UpdatedAt,
    selectedOptions: selectedOptions(v),
    // SANDBOX keeps no metafields: its own idempotency keys make a variant create happen once (catalogue.ts).
    metafield: null,
    inventoryItem: { requiresShipping: true, tracked: true, unitCost: money(v.UnitCost, product.CurrencyCode) },
    // SANDBOX's products have no pictures (ProductVariant.media; its deprecated `image` is not selected).
    media: listConnection([]),
  }));
  return {
    id: productGid(product.Id),
    title: product.Name,
    description: product.Description,
    productType: 'Physical goods',
    status: product.Status === 'Active' ? 'ACTIVE' : 'ARCHIVED',
    onlineStoreUrl: null,
    tags: product.Tags,
    createdAt: product.CreatedAt,
    updatedAt: product.UpdatedAt,
    featuredMedia: product.Images?.[0] === undefined ? null : { preview: { image: { url: product.Images[0] } } },
    options: (product.Variants[0] === undefined ? [] : selectedOptions(product.Variants[0])).map((o) => ({ name: o.name })),
    variants: listConnection(variants),
  };
}

export function shopView(store: NativeStore | null, id: number, domain: string, fallbackName: string, currency: string): View {
  return {
    id: gid('Shop', id),
    name: store?.Name ?? fallbackName,
    myshopifyDomain: domain,
    currencyCode: store?.Currency ?? currency,
    email: store?.ContactEmail ?? `shop@${domain}`,
    contactEmail: store?.ContactEmail ?? `shop@${domain}`,
    url: `https://${store?.Domain ?? domain}`,
    updatedAt: store?.UpdatedAt ?? new Date(0).toISOString(),
  };
}

const BALANCE_TYPE = { Charge: 'CHARGE', Refund: 'REFUND', Payout: 'TRANSFER' } as const;

/** A movement of the gateway's balance as Shopify Payments' balance transaction (the payout's own as its TRANSFER). */
export function balanceTransactionView(t: NativeGatewayTransaction, orderName: string | null): View {
  return {
    id: gid('ShopifyPaymentsBalanceTransaction', numberOf(t.Id)),
    type: BALANCE_TYPE[t.Kind],
    test: false,
    transactionDate: t.CreatedAt,
    amount: money(t.Amount, t.CurrencyCode),
    fee: money(t.Fee, t.CurrencyCode),
    associatedOrder: t.OrderId === null ? null : { id: gid('Order', numberOf(t.OrderId)), name: orderName ?? '' },
  };
}

const PAYOUT_STATUS = { Paid: 'PAID', InTransit: 'IN_TRANSIT' } as const;

export function payoutView(payout: NativePayout): View {
  return {
    id: gid('ShopifyPaymentsPayout', numberOf(payout.Id)),
    legacyResourceId: String(numberOf(payout.Id)),
    issuedAt: payout.CreatedAt,
    status: PAYOUT_STATUS[payout.Status],
    transactionType: 'DEPOSIT',
    net: money(payout.Amount, payout.CurrencyCode),
  };
}

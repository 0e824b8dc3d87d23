/**
 * A shop's data for the Shopify stand-in: plain objects shaped like Shopify's GraphQL types (field names as in the
 * 2026-10 schema), generated small and deterministic from a seed. Money is Shopify's Decimal: a string with two
 * places. Connections and lists are left as arrays here; the stand-in's resolver pages and filters them.
 */
import { gid } from '../../../packages/sandbox/src/simulators/shopify/ids.ts';
import { seededRandom, type SeededRandom } from '../kit/random.ts';

export { gid };
export const legacyIdOf = (id: string): string => id.slice(id.lastIndexOf('/') + 1);

export const cents = (value: number): string => (value / 100).toFixed(2);
export const centsOf = (amount: string): number => Math.round(Number(amount) * 100);
export const bag = (valueCents: number, currency = 'USD') => ({
  shopMoney: { amount: cents(valueCents), currencyCode: currency },
  presentmentMoney: { amount: cents(valueCents), currencyCode: currency },
});

// The records' types are their makers': each is written once, where it is made.
export type StandInCustomer = ReturnType<typeof makeCustomer>;
export type StandInProduct = ReturnType<typeof makeProduct>;
export type StandInLineItem = ReturnType<typeof makeLineItem>;
export type StandInOrder = ReturnType<typeof makeOrder>;
export type Clock = ReturnType<typeof makeClock>;

/** The shop's own clock: each tick is the next instant, one second after the last, so updated_at filters are exact. */
export function makeClock(start = Date.parse('2026-10-01T00:00:00.000Z')) {
  let at = start;
  return { tick: () => new Date((at += 1000)).toISOString().replace('.000Z', 'Z') };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus'];

export function makeCustomer(n: number, clock: Clock) {
  const at = clock.tick();
  return {
    id: gid('Customer', 7000 + n),
    firstName: FIRST[n % FIRST.length] ?? 'Ada',
    lastName: LAST[(n * 3) % LAST.length] ?? 'Lovelace',
    createdAt: at,
    updatedAt: at,
    numberOfOrders: '0',
    verifiedEmail: true,
    state: 'ENABLED',
    defaultEmailAddress: { emailAddress: `customer${n}@example.com` },
    defaultPhoneNumber: n % 2 === 0 ? { phoneNumber: `+1555000${String(n % 10_000).padStart(4, '0')}` } : null,
  };
}

export interface StandInMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** A record's metafields, and `metafield(namespace:, key:)` over them (a field with arguments is a function here). */
export function metafieldsOf(list: StandInMetafield[]) {
  return {
    metafields: list,
    metafield: (args: { namespace?: unknown; key?: unknown }) => list.find((m) => m.namespace === args.namespace && m.key === args.key) ?? null,
  };
}

export function makeProduct(n: number, clock: Clock) {
  const at = clock.tick();
  const id = gid('Product', 8000 + n);
  const sizes = n % 3 === 0 ? ['S', 'M', 'L'] : ['One size'];
  return {
    id,
    title: `Product ${n}`,
    description: n % 2 === 0 ? `The ${n}th thing we sell.` : '',
    productType: n % 2 === 0 ? 'Apparel' : '',
    status: n % 7 === 6 ? 'DRAFT' : 'ACTIVE',
    onlineStoreUrl: n % 7 === 6 ? null : `https://shop.example/products/product-${n}`,
    tags: n % 2 === 0 ? ['new'] : [],
    createdAt: at,
    updatedAt: at,
    featuredMedia: null as { preview: { image: { url: string } } } | null,
    options: [{ name: 'Size' }],
    variants: sizes.map((size, i) => ({
      id: gid('ProductVariant', 9000 + n * 10 + i),
      title: size,
      sku: `SKU-${n}-${size}`,
      barcode: null as string | null,
      price: cents(1000 + ((n * 137 + i * 250) % 9000)),
      inventoryQuantity: 10 + ((n + i) % 20),
      createdAt: at,
      updatedAt: at,
      selectedOptions: [{ name: 'Size', value: size }],
      inventoryItem: { requiresShipping: true, tracked: true, unitCost: { amount: cents(400 + n), currencyCode: 'USD' } },
      // The first size of every third product has its own picture.
      // The variant's media (ProductVariant.media; its deprecated `image` is not served): `__typename` picks the Media type.
      media:
        n % 3 === 0 && i === 0
          ? [
              {
                __typename: 'MediaImage',
                id: gid('MediaImage', 95_000 + n),
                preview: { image: { url: `https://cdn.shop.example/product-${n}-${size}.jpg` } },
              },
            ]
          : [],
      productId: id,
      ...metafieldsOf([]),
    })),
  };
}

const ADDRESS = (n: number, customer: StandInCustomer | null): Record<string, string | null> => ({
  address1: `${n} Main Street`,
  address2: null,
  city: 'Springfield',
  firstName: customer?.firstName ?? 'Guest',
  lastName: customer?.lastName ?? null,
  phone: null,
  zip: '12345',
  countryCodeV2: 'US',
  province: 'Oregon',
});

/** A line of `quantity` of a product's variant at its price. */
export function makeLineItem(id: string, product: StandInProduct, variant: StandInProduct['variants'][number], quantity: number) {
  return {
    id,
    title: product.title,
    sku: variant.sku,
    quantity,
    originalUnitPriceSet: bag(centsOf(variant.price)),
    variant: { id: variant.id },
    product: { id: product.id },
  };
}

/**
 * An order's money from its lines, as Shopify's adds up: total = Σ(unit price × quantity) − discounts + tax + shipping;
 * tax is 8% of the discounted subtotal, rounded to the cent. Amounts in cents.
 */
export function orderMoney(lines: readonly StandInLineItem[], discount: (subtotal: number) => number, shipping: number) {
  const subtotal = lines.reduce((sum, line) => sum + centsOf(line.originalUnitPriceSet.shopMoney.amount) * line.quantity, 0);
  const discounted = subtotal - discount(subtotal);
  const tax = Math.round(discounted * 0.08);
  return {
    totalPriceSet: bag(discounted + tax + shipping),
    subtotalPriceSet: bag(discounted),
    totalTaxSet: bag(tax),
    totalShippingPriceSet: bag(shipping),
    totalDiscountsSet: bag(subtotal - discounted),
  };
}

/** A payment of an order through Shopify Payments, at the order's creation. */
function makeTransaction(
  id: string,
  kind: 'SALE' | 'REFUND',
  amount: number,
  at: string,
  fees: { amount: { amount: string; currencyCode: string } }[],
) {
  return { id, kind, status: 'SUCCESS', gateway: 'shopify_payments', createdAt: at, processedAt: at, amountSet: bag(amount), fees };
}

/** An order of 1–3 lines of the shop's variants, its money as orderMoney adds it up. */
export function makeOrder(n: number, clock: Clock, random: SeededRandom, customers: readonly StandInCustomer[], products: readonly StandInProduct[]) {
  const at = clock.tick();
  const customer = n % 10 === 9 || customers.length === 0 ? null : (customers[random.int(customers.length)] ?? null);
  const lines: StandInLineItem[] = [];
  const count = 1 + random.int(3);
  for (let i = 0; i < count; i++) {
    const product = products[random.int(products.length)];
    const variant = product?.variants[random.int(product.variants.length)];
    if (product === undefined || variant === undefined) continue;
    lines.push(makeLineItem(gid('LineItem', 100_000 + n * 10 + i), product, variant, 1 + random.int(3)));
  }
  const money = orderMoney(lines, (subtotal) => (n % 4 === 0 ? Math.min(500, subtotal) : 0), n % 3 === 0 ? 0 : 499);
  const total = centsOf(money.totalPriceSet.shopMoney.amount);
  const fulfilled = n % 2 === 0;
  const refunded = n % 5 === 0 ? lines[0] : undefined;
  const id = gid('Order', 500_000 + n);
  const fulfillmentId = gid('Fulfillment', 300_000 + n);
  return {
    id,
    legacyResourceId: String(500_000 + n),
    name: `#${1000 + n}`,
    displayFinancialStatus: refunded === undefined ? 'PAID' : 'PARTIALLY_REFUNDED',
    displayFulfillmentStatus: fulfilled ? 'FULFILLED' : 'UNFULFILLED',
    cancelledAt: null,
    closed: false,
    createdAt: at,
    updatedAt: at,
    currencyCode: 'USD',
    email: customer?.defaultEmailAddress.emailAddress ?? `guest${n}@example.com`,
    ...money,
    billingAddress: ADDRESS(n, customer),
    shippingAddress: ADDRESS(n, customer),
    customer,
    lineItems: lines,
    fulfillments: fulfilled
      ? [
          {
            id: fulfillmentId,
            status: 'SUCCESS',
            createdAt: at,
            trackingInfo: [{ company: 'UPS', number: `1Z${n}`, url: `https://ups.example/track/1Z${n}` }],
            service: { serviceName: 'Manual' },
            fulfillmentLineItems: lines.map((line) => ({
              id: `${fulfillmentId}-${legacyIdOf(line.id)}`,
              quantity: line.quantity,
              lineItem: { id: line.id },
            })),
          },
        ]
      : [],
    refunds:
      refunded === undefined
        ? []
        : [{ id: gid('Refund', 400_000 + n), createdAt: at, refundLineItems: [{ quantity: 1, lineItem: { id: refunded.id } }] }],
    transactions: [
      makeTransaction(gid('OrderTransaction', 600_000 + n * 10), 'SALE', total, at, [
        { amount: { amount: cents(Math.round(total * 0.029) + 30), currencyCode: 'USD' } },
      ]),
      ...(refunded === undefined
        ? []
        : [
            makeTransaction(gid('OrderTransaction', 600_000 + n * 10 + 1), 'REFUND', centsOf(refunded.originalUnitPriceSet.shopMoney.amount), at, []),
          ]),
    ],
  };
}

/** The event Shopify records when a record is deleted (a BasicEvent, action "destroy"). */
export function makeDeletionEvent(id: string, subjectType: 'ORDER' | 'PRODUCT' | 'CUSTOMER', subjectId: string, createdAt: string) {
  return {
    __typename: 'BasicEvent',
    id,
    action: 'destroy',
    subjectId,
    subjectType,
    createdAt,
    message: `${subjectType.toLowerCase()} deleted`,
    criticalAlert: false,
    attributeToApp: false,
    attributeToUser: true,
    hasAdditionalContent: false,
  };
}
export type StandInEvent = ReturnType<typeof makeDeletionEvent>;

/** Shopify Payments' side of the first 20 orders' sales: a CHARGE each, paid out by payout 20000 or 20001 in turn. */
function balanceTransactions(orders: readonly StandInOrder[]) {
  return orders.slice(0, 20).flatMap((order, i) =>
    order.transactions
      .filter((t) => t.kind === 'SALE')
      .map((sale) => {
        const amount = centsOf(sale.amountSet.shopMoney.amount);
        const fee = centsOf(sale.fees[0]?.amount.amount ?? '0');
        return {
          id: gid('ShopifyPaymentsBalanceTransaction', 40_000 + i),
          type: 'CHARGE',
          test: false,
          transactionDate: sale.createdAt,
          amount: { amount: cents(amount), currencyCode: 'USD' },
          fee: { amount: cents(fee), currencyCode: 'USD' },
          net: { amount: cents(amount - fee), currencyCode: 'USD' },
          associatedOrder: { id: order.id, name: order.name },
          paymentsTransferId: String(20_000 + (i % 2)),
        };
      }),
  );
}

/** The shop's Shopify Payments account: its balance transactions, the two payouts that paid them out, a dispute. */
export function paymentsAccount(shopNumber: number, orders: readonly StandInOrder[]) {
  const transactions = balanceTransactions(orders);
  return {
    id: gid('ShopifyPaymentsAccount', shopNumber),
    balanceTransactions: transactions,
    payouts: (orders.length === 0 ? [] : [0, 1]).map((n) => ({
      id: gid('ShopifyPaymentsPayout', 20_000 + n),
      legacyResourceId: String(20_000 + n),
      issuedAt: orders[0]?.createdAt ?? '2026-10-01T00:00:00Z',
      status: n === 0 ? 'PAID' : 'IN_TRANSIT',
      transactionType: 'DEPOSIT',
      net: {
        amount: cents(transactions.filter((t) => t.paymentsTransferId === String(20_000 + n)).reduce((sum, t) => sum + centsOf(t.net.amount), 0)),
        currencyCode: 'USD',
      },
    })),
    disputes: orders.slice(0, 1).map((order) => ({
      id: gid('ShopifyPaymentsDispute', 30_000),
      legacyResourceId: '30000',
      status: 'NEEDS_RESPONSE',
      type: 'CHARGEBACK',
      initiatedAt: order.createdAt,
      evidenceDueBy: '2026-12-01T00:00:00Z',
      finalizedOn: null,
      amount: order.totalPriceSet.shopMoney,
      reasonDetails: { reason: 'FRAUDULENT' },
      order: { id: order.id },
    })),
  };
}

/**
 * The shop's customer segments (Segment: a name and its rule in Shopify's segment query language), two of them, made
 * before the shop's clock starts (so they move no other record's times); the second was edited since.
 */
export function makeSegments() {
  return [
    {
      id: gid('Segment', 5000),
      name: 'Repeat customers',
      query: 'number_of_orders > 1',
      creationDate: '2026-09-01T00:00:00Z',
      lastEditDate: '2026-09-01T00:00:00Z',
    },
    {
      id: gid('Segment', 5001),
      name: 'Subscribed to email',
      query: "customer_email_subscription_status = 'SUBSCRIBED'",
      creationDate: '2026-09-02T00:00:00Z',
      lastEditDate: '2026-09-15T12:00:00Z',
    },
  ];
}

/** A shop of `orders` orders over a tenth as many customers and a twentieth as many products (at least 3 of each). */
export function makeShopData(orders: number, seed: number, clock: Clock) {
  const random = seededRandom(seed);
  const customers = Array.from({ length: Math.max(3, Math.ceil(orders / 10)) }, (_, n) => makeCustomer(n, clock));
  const products = Array.from({ length: Math.max(3, Math.min(500, Math.ceil(orders / 20))) }, (_, n) => makeProduct(n, clock));
  return {
    customers,
    products,
    orders: Array.from({ length: orders }, (_, n) => makeOrder(n, clock, random, customers, products)),
    segments: makeSegments(),
  };
}

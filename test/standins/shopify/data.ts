/**
 * A shop's data for the Shopify stand-in: plain objects shaped like Shopify's GraphQL types (field names as in the
 * 2026-10 schema), generated small and deterministic from a seed. Money is Shopify's Decimal: a string with two
 * places. Connections are left as arrays here; the stand-in's resolvers page them.
 */

export const GID = (type: string, id: number): string => `gid://shopify/${type}/${id}`;
export const legacyIdOf = (gid: string): string => gid.slice(gid.lastIndexOf('/') + 1);

export const cents = (value: number): string => (value / 100).toFixed(2);
export const bag = (valueCents: number, currency = 'USD') => ({
  shopMoney: { amount: cents(valueCents), currencyCode: currency },
  presentmentMoney: { amount: cents(valueCents), currencyCode: currency },
});

// The records' types are their makers': each is written once, where it is made.
export type StandInCustomer = ReturnType<typeof makeCustomer>;
export type StandInProduct = ReturnType<typeof makeProduct>;
export type StandInLineItem = ReturnType<typeof makeLineItem>;
export type StandInOrder = ReturnType<typeof makeOrder>;

/** A deterministic pseudo-random sequence (mulberry32), so the same seed always gives the same shop. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Clock {
  /** The next instant, one second after the last: the shop's own clock, so updated_at filters are exact. */
  tick(): string;
}

export function makeClock(start = Date.parse('2026-10-01T00:00:00.000Z')): Clock {
  let at = start;
  return { tick: () => new Date((at += 1000)).toISOString().replace('.000Z', 'Z') };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus'];

export function makeCustomer(n: number, clock: Clock) {
  const at = clock.tick();
  return {
    id: GID('Customer', 7000 + n),
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

export function makeProduct(n: number, clock: Clock) {
  const at = clock.tick();
  const id = GID('Product', 8000 + n);
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
    featuredMedia: null,
    variants: sizes.map((size, i) => ({
      id: GID('ProductVariant', 9000 + n * 10 + i),
      title: size,
      sku: `SKU-${n}-${size}`,
      barcode: null,
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
                id: GID('MediaImage', 95_000 + n),
                preview: { image: { url: `https://cdn.shop.example/product-${n}-${size}.jpg` } },
              },
            ]
          : [],
      productId: id,
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
export function makeLineItem(
  id: string,
  product: { id: string; title: string },
  variant: { id: string; sku: string; price: string },
  quantity: number,
) {
  return {
    id,
    title: product.title,
    sku: variant.sku,
    quantity,
    originalUnitPriceSet: bag(Math.round(Number(variant.price) * 100)),
    variant: { id: variant.id },
    product: { id: product.id },
  };
}

/**
 * An order of 1–3 lines of the shop's variants. Its totals add up as Shopify's do: total = Σ(unit price × quantity)
 * − discounts + tax + shipping; tax is 8% of the discounted subtotal, rounded to the cent.
 */
export function makeOrder(n: number, clock: Clock, next: () => number, customers: readonly StandInCustomer[], products: readonly StandInProduct[]) {
  const at = clock.tick();
  const customer = n % 10 === 9 || customers.length === 0 ? null : (customers[Math.floor(next() * customers.length)] ?? null);
  const lines: StandInLineItem[] = [];
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    const product = products[Math.floor(next() * products.length)];
    const variant = product?.variants[Math.floor(next() * product.variants.length)];
    if (product === undefined || variant === undefined) continue;
    lines.push(makeLineItem(GID('LineItem', 100_000 + n * 10 + i), product, variant, 1 + Math.floor(next() * 3)));
  }
  const subtotal = lines.reduce((sum, line) => sum + Math.round(Number(line.originalUnitPriceSet.shopMoney.amount) * 100) * line.quantity, 0);
  const discount = n % 4 === 0 ? Math.min(500, subtotal) : 0;
  const tax = Math.round((subtotal - discount) * 0.08);
  const shipping = n % 3 === 0 ? 0 : 499;
  const total = subtotal - discount + tax + shipping;
  const fulfilled = n % 2 === 0;
  const refunded = n % 5 === 0 && lines[0] !== undefined;
  const id = GID('Order', 500_000 + n);
  const firstLine = lines[0];
  return {
    id,
    legacyResourceId: String(500_000 + n),
    name: `#${1000 + n}`,
    displayFinancialStatus: refunded ? 'PARTIALLY_REFUNDED' : 'PAID',
    displayFulfillmentStatus: fulfilled ? 'FULFILLED' : 'UNFULFILLED',
    cancelledAt: null,
    closed: false,
    createdAt: at,
    updatedAt: at,
    currencyCode: 'USD',
    email: customer?.defaultEmailAddress.emailAddress ?? `guest${n}@example.com`,
    totalPriceSet: bag(total),
    subtotalPriceSet: bag(subtotal - discount),
    totalTaxSet: bag(tax),
    totalShippingPriceSet: bag(shipping),
    totalDiscountsSet: bag(discount),
    billingAddress: ADDRESS(n, customer),
    shippingAddress: ADDRESS(n, customer),
    customer,
    lineItems: lines,
    fulfillments: fulfilled
      ? [
          {
            id: GID('Fulfillment', 300_000 + n),
            trackingInfo: [{ company: 'UPS', number: `1Z${n}`, url: `https://ups.example/track/1Z${n}` }],
            service: { serviceName: 'Manual' },
            fulfillmentLineItems: lines.map((line) => ({ quantity: line.quantity, lineItem: { id: line.id } })),
          },
        ]
      : [],
    refunds:
      refunded && firstLine !== undefined
        ? [{ id: GID('Refund', 400_000 + n), createdAt: at, refundLineItems: [{ quantity: 1, lineItem: { id: firstLine.id } }] }]
        : [],
    transactions: [
      {
        id: GID('OrderTransaction', 600_000 + n * 10),
        kind: 'SALE',
        status: 'SUCCESS',
        gateway: 'shopify_payments',
        createdAt: at,
        processedAt: at,
        amountSet: bag(total),
        fees: [{ amount: { amount: cents(Math.round(total * 0.029) + 30), currencyCode: 'USD' } }],
      },
      ...(refunded && firstLine !== undefined
        ? [
            {
              id: GID('OrderTransaction', 600_000 + n * 10 + 1),
              kind: 'REFUND',
              status: 'SUCCESS',
              gateway: 'shopify_payments',
              createdAt: at,
              processedAt: at,
              amountSet: bag(Math.round(Number(firstLine.originalUnitPriceSet.shopMoney.amount) * 100)),
              fees: [],
            },
          ]
        : []),
    ],
  };
}

/** A shop of `orders` orders over a tenth as many customers and a twentieth as many products (at least 3 of each). */
export function makeShopData(orders: number, seed: number, clock: Clock) {
  const next = random(seed);
  const customers = Array.from({ length: Math.max(3, Math.ceil(orders / 10)) }, (_, n) => makeCustomer(n, clock));
  const products = Array.from({ length: Math.max(3, Math.min(500, Math.ceil(orders / 20))) }, (_, n) => makeProduct(n, clock));
  return { customers, products, orders: Array.from({ length: orders }, (_, n) => makeOrder(n, clock, next, customers, products)) };
}

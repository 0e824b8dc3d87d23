/** Commerce orders of the business's web shop: items, shipping, discounts, fulfilments and refunds. */
import { stamp } from '../dates.ts';
import { formatCents } from '../money.ts';
import type { NativeOrder, NativeOrderLine } from '../native.ts';
import { personName } from './names.ts';
import { dateIn, type GenState } from './transactions.ts';

/** The shop's sales tax, on what is sold less discounts: its generated orders and those written alike. */
export const SHOP_TAX_RATE = 0.08;

export function orderUnit(s: GenState, from: string, to: string): void {
  const { rng, palette } = s;
  const date = dateIn(s, from, to);
  const id = s.out.nextId('order');
  const customer = rng.pick(s.ref.customers);
  const person = personName(rng);
  const lines: NativeOrderLine[] = [];
  let sub = 0;
  for (let n = rng.int(1, 4); n > 0; n--) {
    const item = palette.items.length > 0 ? rng.pick(palette.items) : { id: 'ITEM-000000', name: 'Gift card', salesCents: 2_500, costCents: 2_500 };
    const qty = rng.int(1, 5);
    sub += qty * item.salesCents;
    lines.push({
      LineId: `${id}-${lines.length + 1}`,
      ProductId: item.id,
      VariantId: `${item.id}-V1`,
      Title: item.name,
      Sku: item.id.replace('ITEM', 'SKU'),
      Price: formatCents(item.salesCents),
      UnitCost: formatCents(item.costCents),
      Qty: qty,
    });
  }
  const shipping = rng.pick([0, 499, 999, 1_499]);
  const discount = rng.chance(0.2) ? Math.round(sub * 0.1) : 0;
  const tax = Math.round((sub - discount) * SHOP_TAX_RATE);
  const addressBase = s.ref.profile.cities[0] ?? { city: 'Springfield', region: 'XX' };
  const addr = {
    FirstName: person.first,
    LastName: person.last,
    Line1: `${rng.int(1, 999)} Market St`,
    City: addressBase.city,
    Region: addressBase.region,
    PostalCode: String(rng.int(10_000, 99_999)),
    CountryCode: s.ref.profile.country,
  };
  const at = stamp(date, rng.int(0, 86_399));
  const status = rng.weighted([
    ['Closed', 7],
    ['Open', 2],
    ['Cancelled', 1],
  ] as const);
  const fulfilled = status === 'Closed';
  const order: NativeOrder = {
    Id: id,
    CreatedAt: at,
    UpdatedAt: at,
    OrderNumber: `#${1000 + Number(id.slice(4))}`,
    Status: status,
    FinancialStatus: status === 'Cancelled' ? 'Refunded' : status === 'Open' ? 'Pending' : 'Paid',
    FulfillmentStatus: fulfilled ? 'Fulfilled' : 'Unfulfilled',
    CurrencyCode: palette.currency,
    Lines: lines,
    Shipping: formatCents(shipping),
    Discount: formatCents(discount),
    Tax: formatCents(tax),
    Total: formatCents(sub - discount + tax + shipping),
    Buyer: {
      Id: customer.Id,
      Email: customer.Email ?? `${person.first.toLowerCase()}@buyer.example`,
      FirstName: person.first,
      LastName: person.last,
      OrdersCount: rng.int(1, 12),
      Verified: rng.chance(0.8),
    },
    BillingAddress: addr,
    ShippingAddress: addr,
    Fulfillments: fulfilled
      ? [
          {
            Carrier: 'UPS',
            Service: 'Ground',
            TrackingNumber: `1Z${rng.int(100_000_000, 999_999_999)}`,
            TrackingUrl: 'https://tracking.example/1Z',
            LineIds: lines.map((l) => l.LineId),
          },
        ]
      : [],
    Refunds: status === 'Cancelled' ? lines.map((l) => ({ LineId: l.LineId, Qty: l.Qty })) : [],
  };
  s.out.push('order', order);
}

/**
 * Writes of the web shop's orders. An order moves no money until it is charged, so a written order posts nothing to
 * the ledger: it is created open and unpaid (Pending), priced by the shop from its variants, and the clock charges it
 * like the shop's other open orders (clock.ts), through the gateway whose payouts the ledger books. Its update sets
 * the status only; cancelling is for orders not yet charged or shipped (a charged order is refunded through the
 * gateway, which no write does). A fulfilment (PATCH with Fulfill, keyed like every write) ships lines of an order.
 *
 *   POST  /v1/Orders  {CurrencyCode, Lines: [{VariantId, Qty}], Buyer: {Email, FirstName?, LastName?}, BillingAddress, ShippingAddress?}
 *   PATCH /v1/Orders/<id>  {Status: Open | Closed | Cancelled}  or  {Fulfill: {Carrier, TrackingNumber, Service?, TrackingUrl?, Lines: [{LineId, Qty?}]}}
 */
import { SHOP_TAX_RATE } from '../generator/orders.ts';
import { formatCents, parseCents } from '../money.ts';
import type { NativeFulfillment, NativeOrder, NativeOrderAddress, NativeOrderLine, NativeProduct, NativeShopper } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { isBody, list, loadOr404, oneOf, text, type Body } from './validate.ts';

function address(body: Body, field: string): NativeOrderAddress {
  const sent = body[field];
  if (!isBody(sent)) throw invalid('RequiredField', `${field} is required`, field);
  const out: NativeOrderAddress = {
    FirstName: text(sent, 'FirstName', true),
    LastName: text(sent, 'LastName', true),
    Line1: text(sent, 'Line1', true),
    City: text(sent, 'City', true),
    Region: text(sent, 'Region', true),
    PostalCode: text(sent, 'PostalCode', true),
    CountryCode: text(sent, 'CountryCode', true),
  };
  const line2 = text(sent, 'Line2');
  const phone = text(sent, 'Phone');
  if (line2 !== undefined) out.Line2 = line2;
  if (phone !== undefined) out.Phone = phone;
  return out;
}

/** The order's lines from the variants sent, priced as the shop sells them, in the order's currency. */
async function pricedLines(unit: Unit, orderId: string, body: Body, currency: string): Promise<NativeOrderLine[]> {
  const products = await unit.all('product');
  const sent = list(body, 'Lines', true);
  if (sent.length === 0) throw invalid('RequiredField', 'Lines must have at least one entry', 'Lines');
  return sent.map((line, n) => {
    const field = `Lines[${n}]`;
    const variantId = text(line, 'VariantId', true);
    const product = products.find((p) => p.Variants.some((v) => v.Id === variantId));
    const variant = product?.Variants.find((v) => v.Id === variantId);
    if (product === undefined || variant === undefined)
      throw invalid('NotFound', `${field}.VariantId ${variantId} is no variant of a product`, `${field}.VariantId`);
    if (product.Status !== 'Active') throw invalid('BusinessRule', `product ${product.Id} is archived and not sold`, `${field}.VariantId`);
    if (product.CurrencyCode !== currency)
      throw invalid('BusinessRule', `product ${product.Id} is sold in ${product.CurrencyCode}, not ${currency}`, 'CurrencyCode');
    const qty = line.Qty;
    if (typeof qty !== 'number' || !Number.isInteger(qty) || qty < 1)
      throw invalid('InvalidField', `${field}.Qty must be a whole number of at least 1`, `${field}.Qty`);
    return lineOf(orderId, n, product, variant, qty);
  });
}

function lineOf(orderId: string, n: number, product: NativeProduct, variant: NativeProduct['Variants'][number], qty: number): NativeOrderLine {
  return {
    LineId: `${orderId}-${n + 1}`,
    ProductId: product.Id,
    VariantId: variant.Id,
    Title: variant.Title,
    Sku: variant.Sku,
    Price: variant.Price,
    UnitCost: variant.UnitCost,
    Qty: qty,
  };
}

/** The buyer: the shop's shopper with this email, or a new one; either way the order joins its orders. */
async function buyerOf(unit: Unit, body: Body, orderId: string, billing: NativeOrderAddress): Promise<NativeOrder['Buyer']> {
  const sent = body.Buyer;
  if (!isBody(sent)) throw invalid('RequiredField', 'Buyer is required', 'Buyer');
  const email = text(sent, 'Email', true);
  const firstName = text(sent, 'FirstName') ?? billing.FirstName;
  const lastName = text(sent, 'LastName') ?? billing.LastName;
  const known = (await unit.all('commerce_customer')).find((s) => s.Email.toLowerCase() === email.toLowerCase());
  if (known !== undefined) {
    known.OrderIds.push(orderId);
    unit.touch('commerce_customer', known);
    const buyer = {
      Id: known.Id,
      Email: known.Email,
      FirstName: known.FirstName,
      LastName: known.LastName,
      OrdersCount: known.OrderIds.length,
      Verified: true,
    };
    return known.Phone === undefined ? buyer : { ...buyer, Phone: known.Phone };
  }
  const shopper: NativeShopper = {
    Id: unit.nextId('commerce_customer'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Email: email,
    FirstName: firstName,
    LastName: lastName,
    OrderIds: [orderId],
  };
  unit.create('commerce_customer', shopper);
  return { Id: shopper.Id, Email: email, FirstName: firstName, LastName: lastName, OrdersCount: 1, Verified: false };
}

async function createOrder(unit: Unit, body: Body): Promise<NativeOrder> {
  const currency = text(body, 'CurrencyCode', true);
  const id = unit.nextId('order');
  const lines = await pricedLines(unit, id, body, currency);
  const billing = address(body, 'BillingAddress');
  const shipping = body.ShippingAddress === undefined || body.ShippingAddress === null ? billing : address(body, 'ShippingAddress');
  const sub = lines.reduce((sum, l) => sum + l.Qty * parseCents(l.Price), 0);
  const tax = Math.round(sub * SHOP_TAX_RATE);
  const order: NativeOrder = {
    Id: id,
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    OrderNumber: `#${1000 + Number(id.slice(4))}`,
    Status: 'Open',
    FinancialStatus: 'Pending',
    FulfillmentStatus: 'Unfulfilled',
    CurrencyCode: currency,
    Lines: lines,
    Shipping: '0.00',
    Discount: '0.00',
    Tax: formatCents(tax),
    Total: formatCents(sub + tax),
    Buyer: await buyerOf(unit, body, id, billing),
    BillingAddress: billing,
    ShippingAddress: shipping,
    Fulfillments: [],
    Refunds: [],
  };
  unit.create('order', order);
  return order;
}

/** How much of each line the order's fulfilments shipped so far. */
function shipped(order: NativeOrder): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of order.Fulfillments) {
    for (const id of f.LineIds) {
      const full = order.Lines.find((l) => l.LineId === id)?.Qty ?? 0;
      out.set(id, (out.get(id) ?? 0) + (f.Quantities?.[id] ?? full));
    }
  }
  return out;
}

function fulfil(order: NativeOrder, sent: Body): void {
  if (order.Status === 'Cancelled') throw invalid('BusinessRule', `order ${order.Id} is cancelled; nothing ships`, 'Fulfill');
  const done = shipped(order);
  const left = (line: NativeOrderLine): number => line.Qty - (done.get(line.LineId) ?? 0);
  const named = list(sent, 'Lines');
  const wanted =
    named.length === 0
      ? order.Lines.filter((l) => left(l) > 0).map((l) => ({ line: l, qty: left(l) }))
      : named.map((entry, n) => {
          const field = `Fulfill.Lines[${n}]`;
          const lineId = text(entry, 'LineId', true);
          const line = order.Lines.find((l) => l.LineId === lineId);
          if (line === undefined) throw invalid('NotFound', `${field}.LineId ${lineId} is no line of order ${order.Id}`, `${field}.LineId`);
          const qty = entry.Qty ?? left(line);
          if (typeof qty !== 'number' || !Number.isInteger(qty) || qty < 1 || qty > left(line))
            throw invalid('BusinessRule', `${field}.Qty must be a whole number from 1 to the ${left(line)} not yet shipped`, `${field}.Qty`);
          return { line, qty };
        });
  if (wanted.length === 0) throw invalid('BusinessRule', `order ${order.Id} is fulfilled already`, 'Fulfill');
  const partial = wanted.filter((w) => w.qty !== w.line.Qty);
  const fulfillment: NativeFulfillment = {
    Carrier: text(sent, 'Carrier', true),
    Service: text(sent, 'Service') ?? null,
    TrackingNumber: text(sent, 'TrackingNumber', true),
    TrackingUrl: text(sent, 'TrackingUrl') ?? null,
    LineIds: wanted.map((w) => w.line.LineId),
  };
  if (partial.length > 0) fulfillment.Quantities = Object.fromEntries(wanted.map((w) => [w.line.LineId, w.qty]));
  order.Fulfillments.push(fulfillment);
  for (const w of wanted) done.set(w.line.LineId, (done.get(w.line.LineId) ?? 0) + w.qty);
  order.FulfillmentStatus = order.Lines.every((l) => left(l) <= 0) ? 'Fulfilled' : 'Partial';
}

function setStatus(order: NativeOrder, body: Body): void {
  const status = oneOf(body, 'Status', ['Open', 'Closed', 'Cancelled'] as const, order.Status);
  if (status === order.Status) return;
  if (order.Status === 'Cancelled') throw invalid('BusinessRule', `order ${order.Id} is cancelled; it does not open or close again`, 'Status');
  if (status === 'Cancelled' && (order.FinancialStatus !== 'Pending' || order.Fulfillments.length > 0))
    throw invalid('BusinessRule', `order ${order.Id} is charged or shipped: refund it before cancelling`, 'Status');
  order.Status = status;
}

async function updateOrder(unit: Unit, id: string, body: Body): Promise<NativeOrder> {
  const order = await loadOr404(unit, 'order', id);
  const sent = body.Fulfill;
  if (sent !== undefined) {
    if (!isBody(sent)) throw invalid('InvalidField', 'Fulfill must be an object', 'Fulfill');
    fulfil(order, sent);
  }
  setStatus(order, body);
  unit.touch('order', order);
  return order;
}

export const orderWriter = {
  create: createOrder,
  update: updateOrder,
  delete: (): Promise<void> => Promise.reject(invalid('MethodNotAllowed', 'orders are cancelled (Status), not deleted', 'Id')),
};

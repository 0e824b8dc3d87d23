/** Unified order writes → SANDBOX's native order payloads (writes/orders.ts): the reference's create and update bodies, and a fulfillment. */
import type { ConnectorContext, FulfillmentInput } from '../../../../src/platforms/connector.ts';
import { copy, enumValue, has, list, type Input, type Native } from './common.ts';

const isInput = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The address fields SANDBOX keeps; an address's email is the buyer's, which the order keeps once, on its buyer. */
function address(input: Input): Native {
  const out: Native = {};
  copy(input, out, [
    ['first_name', 'FirstName'],
    ['last_name', 'LastName'],
    ['address1', 'Line1'],
    ['address2', 'Line2'],
    ['city', 'City'],
    ['region', 'Region'],
    ['postal_code', 'PostalCode'],
    ['country_code', 'CountryCode'],
    ['phone', 'Phone'],
  ]);
  return Object.fromEntries(Object.entries(out).filter(([, value]) => value !== null));
}

const ORDER_STATUS = { active: 'Open', archived: 'Closed', cancelled: 'Cancelled' } as const;

/** Tags (additional_fields.tags) are Shopify's: SANDBOX's shop has none, and they are not sent. */
export function orderInbound(_ctx: ConnectorContext, input: Input): Promise<Native> {
  const out: Native = {};
  copy(input, out, [['currency_code', 'CurrencyCode']]);
  if (has(input, 'line_items')) out.Lines = list(input, 'line_items').map((l) => ({ VariantId: l.variant_id, Qty: l.quantity }));
  if (isInput(input.customer)) {
    const buyer: Native = {};
    copy(input.customer, buyer, [
      ['email', 'Email'],
      ['first_name', 'FirstName'],
      ['last_name', 'LastName'],
    ]);
    out.Buyer = buyer;
  }
  if (isInput(input.billing_address)) out.BillingAddress = address(input.billing_address);
  if (isInput(input.shipping_address)) out.ShippingAddress = address(input.shipping_address);
  if (has(input, 'status')) out.Status = enumValue('status', input.status, ORDER_STATUS);
  return Promise.resolve(out);
}

/** A fulfillment as the PATCH that records it on SANDBOX (keyed: sent again, it ships nothing twice). */
export function fulfillmentNative(fulfillment: FulfillmentInput): Native {
  const out: Native = {
    Carrier: fulfillment.carrier,
    TrackingNumber: fulfillment.tracking_number,
    Lines: fulfillment.line_items.map((l) => ({ LineId: l.line_item_id, ...(l.quantity === undefined ? {} : { Qty: l.quantity }) })),
  };
  if (fulfillment.service !== undefined) out.Service = fulfillment.service;
  if (fulfillment.tracking_url !== undefined) out.TrackingUrl = fulfillment.tracking_url;
  return { Fulfill: out };
}

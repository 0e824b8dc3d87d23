/**
 * Commerce order. The spec gives this shape from a list sample without
 * nullability; fields a platform may lack (addresses, guest customer, product
 * links, costs) are nullable here.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  Timestamp,
  UpdatedAtProperty,
} from './shared.ts';

function NullableText(description: string) {
  return Nullable(Str(description), description);
}

function NullableTimestamp(description: string) {
  return Nullable(Timestamp(description), `${description} (ISO 8601); null when the platform does not say.`);
}

export const REFUND_LINE_STATUSES = ['completed', 'canceled', 'unknown'] as const;

export const OrderLineItemSchema = Type.Object(
  {
    id: Str('Id of the line item.'),
    product_id: NullableText('Service id of the product (an item); null for custom lines.'),
    variant_id: NullableText('Id of the product variant; null when the product has no variants.'),
    title: NullableText('Title of the line item.'),
    sku: NullableText('Stock keeping unit of the line item.'),
    unit_cost: Nullable(Type.Number({ description: 'Cost of one unit to the merchant.' }), 'Cost of one unit to the merchant; null when not known.'),
    price: Type.Number({ description: 'Price of one unit.' }),
    quantity: Type.Integer({ description: 'Quantity ordered.' }),
    iso_currency_code: Nullable(CurrencyCodeEnum('Currency of the line item.'), 'Currency of the line item; null when the platform does not say.'),
    created_at: NullableTimestamp('When the line was added to the order'),
    updated_at: NullableTimestamp('When the line was last changed'),
  },
  { additionalProperties: false, description: 'Line of the order.' },
);

export const OrderFulfillmentSchema = Type.Object(
  {
    id: NullableText("The platform's id of the fulfillment; null when the platform gives none."),
    order_id: Str('Service id of the order the fulfillment belongs to.'),
    carrier: NullableText('Shipping carrier.'),
    service: NullableText('Shipping service of the carrier.'),
    tracking_number: NullableText('Tracking number of the shipment.'),
    tracking_url: NullableText('Tracking address of the shipment.'),
    line_items: Type.Array(OrderLineItemSchema, { description: 'Line items fulfilled.' }),
  },
  { additionalProperties: false, description: 'Shipment of some or all line items of the order.' },
);

export const OrderRefundLineItemSchema = Type.Object(
  {
    line_item_id: Str('Id of the refunded line item.'),
    quantity: Type.Integer({ description: 'Quantity refunded.' }),
    status: Nullable(
      StringEnum(REFUND_LINE_STATUSES, 'completed: the refund was made; canceled: it was called off.'),
      'Outcome of the refund of the line; null when the platform does not say.',
    ),
  },
  { additionalProperties: false, description: 'Refunded quantity of one line item.' },
);

export const OrderRefundSchema = Type.Object(
  { line_items: Type.Array(OrderRefundLineItemSchema, { description: 'Line items refunded.' }) },
  { additionalProperties: false, description: 'Refund of line items of the order.' },
);

export const OrderAddressSchema = Type.Object(
  {
    address1: NullableText('First address line.'),
    address2: NullableText('Second address line.'),
    city: NullableText('City.'),
    first_name: NullableText('First name of the recipient.'),
    last_name: NullableText('Last name of the recipient.'),
    phone: NullableText('Phone number of the recipient.'),
    postal_code: NullableText('Postal or ZIP code.'),
    country_code: NullableText('ISO 3166-1 alpha-2 country code.'),
    region: NullableText('State, province or region.'),
  },
  { additionalProperties: false, description: 'Address of an order.' },
);

export const OrderCustomerSchema = Type.Object(
  {
    id: Str('Id of the commerce customer.'),
    email: NullableText('Email address of the customer.'),
    first_name: NullableText('First name of the customer.'),
    last_name: NullableText('Last name of the customer.'),
    orders_count: Nullable(
      Type.Integer({ description: 'Number of orders of the customer.' }),
      'Number of orders the customer placed; null when not known.',
    ),
    verified_email: Nullable(
      Type.Boolean({ description: 'Whether the email address was verified.' }),
      'Whether the email address was verified; null when not known.',
    ),
    phone: NullableText('Phone number of the customer.'),
    created_at: NullableTimestamp('When the customer was created on the platform'),
    updated_at: NullableTimestamp('When the customer was last updated on the platform'),
  },
  { additionalProperties: false, description: 'Customer who placed the order.' },
);

export const OrderSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    order_number: Str('Merchant-facing number of the order.'),
    status: Str('Status of the order as the platform names it.'),
    payment_status: NullableText('Payment status of the order as the platform names it.'),
    fulfillment_status: NullableText('Fulfillment status of the order as the platform names it.'),
    fulfillments: Type.Array(OrderFulfillmentSchema, { description: 'Shipments of the order.' }),
    line_items: Type.Array(OrderLineItemSchema, { description: 'Lines of the order.' }),
    refunds: Type.Array(OrderRefundSchema, { description: 'Refunds of the order.' }),
    billing_address: Nullable(OrderAddressSchema, 'Billing address; null when the order has none.'),
    shipping_address: Nullable(OrderAddressSchema, 'Shipping address; null when the order has none.'),
    customer: Nullable(OrderCustomerSchema, 'Customer who placed the order; null for guest or anonymous orders.'),
    total_shipping: Type.Number({ description: 'Total shipping charged.' }),
    total_discount: Type.Number({ description: 'Total discount given.' }),
    total_tax: Type.Number({ description: 'Total tax charged.' }),
    total_price: Type.Number({ description: 'Total price of the order.' }),
    iso_currency_code: CurrencyCodeEnum('Currency of the order.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    // Not in the list sample, but expand=platform_data is accepted on every list.
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An order placed in a commerce platform.' },
);

export type Order = Static<typeof OrderSchema>;

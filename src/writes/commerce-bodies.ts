/**
 * Write bodies of commerce objects, as the reference (2024-08-31) has them where they are not the read model's
 * fields: an order is created from variants, a buyer's email and addresses; its update sets its status; a
 * fulfillment ships some or all of its lines. Decisions against the reference: docs/reference.md.
 */
import { Type } from 'typebox';
import { CurrencyCodeEnum, StringEnum } from '../model/shared.ts';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });
const OptionalNullableText = (description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description: `${description} Optional.` }));

const OrderAddressInput = (what: string) =>
  Type.Object(
    {
      address1: Text('First address line.'),
      address2: OptionalNullableText('Second address line.'),
      city: Text('City, town or village.'),
      country_code: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code.' }),
      first_name: Text('First name of the person at the address.'),
      last_name: Text('Last name of the person at the address.'),
      postal_code: Text('Postal or ZIP code.'),
      region: Text('State, province or region (its abbreviation).'),
      email: OptionalNullableText('Email address at the address.'),
      phone: OptionalNullableText('Phone number at the address.'),
    },
    { additionalProperties: false, description: what },
  );

export const OrderCreateBody = Type.Object(
  {
    currency_code: CurrencyCodeEnum('ISO 4217 currency of the order; the variants are sold in it.'),
    line_items: Type.Array(
      Type.Object(
        {
          variant_id: Text('Id of the product variant sold: `variants[].id` of GET /commerce/products.'),
          quantity: Type.Integer({ minimum: 1, maximum: 100_000, description: 'How many of the variant.' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 250, description: 'The variants ordered and their quantities; the platform prices them.' },
    ),
    customer: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 255, pattern: '^[^@\\s]+@[^@\\s]+$', description: 'Email of the buyer.' }),
        first_name: Type.Optional(Text('First name of the buyer.')),
        last_name: Type.Optional(Text('Last name of the buyer.')),
      },
      { additionalProperties: false, description: 'The buyer: an existing commerce customer with this email, or a new one.' },
    ),
    billing_address: OrderAddressInput('Billing address of the order.'),
    shipping_address: Type.Optional(OrderAddressInput('Shipping address of the order; the billing address when left out.')),
    additional_fields: Type.Optional(
      Type.Object(
        { tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 250, description: 'Tags (Shopify only).' })) },
        { additionalProperties: false, description: 'Platform-specific options.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'The order to create: what is sold (variants), to whom and where.' },
);

/** `unknown` of the reference's enum is what a read says of a status it cannot name: not a status to set. */
export const ORDER_WRITE_STATUSES = ['active', 'archived', 'cancelled'] as const;

export const OrderUpdateBody = Type.Object(
  { status: StringEnum(ORDER_WRITE_STATUSES, 'active: open; archived: closed; cancelled: called off.') },
  { additionalProperties: false, description: "The order's new status." },
);

export const FulfillmentBody = Type.Object(
  {
    location_id: Type.Optional(Text('(Shopify only) The location the lines ship from: its platform id.')),
    carrier: Text('Carrier, e.g. "USPS", "UPS"; any text.'),
    tracking_number: Text('Tracking number of the parcel.'),
    service: Type.Optional(Text('Carrier service, e.g. "Priority Mail"; any text.')),
    tracking_url: Type.Optional(Type.String({ pattern: '^https?://\\S+$', maxLength: 2048, description: 'Where the buyer tracks the parcel.' })),
    line_items: Type.Array(
      Type.Object(
        {
          line_item_id: Text('Id of a line of the order (`line_items[].id`).'),
          quantity: Type.Optional(Type.Integer({ minimum: 1, description: 'How many of the line ship; all of what is left when left out.' })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 250, description: 'The lines shipped; empty ships every line of the order not yet fulfilled.' },
    ),
    additional_fields: Type.Optional(
      Type.Object(
        { notify_customer: Type.Optional(Type.Boolean({ description: '(Shopify only) Email the buyer about the shipment.' })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'The shipment to record.' },
);

/**
 * Product of a commerce catalogue, with its variants (sizes, colours). Not shown in the spec (orders' lines name
 * products and variants); follows the reference's "Products" (2024-08-31), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  UpdatedAtProperty,
} from './shared.ts';

export const PRODUCT_STATUSES = ['active', 'archived', 'inactive', 'draft', 'unknown'] as const;

const ImageSchema = Type.Object({ src: Str('Address of the image.') }, { additionalProperties: false, description: 'An image.' });

export const ProductVariantSchema = Type.Object(
  {
    id: Str('Id of the variant: the platform id; unique within its product.'),
    platform_id: PlatformIdProperty,
    product_id: Str('Service id of the product the variant belongs to.'),
    title: Nullable(Str('Title of the variant.'), 'Title of the variant; null when the platform gives none.'),
    sku: Nullable(Str('Stock keeping unit.'), 'Stock keeping unit; null when the variant has none.'),
    barcode: Nullable(Str('Barcode (ISBN, UPC, GTIN).'), 'Barcode; null when the variant has none.'),
    price: Type.Number({ description: 'Price of one unit.' }),
    unit_cost: Nullable(Type.Number({ description: 'Cost of one unit to the merchant.' }), 'Cost of one unit; null when not known.'),
    iso_currency_code: Nullable(CurrencyCodeEnum('Currency of the price.'), 'Currency of the price; null when the platform does not say.'),
    requires_shipping: Type.Boolean({ description: 'Whether the variant is shipped (false for digital goods and services).' }),
    fulfillment_service: Nullable(Str('Who fulfils the variant.'), 'Fulfilment service; null when not known.'),
    inventory_management: Nullable(Str('What tracks the stock.'), 'Inventory management; null when stock is not tracked.'),
    inventory_quantity: Nullable(
      Type.Integer({ description: 'Units in stock across locations.' }),
      'Units in stock across locations; null when stock is not tracked.',
    ),
    option_values: Type.Array(
      Type.Object(
        { name: Str('Name of the option (Size).'), value: Str('Value of the option (M).') },
        { additionalProperties: false, description: 'An option value.' },
      ),
      { description: 'What tells the variant from the other variants of its product.' },
    ),
    images: Type.Array(ImageSchema, { description: 'Images of the variant.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
  },
  { additionalProperties: false, description: 'A variant of a product: what is actually sold and stocked.' },
);

export const ProductSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Str('Name of the product.'),
    description: Str('Description of the product; empty when it has none.'),
    type: Str("The platform's (unstandardised) type or category of the product; empty when none."),
    status: StringEnum(PRODUCT_STATUSES, 'active: for sale; draft: not yet published; archived/inactive: no longer sold.'),
    product_url: Nullable(Str('Consumer-facing address of the product.'), 'Consumer-facing address; null when the product is not published.'),
    images: Type.Array(ImageSchema, { description: 'Images of the product.' }),
    tags: Type.Array(Type.String(), { description: 'Tags of the product.' }),
    variants: Type.Array(ProductVariantSchema, { description: 'Variants of the product; a product without options has one.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: "A product of the store's catalogue." },
);

export type Product = Static<typeof ProductSchema>;

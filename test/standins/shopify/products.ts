/**
 * The stand-in's product writes, as Shopify's Admin API 2026-10 documents them: productSet (a product with its options
 * and variants; every variant names a value of each option, and two variants never the same values), productUpdate,
 * productDelete (a deletion event recorded) and productVariantsBulkCreate / Update / Delete (a product keeps at least one
 * variant). graphql-js has checked the variables against the published input types before any of these runs; a refusal
 * is the payload's userErrors, with the field path and the code Shopify's enum gives.
 */
import { centsOf, gid, metafieldsOf, type Clock, type StandInMetafield, type StandInProduct } from './data.ts';
import { isObject } from '../kit/collections.ts';

type Args = Record<string, unknown>;
type Variant = StandInProduct['variants'][number];
interface UserError {
  field: string[] | null;
  message: string;
  code?: string;
}

export interface CatalogueShop {
  products: StandInProduct[];
  clock: Clock;
  /** Takes the product out and records Shopify's deletion event. */
  removeProduct(id: string): void;
  nextId(): number;
}

const records = (value: unknown): Args[] => (Array.isArray(value) ? value.filter(isObject) : []);
const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
/** Shopify keeps descriptionHtml; `description` is its text. */
const plain = (htmlText: string): string =>
  htmlText
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const moneyText = (value: unknown): string => (centsOf(String(value)) / 100).toFixed(2);

function optionValues(value: unknown): { optionName: string; name: string }[] {
  return records(value).map((o) => ({ optionName: textOf(o.optionName) ?? '', name: textOf(o.name) ?? '' }));
}

/** A variant's fields from a ProductVariantSetInput or ProductVariantsBulkInput, over the variant it changes. */
function applyVariant(shop: CatalogueShop, product: StandInProduct, input: Args, base: Variant | null): Variant {
  const at = shop.clock.tick();
  const item = isObject(input.inventoryItem) ? input.inventoryItem : {};
  const options = Array.isArray(input.optionValues) ? optionValues(input.optionValues) : null;
  const metafields = records(input.metafields).map((m): StandInMetafield => ({
    namespace: String(m.namespace),
    key: String(m.key),
    type: String(m.type),
    value: String(m.value),
  }));
  const variant: Variant = base ?? {
    id: gid('ProductVariant', shop.nextId()),
    title: '',
    sku: '',
    barcode: null,
    price: '0.00',
    inventoryQuantity: 0,
    createdAt: at,
    updatedAt: at,
    selectedOptions: [],
    inventoryItem: { requiresShipping: true, tracked: false, unitCost: { amount: '0.00', currencyCode: 'USD' } },
    media: [],
    productId: product.id,
    ...metafieldsOf([]),
  };
  const changed: Variant = { ...variant, ...metafieldsOf([...variant.metafields, ...metafields]), updatedAt: at };
  if (input.price !== undefined && input.price !== null) changed.price = moneyText(input.price);
  if (input.barcode !== undefined) changed.barcode = textOf(input.barcode) === '' ? null : textOf(input.barcode);
  if (item.sku !== undefined) changed.sku = textOf(item.sku) ?? '';
  if (item.cost !== undefined)
    changed.inventoryItem = {
      ...changed.inventoryItem,
      unitCost: { amount: item.cost === null ? '0.00' : moneyText(item.cost), currencyCode: 'USD' },
    };
  if (options !== null) {
    changed.selectedOptions = options.map((o) => ({ name: o.optionName, value: o.name }));
    changed.title = options.map((o) => o.name).join(' / ');
  }
  return changed;
}

/** Problems of the variants' option values against the product's options (Shopify's codes), at `field`. */
function optionProblems(product: StandInProduct, variants: readonly Variant[], field: (n: number) => string[]): UserError[] {
  const names = product.options.map((o) => o.name);
  const problems: UserError[] = [];
  const seen = new Set<string>();
  variants.forEach((v, n) => {
    const given = v.selectedOptions.map((o) => o.name);
    if (given.join('\u0000') !== names.join('\u0000'))
      problems.push({ field: field(n), message: `Option values must name the options ${names.join(', ')}`, code: 'OPTION_DOES_NOT_EXIST' });
    const combination = v.selectedOptions.map((o) => o.value).join(' / ');
    if (seen.has(combination))
      problems.push({ field: field(n), message: `The variant '${combination}' already exists.`, code: 'VARIANT_ALREADY_EXISTS' });
    seen.add(combination);
  });
  return problems;
}

const setFields = (product: StandInProduct, input: Args): void => {
  if (typeof input.title === 'string') product.title = input.title;
  if (typeof input.descriptionHtml === 'string') product.description = plain(input.descriptionHtml);
  if (typeof input.status === 'string') product.status = input.status;
  if (Array.isArray(input.tags)) product.tags = input.tags.map(String);
};

export function catalogueMutations(shop: CatalogueShop): Record<string, (args: Args) => unknown> {
  const find = (id: unknown): StandInProduct | undefined => shop.products.find((p) => p.id === id);
  const touch = (product: StandInProduct): void => {
    product.updatedAt = shop.clock.tick();
  };
  /** A variant payload: the product after, or nothing changed and the errors. */
  const variantPayload = (product: StandInProduct | undefined, errors: UserError[], extra: Args = {}): Args =>
    errors.length > 0 ? { product: null, userErrors: errors, ...extra } : { product: product ?? null, userErrors: [], ...extra };
  const missingProduct = (): UserError => ({ field: ['productId'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' });

  return {
    productSet: (args) => {
      const input = isObject(args.input) ? args.input : {};
      if (typeof input.title !== 'string' || input.title.trim() === '')
        return { product: null, userErrors: [{ field: ['input', 'title'], message: "Title can't be blank", code: 'INVALID_PRODUCT' }] };
      const at = shop.clock.tick();
      const id = gid('Product', shop.nextId());
      const options = records(input.productOptions).map((o) => ({ name: textOf(o.name) ?? '' }));
      const files = records(input.files);
      const product: StandInProduct = {
        id,
        title: input.title,
        description: '',
        productType: '',
        status: 'ACTIVE',
        onlineStoreUrl: null,
        tags: [],
        createdAt: at,
        updatedAt: at,
        featuredMedia: files[0] === undefined ? null : { preview: { image: { url: String(files[0].originalSource) } } },
        options,
        variants: [],
      };
      setFields(product, input);
      const variants = records(input.variants).map((v) => applyVariant(shop, product, v, null));
      if (variants.length === 0)
        return {
          product: null,
          userErrors: [{ field: ['input', 'variants'], message: 'Variants input is missing', code: 'VARIANTS_INPUT_MISSING' }],
        };
      const problems = optionProblems(product, variants, (n) => ['input', 'variants', String(n), 'optionValues']);
      if (problems.length > 0) return { product: null, userErrors: problems };
      product.variants = variants;
      shop.products.push(product);
      return { product, userErrors: [] };
    },
    productUpdate: (args) => {
      const input = isObject(args.product) ? args.product : {};
      const product = find(input.id);
      if (product === undefined) return { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      setFields(product, input);
      touch(product);
      return { product, userErrors: [] };
    },
    productDelete: (args) => {
      const input = isObject(args.input) ? args.input : {};
      const product = find(input.id);
      if (product === undefined) return { deletedProductId: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      shop.removeProduct(product.id);
      return { deletedProductId: product.id, userErrors: [] };
    },
    productVariantsBulkCreate: (args) => {
      const product = find(args.productId);
      if (product === undefined) return variantPayload(undefined, [missingProduct()], { productVariants: null });
      const created = records(args.variants).map((v) => applyVariant(shop, product, v, null));
      const problems = optionProblems(product, [...product.variants, ...created], (n) => ['variants', String(n - product.variants.length)]);
      if (problems.length > 0) return variantPayload(product, problems, { productVariants: null });
      product.variants = [...product.variants, ...created];
      touch(product);
      return variantPayload(product, [], { productVariants: created });
    },
    productVariantsBulkUpdate: (args) => {
      const product = find(args.productId);
      if (product === undefined) return variantPayload(undefined, [missingProduct()]);
      const changes = records(args.variants);
      const missing = changes.findIndex((c) => !product.variants.some((v) => v.id === c.id));
      if (missing >= 0)
        return variantPayload(product, [
          { field: ['variants', String(missing), 'id'], message: 'Product variant does not exist', code: 'PRODUCT_VARIANT_DOES_NOT_EXIST' },
        ]);
      const after = product.variants.map((v) => {
        const change = changes.find((c) => c.id === v.id);
        return change === undefined ? v : applyVariant(shop, product, change, v);
      });
      const problems = optionProblems(product, after, (n) => ['variants', String(n)]);
      if (problems.length > 0) return variantPayload(product, problems);
      product.variants = after;
      touch(product);
      return variantPayload(product, []);
    },
    productVariantsBulkDelete: (args) => {
      const product = find(args.productId);
      if (product === undefined) return variantPayload(undefined, [missingProduct()]);
      const ids = Array.isArray(args.variantsIds) ? args.variantsIds.map(String) : [];
      if (ids.some((id) => !product.variants.some((v) => v.id === id)))
        return variantPayload(product, [
          {
            field: ['variantsIds'],
            message: 'At least one variant does not belong to the product',
            code: 'AT_LEAST_ONE_VARIANT_DOES_NOT_BELONG_TO_THE_PRODUCT',
          },
        ]);
      const left = product.variants.filter((v) => !ids.includes(v.id));
      if (left.length === 0)
        return variantPayload(product, [{ field: ['variantsIds'], message: 'Cannot delete the last variant', code: 'CANNOT_DELETE_LAST_VARIANT' }]);
      product.variants = left;
      touch(product);
      return variantPayload(product, []);
    },
  };
}

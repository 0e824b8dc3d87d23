/**
 * Product and variant writes on Shopify (Admin API 2026-10): a create is one productSet (the product with its options
 * and variants), an update productUpdate, a delete productDelete; a product's variants are written with
 * productVariantsBulkCreate / Update / Delete. Every answer is the product as the reads select it (PRODUCT_NODE,
 * variants past the first page read after), so the stored copy is what the next sync maps.
 *
 * None of these mutations takes Shopify's @idempotent directive, so a create carries the write's key where it can be
 * found again: a product as a tag (search field `tag`, looked up by findCreated after an interrupted attempt), a
 * variant as a metafield of its own (checked before every variant create). The mapping leaves the tag out of `tags`.
 */
import type { ConnectorContext, NestedHandler, NestedWriteResult, PlatformRecord, WriteContext } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { has, invalid, list, wholeCents, type Input } from '../inbound.ts';
import { text } from '../readers.ts';
import { shopifyGraphql } from './client.ts';
import type { ProductSet } from './contract.ts';
import { userErrorsError, type ShopifyUserError } from './errors.ts';
import { completeNested } from './read.ts';

/** A product as the reads and the write mutations select it. */
type ProductNode = NonNullable<NonNullable<ProductSet['productSet']>['product']>;

const WRITE_KEY_TAG_PREFIX = 'ledgerport-write-';
/** Where a created variant keeps its write's key (an app-owned metafield without a definition: not shown to buyers). */
export const WRITE_KEY_METAFIELD = { namespace: 'ledgerport', key: 'write_key' } as const;

export const writeKeyTag = (key: string): string => `${WRITE_KEY_TAG_PREFIX}${key}`;
/** The tag a create left on its product to be found by: not one of the merchant's. */
export const isWriteKeyTag = (tag: string): boolean => tag.startsWith(WRITE_KEY_TAG_PREFIX);

const PRODUCT_STATUSES: Readonly<Record<string, string>> = { active: 'ACTIVE', archived: 'ARCHIVED' };

/** Each product's variants whole: past the first page, read by PRODUCT_VARIANTS_QUERY (reads and writes alike). */
export function completeProducts<N extends ProductNode>(ctx: ConnectorContext, nodes: N[]): Promise<N[]> {
  return completeNested(ctx, nodes, {
    answer: 'ProductVariants',
    operation: 'list more product variants',
    first: (product) => product.variants,
    more: (data) => data.product?.variants,
    whole: (product, variants) => ({ ...product, variants }),
  });
}

/** The mutation's product as a record, or its userErrors as the PlatformError (nothing was written). */
async function productRecord(
  ctx: WriteContext,
  payload: { product?: ProductNode | null; userErrors?: readonly ShopifyUserError[] } | null | undefined,
  operation: string,
): Promise<PlatformRecord> {
  const refused = userErrorsError(payload?.userErrors, operation);
  if (refused !== null) throw refused;
  const product = payload?.product;
  const id = text(product?.id);
  if (product === null || product === undefined || id === null)
    throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${operation}: the answer has no product`, requestSent: true });
  const [whole] = await completeProducts(ctx, [product]);
  return { platformId: id, raw: { ...(whole ?? product) } };
}

/** Shopify keeps the description as HTML: the text is escaped so it reads back as sent. */
const html = (value: unknown): string => (typeof value === 'string' ? value : '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const money = (value: unknown, field: string): string => String(wholeCents(Number(value), field));

/** A variant's price, SKU, barcode and cost, as both productSet and the bulk variant mutations take them. */
function variantFields(input: Input, at: string): Record<string, unknown> {
  // Shopify keeps stock per location, through its inventory mutations: a product write cannot set it.
  if (has(input, 'inventory_quantity') && input.inventory_quantity !== null)
    throw invalid(`${at}.inventory_quantity`, 'Shopify keeps stock per location; set it in Shopify (inventory), not through a product write');
  if (has(input, 'platform_id')) throw invalid(`${at}.platform_id`, 'Shopify sets the id of a variant');
  const out: Record<string, unknown> = {};
  if (has(input, 'price')) out.price = money(input.price, `${at}.price`);
  if (has(input, 'barcode')) out.barcode = input.barcode ?? '';
  const item: Record<string, unknown> = {};
  if (has(input, 'sku')) item.sku = input.sku ?? '';
  if (has(input, 'unit_cost')) item.cost = input.unit_cost === null ? null : money(input.unit_cost, `${at}.unit_cost`);
  if (Object.keys(item).length > 0) out.inventoryItem = item;
  return out;
}

interface OptionValue {
  optionName: string;
  name: string;
}

/** A variant's option values as sent, or null without any; a title beside them must be what Shopify makes of them. */
function sentOptions(input: Input, at: string): OptionValue[] | null {
  const values = list(input, 'option_values').map((o) => ({ optionName: String(o.name), name: String(o.value) }));
  if (values.length === 0) return null;
  const title = text(input.title);
  // Shopify titles a variant with its option values (`M / Red`); another title cannot be kept.
  if (title !== null && title !== values.map((v) => v.name).join(' / '))
    throw invalid(
      `${at}.title`,
      `a Shopify variant's title is its option values ("${values.map((v) => v.name).join(' / ')}"); leave it out or send those`,
    );
  return values;
}

/** A variant without option values is told apart by its title, as the value of the product's one option. */
function titleOption(input: Input, optionName: string, fallback: string): OptionValue[] {
  return [{ optionName, name: text(input.title) ?? text(input.sku) ?? fallback }];
}

/** The product's options and each variant's values: those sent, or one `Title` option of the variants' titles. */
function productOptions(variants: readonly Input[]): { options: { name: string; values: { name: string }[] }[]; values: OptionValue[][] } {
  const sent = variants.map((v, n) => sentOptions(v, `variants[${n}]`));
  const values = sent.every((v) => v === null)
    ? variants.map((v) => titleOption(v, 'Title', 'Default Title'))
    : sent.map((v, n) => {
        if (v === null) throw invalid(`variants[${n}].option_values`, 'every variant names the same options once one does');
        return v;
      });
  const names = values[0]?.map((v) => v.optionName) ?? [];
  values.forEach((v, n) => {
    if (v.map((o) => o.optionName).join('\u0000') !== names.join('\u0000'))
      throw invalid(`variants[${n}].option_values`, `must name the options ${names.join(', ')} in that order, as the first variant does`);
  });
  const options = names.map((name, i) => ({ name, values: [...new Set(values.map((v) => v[i]?.name ?? ''))].map((value) => ({ name: value })) }));
  return { options, values };
}

function productSetInput(input: Input, key: string): Record<string, unknown> {
  const variants = list(input, 'variants');
  const { options, values } = productOptions(variants);
  const tags = Array.isArray(input.tags) ? input.tags.map(String) : [];
  return {
    title: input.name,
    ...(has(input, 'description') ? { descriptionHtml: html(input.description) } : {}),
    ...(has(input, 'status') ? { status: PRODUCT_STATUSES[String(input.status)] } : {}),
    tags: [...tags, writeKeyTag(key)],
    ...(has(input, 'images') ? { files: list(input, 'images').map((image) => ({ originalSource: image.src, contentType: 'IMAGE' })) } : {}),
    productOptions: options,
    variants: variants.map((v, n) => ({ ...variantFields(v, `variants[${n}]`), optionValues: values[n] ?? [] })),
  };
}

function productUpdateInput(platformId: string, patch: Input): Record<string, unknown> {
  // productUpdate adds media (its `media` argument); replacing a product's images means deleting files: not written here.
  if (has(patch, 'images')) throw invalid('images', "Shopify adds a product's media one by one and deletes them apart; change images in Shopify");
  return {
    id: platformId,
    ...(has(patch, 'name') ? { title: patch.name } : {}),
    ...(has(patch, 'description') ? { descriptionHtml: html(patch.description) } : {}),
    ...(has(patch, 'status') ? { status: PRODUCT_STATUSES[String(patch.status)] } : {}),
    ...(has(patch, 'tags') ? { tags: Array.isArray(patch.tags) ? patch.tags.map(String) : [] } : {}),
  };
}

export async function createProduct(ctx: WriteContext, input: Input): Promise<PlatformRecord> {
  const data = await shopifyGraphql(ctx, 'ProductSet', 'create product', { input: productSetInput(input, ctx.idempotencyKey) });
  return productRecord(ctx, data.productSet, 'create product');
}

/** The product an interrupted create made, found by the tag carrying its write's key. */
export async function findCreatedProduct(ctx: WriteContext): Promise<PlatformRecord | null> {
  const data = await shopifyGraphql(ctx, 'ProductByTag', 'find created product', { query: `tag:'${writeKeyTag(ctx.idempotencyKey)}'` });
  const found = data.products?.nodes?.[0];
  return found === undefined ? null : productRecord(ctx, { product: found, userErrors: [] }, 'find created product');
}

export async function updateProduct(ctx: WriteContext, platformId: string, patch: Input): Promise<PlatformRecord> {
  const data = await shopifyGraphql(ctx, 'ProductUpdate', 'update product', { product: productUpdateInput(platformId, patch) });
  return productRecord(ctx, data.productUpdate, 'update product');
}

export async function deleteProduct(ctx: WriteContext, platformId: string): Promise<void> {
  const data = await shopifyGraphql(ctx, 'ProductDelete', 'delete product', { input: { id: platformId } });
  const refused = userErrorsError(data.productDelete?.userErrors, 'delete product');
  if (refused !== null) throw refused;
}

/** The product's option names and the variant an earlier attempt of this write created, if any. */
async function productBeforeVariantWrite(ctx: WriteContext, productId: string): Promise<{ options: string[]; keyed: string | null }> {
  const data = await shopifyGraphql(ctx, 'ProductOptions', 'read product options', { id: productId, ...WRITE_KEY_METAFIELD });
  const product = data.product;
  if (product === null || product === undefined)
    throw new PlatformError({ kind: 'not_found', httpStatus: 200, message: `read product options: no product ${productId}`, requestSent: true });
  const keyed = product.variants?.nodes?.find((v) => v.metafield?.value === ctx.idempotencyKey);
  return { options: (product.options ?? []).map((o) => o.name ?? ''), keyed: text(keyed?.id) };
}

/** A variant's option values: those sent, or its title as the value of the product's one option. */
function variantOptions(input: Input, options: readonly string[]): OptionValue[] {
  const sent = sentOptions(input, 'variant');
  if (sent !== null) return sent;
  const [only] = options;
  if (only === undefined || options.length > 1)
    throw invalid('variant.option_values', `the product has the options ${options.join(', ')}: name a value of each`);
  return titleOption(input, only, 'Default Title');
}

async function variantResult(
  ctx: WriteContext,
  payload: { product?: ProductNode | null; userErrors?: readonly ShopifyUserError[] } | null | undefined,
  operation: string,
  nestedId: string | null,
): Promise<NestedWriteResult> {
  const parent = await productRecord(ctx, payload, operation);
  if (nestedId === null)
    throw new PlatformError({ kind: 'server', httpStatus: 200, message: `${operation}: the answer names no variant`, requestSent: true });
  return { parent, nestedId };
}

async function readProduct(ctx: WriteContext, productId: string): Promise<NestedWriteResult['parent']> {
  const data = await shopifyGraphql(ctx, 'Product', 'read product', { id: productId });
  return productRecord(ctx, { product: data.product, userErrors: [] }, 'read product');
}

export const shopifyVariants: NestedHandler = {
  async create(ctx, productId, input) {
    const fields = variantFields(input, 'variant');
    const before = await productBeforeVariantWrite(ctx, productId);
    // An earlier attempt of this write created it: answer that one, never a second.
    if (before.keyed !== null) return { parent: await readProduct(ctx, productId), nestedId: before.keyed };
    const variant = {
      ...fields,
      optionValues: variantOptions(input, before.options),
      metafields: [{ ...WRITE_KEY_METAFIELD, type: 'single_line_text_field', value: ctx.idempotencyKey }],
    };
    const data = await shopifyGraphql(ctx, 'VariantsCreate', 'create variant', { productId, variants: [variant] });
    const payload = data.productVariantsBulkCreate;
    return variantResult(ctx, payload, 'create variant', text(payload?.productVariants?.[0]?.id));
  },
  async update(ctx, productId, variantId, patch) {
    const variant: Record<string, unknown> = { id: variantId, ...variantFields(patch, 'variant') };
    if (has(patch, 'option_values') || has(patch, 'title'))
      variant.optionValues = variantOptions(patch, (await productBeforeVariantWrite(ctx, productId)).options);
    const data = await shopifyGraphql(ctx, 'VariantsUpdate', 'update variant', { productId, variants: [variant] });
    return variantResult(ctx, data.productVariantsBulkUpdate, 'update variant', variantId);
  },
  async delete(ctx, productId, variantId) {
    const data = await shopifyGraphql(ctx, 'VariantsDelete', 'delete variant', { productId, variantsIds: [variantId] });
    return variantResult(ctx, data.productVariantsBulkDelete, 'delete variant', variantId);
  },
};

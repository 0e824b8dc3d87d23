/**
 * Shopify's product writes (productSet, productUpdate, productDelete, productVariantsBulkCreate / Update / Delete)
 * taken into SANDBOX's catalogue, off the ledger as SANDBOX keeps it (packages/sandbox/src/writes/catalogue.ts): the
 * same rules, so a product an order names is not deleted. A SANDBOX refusal is the payload's userErrors, as Shopify
 * answers one. A variant create's write-key metafield is SANDBOX's idempotency key: SANDBOX keeps no metafields, and
 * with the key a repeated create answers the first variant.
 */
import type { NativeProduct } from '../../native.ts';
import { NativeError } from '../../native-error.ts';
import type { SimulatorBooks } from '../kit.ts';
import { isRecord } from '../wire.ts';
import { productGid } from './ids.ts';
import { productView, variantGid } from './render.ts';

type Args = Record<string, unknown>;
type View = Record<string, unknown>;

const records = (value: unknown): Args[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const STATUSES: Readonly<Record<string, string>> = { ACTIVE: 'Active', ARCHIVED: 'Archived' };
/** Shopify keeps descriptionHtml; SANDBOX the text. */
const plain = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function productBody(input: Args): Args {
  const body: Args = {};
  if (typeof input.title === 'string') body.Name = input.title;
  if (typeof input.descriptionHtml === 'string') body.Description = plain(input.descriptionHtml);
  if (typeof input.status === 'string') body.Status = STATUSES[input.status] ?? input.status;
  if (Array.isArray(input.tags)) body.Tags = input.tags;
  if (Array.isArray(input.files)) body.Images = records(input.files).map((f) => f.originalSource);
  return body;
}

/** A ProductVariantSetInput or ProductVariantsBulkInput as SANDBOX's variant; its title is its option values. */
function variantBody(input: Args): Args {
  const body: Args = {};
  const item = isRecord(input.inventoryItem) ? input.inventoryItem : {};
  if (input.price !== undefined) body.Price = input.price;
  if (input.barcode !== undefined) body.Barcode = input.barcode;
  if (item.sku !== undefined) body.Sku = item.sku;
  if (item.cost !== undefined) body.UnitCost = item.cost;
  if (Array.isArray(input.optionValues)) {
    const options = records(input.optionValues).map((o) => ({ Name: o.optionName, Value: o.name }));
    body.Options = options;
    body.Title = options.map((o) => String(o.Value)).join(' / ');
  }
  return body;
}

/** A SANDBOX refusal as Shopify's userErrors (nothing written); anything else is the simulator's failure. */
function refused(error: unknown, field: string[], code: string | null = 'INVALID_INPUT'): View {
  if (!(error instanceof NativeError)) throw error;
  return { userErrors: [{ field: error.element === null ? field : [...field, error.element], message: error.message, code }] };
}

const writeKeyOf = (variant: Args): string | null =>
  records(variant.metafields)
    .find((m) => m.namespace === 'ledgerport' && typeof m.value === 'string')
    ?.value?.toString() ?? null;

export function catalogueMutations(books: SimulatorBooks): Record<string, (args: Args) => Promise<View>> {
  const productOf = async (id: unknown): Promise<NativeProduct | null> => (await books.all('product')).find((p) => productGid(p.Id) === id) ?? null;
  const written = (body: Record<string, unknown>): NativeProduct => body.Item as NativeProduct;
  const noProduct = (field: string): View => ({
    product: null,
    userErrors: [{ field: [field], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }],
  });
  /** The SANDBOX id of a variant of the product, by its GID. */
  const variantIdOf = (product: NativeProduct, id: unknown): string | null => product.Variants.find((v) => variantGid(product, v) === id)?.Id ?? null;

  /** The product after the variant write, and the SANDBOX id of the variant written. */
  const variantWrite = async (
    product: NativeProduct,
    op: 'create' | 'update' | 'delete',
    variantId: string | null,
    body: Args,
    key: string | null,
  ): Promise<{ product: NativeProduct; variantId: string }> => {
    const result = await books.writeVariant({ op, productId: product.Id, variantId, body, idempotencyKey: key });
    return { product: written(result.body), variantId: String(result.body.VariantId) };
  };

  return {
    async productSet(args) {
      const input = isRecord(args.input) ? args.input : {};
      try {
        const body = { ...productBody(input), Variants: records(input.variants).map(variantBody) };
        const result = await books.write({ type: 'product', op: 'create', id: null, body, idempotencyKey: null });
        return { product: productView(written(result.body)), userErrors: [] };
      } catch (error) {
        return { product: null, ...refused(error, ['input'], 'INVALID_PRODUCT') };
      }
    },
    async productUpdate(args) {
      const input = isRecord(args.product) ? args.product : {};
      const product = await productOf(input.id);
      if (product === null) return { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      try {
        const result = await books.write({ type: 'product', op: 'update', id: product.Id, body: productBody(input), idempotencyKey: null });
        return { product: productView(written(result.body)), userErrors: [] };
      } catch (error) {
        return { product: null, ...refused(error, ['product'], null) };
      }
    },
    async productDelete(args) {
      const input = isRecord(args.input) ? args.input : {};
      const product = await productOf(input.id);
      if (product === null) return { deletedProductId: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      try {
        await books.write({ type: 'product', op: 'delete', id: product.Id, body: {}, idempotencyKey: null });
        return { deletedProductId: input.id, userErrors: [] };
      } catch (error) {
        return { deletedProductId: null, ...refused(error, ['input', 'id'], null) };
      }
    },
    async productVariantsBulkCreate(args) {
      let product = await productOf(args.productId);
      if (product === null) return { ...noProduct('productId'), productVariants: null };
      const created: View[] = [];
      try {
        for (const variant of records(args.variants)) {
          const result = await variantWrite(product, 'create', null, variantBody(variant), writeKeyOf(variant));
          product = result.product;
          const made = product.Variants.find((v) => v.Id === result.variantId);
          if (made !== undefined) created.push({ id: variantGid(product, made) });
        }
      } catch (error) {
        return { product: null, productVariants: null, ...refused(error, ['variants']) };
      }
      return { product: productView(product), productVariants: created, userErrors: [] };
    },
    async productVariantsBulkUpdate(args) {
      let product = await productOf(args.productId);
      if (product === null) return noProduct('productId');
      try {
        for (const variant of records(args.variants)) {
          const id = variantIdOf(product, variant.id);
          if (id === null)
            return {
              product: null,
              userErrors: [{ field: ['variants', 'id'], message: 'Product variant does not exist', code: 'PRODUCT_VARIANT_DOES_NOT_EXIST' }],
            };
          product = (await variantWrite(product, 'update', id, variantBody(variant), null)).product;
        }
      } catch (error) {
        return { product: null, ...refused(error, ['variants']) };
      }
      return { product: productView(product), userErrors: [] };
    },
    async productVariantsBulkDelete(args) {
      let product = await productOf(args.productId);
      if (product === null) return noProduct('productId');
      try {
        for (const gidOf of Array.isArray(args.variantsIds) ? args.variantsIds : []) {
          const id = variantIdOf(product, gidOf);
          if (id === null)
            return {
              product: null,
              userErrors: [
                {
                  field: ['variantsIds'],
                  message: 'At least one variant does not belong to the product',
                  code: 'AT_LEAST_ONE_VARIANT_DOES_NOT_BELONG_TO_THE_PRODUCT',
                },
              ],
            };
          product = (await variantWrite(product, 'delete', id, {}, null)).product;
        }
      } catch (error) {
        // The last variant, or one an order names: Shopify's code for the first (none fits the second).
        const last = error instanceof NativeError && error.code === 'BusinessRule';
        return { product: null, ...refused(error, ['variantsIds'], last ? 'CANNOT_DELETE_LAST_VARIANT' : null) };
      }
      return { product: productView(product), userErrors: [] };
    },
  };
}

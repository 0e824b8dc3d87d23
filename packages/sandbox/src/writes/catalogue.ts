/**
 * Writes of the web shop's catalogue: products and their variants. A catalogue write posts nothing to the ledger;
 * orders name products and variants, so one an order names stays (archive a product instead of deleting it).
 */
import type { NativeProduct, NativeVariant } from '../native.ts';
import { invalid, NativeError } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { cents, list, loadOr404, oneOf, text, type Body } from './validate.ts';

/** A price or cost of a variant: never negative. */
function money(body: Body, field: string, current: string): string {
  if (!Object.hasOwn(body, field)) return current;
  const value = cents(body, field) ?? 0;
  if (value < 0) throw invalid('InvalidAmount', `${field} cannot be negative`, field);
  return (value / 100).toFixed(2);
}

function quantity(body: Body, field: string, current: number): number {
  const value = body[field];
  if (value === undefined) return current;
  if (value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalid('InvalidField', `${field} must be a whole number of units`, field);
  return value;
}

function options(body: Body, field: string): { Name: string; Value: string }[] {
  return list(body, field).map((o, n) => {
    const at = `${field}[${n}].`;
    return { Name: text({ [`${at}Name`]: o.Name }, `${at}Name`, true), Value: text({ [`${at}Value`]: o.Value }, `${at}Value`, true) };
  });
}

function texts(body: Body, field: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid('InvalidField', `${field} must be a list of text`, field);
  return value;
}

/** A variant from its payload (field names prefixed with `where` in errors), on top of the current one when it exists. */
function variantOf(unit: Unit, body: Body, base: NativeVariant | null, where: string): NativeVariant {
  const at = (field: string): string => `${where}${field}`;
  const scoped = (field: string): Body => (Object.hasOwn(body, field) ? { [at(field)]: body[field] } : {});
  const variant: NativeVariant =
    base === null ? { Id: unit.nextNumbered('VAR'), Sku: '', Title: '', Price: '0.00', UnitCost: '0.00', InventoryQty: 0 } : { ...base };
  if (base === null || Object.hasOwn(body, 'Sku')) variant.Sku = text(scoped('Sku'), at('Sku'), true);
  if (base === null || Object.hasOwn(body, 'Title')) variant.Title = text(scoped('Title'), at('Title')) ?? 'Default';
  if (base === null && !Object.hasOwn(body, 'Price')) throw invalid('RequiredField', `${at('Price')} is required`, at('Price'));
  variant.Price = money(scoped('Price'), at('Price'), variant.Price);
  variant.UnitCost = money(scoped('UnitCost'), at('UnitCost'), variant.UnitCost);
  variant.InventoryQty = quantity(scoped('InventoryQty'), at('InventoryQty'), variant.InventoryQty);
  if (Object.hasOwn(body, 'Barcode')) {
    const barcode = text(scoped('Barcode'), at('Barcode'));
    if (barcode === undefined) delete variant.Barcode;
    else variant.Barcode = barcode;
  }
  if (Object.hasOwn(body, 'Options')) variant.Options = options(scoped('Options'), at('Options'));
  return variant;
}

/** Two variants of one product never share a SKU: orders and stock name them by it. */
function refuseDuplicateSkus(product: NativeProduct): void {
  const seen = new Set<string>();
  for (const [n, v] of product.Variants.entries()) {
    if (seen.has(v.Sku)) throw invalid('DuplicateValue', `another variant of product ${product.Id} already has Sku "${v.Sku}"`, `Variants[${n}].Sku`);
    seen.add(v.Sku);
  }
}

async function storeCurrency(unit: Unit): Promise<string> {
  const [store] = await unit.all('store');
  return store?.Currency ?? unit.state.palette?.currency ?? 'USD';
}

async function writeProduct(unit: Unit, body: Body, base: NativeProduct | null): Promise<NativeProduct> {
  const record: NativeProduct = base ?? {
    Id: unit.nextId('product'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Name: '',
    Description: '',
    Status: 'Active',
    Tags: [],
    CurrencyCode: await storeCurrency(unit),
    Variants: [],
  };
  record.Name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  if (base === null || Object.hasOwn(body, 'Description')) record.Description = text(body, 'Description') ?? '';
  if (base === null || Object.hasOwn(body, 'Status')) record.Status = oneOf(body, 'Status', ['Active', 'Archived'] as const, 'Active');
  if (base === null || Object.hasOwn(body, 'Tags')) record.Tags = texts(body, 'Tags');
  if (Object.hasOwn(body, 'Images')) record.Images = texts(body, 'Images');
  if (base === null) {
    const variants = list(body, 'Variants', true);
    if (variants.length === 0) throw invalid('RequiredField', 'Variants needs at least one variant', 'Variants');
    record.Variants = variants.map((v, n) => variantOf(unit, v, null, `Variants[${n}].`));
    refuseDuplicateSkus(record);
    unit.create('product', record);
  } else {
    // Variants change through their own endpoints (/Products/<id>/Variants).
    if (Object.hasOwn(body, 'Variants')) throw invalid('InvalidField', 'Variants are written through /Products/<id>/Variants', 'Variants');
    unit.touch('product', record);
  }
  return record;
}

async function refuseIfOrdered(unit: Unit, id: string, what: string, instead: string): Promise<void> {
  const order = await unit.referencedBy(['order'], id);
  if (order !== null) throw invalid('InUse', `${what} ${id} is on order ${order}; ${instead}`, 'Id');
}

export const productWriter = {
  create: (unit: Unit, body: Body) => writeProduct(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeProduct(unit, body, await loadOr404(unit, 'product', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'product', id);
    await refuseIfOrdered(unit, id, 'product', 'archive it instead (Status: Archived)');
    unit.remove('product', id);
  },
};

function variantIndex(product: NativeProduct, variantId: string): number {
  const index = product.Variants.findIndex((v) => v.Id === variantId);
  if (index < 0) throw new NativeError(404, 'NotFound', `product ${product.Id} has no variant ${variantId}`, 'VariantId');
  return index;
}

/** A product's variants (POST, PATCH and DELETE /v1/Products/<id>/Variants[/<variantId>]): each answers the product after. */
export const variantWriter = {
  async create(unit: Unit, productId: string, body: Body): Promise<{ product: NativeProduct; variantId: string }> {
    const product = await loadOr404(unit, 'product', productId);
    const variant = variantOf(unit, body, null, '');
    product.Variants = [...product.Variants, variant];
    refuseDuplicateSkus(product);
    unit.touch('product', product);
    return { product, variantId: variant.Id };
  },
  async update(unit: Unit, productId: string, variantId: string, body: Body): Promise<{ product: NativeProduct; variantId: string }> {
    const product = await loadOr404(unit, 'product', productId);
    const index = variantIndex(product, variantId);
    const current = product.Variants[index];
    if (current === undefined) throw new Error(`variant ${variantId} vanished`);
    product.Variants = product.Variants.map((v, n) => (n === index ? variantOf(unit, body, current, '') : v));
    refuseDuplicateSkus(product);
    unit.touch('product', product);
    return { product, variantId };
  },
  async delete(unit: Unit, productId: string, variantId: string): Promise<{ product: NativeProduct; variantId: string }> {
    const product = await loadOr404(unit, 'product', productId);
    variantIndex(product, variantId);
    if (product.Variants.length === 1)
      throw invalid('BusinessRule', `variant ${variantId} is the only one of product ${productId}; delete the product instead`, 'VariantId');
    await refuseIfOrdered(unit, variantId, 'variant', 'keep it, or archive its product');
    product.Variants = product.Variants.filter((v) => v.Id !== variantId);
    unit.touch('product', product);
    return { product, variantId };
  },
};

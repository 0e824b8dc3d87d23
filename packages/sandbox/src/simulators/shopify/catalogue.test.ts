/**
 * The SHOPIFY connector's product and variant writes against the Shopify simulator: each mutation is validated against
 * the simulator's part of Shopify's published schema and taken into SANDBOX's catalogue, off the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorContext, ObjectHandler } from '../../../../../src/platforms/connector.ts';
import { fixedTokenSession } from '../../../../../src/platforms/context.ts';
import { PlatformError } from '../../../../../src/platforms/errors.ts';
import { createPlatformHttp } from '../../../../../src/platforms/http.ts';
import { shopifyConnector } from '../../../../../src/platforms/shopify/index.ts';
import { writeKeyTag } from '../../../../../src/platforms/shopify/products.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { SandboxPlatform } from '../../platform.ts';
import { testContext, writeContext } from '../../testkit.ts';
import { simulatorBooks } from '../books.ts';
import type { SimulatorBooks } from '../kit.ts';
import { booksFetch } from '../testing.ts';
import { productGid } from './ids.ts';
import { shopifySimulator } from './simulator.ts';

const KEY = 'shopify:user_good';
let db: TestDatabase;
let books: SimulatorBooks;
let ctx: ConnectorContext;
let products: ObjectHandler;

beforeAll(async () => {
  db = await createTestDatabase();
  books = await simulatorBooks(new SandboxPlatform(db.pool, { tickIntervalMs: 0 }), KEY);
  const tokens = { accessToken: 'shpat_x', refreshToken: null, expiresAt: null, tenantId: null };
  ctx = {
    ...testContext({ store_url: 'user-good.myshopify.com' }, createPlatformHttp({ fetch: booksFetch(shopifySimulator, books) })),
    tokens,
    oauth: fixedTokenSession(tokens),
  };
  const handler = shopifyConnector.objects.product?.handler;
  if (handler === undefined) throw new Error('no product handler');
  products = handler;
}, 120_000);
afterAll(async () => {
  await db.close();
});

const SHIRT = {
  name: 'Simulated shirt',
  description: 'Cotton & <wool>',
  status: 'active',
  tags: ['sim'],
  variants: [
    { sku: 'SS-S', price: 30, unit_cost: 9, option_values: [{ name: 'Size', value: 'S' }] },
    { sku: 'SS-M', price: 31.5, option_values: [{ name: 'Size', value: 'M' }] },
  ],
};

describe('SHOPIFY product writes against the Shopify simulator, booked in SANDBOX', () => {
  it('creates, finds, changes and deletes a product and its variants; a variant create happens once per write key', async () => {
    const created = await products.create?.(writeContext(ctx, 'shp-product-1'), SHIRT);
    if (created === undefined) throw new Error('no create');
    const native = (await books.all('product')).find((p) => p.Name === 'Simulated shirt');
    expect(native).toMatchObject({ Description: 'Cotton & <wool>', Status: 'Active', Tags: ['sim', writeKeyTag('shp-product-1')] });
    expect(native?.Variants.map((v) => [v.Sku, v.Title, v.Price, v.UnitCost, v.Options])).toEqual([
      ['SS-S', 'S', '30.00', '9.00', [{ Name: 'Size', Value: 'S' }]],
      ['SS-M', 'M', '31.50', '0.00', [{ Name: 'Size', Value: 'M' }]],
    ]);
    const unified = products.map(created, ctx);
    expect(unified).toMatchObject({ name: 'Simulated shirt', description: 'Cotton & <wool>', status: 'active', tags: ['sim'] });
    // After a lost answer the write finds its product by the key's tag, and nothing for another key.
    expect((await products.findCreated?.(writeContext(ctx, 'shp-product-1'), SHIRT))?.platformId).toBe(created.platformId);
    expect(await products.findCreated?.(writeContext(ctx, 'shp-product-2'), SHIRT)).toBeNull();

    const variants = products.nested?.variants;
    if (variants?.create === undefined || variants.update === undefined || variants.delete === undefined) throw new Error('no variant writes');
    const large = { sku: 'SS-L', price: 33, option_values: [{ name: 'Size', value: 'L' }] };
    const added = await variants.create(writeContext(ctx, 'shp-variant-1'), created.platformId, large);
    const again = await variants.create(writeContext(ctx, 'shp-variant-1'), created.platformId, large);
    expect(again.nestedId).toBe(added.nestedId);
    const id = native?.Id ?? '';
    expect((await books.get('product', id))?.Variants.map((v) => v.Sku)).toEqual(['SS-S', 'SS-M', 'SS-L']);

    await variants.update(writeContext(ctx, 'shp-variant-2'), created.platformId, added.nestedId, { price: 35, barcode: '0042' });
    expect((await books.get('product', id))?.Variants.find((v) => v.Sku === 'SS-L')).toMatchObject({ Price: '35.00', Barcode: '0042' });
    const after = await variants.delete(writeContext(ctx, 'shp-variant-3'), created.platformId, added.nestedId);
    expect((products.map(after.parent, ctx).variants as { sku: string }[]).map((v) => v.sku)).toEqual(['SS-S', 'SS-M']);

    const archived = await products.update?.(writeContext(ctx, 'shp-product-3'), created.platformId, { name: 'Old shirt', status: 'archived' });
    expect(archived === undefined ? null : products.map(archived, ctx)).toMatchObject({ name: 'Old shirt', status: 'archived' });
    expect(await books.get('product', id)).toMatchObject({ Name: 'Old shirt', Status: 'Archived' });

    await products.delete?.(writeContext(ctx, 'shp-product-4'), created.platformId);
    expect(await books.get('product', id)).toBeNull();
  });

  it("refuses to delete a product SANDBOX's orders name: Shopify's userErrors, nothing deleted", async () => {
    const [order] = await books.all('order');
    const productId = order?.Lines[0]?.ProductId ?? '';
    const error = await products.delete?.(writeContext(ctx, 'shp-product-5'), productGid(productId)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect(await books.get('product', productId)).not.toBeNull();
  });
});

/**
 * Commerce product writes against SANDBOX through the real server and PostgreSQL: POST, PATCH and DELETE
 * /commerce/products and the variant endpoints (/commerce/products/:id/variants[/:variantId]), in the reference's
 * answer shapes; stored copy and events in step; async, idempotency; the refusals every write has.
 */
import { randomUUID } from 'node:crypto';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL } from '../../model/index.ts';
import { clientHeaders, errorBody, json, type TestApp } from '../../../test/support/app.ts';
import { jobIdOf, productWriteAnswers, sender, startWriteTestApp, type Json } from '../../../test/support/writes.ts';
import { eventsOf, incrementalSync, storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../test/support/sandbox-connection.ts';

let t: TestApp;
let c: SyncedConnection;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_products_size_300');
}, 120_000);
afterAll(async () => {
  await t.close();
});

const send = (...args: Parameters<ReturnType<typeof sender>>): ReturnType<ReturnType<typeof sender>> => sender(t, c.token)(...args);
const uniq = (): string => randomUUID().slice(0, 8);

const productInput = (sku: string): Json => ({
  name: `Enamel mug ${sku}`,
  description: 'A mug for the kitchen.',
  tags: ['kitchen'],
  variants: [{ sku, title: 'Blue', price: 12.5, unit_cost: 4.25, inventory_quantity: 10, option_values: [{ name: 'Colour', value: 'Blue' }] }],
});

async function createdProduct(): Promise<Json> {
  const response = await send('POST', '/commerce/products', { product: productInput(`MUG-${uniq()}`) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response).product as Json;
}

const eventsWithJob = async (code: string, job: string): Promise<Json[]> =>
  (await eventsOf(t, c.connection.id)).filter((e) => e.code === code && e.payload.job_id === job).map((e) => e.payload.product as Json);

describe('product writes on SANDBOX', () => {
  it('creates, reads back, updates and deletes a product, with stored copy and events in step', async () => {
    const sku = `MUG-${uniq()}`;
    const created = await send('POST', '/commerce/products', { product: productInput(sku) });
    expect(created.statusCode, created.body).toBe(200);
    const product = json(created).product as Json;
    expect(Value.Check(MODEL.product.schema, product), JSON.stringify([...Value.Errors(MODEL.product.schema, product)].slice(0, 2))).toBe(true);
    expect(product).toMatchObject({
      name: `Enamel mug ${sku}`,
      description: 'A mug for the kitchen.',
      status: 'active',
      tags: ['kitchen'],
      variants: [{ sku, title: 'Blue', price: 12.5, unit_cost: 4.25, inventory_quantity: 10, product_id: product.id }],
    });
    expect(json(await send('GET', `/commerce/products/${String(product.id)}`)).product).toEqual(product);
    expect((await eventsWithJob('PRODUCT_CREATED', jobIdOf(created))).map((p) => p.id)).toEqual([product.id]);

    const updated = await send('PATCH', `/commerce/products/${String(product.id)}`, { product: { name: 'Big enamel mug', status: 'archived' } });
    expect(updated.statusCode, updated.body).toBe(200);
    const after = json(updated).product as Json;
    expect(after).toMatchObject({
      id: product.id,
      name: 'Big enamel mug',
      status: 'archived',
      description: 'A mug for the kitchen.',
      tags: ['kitchen'],
    });
    expect(json(await send('GET', `/commerce/products/${String(product.id)}`)).product).toEqual(after);
    expect((await eventsWithJob('PRODUCT_UPDATED', jobIdOf(updated))).map((p) => p.id)).toEqual([product.id]);

    const deleted = await send('DELETE', `/commerce/products/${String(product.id)}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    // The reference's DeleteProductResponse.
    expect(json(deleted)).toEqual({ product: product.id, success: true });
    expect((await send('GET', `/commerce/products/${String(product.id)}`)).statusCode).toBe(410);
    expect((await eventsWithJob('PRODUCT_DELETED', jobIdOf(deleted))).map((p) => p.id)).toEqual([product.id]);

    // The follow-up sync finds what was written: no second CREATED.
    await incrementalSync(t, c.connection.id);
    const createdEvents = (await eventsOf(t, c.connection.id)).filter(
      (e) => e.code === 'PRODUCT_CREATED' && (e.payload.product as Json).id === product.id,
    );
    expect(createdEvents).toHaveLength(1);
  });

  it('adds, changes and removes variants; each answer is the variant as the stored product has it', async () => {
    const product = await createdProduct();
    const path = `/commerce/products/${String(product.id)}/variants`;
    const sku = `MUG-RED-${uniq()}`;
    const added = await send('POST', path, { variant: { sku, price: 13, option_values: [{ name: 'Colour', value: 'Red' }] } });
    expect(added.statusCode, added.body).toBe(200);
    const variant = json(added).variant as Json;
    expect(variant).toMatchObject({ sku, price: 13, product_id: product.id, option_values: [{ name: 'Colour', value: 'Red' }] });
    const stored = json(await send('GET', `/commerce/products/${String(product.id)}`)).product as Json;
    expect((stored.variants as Json[]).map((v) => v.sku)).toEqual([(product.variants as Json[])[0]?.sku, sku]);
    expect((stored.variants as Json[])[1]).toEqual(variant);
    expect((await eventsWithJob('PRODUCT_UPDATED', jobIdOf(added))).map((p) => p.id)).toEqual([product.id]);

    // The reference's body repeats the variant's id; ours may leave it out.
    const changed = await send('PATCH', `${path}/${String(variant.id)}`, { variant: { id: variant.id, price: 14.75, barcode: '400000000001' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed).variant).toMatchObject({ id: variant.id, sku, price: 14.75, barcode: '400000000001' });
    const otherId = await send('PATCH', `${path}/${String(variant.id)}`, { variant: { id: 'another', price: 1 } });
    expect([otherId.statusCode, errorBody(otherId).error_metadata?.field]).toEqual([400, 'variant.id']);

    const removed = await send('DELETE', `${path}/${String(variant.id)}`);
    expect(removed.statusCode, removed.body).toBe(200);
    // The reference's DeleteVariantResponse.
    expect(json(removed)).toEqual({ productId: product.id, variantId: variant.id });
    const left = json(await send('GET', `/commerce/products/${String(product.id)}`)).product as Json;
    expect((left.variants as Json[]).map((v) => v.id)).toEqual([(product.variants as Json[])[0]?.id]);
    // The last variant stays: the platform refuses, its message kept.
    const last = await send('DELETE', `${path}/${String((product.variants as Json[])[0]?.id)}`);
    expect([last.statusCode, errorBody(last).error_code]).toEqual([450, 'PLATFORM_BAD_REQUEST']);
  });

  it('answers 202 in async mode and keeps one job per Idempotency-Key', async () => {
    const key = randomUUID();
    const payload = { response_mode: 'async', product: productInput(`MUG-${uniq()}`) };
    const first = await send('POST', '/commerce/products', payload, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(202);
    expect((json(first).async_response as Json).id).toBe(jobIdOf(first));
    const again = await send('POST', '/commerce/products', payload, { 'idempotency-key': key });
    expect(jobIdOf(again)).toBe(jobIdOf(first));
    let job: Json = {};
    for (let i = 0; i < 100 && job.status !== 'success'; i++) {
      job = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${jobIdOf(first)}`, headers: clientHeaders(t.org) }));
      if (job.status !== 'success') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job.status).toBe('success');
    const rows = await t.db.pool.query(`SELECT id FROM records WHERE connection_id = $1 AND object_type = 'product' AND data->>'name' = $2`, [
      c.connection.id,
      payload.product.name,
    ]);
    expect(rows.rowCount).toBe(1);

    const product = await createdProduct();
    const variantKey = randomUUID();
    const variant = { response_mode: 'async', variant: { sku: `V-${uniq()}`, price: 2 } };
    const path = `/commerce/products/${String(product.id)}/variants`;
    const one = await send('POST', path, variant, { 'idempotency-key': variantKey });
    const two = await send('POST', path, variant, { 'idempotency-key': variantKey });
    expect([one.statusCode, jobIdOf(two)]).toEqual([202, jobIdOf(one)]);
  });

  it('refuses missing auth, another organisation, ids of other connections and malformed bodies, changing nothing', async () => {
    const product = await createdProduct();
    const variantId = String((product.variants as Json[])[0]?.id);
    const body = { product: productInput(`MUG-${uniq()}`) };
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `/versioned/commerce/products?access_token=${c.token}`,
      headers: { 'x-service-version': '2024-08-31' },
      payload: body,
    });
    expect(noAuth.statusCode).toBe(401);
    const otherOrg = await t.newOrg('Products other');
    for (const [method, url, payload] of [
      ['POST', '/commerce/products', body],
      ['PATCH', `/commerce/products/${String(product.id)}`, { product: { name: 'x' } }],
      ['POST', `/commerce/products/${String(product.id)}/variants`, { variant: { sku: 'x', price: 1 } }],
      ['DELETE', `/commerce/products/${String(product.id)}/variants/${variantId}`, {}],
    ] as const) {
      const foreign = await t.app.inject({ method, url: `/versioned${url}?access_token=${c.token}`, headers: clientHeaders(otherOrg), payload });
      expect([foreign.statusCode, errorBody(foreign).error_code], `${method} ${url}`).toEqual([401, 'INVALID_CREDENTIALS']);
    }

    // Another connection's product is answered as an unknown one.
    const other = await syncedSandboxConnection(t, 'user_products_other_size_300');
    const theirs = await storedWhere(t, other.connection.id, 'product', () => true);
    const unknown = randomUUID();
    for (const id of [theirs.id, unknown]) {
      for (const [method, url, payload] of [
        ['PATCH', `/commerce/products/${id}`, { product: { name: 'not yours' } }],
        ['DELETE', `/commerce/products/${id}`, {}],
        ['POST', `/commerce/products/${id}/variants`, { variant: { sku: 'x', price: 1 } }],
        ['PATCH', `/commerce/products/${id}/variants/${variantId}`, { variant: { price: 1 } }],
        ['DELETE', `/commerce/products/${id}/variants/${variantId}`, {}],
      ] as const) {
        const response = await send(method, url, payload);
        expect([response.statusCode, errorBody(response).error_code], `${method} ${url}`).toEqual([410, 'RESOURCE_NOT_FOUND']);
      }
    }
    const noVariant = await send('PATCH', `/commerce/products/${String(product.id)}/variants/nope`, { variant: { price: 1 } });
    expect([noVariant.statusCode, errorBody(noVariant).error_metadata?.field]).toEqual([410, 'variantId']);

    const jobsBefore = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1', [c.connection.id]);
    const malformed: [string, string, Json, string][] = [
      ['POST', '/commerce/products', { product: { name: 'No variants' } }, 'product.variants'],
      ['POST', '/commerce/products', { product: { name: 'x', variants: [{ sku: 'x' }] } }, 'product.variants[0].price'],
      ['POST', '/commerce/products', { product: { name: 'x', variants: [{ sku: 'x', price: 1.001 }] } }, 'product.variants[0].price'],
      ['POST', '/commerce/products', { product: { name: 'x', status: 'draft', variants: [{ sku: 'x', price: 1 }] } }, 'product.status'],
      [
        'POST',
        '/commerce/products',
        { product: { name: 'x', variants: [{ sku: 'x', price: 1, weight: { unit: 'kg', value: 1 } }] } },
        'product.variants[0].weight',
      ],
      ['PATCH', `/commerce/products/${String(product.id)}`, { product: { variants: [] } }, 'product.variants'],
      ['PATCH', `/commerce/products/${String(product.id)}`, { product: {} }, 'product'],
      ['POST', `/commerce/products/${String(product.id)}/variants`, { variant: { price: 1 } }, 'variant.sku'],
      ['PATCH', `/commerce/products/${String(product.id)}/variants/${variantId}`, { variant: { price: 'ten' } }, 'variant.price'],
    ];
    for (const [method, url, payload, field] of malformed) {
      const response = await send(method as 'POST' | 'PATCH', url, payload);
      expect([response.statusCode, errorBody(response).error_code], `${method} ${url} ${JSON.stringify(payload)}`).toEqual([400, 'VALIDATION_ERROR']);
      expect(errorBody(response).error_metadata?.field, `${method} ${url} ${JSON.stringify(payload)}`).toBe(field);
    }
    const jobsAfter = await t.db.pool.query('SELECT count(*)::int AS n FROM write_jobs WHERE connection_id = $1', [c.connection.id]);
    expect(jobsAfter.rows[0]).toEqual(jobsBefore.rows[0]);
    expect(json(await send('GET', `/commerce/products/${String(product.id)}`)).product).toEqual(product);
  });

  it('refuses deleting a product an order names (450, archive it instead), and every product write answers here', async () => {
    const order = await storedWhere(t, c.connection.id, 'order', (o) => Array.isArray(o.line_items) && o.line_items.length > 0);
    const productId = String((order.line_items as Json[])[0]?.product_id);
    const refused = await send('DELETE', `/commerce/products/${productId}`);
    expect([refused.statusCode, errorBody(refused).error_code]).toEqual([450, 'PLATFORM_BAD_REQUEST']);
    expect(errorBody(refused).error_message).toMatch(/archive it instead/);
    expect((await send('GET', `/commerce/products/${productId}`)).statusCode).toBe(200);
    // SANDBOX has every product write: none is refused as unsupported (made-up ids answer 410).
    for (const [route, status] of await productWriteAnswers(send)) expect(status, route).not.toBe(404);
  });
});

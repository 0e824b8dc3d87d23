/**
 * Order writes (the reference's CreateCommerceOrder, UpdateCommerceOrder, FulfillCommerceOrder) on SANDBOX through the
 * real server, write jobs and PostgreSQL: create, update and fulfil, read back; async and prefer_sync; one job per
 * Idempotency-Key; refusals before anything is queued; the platform's books still tie out afterwards.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import { eventsOf, storedWhere, syncedSandboxConnection, type SyncedConnection } from '../../../../test/support/sandbox-connection.ts';
import { jobIdOf, orderCreateBody, sender, startWriteTestApp, type Json, type Send } from '../../../../test/support/writes.ts';
import { auditBooks } from '../../../../packages/sandbox/src/audit.ts';
import { readAll, testContext } from '../../../../packages/sandbox/src/testkit.ts';

const USER = 'user_order_writes_size_300';
let t: TestApp;
let c: SyncedConnection;
let send: Send;
let variantId = '';
let shopperEmail = '';
let currency = '';

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, USER);
  send = sender(t, c.token);
  const product = await storedWhere(
    t,
    c.connection.id,
    'product',
    (p) => p.status === 'active' && Array.isArray(p.variants) && p.variants.length > 0,
  );
  variantId = String(firstOf(product.variants).id);
  currency = String((await storedWhere(t, c.connection.id, 'order', () => true)).iso_currency_code);
  shopperEmail = String((await storedWhere(t, c.connection.id, 'commerce_customer', (s) => typeof s.email === 'string')).email);
});
afterAll(async () => {
  await t.close();
});

function firstOf(list: unknown): Json {
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  if (typeof first !== 'object' || first === null) throw new Error('empty list');
  return first as Json;
}

const order = (response: Parameters<typeof json>[0]): Json => json(response).order as Json;

async function storedOrderCount(): Promise<number> {
  const { rows } = await t.db.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM records WHERE connection_id = $1 AND object_type = 'order' AND deleted_at IS NULL",
    [c.connection.id],
  );
  return Number(rows[0]?.n ?? 0);
}

async function finishedJob(id: string): Promise<Json> {
  let job: Json = {};
  for (let i = 0; i < 100; i++) {
    job = json(await t.app.inject({ method: 'GET', url: `/versioned/jobs/${id}`, headers: clientHeaders(t.org) }));
    if (job.status === 'success' || job.status === 'failure') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return job;
}

describe('order writes on SANDBOX', () => {
  it('creates an order (prefer_sync) as a GET reads it, updates its status and fulfils it in two shipments', async () => {
    const created = await send('POST', '/commerce/orders', orderCreateBody(variantId, shopperEmail, currency));
    expect(created.statusCode, created.body).toBe(200);
    const job = jobIdOf(created);
    const written = order(created);
    expect(written).toMatchObject({
      status: 'open',
      payment_status: 'pending',
      fulfillment_status: 'unfulfilled',
      line_items: [{ variant_id: variantId, quantity: 1 }],
      customer: { email: shopperEmail },
      billing_address: { address1: '1 Main St', city: 'Springfield' },
    });
    const read = await send('GET', `/commerce/orders/${String(written.id)}`);
    expect(order(read)).toEqual(written);
    const events = await eventsOf(t, c.connection.id);
    const createdEvents = events.filter((e) => e.code === 'ORDER_CREATED' && (e.payload.order as Json).id === written.id);
    expect(createdEvents.map((e) => e.payload.job_id)).toEqual([job]);

    const archived = await send('PATCH', `/commerce/orders/${String(written.id)}`, { order: { status: 'archived' } });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(order(archived).status).toBe('closed');
    const reopened = await send('PATCH', `/commerce/orders/${String(written.id)}`, { order: { status: 'active' } });
    expect(order(reopened).status).toBe('open');

    const more = await send('POST', '/commerce/orders', {
      order: {
        ...(orderCreateBody(variantId, 'first.time@example.com', currency).order as Json),
        line_items: [{ variant_id: variantId, quantity: 3 }],
      },
    });
    const three = order(more);
    const lineId = String(firstOf(three.line_items).id);
    const first = await send('POST', `/commerce/orders/${String(three.id)}/fulfillments`, {
      fulfillment: {
        carrier: 'UPS',
        tracking_number: '1Z999',
        tracking_url: 'https://track.example/1Z999',
        line_items: [{ line_item_id: lineId, quantity: 2 }],
      },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first).fulfillment).toMatchObject({
      order_id: three.id,
      carrier: 'UPS',
      service: null,
      tracking_number: '1Z999',
      tracking_url: 'https://track.example/1Z999',
      line_items: [{ id: lineId, variant_id: variantId, quantity: 2 }],
    });
    const rest = await send('POST', `/commerce/orders/${String(three.id)}/fulfillments`, {
      response_mode: 'async',
      fulfillment: { carrier: 'USPS', service: 'Priority Mail', tracking_number: '94', line_items: [] },
    });
    expect(rest.statusCode, rest.body).toBe(202);
    const done = await finishedJob(jobIdOf(rest));
    expect(done.status).toBe('success');
    expect((done.response as { body: { fulfillment: Json } }).body.fulfillment).toMatchObject({ carrier: 'USPS', line_items: [{ quantity: 1 }] });
    const after = order(await send('GET', `/commerce/orders/${String(three.id)}`));
    expect(after).toMatchObject({ fulfillment_status: 'fulfilled', customer: { email: 'first.time@example.com' } });
    expect((after.fulfillments as Json[]).length).toBe(2);
    const again = await send('POST', `/commerce/orders/${String(three.id)}/fulfillments`, {
      fulfillment: { carrier: 'UPS', tracking_number: '1', line_items: [] },
    });
    expect([again.statusCode, errorBody(again).error_code]).toEqual([450, 'PLATFORM_BAD_REQUEST']);

    // No order write moves money: the platform's ledger and shop still tie out.
    const books = await readAll(t.sandbox.connector, testContext({ basic_username: USER, basic_password: 'pass_good' }));
    expect(auditBooks(books.records)).toEqual([]);
  });

  it('answers 202 in async mode and keeps one job and one order per Idempotency-Key', async () => {
    const before = await storedOrderCount();
    const key = randomUUID();
    const body = { response_mode: 'async', ...orderCreateBody(variantId, shopperEmail, currency) };
    const firstAnswer = await send('POST', '/commerce/orders', body, { 'idempotency-key': key });
    expect(firstAnswer.statusCode, firstAnswer.body).toBe(202);
    const job = await finishedJob(jobIdOf(firstAnswer));
    expect(job.status).toBe('success');
    const repeat = await send('POST', '/commerce/orders', body, { 'idempotency-key': key });
    expect(jobIdOf(repeat)).toBe(jobIdOf(firstAnswer));
    expect(await storedOrderCount()).toBe(before + 1);
  });

  it('refuses malformed bodies with the field named, and nothing is queued or changed', async () => {
    const before = await storedOrderCount();
    const valid = orderCreateBody(variantId, shopperEmail, currency).order as Json;
    const refusals: [Json, string][] = [
      [{ order: { ...valid, customer: {} } }, 'order.customer.email'],
      [{ order: { ...valid, line_items: [] } }, 'order.line_items'],
      [{ order: { ...valid, line_items: [{ variant_id: variantId, quantity: 0 }] } }, 'order.line_items[0].quantity'],
      [{ order: { ...valid, total_price: 5 } }, 'order.total_price'],
      [{ order: { ...valid, line_items: [{ variant_id: 'no-such-variant', quantity: 1 }] } }, 'order.line_items[0].variant_id'],
    ];
    for (const [body, field] of refusals) {
      const response = await send('POST', '/commerce/orders', body);
      expect([response.statusCode, errorBody(response).error_code], field).toEqual([400, 'VALIDATION_ERROR']);
      expect(errorBody(response).error_metadata?.field, response.body).toBe(field);
      expect(response.headers['x-service-job-id']).toBeUndefined();
    }
    const target = await storedWhere(t, c.connection.id, 'order', (o) => Array.isArray(o.line_items) && o.line_items.length > 0);
    const unknownStatus = await send('PATCH', `/commerce/orders/${target.id}`, { order: { status: 'unknown' } });
    expect(errorBody(unknownStatus).error_metadata?.field).toBe('order.status');
    const notALine = await send('POST', `/commerce/orders/${target.id}/fulfillments`, {
      fulfillment: { carrier: 'UPS', tracking_number: '1', line_items: [{ line_item_id: 'no-such-line' }] },
    });
    expect([notALine.statusCode, errorBody(notALine).error_metadata?.field]).toEqual([400, 'fulfillment.line_items[0].line_item_id']);
    const line = firstOf(target.line_items);
    const tooMany = await send('POST', `/commerce/orders/${target.id}/fulfillments`, {
      fulfillment: { carrier: 'UPS', tracking_number: '1', line_items: [{ line_item_id: line.id, quantity: Number(line.quantity) + 1 }] },
    });
    expect(errorBody(tooMany).error_metadata?.field).toBe('fulfillment.line_items[0].quantity');
    const noCarrier = await send('POST', `/commerce/orders/${target.id}/fulfillments`, { fulfillment: { tracking_number: '1', line_items: [] } });
    expect(errorBody(noCarrier).error_metadata?.field).toBe('fulfillment.carrier');
    expect(order(await send('GET', `/commerce/orders/${target.id}`))).toEqual(target);
    expect(await storedOrderCount()).toBe(before);
  });

  it("refuses missing auth, and answers another organisation's order as an unknown one", async () => {
    const body = orderCreateBody(variantId, shopperEmail, currency);
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `/versioned/commerce/orders?access_token=${c.token}`,
      headers: { 'x-service-version': '2024-08-31' },
      payload: body,
    });
    expect(noAuth.statusCode).toBe(401);
    const otherOrg = await t.newOrg('Order writes other');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/versioned/commerce/orders?access_token=${c.token}`,
      headers: clientHeaders(otherOrg),
      payload: body,
    });
    expect([foreign.statusCode, errorBody(foreign).error_code]).toEqual([401, 'INVALID_CREDENTIALS']);

    const theirs = await syncedSandboxConnection(t, 'user_order_writes_other_size_300', otherOrg);
    const theirOrder = await storedWhere(t, theirs.connection.id, 'order', () => true);
    const unknown = randomUUID();
    for (const id of [theirOrder.id, unknown]) {
      const patch = await send('PATCH', `/commerce/orders/${id}`, { order: { status: 'archived' } });
      expect([patch.statusCode, errorBody(patch).error_code], id).toEqual([410, 'RESOURCE_NOT_FOUND']);
      const fulfil = await send('POST', `/commerce/orders/${id}/fulfillments`, {
        fulfillment: { carrier: 'UPS', tracking_number: '1', line_items: [] },
      });
      expect([fulfil.statusCode, errorBody(fulfil).error_code], id).toEqual([410, 'RESOURCE_NOT_FOUND']);
    }
    expect(errorBody(await send('PATCH', `/commerce/orders/${unknown}`, { order: { status: 'archived' } })).error_message).toBe(
      errorBody(await send('PATCH', `/commerce/orders/${theirOrder.id}`, { order: { status: 'archived' } })).error_message.replace(
        theirOrder.id,
        unknown,
      ),
    );
  });
});

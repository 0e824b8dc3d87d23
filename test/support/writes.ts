/** A test app whose write jobs run (workers on), on a small SANDBOX, and a request helper bound to one connection. */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ReadPage } from '../../src/platforms/connector.ts';
import { connectorContext } from '../../src/platforms/context.ts';
import { startWriteWorkers } from '../../src/writes/worker.ts';
import { clientHeaders, startTestApp, type TestApp, type TestAppOptions } from './app.ts';

export type Json = Record<string, unknown>;
export type Method = 'POST' | 'PATCH' | 'DELETE' | 'GET';
export type Send = (method: Method, url: string, payload?: Json, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

export async function startWriteTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Scenario users (user_billing, user_flaky, …) take the default size: keep it small in tests.
  const t = await startTestApp({
    config: { rateLimit: { limit: 100_000, windowSeconds: 10 } },
    ...options,
    sandbox: { defaultSize: 300, ...options.sandbox },
  });
  await startWriteWorkers(t.boss, t.services, { concurrency: 4 });
  return t;
}

/** Requests to /versioned with the org's credentials and the connection's access token. */
export function sender(t: TestApp, token: string): Send {
  return (method, url, payload, headers = {}) =>
    t.app.inject({
      method,
      url: `/versioned${url}${url.includes('?') ? '&' : '?'}access_token=${token}`,
      headers: { ...clientHeaders(t.org), ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
}

export function jobIdOf(response: LightMyRequestResponse): string {
  const id = response.headers['x-service-job-id'];
  expect(typeof id, response.body).toBe('string');
  return String(id);
}

export const today = (): string => new Date().toISOString().slice(0, 10);

export const line = (account: string, amount: number, description = 'Test line'): Json => ({
  account_id: account,
  total_amount: amount,
  description,
});

/** Memos of every bill on the SANDBOX platform itself (not the stored copy), read through the connector. */
export async function platformBillMemos(t: Pick<TestApp, 'db' | 'sandbox'>, user: string): Promise<string[]> {
  const { connector } = t.sandbox;
  const ctx = connectorContext({
    connector,
    connectionId: 'check',
    credentials: { basic_username: user, basic_password: 'pass_good' },
    tokens: null,
    environment: 'sandbox',
    db: t.db.pool,
  });
  const reader = connector.objects.bill?.handler;
  if (reader === undefined) throw new Error('no bill reader');
  const memos: string[] = [];
  let pageToken: string | null = null;
  do {
    const page: ReadPage = await reader.read(ctx, { since: null, window: null, pageToken });
    memos.push(...page.records.map((r) => String(r.raw.Memo)));
    pageToken = page.nextPageToken;
  } while (pageToken !== null);
  return memos;
}

/**
 * Every invoice payment, invoice credit memo and invoice credit application write, each with a body its schema takes
 * (ids made up: a platform that lacks the operation answers before any id is looked up), and what each answered:
 * `[route, status, error_code]`.
 */
export async function invoiceWriteAnswers(send: Send): Promise<[string, number, string | undefined][]> {
  return answersOf(send, invoiceWrites());
}

type Write = [Method, string, Json];

/** A commerce order write body each route's schema takes (ids made up, as above). */
export const orderCreateBody = (variantId: string, email: string, currency = 'USD'): Json => ({
  order: {
    currency_code: currency,
    line_items: [{ variant_id: variantId, quantity: 1 }],
    customer: { email },
    billing_address: {
      address1: '1 Main St',
      city: 'Springfield',
      country_code: 'US',
      first_name: 'Ada',
      last_name: 'Buyer',
      postal_code: '12345',
      region: 'IL',
    },
  },
});

/** The order writes (create, update, fulfil) and what each answered: `[route, status, error_code]`. */
export async function orderWriteAnswers(send: Send): Promise<[string, number, string | undefined][]> {
  const id = randomUUID();
  return answersOf(send, [
    ['POST', '/commerce/orders', orderCreateBody('variant-1', 'buyer@example.com')],
    ['PATCH', `/commerce/orders/${id}`, { order: { status: 'archived' } }],
    ['POST', `/commerce/orders/${id}/fulfillments`, { fulfillment: { carrier: 'UPS', tracking_number: '1Z', line_items: [] } }],
  ]);
}

async function answersOf(send: Send, writes: readonly Write[]): Promise<[string, number, string | undefined][]> {
  const answers: [string, number, string | undefined][] = [];
  for (const [method, url, body] of writes) {
    const response = await send(method, url, body);
    const parsed: unknown = response.statusCode === 200 ? null : JSON.parse(response.body);
    const code = typeof parsed === 'object' && parsed !== null && 'error_code' in parsed ? String(parsed.error_code) : undefined;
    answers.push([`${method} ${url.replace(/[0-9a-f-]{36}/, ':id')}`, response.statusCode, code]);
  }
  return answers;
}

function invoiceWrites(): Write[] {
  const id = randomUUID();
  const day = today();
  return [
    [
      'POST',
      '/accounting/invoice_payments',
      { invoice_payment: { customer_id: id, account_id: id, transaction_date: day, linked_invoices: [{ id, allocated_amount: 1 }] } },
    ],
    ['PATCH', `/accounting/invoice_payments/${id}`, { invoice_payment: { memo: 'x' } }],
    ['DELETE', `/accounting/invoice_payments/${id}`, {}],
    [
      'POST',
      '/accounting/invoice_credit_memos',
      { invoice_credit_memo: { customer_id: id, issue_date: day, line_items: [{ account_id: id, total_amount: 1 }] } },
    ],
    ['PATCH', `/accounting/invoice_credit_memos/${id}`, { invoice_credit_memo: { memo: 'x' } }],
    ['DELETE', `/accounting/invoice_credit_memos/${id}`, {}],
    [
      'POST',
      '/accounting/invoice_credit_applications',
      { invoice_credit_application: { invoice_credit_memo_id: id, linked_invoices: [{ id, allocated_amount: 1 }] } },
    ],
    [
      'POST',
      '/accounting/invoice_credit_applications/unapply',
      { invoice_credit_application: { invoice_credit_memo_id: id, linked_invoices: [{ id }] } },
    ],
  ];
}

/**
 * The four customer refund operations (list, fetch, create, delete), each with a body its schema takes (ids made up:
 * a platform without refunds answers before any id is looked up), and what each answered: `[route, status, error_code]`.
 */
export async function customerRefundAnswers(send: Send): Promise<[string, number, string | undefined][]> {
  const id = randomUUID();
  const calls: [Method, string, Json | undefined][] = [
    ['GET', '/accounting/customer_refunds', undefined],
    ['GET', `/accounting/customer_refunds/${id}`, undefined],
    ['POST', '/accounting/customer_refunds', { customer_refund: { account_id: id, line_items: [{ account_id: id, total_amount: 1 }] } }],
    ['DELETE', `/accounting/customer_refunds/${id}`, {}],
  ];
  const answers: [string, number, string | undefined][] = [];
  for (const [method, url, body] of calls) {
    const response = await send(method, url, body);
    const parsed: unknown = response.statusCode === 200 ? null : JSON.parse(response.body);
    const code = typeof parsed === 'object' && parsed !== null && 'error_code' in parsed ? String(parsed.error_code) : undefined;
    answers.push([`${method} ${url.replace(id, ':id')}`, response.statusCode, code]);
  }
  return answers;
}

/**
 * Every commerce product write (the product and its variants), each with a body its schema takes (ids made up: a
 * platform that lacks the operation answers before any id is looked up), and what each answered: `[route, status,
 * error_code]`.
 */
export async function productWriteAnswers(send: Send): Promise<[string, number, string | undefined][]> {
  const id = randomUUID();
  const writes: [Method, string, Json][] = [
    ['POST', '/commerce/products', { product: { name: 'x', variants: [{ sku: 'x', price: 1 }] } }],
    ['PATCH', `/commerce/products/${id}`, { product: { name: 'x' } }],
    ['DELETE', `/commerce/products/${id}`, {}],
    ['POST', `/commerce/products/${id}/variants`, { variant: { sku: 'x', price: 1 } }],
    ['PATCH', `/commerce/products/${id}/variants/${id}`, { variant: { price: 1 } }],
    ['DELETE', `/commerce/products/${id}/variants/${id}`, {}],
  ];
  const answers: [string, number, string | undefined][] = [];
  for (const [method, url, body] of writes) {
    const response = await send(method, url, body);
    const parsed: unknown = response.statusCode === 200 ? null : JSON.parse(response.body);
    const code = typeof parsed === 'object' && parsed !== null && 'error_code' in parsed ? String(parsed.error_code) : undefined;
    answers.push([`${method} ${url.replaceAll(id, ':id')}`, response.statusCode, code]);
  }
  return answers;
}

/**
 * SHOPFRONT: a small Shopify-like commerce platform that uses every feature of the connector interface v2, written
 * against the kit only (src/platforms/connector.ts and its helpers), so it shows that a new platform needs nothing
 * outside its own folder plus one line to register it (shopfront.test.ts checks both):
 *
 * - per-connection authorisation input: the shop domain ({shop}.myshopify.com), asked for before the consent page,
 *   which lives on the shop's own domain; the shop's API is on that domain too (ctx.credentials.store_url);
 * - OAuth 2.0 with callback parameters (shop, hmac, host) checked against the shop asked for;
 * - a cost bucket (each answer says what it cost: `cost.actual`), a daily budget and a concurrency cap;
 * - its own webhooks: HMAC-signed, naming the shop and the changed customer;
 * - a bulk export for full reads (start, poll, read results by cursor) and paged reads for incremental ones.
 *
 * Addresses: https://{shop} in production; SHOPFRONT_API_URL routes every shop through one host as {url}/{shop}
 * (a proxy, or the tests' stand-in).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { platformAddress } from '../../../src/platforms/addresses.ts';
import type {
  AuthorizationInput,
  Connector,
  ConnectorContext,
  ExportPage,
  ExportStatus,
  InboundChange,
  PlatformRecord,
  ReadPage,
} from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import type { PlatformResponse } from '../../../src/platforms/limit-types.ts';
import { signatureMatches } from '../../../src/platforms/webhook-signature.ts';

export const SHOPFRONT = 'SHOPFRONT';
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
export const SHOPFRONT_LIMITS = { bucketSize: 10, refillPerSecond: 10, dailyRequests: 40 } as const;
/** Customers per page of a list or of an export's results; a page costs 1 point plus 1 per customer. */
export const SHOPFRONT_PAGE_SIZE = 3;
/** Points each call is expected to cost, as the platform documents them: the bucket is taken for these before the call. */
export const SHOPFRONT_COSTS = { shop: 1, startExport: 5, pollExport: 1, page: 1 + SHOPFRONT_PAGE_SIZE } as const;
export const SHOPFRONT_WEBHOOK_HEADER = 'x-shopfront-hmac-sha256';

function shopUrl(shop: string): string {
  const routed = process.env.SHOPFRONT_API_URL;
  return routed === undefined || routed === '' ? `https://${shop}` : `${platformAddress('SHOPFRONT_API_URL', routed)}/${shop}`;
}

/** The connection's shop; the link flow checked it, so a missing one is a bug, not the end user's doing. */
function shopOf(input: AuthorizationInput | undefined): string {
  const shop = input?.store_url;
  if (shop === undefined || !SHOP_DOMAIN.test(shop)) throw new Error('a SHOPFRONT connection has no shop domain (store_url)');
  return shop;
}

/** Shopify's check of the callback: HMAC-SHA256 (hex) of the other parameters, sorted, under the app's secret. */
export function callbackHmac(params: Readonly<Record<string, string>>, secret: string): string {
  const message = Object.keys(params)
    .filter((name) => name !== 'hmac')
    .sort()
    .map((name) => `${name}=${params[name] ?? ''}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the answer says the call cost; null when it does not say (the bucket keeps the default). */
function costOf(response: PlatformResponse): number | null {
  const cost = isObject(response.body) && isObject(response.body.cost) ? response.body.cost.actual : undefined;
  return typeof cost === 'number' ? cost : null;
}

async function call(
  ctx: ConnectorContext,
  method: 'GET' | 'POST',
  path: string,
  operation: string,
  cost: number,
  query?: Record<string, string | null>,
): Promise<Record<string, unknown>> {
  const tokens = ctx.oauth === null ? ctx.tokens : await ctx.oauth.tokens();
  if (tokens === null) throw new PlatformError({ kind: 'unauthorized', message: 'The connection has no access token', requestSent: false });
  const response = await ctx.http.request({
    method,
    url: `${shopUrl(shopOf(ctx.credentials))}/admin/api${path}`,
    headers: { 'x-shopfront-access-token': tokens.accessToken },
    ...(query === undefined ? {} : { query }),
    idempotent: method === 'GET',
    operation,
    cost,
  });
  if (!isObject(response.body))
    throw new PlatformError({
      kind: 'server',
      httpStatus: response.status,
      message: `${operation}: the answer is not a JSON object`,
      requestSent: true,
    });
  return response.body;
}

function customersOf(body: Record<string, unknown>): PlatformRecord[] {
  const list = Array.isArray(body.customers) ? body.customers : [];
  return list.filter(isObject).map((raw) => ({ platformId: String(raw.id), raw }));
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A shop's customer as the unified customer, every field of its schema given (the store checks mapped objects). */
function mapCustomer(platformId: string, raw: Record<string, unknown>): Record<string, unknown> {
  return {
    platform_id: platformId,
    parent_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    status: 'active',
    contact_name: null,
    currency_code: null,
    customer_name: text(raw.name),
    email: text(raw.email),
    phone: null,
    registration_number: null,
    tax_number: null,
    subsidiaries: [],
    addresses: [],
    contacts: [],
    created_at: null,
    updated_at: text(raw.updated_at),
    platform_url: null,
  };
}

async function readCustomers(ctx: ConnectorContext, since: string | null, pageToken: string | null): Promise<ReadPage> {
  const body = await call(ctx, 'GET', '/customers.json', 'list customers', SHOPFRONT_COSTS.page, { updated_since: since, page: pageToken });
  const next = text(body.next_page);
  return { records: customersOf(body), nextPageToken: next, ...(next === null ? { nextSince: text(body.as_of) } : {}) };
}

async function pollExport(ctx: ConnectorContext, exportId: string): Promise<ExportStatus> {
  const body = await call(ctx, 'GET', `/exports/${encodeURIComponent(exportId)}.json`, 'poll export', SHOPFRONT_COSTS.pollExport);
  if (body.status === 'completed') return { status: 'ready', resultCursor: text(body.results_cursor) };
  if (body.status === 'failed') return { status: 'failed', message: text(body.error) ?? 'no reason given' };
  return { status: 'running', ...(typeof body.retry_after_ms === 'number' ? { retryAfterMs: body.retry_after_ms } : {}) };
}

async function readExportPage(ctx: ConnectorContext, exportId: string, cursor: string | null): Promise<ExportPage> {
  const body = await call(ctx, 'GET', `/exports/${encodeURIComponent(exportId)}/results.json`, 'read export results', SHOPFRONT_COSTS.page, {
    cursor,
  });
  const next = text(body.next_cursor);
  return { records: customersOf(body), nextCursor: next, ...(next === null ? { nextSince: text(body.as_of) } : {}) };
}

function webhookChanges(body: unknown): InboundChange[] | null {
  if (!isObject(body) || typeof body.shop_domain !== 'string' || typeof body.topic !== 'string' || !body.topic.startsWith('customers/')) return null;
  return [
    { account: body.shop_domain, type: 'customer', platformId: typeof body.id === 'number' || typeof body.id === 'string' ? String(body.id) : null },
  ];
}

export const shopfrontConnector: Connector = {
  id: SHOPFRONT,
  name: 'Shopfront',
  kind: 'commerce',
  auth: {
    type: 'oauth2',
    callbackParams: ['shop', 'hmac', 'host'],
    authorizationInput: [
      {
        field: 'store_url',
        label: 'Shop domain',
        pattern: SHOP_DOMAIN,
        lowercase: true,
        hint: "Your shop's address, like my-shop.myshopify.com.",
      },
    ],
    authorizeUrl(app, state, scope, input) {
      const query = new URLSearchParams({ client_id: app.clientId, scope: scope ?? 'read_customers', redirect_uri: app.redirectUri, state });
      return `${shopUrl(shopOf(input))}/admin/oauth/authorize?${query.toString()}`;
    },
    async exchangeCode(ctx, app, code, callback, input) {
      const shop = shopOf(input);
      // The consent page sends the shop back: another shop than the one asked for, or a forged callback, is refused.
      const hmac = callback.hmac ?? '';
      if (callback.shop !== shop || !sameText(callbackHmac({ ...callback, code }, app.clientSecret), hmac)) {
        throw new PlatformError({
          kind: 'forbidden',
          httpStatus: 403,
          message: `The sign-in came back from another shop than ${shop}`,
          requestSent: false,
        });
      }
      const response = await ctx.http.request({
        method: 'POST',
        url: `${shopUrl(shop)}/admin/oauth/access_token`,
        form: { client_id: app.clientId, client_secret: app.clientSecret, code },
        idempotent: false,
        operation: 'exchange code',
      });
      const body = response.body;
      if (!isObject(body) || typeof body.access_token !== 'string')
        throw new PlatformError({ kind: 'server', message: 'No access_token in the answer', requestSent: true });
      // Offline tokens do not expire and come without a refresh token.
      return { accessToken: body.access_token, refreshToken: null, expiresAt: null, tenantId: null };
    },
    refresh: () =>
      Promise.reject(new PlatformError({ kind: 'unauthorized', message: 'Shopfront tokens are not refreshed: link again', requestSent: false })),
  },
  async identify(ctx) {
    const body = await call(ctx, 'GET', '/shop.json', 'shop', SHOPFRONT_COSTS.shop);
    const shop = isObject(body.shop) ? body.shop : {};
    return { storeUniqueId: shopOf(ctx.credentials), storeName: text(shop.name) };
  },
  objects: {
    customer: {
      capabilities: {
        read: true,
        incremental: 'cursor',
        deletions: 'none',
        filter: true,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
      },
      handler: {
        read: (ctx, request) => readCustomers(ctx, request.since, request.pageToken),
        bulk: {
          async startExport(ctx, request) {
            const body = await call(ctx, 'POST', '/exports.json', 'start export', SHOPFRONT_COSTS.startExport, {
              object: 'customers',
              updated_since: request.since,
            });
            const started = isObject(body.export) ? body.export : {};
            if (typeof started.id !== 'string') throw new PlatformError({ kind: 'server', message: 'No export id in the answer', requestSent: true });
            return started.id;
          },
          pollExport,
          readExportPage,
        },
        map: (record) => mapCustomer(record.platformId, record.raw),
      },
    },
  },
  limits: {
    requestsPerMinute: null,
    concurrentRequests: 2,
    dailyRequests: SHOPFRONT_LIMITS.dailyRequests,
    costBucket: { size: SHOPFRONT_LIMITS.bucketSize, refillPerSecond: SHOPFRONT_LIMITS.refillPerSecond, defaultCost: 1, costOf },
  },
  webhooks: {
    verify: (rawBody, headers, key) => signatureMatches(rawBody, key, headers[SHOPFRONT_WEBHOOK_HEADER]),
    changes: webhookChanges,
    acknowledgeWithinMs: 5_000,
  },
  documentation: {
    testedAgainst: 'An in-test stand-in (test/connectors/shopfront/standin.ts): the example connector of docs/connectors.md.',
    settings: [{ variable: 'SHOPFRONT_API_URL', description: 'Routes every shop through this host as {url}/{shop}.' }],
  },
};

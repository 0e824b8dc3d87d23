/**
 * SHOPFRONT: a small Shopify-like commerce platform, the worked example of docs/connectors.md. Written on the kit only
 * (src/platforms: the connector interface and its helpers), from what the platform publishes (contract/openapi.json),
 * so a new platform needs nothing outside its own folder but its contract generator and one line to register it
 * (shopfront.test.ts checks both):
 *
 * - the contract: answers parsed through the schemas cut from the published OpenAPI along contract/types.ts
 *   (scripts/gen-shopfront-contract.ts), never cast;
 * - auth as data: OAuth 2.0 on the shop's own domain, asked for before consent, with the callback's hmac and shop
 *   checked (the platform's one quirk);
 * - one typed object table: `customer` maps to the model's Customer, read by pages (incremental) or by a bulk export
 *   (full reads: start, poll, read results by cursor);
 * - limits: a cost bucket (each answer says what it cost), a daily budget and a concurrency cap;
 * - webhooks: HMAC-signed, naming the shop and the changed customer.
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
  ExportStatus,
  InboundChange,
  PlatformRecord,
} from '../../../src/platforms/connector.ts';
import { contractFrom } from '../../../src/platforms/contract-check.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import type { HttpMethod, PlatformResponse } from '../../../src/platforms/http.ts';
import { oauth2 } from '../../../src/platforms/oauth2.ts';
import { authorizedRequest } from '../../../src/platforms/oauth-request.ts';
import { defineObject } from '../../../src/platforms/objects.ts';
import { at, integer, isoTime, text } from '../../../src/platforms/readers.ts';
import { signatureMatches } from '../../../src/platforms/webhook-signature.ts';
import type { ShopfrontAnswers, ShopfrontCustomer, ShopfrontWebhook } from './contract/types.ts';

export const SHOPFRONT = 'SHOPFRONT';
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
export const SHOPFRONT_LIMITS = { bucketSize: 10, refillPerSecond: 10, dailyRequests: 40 } as const;
/** Customers per page of a list or of an export's results; a page costs 1 point plus 1 per customer. */
export const SHOPFRONT_PAGE_SIZE = 3;
/** Points each call is expected to cost, as the platform documents them: the bucket is taken for these before the call. */
export const SHOPFRONT_COSTS = { shop: 1, startExport: 5, pollExport: 1, page: 1 + SHOPFRONT_PAGE_SIZE } as const;
export const SHOPFRONT_WEBHOOK_HEADER = 'x-shopfront-hmac-sha256';
export const SHOPFRONT_TOKEN_HEADER = 'x-shopfront-access-token';

const contract = contractFrom<ShopfrontAnswers>(new URL('./contract/schemas.json', import.meta.url), 'answers', {
  platform: 'Shopfront',
  code: 'SHOPFRONT_CONTRACT',
  regenerate: 'node scripts/gen-shopfront-contract.ts',
});

export function shopUrl(shop: string): string {
  const routed = process.env.SHOPFRONT_API_URL;
  return routed === undefined || routed === '' ? `https://${shop}` : `${platformAddress('SHOPFRONT_API_URL', routed)}/${shop}`;
}

/** The connection's shop; the link flow checked it, so a missing one is a bug, not the end user's doing. */
function shopOf(input: AuthorizationInput | undefined): string {
  const shop = input?.store_url;
  if (shop === undefined || !SHOP_DOMAIN.test(shop)) throw new Error('a SHOPFRONT connection has no shop domain (store_url)');
  return shop;
}

/** The platform's check of the callback: HMAC-SHA256 (hex) of the other parameters, sorted, under the app's secret. */
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

const shopfrontAuth = oauth2({
  name: 'Shopfront',
  authorizeUrl: (input) => `${shopUrl(shopOf(input))}/admin/oauth/authorize`,
  tokenUrl: (input) => `${shopUrl(shopOf(input))}/admin/oauth/access_token`,
  clientAuth: 'post',
  scopes: ['read_customers'],
  scopeSeparator: ',',
  responseType: false,
  tokenTypeOmitted: true,
  callbackParams: ['shop', 'hmac', 'host'],
  // Offline tokens do not expire and come without a refresh token: a refused one means linking again.
  refresh: 'none',
  authorizationInput: [
    { field: 'store_url', label: 'Shop domain', pattern: SHOP_DOMAIN, lowercase: true, hint: "Your shop's address, like my-shop.myshopify.com." },
  ],
  // The consent page sends the shop back: another shop than the one asked for, or a forged callback, is refused.
  checkCallback(app, code, callback, input) {
    const shop = shopOf(input);
    if (callback.shop !== shop || !sameText(callbackHmac({ ...callback, code }, app.clientSecret), callback.hmac ?? '')) {
      throw new PlatformError({
        kind: 'forbidden',
        httpStatus: 403,
        message: `The sign-in came back from another shop than ${shop}`,
        requestSent: false,
      });
    }
  },
});

/** What the answer says the call cost; null when it does not say (the bucket keeps the default). */
const costOf = (response: PlatformResponse): number | null => integer(at(response.body, 'cost', 'actual'));

/** One call of the admin API, its answer parsed as the contract's `answer`. */
async function call<A extends keyof ShopfrontAnswers>(
  ctx: ConnectorContext,
  answer: A,
  request: { method: HttpMethod; path: string; operation: string; cost: number; query?: Record<string, string | null> },
): Promise<ShopfrontAnswers[A]> {
  const { method, path, ...rest } = request;
  const response = await authorizedRequest(ctx, (tokens) => ({
    ...rest,
    method,
    url: `${shopUrl(shopOf(ctx.credentials))}/admin/api${path}`,
    headers: { [SHOPFRONT_TOKEN_HEADER]: tokens.accessToken },
    idempotent: method === 'GET',
    signal: ctx.signal,
  }));
  return contract.one(answer, response.body, response.status);
}

/** The page's customers as records; one without an id cannot be stored or found again, so it is left out. */
const customerRecords = (customers: readonly ShopfrontCustomer[] = []): PlatformRecord[] =>
  customers.flatMap((customer) => (customer.id === undefined ? [] : [{ platformId: String(customer.id), raw: { ...customer } }]));

/** The next read's `since`, on the last page only: the platform's own clock (`as_of`), not ours. */
const lastPage = (next: string | null | undefined, asOf: string | undefined) =>
  next === null || next === undefined ? { nextSince: isoTime(asOf) } : {};

async function pollExport(ctx: ConnectorContext, exportId: string): Promise<ExportStatus> {
  const path = `/exports/${encodeURIComponent(exportId)}.json`;
  const body = await call(ctx, 'ExportStatus', { method: 'GET', path, operation: 'poll export', cost: SHOPFRONT_COSTS.pollExport });
  if (body.status === 'completed') return { status: 'ready', resultCursor: body.results_cursor ?? null };
  if (body.status === 'failed') return { status: 'failed', message: text(body.error) ?? 'no reason given' };
  return { status: 'running', ...(body.retry_after_ms === undefined ? {} : { retryAfterMs: body.retry_after_ms }) };
}

const customer = defineObject<'customer'>({
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
  async read(ctx, { since, pageToken }) {
    const query = { updated_since: since, page: pageToken };
    const body = await call(ctx, 'CustomerPage', {
      method: 'GET',
      path: '/customers.json',
      operation: 'list customers',
      cost: SHOPFRONT_COSTS.page,
      query,
    });
    return { records: customerRecords(body.customers), nextPageToken: body.next_page ?? null, ...lastPage(body.next_page, body.as_of) };
  },
  bulk: {
    async startExport(ctx, { since }) {
      const query = { object: 'customers', updated_since: since };
      const body = await call(ctx, 'ExportStarted', {
        method: 'POST',
        path: '/exports.json',
        operation: 'start export',
        cost: SHOPFRONT_COSTS.startExport,
        query,
      });
      const id = text(body.export?.id);
      if (id === null) throw new PlatformError({ kind: 'server', message: 'No export id in the answer', requestSent: true });
      return id;
    },
    pollExport,
    async readExportPage(ctx, exportId, cursor) {
      const path = `/exports/${encodeURIComponent(exportId)}/results.json`;
      const body = await call(ctx, 'ExportPage', {
        method: 'GET',
        path,
        operation: 'read export results',
        cost: SHOPFRONT_COSTS.page,
        query: { cursor },
      });
      return { records: customerRecords(body.customers), nextCursor: body.next_cursor ?? null, ...lastPage(body.next_cursor, body.as_of) };
    },
  },
  // The raw record is the contract's Customer (the read parsed it): read here with the kit's readers, every field given.
  map: ({ platformId, raw }) => ({
    platform_id: platformId,
    parent_id: null,
    payment_terms_id: null,
    subsidiary_id: null,
    status: 'active',
    contact_name: null,
    currency_code: null,
    customer_name: text(raw.name),
    first_name: null,
    last_name: null,
    email: text(raw.email),
    phone: null,
    registration_number: null,
    tax_number: null,
    subsidiaries: [],
    addresses: [],
    contacts: [],
    created_at: null,
    updated_at: isoTime(raw.updated_at),
    platform_url: null,
  }),
});

/** The webhook's body as the contract has it; null for anything else (the platform's or a forger's). */
function webhookOf(body: unknown): ShopfrontWebhook | null {
  try {
    return contract.one('CustomerWebhook', body, 200);
  } catch {
    return null;
  }
}

function webhookChanges(body: unknown): InboundChange[] | null {
  const hook = webhookOf(body);
  if (hook?.shop_domain === undefined || hook.topic?.startsWith('customers/') !== true) return null;
  return [{ account: hook.shop_domain, type: 'customer', platformId: hook.id === undefined ? null : String(hook.id) }];
}

export const shopfrontConnector: Connector = {
  id: SHOPFRONT,
  name: 'Shopfront',
  kind: 'commerce',
  auth: shopfrontAuth,
  async identify(ctx) {
    const body = await call(ctx, 'ShopAnswer', { method: 'GET', path: '/shop.json', operation: 'shop', cost: SHOPFRONT_COSTS.shop });
    return { storeUniqueId: shopOf(ctx.credentials), storeName: text(body.shop?.name) };
  },
  objects: { customer },
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
    testedAgainst:
      "An in-test stand-in (test/connectors/shopfront/standin.ts) checking every request and answer against the platform's published contract: the example connector of docs/connectors.md.",
    settings: [{ variable: 'SHOPFRONT_API_URL', description: 'Routes every shop through this host as {url}/{shop}.' }],
  },
};

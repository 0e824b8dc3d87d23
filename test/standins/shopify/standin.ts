/**
 * A fake Shopify built from Shopify's published contract. Every shop lives under one host ({url}/{shop}/…, as
 * SHOPIFY_API_URL routes them). It serves:
 *
 * - OAuth (shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant): the
 *   consent page, approved at once, redirecting back with code, host, shop, state, timestamp and the hex HMAC-SHA256
 *   of the other parameters sorted, under the app's client secret; the code exchange for an offline token;
 * - POST /admin/api/2026-10/graphql.json: every query is VALIDATED against the published 2026-10 schema (an invalid
 *   one answers 200 with `errors`, as Shopify does, and is counted in `invalidQueries`) and EXECUTED by graphql-js
 *   against that same schema, with plain objects as root values: the answer's shape is the schema's, not ours. Small
 *   resolvers page connections (first/after, edges/nodes/pageInfo) and apply `query:` filters (updated_at:>…,
 *   action:…, subject_type:…);
 * - `extensions.cost` on every answer, from a per-shop leaky bucket (schema.ts for the cost rules): a query whose
 *   requested cost is more than the bucket holds answers THROTTLED, as Shopify does;
 * - bulk operations (bulkOperationRunQuery, bulkOperation(id:)): the query is validated, run over the whole shop
 *   when the operation completes, and its result is JSONL at `url` (nested connections as child lines carrying
 *   __parentId, after their parent), served with Range support like the storage Shopify links to;
 * - injected failures (HTTP 429, 5xx, THROTTLED), signed webhooks, and revoked tokens (401 afterwards).
 *
 * No vitest here: tests and the bench both use it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, GraphQLError, OperationTypeNode, parse, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import {
  bag,
  cents,
  GID,
  legacyIdOf,
  makeClock,
  makeCustomer,
  makeLineItem,
  makeOrder,
  makeProduct,
  makeShopData,
  random,
  type StandInOrder,
  type StandInProduct,
} from './data.ts';
import { parseSearch, matchesSearch } from '../../../packages/sandbox/src/simulators/shopify/search.ts';
import { signShopifyCallback } from '../../../packages/sandbox/src/simulators/shopify/simulator.ts';
import { GraphQLContract } from '../kit/graphql.ts';
import { OAuthServer, randomToken } from '../kit/oauth.ts';
import { readBody, serve } from '../kit/server.ts';
import { actualCost, requestedCost, shopifySchema } from './schema.ts';

export const STANDIN_API_VERSION = '2026-10';

export type Injected = 'http429' | 'http500' | 'http503' | 'throttled';

export interface BucketSettings {
  maximumAvailable: number;
  restoreRate: number;
}

/** The event Shopify records when a record is deleted (a BasicEvent, action "destroy"). */
function destroyEvent(id: string, subjectType: 'ORDER' | 'PRODUCT' | 'CUSTOMER', subjectId: string, createdAt: string) {
  const message = `${subjectType.toLowerCase()} deleted`;
  return {
    __typename: 'BasicEvent',
    id,
    action: 'destroy',
    subjectId,
    subjectType,
    createdAt,
    message,
    criticalAlert: false,
    attributeToApp: false,
    attributeToUser: true,
    hasAdditionalContent: false,
  };
}
export type StandInEvent = ReturnType<typeof destroyEvent>;

interface BulkOperation {
  id: string;
  shop: string;
  query: string;
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  createdAt: string;
  completedAt: string | null;
  pollsLeft: number;
  jsonl: Buffer | null;
  objectCount: number;
  rootObjectCount: number;
  fails: boolean;
}

export type ShopifyStandIn = Awaited<ReturnType<typeof startShopifyStandIn>>;

/** Standard plan numbers (shopify.dev/docs/api/usage/limits): a 2,000-point bucket restoring 100 points a second. */
export const STANDARD_BUCKET: BucketSettings = { maximumAvailable: 2000, restoreRate: 100 };

/** A shop of `orders` orders (data.ts), with its cost bucket and the counters the tests read. */
function newShop(domain: string, numericId: number, options: { orders: number; seed?: number; bucket?: BucketSettings }) {
  const clock = makeClock();
  const bucket = options.bucket ?? STANDARD_BUCKET;
  return {
    domain,
    numericId,
    name: `Shop ${domain.replace('.myshopify.com', '')}`,
    clock,
    ...makeShopData(options.orders, options.seed ?? 1, clock),
    events: new Array<StandInEvent>(),
    bucket,
    points: bucket.maximumAvailable,
    refilledAt: Date.now(),
    /** GraphQL calls answered (throttled and failed ones included). */
    calls: 0,
    throttled: 0,
    costCharged: 0,
    bulkStarted: 0,
    polls: 0,
    resultRequests: 0,
    /** The next GraphQL calls of the shop fail this way, one per entry. */
    inject: new Array<Injected>(),
    /** The next bulkOperationRunQuery mutations run, but their answers are lost (HTTP 503 instead), this many. */
    lostBulkAnswers: 0,
    /** Downloads of the shop's bulk results answer 503 while this is above 0 (the storage is down), each one less. */
    failedResultDownloads: 0,
  };
}
export type StandInShop = ReturnType<typeof newShop>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const REFUSED = {
  status: 400,
  body: { error: 'invalid_request', error_description: 'The authorization code was not found or was already used' },
};

/** Shopify's code exchange on the kit's server: client id and secret in the body, offline tokens that never expire, no refresh. */
function shopifyOAuth(): OAuthServer<string> {
  return new OAuthServer<string>({
    clientAuth: ['post'],
    accessSeconds: null,
    codeSeconds: null,
    refresh: 'none',
    checkRedirectUri: false,
    defaultGrant: 'authorization_code',
    mint: { access: () => randomToken('shpat_', 12, 'hex'), refresh: () => '', code: () => randomToken('', 12, 'hex') },
    answer: ({ accessToken }) => ({
      access_token: accessToken,
      scope: 'read_orders,read_products,read_customers,read_shopify_payments_payouts,read_shopify_payments_disputes',
    }),
    errors: { invalidClient: REFUSED, invalidGrant: REFUSED, unsupportedGrant: () => REFUSED },
  });
}

/** A JSON body's string fields as a form (the exchange may post either). */
function formOfJson(raw: string): URLSearchParams {
  const parsed: unknown = JSON.parse(raw);
  const form = new URLSearchParams();
  if (isRecord(parsed)) for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') form.set(name, value);
  return form;
}

/** Each search field the connector uses (`updated_at:>='…'`), by the record field it reads. */
const SEARCH_FIELDS: Readonly<Record<string, string>> = {
  updated_at: 'updatedAt',
  created_at: 'createdAt',
  action: 'action',
  subject_type: 'subjectType',
  payments_transfer_id: 'paymentsTransferId',
  operation_type: 'operationType',
  status: 'status',
};

/** A record's values under their search fields' names, for the simulator's search (written once, there). */
function searchable(item: object): Record<string, string | undefined> {
  const own = new Map<string, unknown>(Object.entries(item));
  return Object.fromEntries(
    Object.entries(SEARCH_FIELDS).map(([search, key]) => {
      const value = own.get(key);
      return [search, typeof value === 'string' ? value : undefined];
    }),
  );
}

interface Context {
  bulk: boolean;
}

/** The search fields the schema documents for the `query` argument of the field being resolved (the table's first column). */
function searchFields(info: GraphQLResolveInfo): Set<string> {
  const field = info.parentType.getFields()[info.fieldName];
  const description = field?.args.find((arg) => arg.name === 'query')?.description ?? '';
  const names = new Set<string>();
  for (const line of description.split('\n')) {
    const cell = /^\|\s*([a-z_]+)\s*\|/.exec(line)?.[1];
    if (cell !== undefined && cell !== 'name' && cell !== 'default') names.add(cell);
  }
  return names;
}

const cursorOf = (index: number): string => Buffer.from(`i:${index}`).toString('base64url');
const indexOf = (cursor: unknown): number => {
  if (typeof cursor !== 'string') return -1;
  const match = /^i:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new GraphQLError('Invalid cursor');
  return Number(match[1]);
};

/** A connection over `list` as Shopify pages it; bulk operations take every node. */
function connection<T>(list: readonly T[], args: Record<string, unknown>, context: Context, view: (item: T) => unknown): Record<string, unknown> {
  const first = typeof args.first === 'number' ? args.first : null;
  if (first === null && !context.bulk) throw new GraphQLError('you must provide one of first or last');
  if (first !== null && first > 250) throw new GraphQLError('The maximum page size is 250');
  const start = indexOf(args.after) + 1;
  const end = first === null ? list.length : Math.min(list.length, start + first);
  const items = list.slice(start, end).map(view);
  return {
    nodes: items,
    edges: items.map((node, i) => ({ cursor: cursorOf(start + i), node })),
    pageInfo: {
      hasNextPage: end < list.length,
      hasPreviousPage: start > 0,
      startCursor: items.length === 0 ? null : cursorOf(start),
      endCursor: items.length === 0 ? null : cursorOf(end - 1),
    },
  };
}

const limited = <T>(list: readonly T[], args: Record<string, unknown>): T[] =>
  list.slice(0, typeof args.first === 'number' ? args.first : list.length);

function sortedBy<T extends { updatedAt: string }>(list: readonly T[], sortKey: unknown): readonly T[] {
  if (sortKey !== 'UPDATED_AT') return list;
  return [...list].sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0));
}

function orderView(order: StandInOrder): Record<string, unknown> {
  return {
    ...order,
    lineItems: (args: Record<string, unknown>, context: Context) => connection(order.lineItems, args, context, (line) => line),
    fulfillments: (args: Record<string, unknown>) =>
      limited(order.fulfillments, args).map((fulfillment) => ({
        ...fulfillment,
        status: 'SUCCESS',
        createdAt: order.createdAt,
        trackingInfo: (a: Record<string, unknown>) => limited(fulfillment.trackingInfo, a),
        fulfillmentLineItems: (a: Record<string, unknown>, context: Context) =>
          connection(fulfillment.fulfillmentLineItems, a, context, (item) => ({ ...item, id: `${fulfillment.id}-${legacyIdOf(item.lineItem.id)}` })),
      })),
    refunds: (args: Record<string, unknown>) =>
      limited(order.refunds, args).map((refund) => ({
        ...refund,
        refundLineItems: (a: Record<string, unknown>, context: Context) => connection(refund.refundLineItems, a, context, (item) => item),
      })),
    transactions: (args: Record<string, unknown>) => limited(order.transactions, args),
    customer: order.customer,
  };
}

function productView(product: StandInProduct): Record<string, unknown> {
  return {
    ...product,
    variants: (args: Record<string, unknown>, context: Context) =>
      connection(product.variants, args, context, (variant) => ({
        ...variant,
        media: (a: Record<string, unknown>, c: Context) => connection(variant.media, a, c, (media) => media),
      })),
  };
}

/** The JSONL of a bulk operation's result: each node a line, nested connections' nodes lines of their own after it. */
function toJsonl(data: Record<string, unknown>): { jsonl: string; objects: number; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  const emit = (node: Record<string, unknown>, parentId: string | null): void => {
    const own: Record<string, unknown> = {};
    const children: [string, Record<string, unknown>][] = [];
    for (const [key, value] of Object.entries(node)) {
      if (isRecord(value) && (Array.isArray(value.edges) || Array.isArray(value.nodes))) {
        const list: unknown[] = Array.isArray(value.nodes)
          ? value.nodes
          : (value.edges as unknown[]).map((edge) => (isRecord(edge) ? edge.node : null));
        for (const child of list) if (isRecord(child)) children.push([key, child]);
      } else own[key] = value;
    }
    lines.push(JSON.stringify(parentId === null ? own : { ...own, __parentId: parentId }));
    const id = typeof node.id === 'string' ? node.id : null;
    for (const [, child] of children) emit(child, id);
  };
  for (const value of Object.values(data)) {
    if (!isRecord(value)) continue;
    const list: unknown[] = Array.isArray(value.nodes)
      ? value.nodes
      : Array.isArray(value.edges)
        ? value.edges.map((edge) => (isRecord(edge) ? edge.node : null))
        : [];
    for (const node of list) {
      if (!isRecord(node)) continue;
      roots += 1;
      emit(node, null);
    }
  }
  return { jsonl: lines.length === 0 ? '' : `${lines.join('\n')}\n`, objects: lines.length, roots };
}

export async function startShopifyStandIn(options: { pollsBeforeReady?: number } = {}) {
  const schema: GraphQLSchema = await shopifySchema();
  const app = { clientId: 'shopify-standin-client', clientSecret: `shpss_${randomBytes(8).toString('hex')}` };
  const shops = new Map<string, StandInShop>();
  const oauth = shopifyOAuth();
  oauth.register(app);
  const bulks = new Map<string, BulkOperation>();
  const failingBulk = new Set<string>();
  const contract = new GraphQLContract(schema);
  const executedQueries: string[] = [];
  let baseUrl = '';
  let sequence = 0;

  function shopNamed(domain: string): StandInShop {
    const shop = shops.get(domain);
    if (shop === undefined) throw new Error(`no shop ${domain}`);
    return shop;
  }

  function refill(shop: StandInShop): void {
    const at = Date.now();
    shop.points = Math.min(shop.bucket.maximumAvailable, shop.points + ((at - shop.refilledAt) / 1000) * shop.bucket.restoreRate);
    shop.refilledAt = at;
  }

  const throttleStatus = (shop: StandInShop) => ({
    maximumAvailable: shop.bucket.maximumAvailable,
    currentlyAvailable: Math.floor(shop.points),
    restoreRate: shop.bucket.restoreRate,
  });

  function answer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  function runBulk(shop: StandInShop, operation: BulkOperation): void {
    const result = execute({ schema, document: parse(operation.query), rootValue: rootOf(shop), contextValue: { bulk: true } });
    if (result instanceof Promise) throw new Error('the stand-in resolves synchronously');
    if (result.errors !== undefined || !isRecord(result.data)) {
      operation.status = 'FAILED';
      return;
    }
    const { jsonl, objects, roots } = toJsonl(result.data);
    operation.jsonl = Buffer.from(jsonl);
    operation.objectCount = objects;
    operation.rootObjectCount = roots;
    operation.status = 'COMPLETED';
    operation.completedAt = shop.clock.tick();
  }

  function bulkView(operation: BulkOperation): Record<string, unknown> {
    return {
      id: operation.id,
      status: operation.status,
      errorCode: operation.status === 'FAILED' ? 'INTERNAL_SERVER_ERROR' : null,
      objectCount: String(operation.objectCount),
      rootObjectCount: String(operation.rootObjectCount),
      fileSize: operation.jsonl === null ? null : String(operation.jsonl.length),
      url: operation.status === 'COMPLETED' ? `${baseUrl}/_bulk/${encodeURIComponent(legacyIdOf(operation.id))}.jsonl` : null,
      partialDataUrl: null,
      query: operation.query,
      type: 'QUERY',
      createdAt: operation.createdAt,
      completedAt: operation.completedAt,
    };
  }

  /** Shopify Payments' side of the first 20 orders' sales: a CHARGE each, paid out by payout 20000 or 20001 in turn. */
  function balanceTransactions(shop: StandInShop) {
    return shop.orders.slice(0, 20).flatMap((order, i) =>
      order.transactions
        .filter((t) => t.kind === 'SALE')
        .map((sale) => {
          const amount = Math.round(Number(sale.amountSet.shopMoney.amount) * 100);
          const fee = Math.round(Number(sale.fees[0]?.amount.amount ?? '0') * 100);
          return {
            id: GID('ShopifyPaymentsBalanceTransaction', 40_000 + i),
            type: 'CHARGE',
            test: false,
            transactionDate: sale.createdAt,
            amount: { amount: cents(amount), currencyCode: 'USD' },
            fee: { amount: cents(fee), currencyCode: 'USD' },
            net: { amount: cents(amount - fee), currencyCode: 'USD' },
            associatedOrder: { id: order.id, name: order.name },
            paymentsTransferId: String(20_000 + (i % 2)),
          };
        }),
    );
  }

  function rootOf(shop: StandInShop): Record<string, unknown> {
    type Args = Record<string, unknown>;
    const filtered = <T extends object>(list: readonly T[], args: Args, info: GraphQLResolveInfo): readonly T[] => {
      const terms = parseSearch(args.query);
      // The schema documents each `query:` argument's search fields (a table in its description): a term on another
      // field is our mistake, counted as an invalid query (Shopify would ignore it and answer unfiltered).
      const allowed = searchFields(info);
      const unknown = terms.filter((term) => !allowed.has(term.field));
      if (unknown.length > 0) {
        const message = `Unknown search field(s) ${unknown.map((term) => term.field).join(', ')} for ${info.parentType.name}.${info.fieldName}`;
        contract.flag(String(args.query), message);
        throw new GraphQLError(message);
      }
      return terms.length === 0 ? list : list.filter((item) => matchesSearch(searchable(item), terms));
    };
    return {
      shop: {
        id: GID('Shop', shop.numericId),
        name: shop.name,
        myshopifyDomain: shop.domain,
        currencyCode: 'USD',
        email: `owner@${shop.domain}`,
        contactEmail: `hello@${shop.domain}`,
        url: `https://${shop.domain.replace('.myshopify.com', '')}.example`,
        updatedAt: '2026-10-01T00:00:00Z',
      },
      orders: (args: Args, context: Context, info: GraphQLResolveInfo) =>
        connection(sortedBy(filtered(shop.orders, args, info), args.sortKey), args, context, orderView),
      products: (args: Args, context: Context, info: GraphQLResolveInfo) =>
        connection(sortedBy(filtered(shop.products, args, info), args.sortKey), args, context, productView),
      customers: (args: Args, context: Context, info: GraphQLResolveInfo) =>
        connection(sortedBy(filtered(shop.customers, args, info), args.sortKey), args, context, (c) => c),
      events: (args: Args, context: Context, info: GraphQLResolveInfo) => connection(filtered(shop.events, args, info), args, context, (e) => e),
      order: (args: Args) => {
        const found = shop.orders.find((o) => o.id === args.id);
        return found === undefined ? null : orderView(found);
      },
      product: (args: Args) => {
        const found = shop.products.find((p) => p.id === args.id);
        return found === undefined ? null : productView(found);
      },
      customer: (args: Args) => shop.customers.find((c) => c.id === args.id) ?? null,
      bulkOperations: (args: Args, context: Context, info: GraphQLResolveInfo) => {
        const mine = [...bulks.values()].filter((b) => b.shop === shop.domain).map((b) => ({ ...bulkView(b), operationType: 'query' }));
        const listed = filtered(mine, args, info);
        return connection(args.reverse === true ? [...listed].reverse() : listed, args, context, (b) => b);
      },
      bulkOperation: (args: Args) => {
        const found = typeof args.id === 'string' ? bulks.get(args.id) : undefined;
        if (found?.shop !== shop.domain) return null;
        shop.polls += 1;
        if (found.status !== 'COMPLETED' && found.status !== 'FAILED') {
          found.pollsLeft -= 1;
          found.status = 'RUNNING';
          if (found.pollsLeft < 0) {
            if (found.fails) found.status = 'FAILED';
            else runBulk(shop, found);
          }
        }
        return bulkView(found);
      },
      shopifyPaymentsAccount: () => ({
        id: GID('ShopifyPaymentsAccount', shop.numericId),
        payouts: (args: Args, context: Context) =>
          connection(shop.orders.length === 0 ? [] : [0, 1], args, context, (n) => ({
            id: GID('ShopifyPaymentsPayout', 20_000 + n),
            legacyResourceId: String(20_000 + n),
            issuedAt: shop.orders[0]?.createdAt ?? '2026-10-01T00:00:00Z',
            status: n === 0 ? 'PAID' : 'IN_TRANSIT',
            transactionType: 'DEPOSIT',
            net: {
              amount: cents(
                balanceTransactions(shop)
                  .filter((t) => t.paymentsTransferId === String(20_000 + n))
                  .reduce((sum, t) => sum + Math.round(Number(t.net.amount) * 100), 0),
              ),
              currencyCode: 'USD',
            },
          })),
        balanceTransactions: (args: Args, context: Context, info: GraphQLResolveInfo) =>
          connection(filtered(balanceTransactions(shop), args, info), args, context, (t) => t),
        disputes: (args: Args, context: Context) =>
          connection(shop.orders.slice(0, 1), args, context, (order) => ({
            id: GID('ShopifyPaymentsDispute', 30_000),
            legacyResourceId: '30000',
            status: 'NEEDS_RESPONSE',
            type: 'CHARGEBACK',
            initiatedAt: order.createdAt,
            evidenceDueBy: '2026-12-01T00:00:00Z',
            finalizedOn: null,
            amount: order.totalPriceSet.shopMoney,
            reasonDetails: { reason: 'FRAUDULENT' },
            order: { id: order.id },
          })),
      }),
    };
  }

  function mutationRoot(shop: StandInShop): Record<string, unknown> {
    return {
      bulkOperationRunQuery: (args: Record<string, unknown>) => {
        const inner = typeof args.query === 'string' ? args.query : '';
        const checked = contract.check(inner);
        if (!checked.ok)
          return { bulkOperation: null, userErrors: checked.problems.map((p) => ({ field: ['query'], message: p.message, code: 'INVALID' })) };
        if ([...bulks.values()].some((b) => b.shop === shop.domain && (b.status === 'CREATED' || b.status === 'RUNNING')))
          return {
            bulkOperation: null,
            userErrors: [
              { field: null, message: 'A bulk query operation for this app and shop is already in progress.', code: 'OPERATION_IN_PROGRESS' },
            ],
          };
        const operation: BulkOperation = {
          id: GID('BulkOperation', ++sequence),
          shop: shop.domain,
          query: inner,
          status: 'CREATED',
          createdAt: shop.clock.tick(),
          completedAt: null,
          pollsLeft: options.pollsBeforeReady ?? 1,
          jsonl: null,
          objectCount: 0,
          rootObjectCount: 0,
          fails: failingBulk.delete(shop.domain),
        };
        bulks.set(operation.id, operation);
        shop.bulkStarted += 1;
        return { bulkOperation: bulkView(operation), userErrors: [] };
      },
    };
  }

  function graphql(shop: StandInShop, raw: string, response: ServerResponse): void {
    shop.calls += 1;
    const injected = shop.inject.shift();
    if (injected === 'http429') {
      answer(response, 429, { errors: 'Exceeded 2 calls per second for api client.' }, { 'retry-after': '0.1' });
      return;
    }
    if (injected === 'http500') {
      answer(response, 500, { errors: 'Internal Server Error' });
      return;
    }
    if (injected === 'http503') {
      answer(response, 503, { errors: 'Service Unavailable' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      answer(response, 400, { errors: 'Bad Request' });
      return;
    }
    const query = isRecord(body) && typeof body.query === 'string' ? body.query : '';
    const variables = isRecord(body) && isRecord(body.variables) ? body.variables : {};
    const checked = contract.check(query);
    if (!checked.ok) {
      answer(response, 200, { errors: checked.problems.map(({ code, ...problem }) => ({ ...problem, extensions: { code } })) });
      return;
    }
    const { document, operation, fragments } = checked;
    if (operation === undefined) {
      answer(response, 200, { errors: [{ message: 'No operation' }] });
      return;
    }
    const requested = requestedCost(schema, operation, fragments, variables);
    refill(shop);
    if (requested > 1000) {
      answer(response, 200, {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (1000).`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: 1000 },
          },
        ],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(shop) } },
      });
      return;
    }
    if (injected === 'throttled' || requested > shop.points) {
      shop.throttled += 1;
      answer(response, 200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(shop) } },
      });
      return;
    }
    shop.points -= requested;
    executedQueries.push(query);
    const result = execute({
      schema,
      document,
      rootValue: operation.operation === OperationTypeNode.MUTATION ? mutationRoot(shop) : rootOf(shop),
      contextValue: { bulk: false },
      variableValues: variables,
    });
    if (result instanceof Promise) throw new Error('the stand-in resolves synchronously');
    if (operation.operation === OperationTypeNode.MUTATION && shop.lostBulkAnswers > 0) {
      // The mutation ran (its operation started) but its answer never arrives: what a client sees after a timeout.
      shop.lostBulkAnswers -= 1;
      answer(response, 503, { errors: 'Service Unavailable' });
      return;
    }
    const actual = operation.operation === OperationTypeNode.MUTATION ? requested : Math.min(requested, actualCost(result.data ?? null));
    shop.points += requested - actual;
    shop.costCharged += actual;
    answer(response, 200, {
      ...(result.errors === undefined ? {} : { errors: result.errors.map((e) => e.toJSON()) }),
      data: result.data ?? null,
      extensions: { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(shop) } },
    });
  }

  function serveBulkResult(request: IncomingMessage, id: string, response: ServerResponse): void {
    const operation = bulks.get(GID('BulkOperation', Number(id)));
    if (operation?.jsonl === null || operation === undefined) {
      answer(response, 404, { error: 'NoSuchKey' });
      return;
    }
    const owner = shopNamed(operation.shop);
    owner.resultRequests += 1;
    if (owner.failedResultDownloads > 0) {
      owner.failedResultDownloads -= 1;
      answer(response, 503, { error: 'SlowDown' });
      return;
    }
    const file = operation.jsonl;
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (range === null) {
      response.writeHead(200, { 'content-type': 'application/jsonl', 'content-length': String(file.length) }).end(file);
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(file.length - 1, range[2] === '' || range[2] === undefined ? file.length - 1 : Number(range[2]));
    if (start >= file.length) {
      response.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
      return;
    }
    response
      .writeHead(206, {
        'content-type': 'application/jsonl',
        'content-range': `bytes ${start}-${end}/${file.length}`,
        'content-length': String(end - start + 1),
      })
      .end(file.subarray(start, end + 1));
  }

  function handle(request: IncomingMessage, raw: string, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://standin.invalid');
    const [, domain = '', ...rest] = url.pathname.split('/');
    if (domain === '_bulk') {
      serveBulkResult(request, (rest[0] ?? '').replace(/\.jsonl$/, ''), response);
      return;
    }
    const path = `/${rest.join('/')}`;
    const shop = shops.get(domain);
    if (shop === undefined) {
      answer(response, 404, { errors: 'Not Found' });
      return;
    }
    if (path === '/admin/oauth/authorize' && request.method === 'GET') {
      if (url.searchParams.get('client_id') !== app.clientId) {
        answer(response, 400, { errors: 'Invalid client_id' });
        return;
      }
      const code = oauth.code(oauth.grant(app.clientId, domain), url.searchParams.get('redirect_uri'));
      const back: Record<string, string> = {
        code,
        host: Buffer.from(`admin.shopify.com/store/${domain.replace('.myshopify.com', '')}`).toString('base64url'),
        shop: domain,
        state: url.searchParams.get('state') ?? '',
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      for (const [name, value] of Object.entries(back)) target.searchParams.set(name, value);
      signShopifyCallback(target.searchParams, app.clientSecret);
      response.writeHead(302, { location: target.toString() }).end();
      return;
    }
    if (path === '/admin/oauth/access_token' && request.method === 'POST') {
      const type = request.headers['content-type'] ?? '';
      const form = type.includes('json') ? formOfJson(raw) : new URLSearchParams(raw);
      const { status, body } = oauth.token(form, undefined, (grant) => grant.subject === domain);
      answer(response, status, body);
      return;
    }
    if (path === `/admin/api/${STANDIN_API_VERSION}/graphql.json` && request.method === 'POST') {
      const token = request.headers['x-shopify-access-token'];
      const check = typeof token === 'string' ? oauth.check(token) : null;
      if (check?.ok !== true || check.grant.subject !== domain) {
        answer(response, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
        return;
      }
      graphql(shop, raw, response);
      return;
    }
    answer(response, 404, { errors: 'Not Found' });
  }

  const server = await serve(
    async (request, response) => {
      handle(request, await readBody(request), response);
    },
    (error, _request, response) => {
      answer(response, 500, { errors: String(error) });
    },
  );
  baseUrl = server.url;

  function deletion(shop: StandInShop, subjectType: StandInEvent['subjectType'], id: string): void {
    shop.events.push(destroyEvent(GID('BasicEvent', ++sequence), subjectType, id, shop.clock.tick()));
  }

  function webhook(domain: string, topic: string, payload: Record<string, unknown>, secret = app.clientSecret) {
    const raw = JSON.stringify(payload);
    return {
      raw,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-shop-domain': domain,
        'x-shopify-api-version': STANDIN_API_VERSION,
        'x-shopify-webhook-id': randomBytes(8).toString('hex'),
        'x-shopify-triggered-at': new Date().toISOString(),
        'x-shopify-hmac-sha256': createHmac('sha256', secret).update(raw).digest('base64'),
      },
    };
  }

  return {
    url: baseUrl,
    app,
    /** Every GraphQL document received that did not validate against the schema, with its errors. */
    invalidQueries: contract.invalid,
    /** Every GraphQL document received (bulk operations' inner queries included). */
    queries: contract.received,
    /** The documents that ran: received, valid and not refused (throttled, failed or over the cost limit). */
    executedQueries,
    addShop(domain: string, options: { orders: number; seed?: number; bucket?: BucketSettings }) {
      const shop = newShop(domain, 60_000_000 + shops.size, options);
      shops.set(domain, shop);
      return shop;
    },
    shop: shopNamed,
    issueToken(domain: string) {
      return oauth.issue(oauth.grant(app.clientId, domain)).accessToken;
    },
    /** Revokes every token of the shop (the merchant uninstalled the app): the Admin API answers 401 afterwards. */
    revokeTokens(domain: string) {
      oauth.revoke((owner) => owner === domain);
    },
    /** The next GraphQL calls of the shop fail this way, one per entry. */
    injectFailures(domain: string, failures: readonly Injected[]) {
      shopNamed(domain).inject.push(...failures);
    },
    failNextBulk(domain: string) {
      failingBulk.add(domain);
    },
    /** Changes an order's email now (its updatedAt moves); returns the order. */
    touchOrder(domain: string, index: number) {
      const shop = shopNamed(domain);
      const order = shop.orders[index];
      if (order === undefined) throw new Error(`no order ${index}`);
      order.email = `changed-${order.legacyResourceId}@example.com`;
      order.updatedAt = shop.clock.tick();
      return order;
    },
    addOrder(domain: string) {
      const shop = shopNamed(domain);
      const order = makeOrder(shop.orders.length + 1000, shop.clock, random(shop.orders.length), shop.customers, shop.products);
      shop.orders.push(order);
      return order;
    },
    /** Adds `lines` line items to an order (its totals follow) and `variants` variants to a product, now. */
    growOrder(domain: string, index: number, lines: number) {
      const shop = shopNamed(domain);
      const order = shop.orders[index];
      const product = shop.products[0];
      const variant = product?.variants[0];
      if (order === undefined || product === undefined || variant === undefined) throw new Error(`no order ${index}`);
      for (let i = 0; i < lines; i++)
        order.lineItems.push(makeLineItem(GID('LineItem', 900_000_000 + index * 1000 + order.lineItems.length), product, variant, 1));
      const toCents = (amount: string) => Math.round(Number(amount) * 100);
      const subtotal = order.lineItems.reduce((sum, line) => sum + toCents(line.originalUnitPriceSet.shopMoney.amount) * line.quantity, 0);
      const discount = toCents(order.totalDiscountsSet.shopMoney.amount);
      const tax = Math.round((subtotal - discount) * 0.08);
      order.subtotalPriceSet = bag(subtotal - discount);
      order.totalTaxSet = bag(tax);
      order.totalPriceSet = bag(subtotal - discount + tax + toCents(order.totalShippingPriceSet.shopMoney.amount));
      order.updatedAt = shop.clock.tick();
      return order;
    },
    growProduct(domain: string, index: number, variants: number) {
      const shop = shopNamed(domain);
      const product = shop.products[index];
      const first = product?.variants[0];
      if (product === undefined || first === undefined) throw new Error(`no product ${index}`);
      const at = shop.clock.tick();
      for (let i = 0; i < variants; i++) {
        const n = product.variants.length;
        product.variants.push({
          ...first,
          id: GID('ProductVariant', 900_000_000 + index * 1000 + n),
          title: `Extra ${n}`,
          sku: `${first.sku}-X${n}`,
          createdAt: at,
          updatedAt: at,
        });
      }
      product.updatedAt = at;
      return product;
    },
    deleteOrder(domain: string, id: string) {
      const shop = shopNamed(domain);
      shop.orders = shop.orders.filter((o) => o.id !== id);
      deletion(shop, 'ORDER', id);
    },
    deleteProduct(domain: string, id: string) {
      const shop = shopNamed(domain);
      shop.products = shop.products.filter((p) => p.id !== id);
      deletion(shop, 'PRODUCT', id);
    },
    deleteCustomer(domain: string, id: string) {
      const shop = shopNamed(domain);
      shop.customers = shop.customers.filter((c) => c.id !== id);
      deletion(shop, 'CUSTOMER', id);
    },
    webhook,
    /** The webhook Shopify would send, signed with the app's secret, posted to `target`; returns the HTTP status. */
    async sendWebhook(target: string, domain: string, topic: string, payload: Record<string, unknown>, secret = app.clientSecret) {
      const { raw, headers } = webhook(domain, topic, payload, secret);
      const response = await fetch(target, { method: 'POST', body: raw, headers });
      await response.arrayBuffer();
      return response.status;
    },
    close: server.close,
  };
}

export { bag, cents, makeCustomer, makeProduct };

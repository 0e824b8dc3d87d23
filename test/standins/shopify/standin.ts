/**
 * A fake Shopify built from Shopify's published contract. Every shop lives under one host ({url}/{shop}/…, as
 * SHOPIFY_API_URL routes them). It serves:
 *
 * - OAuth (shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant): the
 *   consent page, approved at once, redirecting back with code, host, shop, state, timestamp and the hex HMAC-SHA256
 *   of the other parameters sorted, under the app's client secret; the code exchange for an offline token;
 * - POST /admin/api/2026-10/graphql.json: every query is VALIDATED against the published 2026-10 schema (an invalid
 *   one answers 200 with `errors`, as Shopify does, and is counted in `invalidQueries`) and EXECUTED by graphql-js
 *   against that same schema, with plain objects as root values: the answer's shape is the schema's, not ours. One
 *   resolver (listResolver) applies every list's arguments: `query:` filters (updated_at:>…, action:…), sort keys,
 *   and paging of connections (first/after, edges/nodes/pageInfo);
 * - `extensions.cost` on every answer, from a per-shop leaky bucket (the simulator's cost.ts for the rules): a query whose
 *   requested cost is more than the bucket holds answers THROTTLED, as Shopify does;
 * - bulk operations (bulkOperationRunQuery, bulkOperation(id:)): the query is validated, run over the whole shop
 *   when the operation completes, and its result is JSONL at `url` (nested connections as child lines carrying
 *   __parentId, after their parent), served with Range support like the storage Shopify links to;
 * - product and variant writes (products.ts): the mutations' variables checked against the published input types by
 *   graphql-js (ones that do not fit are counted in `invalidQueries`), refusals answered as userErrors;
 * - injected failures (HTTP 429, 5xx, THROTTLED), signed webhooks, and revoked tokens (401 afterwards).
 *
 * No vitest here: tests and the bench both use it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  defaultFieldResolver,
  execute,
  getNamedType,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import {
  centsOf,
  gid,
  legacyIdOf,
  makeClock,
  makeDeletionEvent,
  makeLineItem,
  makeOrder,
  makeShopData,
  metafieldsOf,
  orderMoney,
  paymentsAccount,
  type StandInEvent,
} from './data.ts';
import { sortedBy } from '../../../packages/sandbox/src/simulators/lists.ts';
import { relayPage } from '../../../packages/sandbox/src/simulators/shopify/relay.ts';
import { chargedCost, requestedCost, STANDARD_BUCKET } from '../../../packages/sandbox/src/simulators/shopify/cost.ts';
import { bulkLines } from '../../../packages/sandbox/src/simulators/shopify/jsonl.ts';
import { matchesSearch, parseSearch, type SearchTerm } from '../../../packages/sandbox/src/simulators/shopify/search.ts';
import { shopifySimulator, signShopifyCallback } from '../../../packages/sandbox/src/simulators/shopify/simulator.ts';
import { isObject } from '../kit/collections.ts';
import { GraphQLContract } from '../kit/graphql.ts';
import { OAuthServer, randomToken } from '../kit/oauth.ts';
import { seededRandom } from '../kit/random.ts';
import { readBody, send, serve, type Answer, type ContentTypes } from '../kit/server.ts';
import { catalogueMutations } from './products.ts';
import { shopifySchema } from './schema.ts';

export const STANDIN_API_VERSION = '2026-10';

export type Injected = 'http429' | 'http500' | 'http503' | 'throttled';

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
}

export type ShopifyStandIn = Awaited<ReturnType<typeof startShopifyStandIn>>;

/** A shop of `orders` orders (data.ts), with its cost bucket and the counters the tests read. */
function newShop(domain: string, numericId: number, options: { orders: number; seed?: number }) {
  const clock = makeClock();
  const bucket = STANDARD_BUCKET;
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
    /** The next other mutations (product writes) run, but their answers are lost (HTTP 503 instead), this many. */
    lostWriteAnswers: 0,
    /** Downloads of the shop's bulk results answer 503 while this is above 0 (the storage is down), each one less. */
    failedResultDownloads: 0,
  };
}
export type StandInShop = ReturnType<typeof newShop>;

/** Shopify answers JSON without a charset. */
const SHOPIFY_TYPES: ContentTypes = { json: 'application/json', text: () => 'text/plain; charset=utf-8' };

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
      scope: 'read_orders,read_products,write_products,read_customers,read_shopify_payments_payouts,read_shopify_payments_disputes',
    }),
    errors: { invalidClient: REFUSED, invalidGrant: REFUSED, unsupportedGrant: () => REFUSED },
  });
}

/** A JSON body's string fields as a form (the exchange may post either). */
function formOfJson(raw: string): URLSearchParams {
  const parsed: unknown = JSON.parse(raw);
  const form = new URLSearchParams();
  if (isObject(parsed)) for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') form.set(name, value);
  return form;
}

/** The answers of the injected HTTP failures (an injected THROTTLED is answered as the bucket answers it). */
const INJECTED_ANSWERS: Readonly<Record<Exclude<Injected, 'throttled'>, Answer>> = {
  http429: { status: 429, body: { errors: 'Exceeded 2 calls per second for api client.' }, headers: { 'retry-after': '0.1' } },
  http500: { status: 500, body: { errors: 'Internal Server Error' } },
  http503: { status: 503, body: { errors: 'Service Unavailable' } },
};

const NOT_FOUND: Answer = { status: 404, body: { errors: 'Not Found' } };

type Args = Record<string, unknown>;

interface Context {
  bulk: boolean;
}

/** The record field a search field or sort key names: updated_at and UPDATED_AT name updatedAt. */
const recordField = (name: string): string => name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

const textAt = (record: unknown, field: string): string | undefined => {
  const value = isObject(record) ? record[field] : undefined;
  return typeof value === 'string' ? value : undefined;
};

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

/** A record's values under the terms' search fields, for the simulator's search (written once, there). */
const searchable = (record: unknown, terms: readonly SearchTerm[]): Record<string, string | undefined> =>
  Object.fromEntries(terms.map((term) => [term.field, term.field === 'tag' ? tagAt(record, term.value) : textAt(record, recordField(term.field))]));

/** `tag:x` matches a record one of whose tags is x: the tag itself, or '' (no match) when it has none such. */
function tagAt(record: unknown, wanted: string): string {
  const tags = isObject(record) && Array.isArray(record.tags) ? record.tags : [];
  return tags.find((tag): tag is string => typeof tag === 'string' && tag.toLowerCase() === wanted.toLowerCase()) ?? '';
}

/**
 * The resolver of every field. The shop's data are plain objects with arrays where Shopify has connections and lists
 * (and functions where a field needs an argument, as a record by id); a list's arguments are applied here, as
 * Shopify applies them: `query:` filters it (a term on a field the schema does not document for that argument is our
 * mistake, counted as an invalid query: Shopify would ignore it and answer unfiltered), `sortKey` orders it by that
 * field and `reverse` turns it round; then `first`/`after` page a connection (a bulk operation's takes every node)
 * and `first` cuts a plain list.
 */
function listResolver(contract: GraphQLContract): GraphQLFieldResolver<unknown, Context, Args> {
  return (source, args, context, info) => {
    const value: unknown = defaultFieldResolver(source, args, context, info);
    if (!Array.isArray(value)) return value;
    const terms = parseSearch(args.query);
    const allowed = terms.length === 0 ? null : searchFields(info);
    const unknown = terms.filter((term) => allowed?.has(term.field) !== true);
    if (unknown.length > 0) {
      const message = `Unknown search field(s) ${unknown.map((term) => term.field).join(', ')} for ${info.parentType.name}.${info.fieldName}`;
      contract.flag(String(args.query), message);
      throw new GraphQLError(message);
    }
    let list: readonly unknown[] = terms.length === 0 ? value : value.filter((item) => matchesSearch(searchable(item, terms), terms));
    if (typeof args.sortKey === 'string') {
      const field = recordField(args.sortKey);
      list = sortedBy(list, [{ of: (item) => textAt(item, field) ?? '' }]);
    }
    if (args.reverse === true) list = [...list].reverse();
    const first = typeof args.first === 'number' ? args.first : null;
    if (!getNamedType(info.returnType).name.endsWith('Connection')) return first === null ? list : list.slice(0, first);
    if (first === null && !context.bulk) throw new GraphQLError('you must provide one of first or last');
    if (first !== null && first > 250) throw new GraphQLError('The maximum page size is 250');
    return relayPage(list, first, args.after);
  };
}

export async function startShopifyStandIn(options: { pollsBeforeReady?: number } = {}) {
  const schema: GraphQLSchema = await shopifySchema();
  const app = { clientId: 'shopify-standin-client', clientSecret: `shpss_${randomBytes(8).toString('hex')}` };
  const shops = new Map<string, StandInShop>();
  const oauth = shopifyOAuth();
  oauth.register(app);
  const bulks = new Map<string, BulkOperation>();
  const contract = new GraphQLContract(schema);
  const fieldResolver = listResolver(contract);
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

  const costOf = (shop: StandInShop, requested: number, actual: number | null) => ({
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: {
      maximumAvailable: shop.bucket.maximumAvailable,
      currentlyAvailable: Math.floor(shop.points),
      restoreRate: shop.bucket.restoreRate,
    },
  });

  function runBulk(shop: StandInShop, operation: BulkOperation): void {
    const result = execute({ schema, document: parse(operation.query), rootValue: rootOf(shop), contextValue: { bulk: true }, fieldResolver });
    if (result instanceof Promise) throw new Error('the stand-in resolves synchronously');
    if (result.errors !== undefined || !isObject(result.data)) {
      operation.status = 'FAILED';
      return;
    }
    const { lines, roots } = bulkLines(result.data);
    operation.jsonl = Buffer.from(lines.map((line) => `${line}\n`).join(''));
    operation.objectCount = lines.length;
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
      // What the search field operation_type reads.
      operationType: 'query',
    };
  }

  /** A poll of a bulk operation: it runs for `pollsBeforeReady` polls, then completes (FAILED if its query fails). */
  function poll(shop: StandInShop, id: unknown): Record<string, unknown> | null {
    const found = typeof id === 'string' ? bulks.get(id) : undefined;
    if (found?.shop !== shop.domain) return null;
    shop.polls += 1;
    if (found.status !== 'COMPLETED' && found.status !== 'FAILED') {
      found.pollsLeft -= 1;
      found.status = 'RUNNING';
      if (found.pollsLeft < 0) runBulk(shop, found);
    }
    return bulkView(found);
  }

  /** The query root: the shop's data as they are now (listResolver applies the arguments). */
  function rootOf(shop: StandInShop): Record<string, unknown> {
    return {
      shop: {
        id: gid('Shop', shop.numericId),
        name: shop.name,
        myshopifyDomain: shop.domain,
        currencyCode: 'USD',
        email: `owner@${shop.domain}`,
        contactEmail: `hello@${shop.domain}`,
        url: `https://${shop.domain.replace('.myshopify.com', '')}.example`,
        updatedAt: '2026-10-01T00:00:00Z',
      },
      orders: shop.orders,
      products: shop.products,
      customers: shop.customers,
      segments: shop.segments,
      events: shop.events,
      order: (args: Args) => shop.orders.find((o) => o.id === args.id) ?? null,
      product: (args: Args) => shop.products.find((p) => p.id === args.id) ?? null,
      customer: (args: Args) => shop.customers.find((c) => c.id === args.id) ?? null,
      bulkOperations: () => [...bulks.values()].filter((b) => b.shop === shop.domain).map(bulkView),
      bulkOperation: (args: Args) => poll(shop, args.id),
      shopifyPaymentsAccount: () => paymentsAccount(shop.numericId, shop.orders),
    };
  }

  function mutationRoot(shop: StandInShop): Record<string, unknown> {
    return {
      ...catalogueMutations({
        products: shop.products,
        clock: shop.clock,
        removeProduct: (id) => {
          remove(shop.domain, 'products', 'PRODUCT', id);
        },
        nextId: () => 700_000_000 + ++sequence,
      }),
      bulkOperationRunQuery: (args: Args) => {
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
          id: gid('BulkOperation', ++sequence),
          shop: shop.domain,
          query: inner,
          status: 'CREATED',
          createdAt: shop.clock.tick(),
          completedAt: null,
          pollsLeft: options.pollsBeforeReady ?? 1,
          jsonl: null,
          objectCount: 0,
          rootObjectCount: 0,
        };
        bulks.set(operation.id, operation);
        shop.bulkStarted += 1;
        return { bulkOperation: bulkView(operation), userErrors: [] };
      },
    };
  }

  function graphql(shop: StandInShop, raw: string): Answer {
    shop.calls += 1;
    const injected = shop.inject.shift();
    if (injected !== undefined && injected !== 'throttled') return INJECTED_ANSWERS[injected];
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return { status: 400, body: { errors: 'Bad Request' } };
    }
    const query = isObject(body) && typeof body.query === 'string' ? body.query : '';
    const variables = isObject(body) && isObject(body.variables) ? body.variables : {};
    const checked = contract.check(query);
    if (!checked.ok) return { status: 200, body: { errors: checked.problems.map(({ code, ...problem }) => ({ ...problem, extensions: { code } })) } };
    const { document, operation, fragments } = checked;
    if (operation === undefined) return { status: 200, body: { errors: [{ message: 'No operation' }] } };
    const requested = requestedCost(schema, operation, fragments, variables);
    refill(shop);
    if (requested > 1000) {
      const message = `Query cost is ${requested}, which exceeds the single query max cost limit (1000).`;
      const error = { message, extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: 1000 } };
      return { status: 200, body: { errors: [error], extensions: { cost: costOf(shop, requested, null) } } };
    }
    if (injected === 'throttled' || requested > shop.points) {
      shop.throttled += 1;
      const error = { message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } };
      return { status: 200, body: { errors: [error], extensions: { cost: costOf(shop, requested, null) } } };
    }
    shop.points -= requested;
    executedQueries.push(query);
    const mutation = operation.operation === OperationTypeNode.MUTATION;
    const rootValue = mutation ? mutationRoot(shop) : rootOf(shop);
    const result = execute({ schema, document, rootValue, contextValue: { bulk: false }, variableValues: variables, fieldResolver });
    if (result instanceof Promise) throw new Error('the stand-in resolves synchronously');
    // Variables that do not fit the published input types stop execution (no data): the connector's mistake, counted.
    if (result.data === undefined && result.errors !== undefined) contract.flag(query, result.errors.map((e) => e.message).join('; '));
    const bulkRun = operation.selectionSet.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'bulkOperationRunQuery');
    const lost: 'lostBulkAnswers' | 'lostWriteAnswers' = bulkRun ? 'lostBulkAnswers' : 'lostWriteAnswers';
    if (mutation && shop[lost] > 0) {
      // The mutation ran (its operation started, its record was written) but its answer never arrives: a timeout's view.
      shop[lost] -= 1;
      return INJECTED_ANSWERS.http503;
    }
    const actual = chargedCost(requested, operation, result.data ?? null);
    shop.points += requested - actual;
    shop.costCharged += actual;
    const errors = result.errors === undefined ? {} : { errors: result.errors.map((e) => e.toJSON()) };
    return { status: 200, body: { ...errors, data: result.data ?? null, extensions: { cost: costOf(shop, requested, actual) } } };
  }

  /** A bulk operation's JSONL, as the storage Shopify links to serves it: whole, or the byte range asked for. */
  function bulkResult(id: string, range: string | undefined): Answer {
    const operation = bulks.get(gid('BulkOperation', Number(id)));
    if (operation?.jsonl === null || operation === undefined) return { status: 404, body: { error: 'NoSuchKey' } };
    const owner = shopNamed(operation.shop);
    owner.resultRequests += 1;
    if (owner.failedResultDownloads > 0) {
      owner.failedResultDownloads -= 1;
      return { status: 503, body: { error: 'SlowDown' } };
    }
    const file = operation.jsonl;
    const asked = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (asked === null) return { status: 200, body: file, headers: { 'content-type': 'application/jsonl' } };
    const start = Number(asked[1]);
    const end = Math.min(file.length - 1, asked[2] === '' || asked[2] === undefined ? file.length - 1 : Number(asked[2]));
    if (start >= file.length) return { status: 416, headers: { 'content-range': `bytes */${file.length}` } };
    const headers = { 'content-type': 'application/jsonl', 'content-range': `bytes ${start}-${end}/${file.length}` };
    return { status: 206, body: file.subarray(start, end + 1), headers };
  }

  /** Shopify's consent, approved at once: back to the app with the code and the shop, signed with the app's secret. */
  function authorize(domain: string, query: URLSearchParams): Answer {
    if (query.get('client_id') !== app.clientId) return { status: 400, body: { errors: 'Invalid client_id' } };
    const target = new URL(query.get('redirect_uri') ?? '');
    target.searchParams.set('code', oauth.code(oauth.grant(app.clientId, domain), query.get('redirect_uri')));
    target.searchParams.set('state', query.get('state') ?? '');
    // The shop, its admin host and the time, as the simulator's callback carries them.
    const shopParams = shopifySimulator.oauth.callbackParams?.('', new URLSearchParams({ shop: domain })) ?? {};
    for (const [name, value] of Object.entries(shopParams)) target.searchParams.set(name, value);
    signShopifyCallback(target.searchParams, app.clientSecret);
    return { status: 302, headers: { location: target.toString() } };
  }

  function handle(request: IncomingMessage, raw: string): Answer {
    const url = new URL(request.url ?? '/', 'http://standin.invalid');
    const [, domain = '', ...rest] = url.pathname.split('/');
    if (domain === '_bulk') return bulkResult((rest[0] ?? '').replace(/\.jsonl$/, ''), request.headers.range);
    const path = `/${rest.join('/')}`;
    const shop = shops.get(domain);
    if (shop === undefined) return NOT_FOUND;
    if (path === '/admin/oauth/authorize' && request.method === 'GET') return authorize(domain, url.searchParams);
    if (path === '/admin/oauth/access_token' && request.method === 'POST') {
      const form = (request.headers['content-type'] ?? '').includes('json') ? formOfJson(raw) : new URLSearchParams(raw);
      return oauth.token(form, undefined, (grant) => grant.subject === domain);
    }
    if (path === `/admin/api/${STANDIN_API_VERSION}/graphql.json` && request.method === 'POST') {
      const token = request.headers['x-shopify-access-token'];
      const check = typeof token === 'string' ? oauth.check(token) : null;
      // Shopify's 401, as the simulator answers it.
      if (check?.ok !== true || check.grant.subject !== domain) return shopifySimulator.unauthorized?.() ?? { status: 401 };
      return graphql(shop, raw);
    }
    return NOT_FOUND;
  }

  const server = await serve(
    async (request, response) => {
      send(response, handle(request, await readBody(request)), SHOPIFY_TYPES);
    },
    (error, _request, response) => {
      send(response, { status: 500, body: { errors: String(error) } }, SHOPIFY_TYPES);
    },
  );
  baseUrl = server.url;

  /** Takes a record out of the shop, with the deletion event Shopify records. */
  function remove(domain: string, records: 'orders' | 'products' | 'customers', subjectType: StandInEvent['subjectType'], id: string): void {
    const shop = shopNamed(domain);
    const list: { id: string }[] = shop[records];
    const at = list.findIndex((record) => record.id === id);
    if (at >= 0) list.splice(at, 1);
    shop.events.push(makeDeletionEvent(gid('BasicEvent', ++sequence), subjectType, id, shop.clock.tick()));
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
    addShop(domain: string, options: { orders: number; seed?: number }) {
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
      const order = makeOrder(shop.orders.length + 1000, shop.clock, seededRandom(shop.orders.length), shop.customers, shop.products);
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
        order.lineItems.push(makeLineItem(gid('LineItem', 900_000_000 + index * 1000 + order.lineItems.length), product, variant, 1));
      // Its money follows the new lines; discounts and shipping stay.
      Object.assign(
        order,
        orderMoney(order.lineItems, () => centsOf(order.totalDiscountsSet.shopMoney.amount), centsOf(order.totalShippingPriceSet.shopMoney.amount)),
      );
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
          id: gid('ProductVariant', 900_000_000 + index * 1000 + n),
          title: `Extra ${n}`,
          sku: `${first.sku}-X${n}`,
          ...metafieldsOf([]),
          createdAt: at,
          updatedAt: at,
        });
      }
      product.updatedAt = at;
      return product;
    },
    deleteOrder(domain: string, id: string) {
      remove(domain, 'orders', 'ORDER', id);
    },
    deleteProduct(domain: string, id: string) {
      remove(domain, 'products', 'PRODUCT', id);
    },
    deleteCustomer(domain: string, id: string) {
      remove(domain, 'customers', 'CUSTOMER', id);
    },
    webhook,
    close: server.close,
  };
}

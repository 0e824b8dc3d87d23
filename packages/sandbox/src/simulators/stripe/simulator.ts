/**
 * STRIPE's simulator: SANDBOX's web shop card gateway served as Stripe's REST API v1 (api.stripe.com) and Stripe Connect
 * OAuth (connect.stripe.com), for the calls the Stripe connector makes through the stripe library. The kit checks the
 * key: the access_token Connect's token endpoint issued, sent as a Bearer token or as HTTP Basic user, as the library
 * and `curl -u key:` send it. Read only: Stripe's GET endpoints of charges, refunds, customers, balance transactions,
 * payouts, disputes (none: SANDBOX has no disputes), subscriptions (none: its web shop sells none), events, the
 * account and its balance.
 */
import { randomBytes } from 'node:crypto';
import type { PlatformSimulator, SimulatorAnswer, SimulatorRequest } from '../kit.ts';
import { pathSegments } from '../lists.ts';
import { invalidKey, noAccess, noSuch, stripeError, unknownParameter, unrecognized, type Json } from './answers.ts';
import { allEvents, typeMatches } from './events.ts';
import { accountIdOf, hashedSuffix, stripeId } from './ids.ts';
import { listPage, listParam, newestFirst, unknownParam } from './lists.ts';
import { StripeView } from './view.ts';

/** Connect access tokens do not expire (https://docs.stripe.com/connect/oauth-reference): ten years here. */
const ACCESS_TOKEN_SECONDS = 10 * 365 * 86_400;

interface Collection {
  /** Stripe's object name, for "No such …" messages. */
  object: string;
  /** Query parameters the list takes beyond limit, starting_after, ending_before and created. */
  params: readonly string[];
  /** Those of `params` that keep the objects whose field of that name equals the value given. */
  equal?: readonly string[];
  /** Time fields other than `created` that take bounds (payouts: arrival_date). */
  times?: readonly string[];
  /** Every object of the list (GET /v1/<list>/<id> finds one among them), with what `equal` does not cover applied. */
  items(view: StripeView, query: URLSearchParams): Promise<Json[]>;
}

const where = (items: Json[], field: string, value: string | null): Json[] => (value === null ? items : items.filter((i) => i[field] === value));

const COLLECTIONS: Readonly<Record<string, Collection>> = {
  charges: { object: 'charge', params: ['customer'], equal: ['customer'], items: (view) => view.charges() },
  refunds: { object: 'refund', params: ['charge'], equal: ['charge'], items: (view) => view.refunds() },
  customers: { object: 'customer', params: ['email'], equal: ['email'], items: (view) => view.customers() },
  balance_transactions: {
    object: 'balance_transaction',
    params: ['payout', 'type', 'source', 'currency'],
    equal: ['type', 'source'],
    async items(view, query) {
      let items = await view.balanceTransactions();
      const payout = query.get('payout');
      if (payout !== null) {
        // The payout's own balance transaction is listed with what it paid out, as Stripe lists it.
        items = items.filter((t) => t.payoutId !== null && stripeId('payout', t.payoutId) === payout);
      }
      return where(
        items.map((t) => t.rendered),
        'currency',
        query.get('currency')?.toLowerCase() ?? null,
      );
    },
  },
  payouts: {
    object: 'payout',
    params: ['status', 'destination', 'arrival_date'],
    equal: ['status', 'destination'],
    times: ['arrival_date'],
    items: (view) => view.payouts(),
  },
  disputes: { object: 'dispute', params: ['charge', 'payment_intent'], items: () => Promise.resolve([]) },
  // The web shop sells nothing by subscription.
  subscriptions: { object: 'subscription', params: ['status', 'customer', 'price'], items: () => Promise.resolve([]) },
  events: {
    object: 'event',
    params: ['type', 'types', 'delivery_success'],
    async items(view, query) {
      const types = [...listParam(query, 'types'), ...(query.get('type') === null ? [] : [query.get('type') ?? ''])];
      const events = await allEvents(view);
      return types.length === 0 ? events : events.filter((e) => typeMatches(String(e.type), types));
    },
  },
};

/** The list's objects for the query: `items`, then the `equal` parameters. */
async function selected(view: StripeView, collection: Collection, query: URLSearchParams): Promise<Json[]> {
  let items = await collection.items(view, query);
  for (const field of collection.equal ?? []) items = where(items, field, query.get(field));
  return items;
}

async function list(view: StripeView, name: string, collection: Collection, query: URLSearchParams): Promise<SimulatorAnswer> {
  const unknown = unknownParam(query, collection.params);
  if (unknown !== null) return unknownParameter(unknown);
  const payout = name === 'balance_transactions' ? query.get('payout') : null;
  if (payout !== null && !(await view.payouts()).some((p) => p.id === payout)) return noSuch('payout', payout, 'payout');
  return listPage(newestFirst(await selected(view, collection, query)), query, `/v1/${name}`, collection.object, collection.times);
}

async function one(view: StripeView, collection: Collection, id: string, query: URLSearchParams): Promise<SimulatorAnswer> {
  const unknown = [...query.keys()][0];
  if (unknown !== undefined) return unknownParameter(unknown);
  const found = (await collection.items(view, new URLSearchParams())).find((item) => item.id === id);
  return found === undefined ? noSuch(collection.object, id) : { status: 200, body: found };
}

/**
 * GET /v1/balance: the gateway's balance transactions' net amounts per currency, available (paid out, or past their
 * available_on) or pending, as Stripe sums them; every currency the gateway moved appears in both lists.
 */
async function balance(view: StripeView): Promise<Json> {
  const movements = (await view.balanceTransactions()).map((t) => t.rendered);
  const currencies = [...new Set(movements.map((m) => String(m.currency)))].sort();
  const sum = (currency: string, status: string) =>
    movements.filter((m) => m.currency === currency && m.status === status).reduce((total, m) => total + Number(m.net), 0);
  const entries = (status: string) =>
    currencies.map((currency) => ({ amount: sum(currency, status), currency, source_types: { card: sum(currency, status) } }));
  return { object: 'balance', livemode: false, available: entries('available'), pending: entries('pending') };
}

async function api(request: SimulatorRequest, view: StripeView, accountId: string): Promise<SimulatorAnswer> {
  const [version, name, id, ...rest] = pathSegments(request.path);
  if (version !== 'v1' || name === undefined || rest.length > 0) return unrecognized(request.method, request.path);
  if (request.method !== 'GET') {
    if (name in COLLECTIONS || name === 'account' || name === 'accounts')
      return stripeError(400, {
        type: 'invalid_request_error',
        message: `The Stripe simulator serves reads only: ${request.method} ${request.path} is not simulated (docs/simulators.md).`,
      });
    return unrecognized(request.method, request.path);
  }
  if ((name === 'account' && id === undefined) || (name === 'accounts' && id === accountId)) {
    const unknown = [...request.query.keys()][0];
    if (unknown !== undefined) return unknownParameter(unknown);
    return { status: 200, body: await view.account() };
  }
  if (name === 'accounts' && id !== undefined) return noSuch('account', id, 'account');
  if (name === 'balance' && id === undefined) {
    const unknown = [...request.query.keys()][0];
    if (unknown !== undefined) return unknownParameter(unknown);
    return { status: 200, body: await balance(view) };
  }
  const collection = COLLECTIONS[name];
  if (collection === undefined) return unrecognized(request.method, request.path);
  if (id === undefined) return list(view, name, collection, request.query);
  return one(view, collection, id, request.query);
}

export const stripeSimulator: PlatformSimulator = {
  platform: 'STRIPE',
  name: 'Stripe',
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    accessTokenSeconds: ACCESS_TOKEN_SECONDS,
    clientAuth: 'secret',
    exchangeRedirectUri: false,
    basicAccessToken: true,
    // Connect's callback names the scope granted (https://docs.stripe.com/connect/oauth-reference).
    callbackParams: (_tenantId, consent) => ({ scope: (consent.get('scope') ?? '') === '' ? 'read_only' : (consent.get('scope') ?? '') }),
    tokenAnswer: (issued, tenantId) => ({
      access_token: issued.accessToken,
      livemode: false,
      refresh_token: issued.refreshToken,
      token_type: 'bearer',
      stripe_publishable_key: `pk_test_${hashedSuffix(`stripe-publishable:${tenantId}`)}`,
      stripe_user_id: tenantId,
      scope: issued.scope === '' ? 'read_only' : issued.scope,
    }),
  },
  tenantId: accountIdOf,
  unauthorized: invalidKey,
  async handle(request, grant) {
    const asked = request.headers['stripe-account'];
    const answer =
      asked !== undefined && asked !== '' && asked !== grant.tenantId
        ? noAccess(asked)
        : await api(request, new StripeView(grant.books), grant.tenantId);
    // Every answer names its request, as Stripe's do (the library keeps it as the error's requestId).
    return { ...answer, headers: { ...answer.headers, 'request-id': `req_${randomBytes(12).toString('base64url').replace(/[-_]/g, '0')}` } };
  },
};

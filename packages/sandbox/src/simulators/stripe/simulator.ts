/**
 * STRIPE's simulator: SANDBOX's web shop gateway served as Stripe's API (the /v1 paths the STRIPE connector reads) and
 * Stripe Connect's OAuth (/oauth/authorize, /oauth/token with the app's secret key as a bearer token, answering the
 * connected account as stripe_user_id). The shop's gateway movements are balance transactions (Charge → charge,
 * Refund → refund, Payout → payout, amounts in minor units), each charged order a charge, each payout a payout whose
 * balance transactions (?payout=) are the movements it paid, each shopper a customer, the store the account. Events
 * are rendered from the records' last changes (charge.updated, payout.updated, customer.updated, customer.deleted), so
 * incremental reads see SANDBOX's clock move. SANDBOX keeps no disputes: the list is empty. Simulators send no webhooks.
 */
import { createHash } from 'node:crypto';
import type { NativeGatewayTransaction, NativeOrder, NativeOrderAddress, NativePayout, NativeShopper } from '../../native.ts';
import type { PlatformSimulator, SimulatorAnswer, SimulatorBooks, SimulatorGrant, SimulatorRequest } from '../kit.ts';

type Json = Record<string, unknown>;
interface StripeObject extends Json {
  id: string;
  object: string;
  created: number;
}

const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** A SANDBOX money string in the currency's minor units, as Stripe states amounts. */
export function minor(amount: string, currency: string): number {
  const code = currency.toUpperCase();
  const decimals = ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
  return Math.round(Number(amount) * 10 ** decimals);
}

const unix = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const plain = (id: string): string => id.replace(/[^A-Za-z0-9]/g, '');
export const chargeId = (orderId: string): string => `ch_${plain(orderId)}`;
const customerId = (shopperId: string): string => `cus_${plain(shopperId)}`;
const payoutId = (id: string): string => `po_${plain(id)}`;
const balanceId = (id: string): string => `txn_${plain(id)}`;

const stripeError = (status: number, type: string, message: string, code?: string): SimulatorAnswer => ({
  status,
  body: { error: { type, message, ...(code === undefined ? {} : { code }) } },
});

function address(a: NativeOrderAddress): Json {
  return { city: a.City, country: a.CountryCode, line1: a.Line1, line2: a.Line2 ?? null, postal_code: a.PostalCode, state: a.Region };
}

function sourceOf(t: NativeGatewayTransaction): string {
  if (t.Kind === 'Charge' && t.OrderId !== null) return chargeId(t.OrderId);
  if (t.Kind === 'Payout' && t.PayoutId !== null) return payoutId(t.PayoutId);
  return `re_${plain(t.Id)}`;
}

function balanceTransaction(t: NativeGatewayTransaction): StripeObject {
  const amount = minor(t.Amount, t.CurrencyCode);
  const fee = minor(t.Fee, t.CurrencyCode);
  const currency = t.CurrencyCode.toLowerCase();
  const type = t.Kind === 'Charge' ? 'charge' : t.Kind === 'Refund' ? 'refund' : 'payout';
  const created = unix(t.CreatedAt);
  return {
    id: balanceId(t.Id),
    object: 'balance_transaction',
    amount,
    available_on: created,
    created,
    currency,
    description: t.Kind === 'Payout' ? 'STRIPE PAYOUT' : null,
    exchange_rate: null,
    fee,
    fee_details: fee === 0 ? [] : [{ amount: fee, application: null, currency, description: 'Stripe processing fees', type: 'stripe_fee' }],
    net: amount - fee,
    reporting_category: type,
    source: sourceOf(t),
    status: 'available',
    type,
  };
}

function charge(order: NativeOrder, sale: NativeGatewayTransaction, refunds: readonly NativeGatewayTransaction[]): StripeObject {
  const amount = minor(sale.Amount, sale.CurrencyCode);
  const refunded = refunds.reduce((sum, r) => sum - minor(r.Amount, r.CurrencyCode), 0);
  const billing = order.BillingAddress;
  return {
    id: chargeId(order.Id),
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: refunded,
    balance_transaction: balanceId(sale.Id),
    billing_details: {
      address: address(billing),
      email: order.Buyer.Email,
      name: `${billing.FirstName} ${billing.LastName}`.trim(),
      phone: billing.Phone ?? null,
      tax_id: null,
    },
    captured: true,
    created: unix(sale.CreatedAt),
    currency: sale.CurrencyCode.toLowerCase(),
    customer: sale.ShopperId === null ? null : customerId(sale.ShopperId),
    description: `Order ${order.OrderNumber}`,
    disputed: false,
    livemode: false,
    metadata: { order_number: order.OrderNumber },
    paid: true,
    receipt_email: order.Buyer.Email,
    receipt_number: order.OrderNumber,
    refunded: refunded >= amount,
    shipping: {
      address: address(order.ShippingAddress),
      name: `${order.ShippingAddress.FirstName} ${order.ShippingAddress.LastName}`.trim(),
      phone: null,
    },
    status: 'succeeded',
  };
}

function payout(p: NativePayout, own: NativeGatewayTransaction | undefined): StripeObject {
  return {
    id: payoutId(p.Id),
    object: 'payout',
    amount: minor(p.Amount, p.CurrencyCode),
    arrival_date: unix(`${p.ArrivalDate}T00:00:00Z`),
    automatic: true,
    balance_transaction: own === undefined ? null : balanceId(own.Id),
    created: unix(p.CreatedAt),
    currency: p.CurrencyCode.toLowerCase(),
    description: 'STRIPE PAYOUT',
    destination: `ba_${plain(p.DestinationAccountId)}`,
    livemode: false,
    metadata: {},
    method: p.Method,
    reconciliation_status: 'completed',
    source_type: 'card',
    statement_descriptor: null,
    status: p.Status === 'Paid' ? 'paid' : 'in_transit',
    type: 'bank_account',
  };
}

function customer(s: NativeShopper, currency: string): StripeObject {
  return {
    id: customerId(s.Id),
    object: 'customer',
    address: null,
    balance: 0,
    created: unix(s.CreatedAt),
    currency: currency.toLowerCase(),
    delinquent: false,
    description: null,
    email: s.Email,
    livemode: false,
    metadata: {},
    name: `${s.FirstName} ${s.LastName}`.trim(),
    phone: s.Phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
  };
}

/** Everything the gateway holds, rendered once per request. */
async function render(books: SimulatorBooks, tenantId: string) {
  const [orders, movements, payouts, shoppers, stores] = await Promise.all([
    books.all('order'),
    books.all('transaction'),
    books.all('payout'),
    books.all('commerce_customer'),
    books.all('store'),
  ]);
  const store = stores[0];
  const currency = store?.Currency ?? books.company.currency;
  const orderById = new Map(orders.map((o) => [o.Id, o]));
  const charges: StripeObject[] = [];
  const updated = new Map<string, number>();
  for (const sale of movements) {
    const order = sale.Kind === 'Charge' && sale.OrderId !== null ? orderById.get(sale.OrderId) : undefined;
    if (order === undefined) continue;
    const refunds = movements.filter((m) => m.Kind === 'Refund' && m.OrderId === order.Id);
    const rendered = charge(order, sale, refunds);
    charges.push(rendered);
    updated.set(rendered.id, Math.max(rendered.created, ...refunds.map((r) => unix(r.CreatedAt))));
  }
  const ownMovement = new Map(movements.filter((m) => m.Kind === 'Payout' && m.PayoutId !== null).map((m) => [m.PayoutId, m]));
  return {
    account: {
      id: tenantId,
      object: 'account',
      business_profile: { name: store?.Name ?? books.company.name, url: store === undefined ? null : `https://${store.Domain}`, support_email: null },
      charges_enabled: true,
      country: books.company.country,
      default_currency: currency.toLowerCase(),
      email: store?.ContactEmail ?? null,
      payouts_enabled: true,
      type: 'standard',
    },
    charges,
    chargeUpdated: updated,
    balanceTransactions: movements.map(balanceTransaction),
    payoutOf: new Map(movements.map((m) => [balanceId(m.Id), m.PayoutId === null ? null : payoutId(m.PayoutId)])),
    payouts: payouts.map((p) => ({ object: payout(p, ownMovement.get(p.Id)), updated: unix(p.UpdatedAt) })),
    customers: shoppers.map((s) => ({ object: customer(s, currency), updated: unix(s.UpdatedAt) })),
    deletedCustomers: (await books.deleted('commerce_customer')).map((d) => ({ id: customerId(d.id), at: unix(d.deletedAt) })),
  };
}

/** Stripe's list: newest first, `created` ranges, starting_after, at most 100. */
function list(path: string, records: readonly StripeObject[], query: URLSearchParams): SimulatorAnswer {
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? '10') || 10));
  const bound = (name: string): number | null => (query.get(`created[${name}]`) === null ? null : Number(query.get(`created[${name}]`)));
  const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')];
  const sorted = records
    .filter(
      (r) =>
        (gt === null || r.created > gt) &&
        (gte === null || r.created >= gte) &&
        (lt === null || r.created < lt) &&
        (lte === null || r.created <= lte),
    )
    .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const after = query.get('starting_after');
  let start = 0;
  if (after !== null) {
    const index = sorted.findIndex((r) => r.id === after);
    if (index < 0) return stripeError(400, 'invalid_request_error', `No such object: '${after}'`, 'resource_missing');
    start = index + 1;
  }
  return { status: 200, body: { object: 'list', data: sorted.slice(start, start + limit), has_more: start + limit < sorted.length, url: path } };
}

async function handle(request: SimulatorRequest, grant: SimulatorGrant): Promise<SimulatorAnswer> {
  if (request.method !== 'GET') return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${request.method}: ${request.path}).`);
  const gateway = await render(grant.books, grant.tenantId);
  const query = request.query;
  const path = request.path;
  switch (path) {
    case '/v1/account':
      return { status: 200, body: gateway.account };
    case '/v1/charges':
      return list(path, gateway.charges, query);
    case '/v1/customers':
      return list(
        path,
        gateway.customers.map((c) => c.object),
        query,
      );
    case '/v1/disputes':
      return list(path, [], query);
    case '/v1/payouts':
      return list(
        path,
        gateway.payouts.map((p) => p.object),
        query,
      );
    case '/v1/balance_transactions': {
      const wanted = query.get('payout');
      const movements =
        wanted === null ? gateway.balanceTransactions : gateway.balanceTransactions.filter((bt) => gateway.payoutOf.get(bt.id) === wanted);
      return list(path, movements, query);
    }
    case '/v1/events': {
      const types = new Set([...query.entries()].filter(([key]) => /^types\[\d*\]$/.test(key)).map(([, value]) => value));
      const event = (type: string, object: Json, created: number, id: string): StripeObject => ({
        id: `evt_${createHash('sha256').update(`${type}:${id}:${created}`).digest('hex').slice(0, 24)}`,
        object: 'event',
        account: grant.tenantId,
        api_version: '2026-10-28.endive',
        created,
        data: { object },
        livemode: false,
        pending_webhooks: 0,
        request: { id: null, idempotency_key: null },
        type,
      });
      const events = [
        ...gateway.charges.map((c) => event('charge.updated', c, gateway.chargeUpdated.get(c.id) ?? c.created, c.id)),
        ...gateway.payouts.map((p) => event('payout.updated', p.object, p.updated, p.object.id)),
        ...gateway.customers.map((c) => event('customer.updated', c.object, c.updated, c.object.id)),
        ...gateway.deletedCustomers.map((d) => event('customer.deleted', { id: d.id, object: 'customer', deleted: true }, d.at, d.id)),
      ].filter((e) => types.size === 0 || types.has(String(e.type)));
      return list(path, events, query);
    }
    default: {
      const one = /^\/v1\/payouts\/([^/]+)$/.exec(path);
      const found = one === null ? undefined : gateway.payouts.find((p) => p.object.id === one[1]);
      if (found !== undefined) return { status: 200, body: found.object };
      return stripeError(404, 'invalid_request_error', `Unrecognized request URL (GET: ${path}).`);
    }
  }
}

export const stripeSimulator: PlatformSimulator = {
  platform: 'STRIPE',
  name: 'Stripe',
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    // Connect access tokens do not expire; a year stands for that here.
    accessTokenSeconds: 365 * 24 * 3600,
    tokenClient: 'bearer-secret',
    tokenFields: (tenantId) => ({
      stripe_user_id: tenantId,
      livemode: false,
      token_type: 'bearer',
      stripe_publishable_key: `pk_test_${tenantId.slice(5)}`,
    }),
  },
  tenantId: (accountKey) => `acct_1${createHash('sha256').update(accountKey).digest('hex').slice(0, 15)}`,
  unauthorized: () => stripeError(401, 'invalid_request_error', 'Invalid API Key provided.'),
  handle,
};

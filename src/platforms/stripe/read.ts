/**
 * Reading Stripe. Full reads (and windows, on `created`) page through the object's list, 100 a page with
 * `starting_after`. Incremental reads replay Stripe's events (GET /v1/events?created[gte]=cursor&types[]=…), newest
 * first: each event carries the object as it was then, and an id already seen on a newer event is skipped, so an older
 * state never overwrites a newer one; customer.deleted is a deletion. Stripe keeps events 30 days: a cursor older than
 * 29 days (a connection paused for a month) is read in full instead, and the next cursor is the newest event's time.
 * Balance transactions have no events (they are created, then only turn from pending to available): they are listed
 * created since the cursor, and the cursor stops at the oldest one still pending, so the next read reads again those
 * that may have turned available since, and no more.
 */
import type Stripe from 'stripe';
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { newestFirst, pageTokens } from '../paging.ts';
import { perJob } from '../per-job.ts';
import { at, baseCurrency, integer, isRecord, strings, text } from '../readers.ts';
import { withStripe } from './client.ts';

export const STRIPE_PAGE_SIZE = 100;
/** Stripe keeps events 30 days (https://docs.stripe.com/api/events); a day's margin. */
export const EVENTS_KEPT_SECONDS = 29 * 86_400;

export type StripeList = 'charges' | 'balance_transactions' | 'payouts' | 'disputes' | 'customers' | 'subscriptions';

interface ListParams {
  limit: number;
  starting_after?: string;
  created?: { gte?: number; lte?: number };
  payout?: string;
}

/** The objects the lists answer, as the SDK types them; each is parsed against the contract when mapped (./contract.ts). */
type Listed = Stripe.Charge | Stripe.BalanceTransaction | Stripe.Payout | Stripe.Dispute | Stripe.Customer | Stripe.Subscription;

interface StripeListSpec {
  /** Stripe's `object` value of the list's items. */
  object: string;
  list: (stripe: Stripe, params: ListParams) => Promise<{ data: readonly Listed[]; has_more: boolean }>;
  /** Event types that say an object of the list changed; at most 20 (Stripe's limit on types[]). */
  events: readonly string[];
}

/** customer.subscription.deleted is a cancellation: the subscription stays, canceled. */
export const SUBSCRIPTION_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
] as const;

const LISTS: Readonly<Record<StripeList, StripeListSpec>> = {
  charges: {
    object: 'charge',
    list: (stripe, params) => stripe.charges.list(params),
    events: ['charge.captured', 'charge.expired', 'charge.failed', 'charge.pending', 'charge.refunded', 'charge.succeeded', 'charge.updated'],
  },
  balance_transactions: { object: 'balance_transaction', list: (stripe, params) => stripe.balanceTransactions.list(params), events: [] },
  payouts: {
    object: 'payout',
    list: (stripe, params) => stripe.payouts.list(params),
    events: ['payout.created', 'payout.updated', 'payout.paid', 'payout.failed', 'payout.canceled', 'payout.reconciliation_completed'],
  },
  disputes: {
    object: 'dispute',
    list: (stripe, params) => stripe.disputes.list(params),
    events: [
      'charge.dispute.created',
      'charge.dispute.updated',
      'charge.dispute.closed',
      'charge.dispute.funds_withdrawn',
      'charge.dispute.funds_reinstated',
    ],
  },
  customers: {
    object: 'customer',
    list: (stripe, params) => stripe.customers.list(params),
    events: ['customer.created', 'customer.updated', 'customer.deleted'],
  },
  // The list leaves out canceled subscriptions unless asked for all; a canceled one stays readable (status canceled).
  subscriptions: {
    object: 'subscription',
    list: (stripe, params) => stripe.subscriptions.list({ ...params, status: 'all' }),
    events: SUBSCRIPTION_EVENTS,
  },
};

interface PageState {
  /** starting_after for the next page. */
  after: string | null;
  /** Full reads: the cursor to hand on at the end. Incremental: the newest event (or record) time seen. */
  top: number | null;
  /** Incremental: ids already taken from newer events. */
  seen?: string[];
  /** Payouts: the account id. */
  account?: string;
  /** Balance transactions: the oldest one still pending seen so far (the cursor stops there). */
  pending?: number;
  mode: 'list' | 'events';
}

const tokens = pageTokens<PageState>('STRIPE', (parsed) => {
  if (parsed.mode !== 'list' && parsed.mode !== 'events') return null;
  const account = text(parsed.account);
  const pending = integer(parsed.pending);
  return {
    mode: parsed.mode,
    after: text(parsed.after),
    top: integer(parsed.top),
    ...(Array.isArray(parsed.seen) ? { seen: strings(parsed.seen) } : {}),
    ...(account === null ? {} : { account }),
    ...(pending === null ? {} : { pending }),
  };
});
const encode = tokens.encode;

const unix = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/**
 * The newest event's time, Stripe's clock for the next cursor; ours (a minute back) when the account has no events.
 * Once per run (per job), before its first full read: every list read in full after it hands on that time, which is
 * no later than its own start, so nothing made during the run is missed (an event seen again is replayed harmlessly).
 */
const newestEventTime = perJob((ctx) =>
  withStripe(ctx, async (stripe) => (await stripe.events.list({ limit: 1 })).data[0]?.created ?? Math.floor(Date.now() / 1000) - 60),
);

/** The account (GET /v1/account), once per run: the store record, and the account every payout is stamped with. */
const currentAccount = perJob((ctx) => withStripe(ctx, (stripe) => stripe.accounts.retrieveCurrent()));

const accountId = async (ctx: ConnectorContext): Promise<string> => (await currentAccount.get(ctx)).id;

/** The account's default currency: what a currency the model does not know reads as (../readers.ts). */
export const STRIPE_BASE = baseCurrency(async (ctx) => (await currentAccount.get(ctx)).default_currency);

/** The balance transactions a payout paid out (every page), its own `payout` one left out. */
export async function payoutTransactions(stripe: Stripe, payoutId: string): Promise<Stripe.BalanceTransaction[]> {
  const all: Stripe.BalanceTransaction[] = [];
  // The library pages on with starting_after.
  for await (const bt of stripe.balanceTransactions.list({ limit: STRIPE_PAGE_SIZE, payout: payoutId })) {
    if (!(bt.type === 'payout' && bt.source === payoutId)) all.push(bt);
  }
  return all;
}

/** Records of listed objects; a payout stamped with the account and what it paid out. */
async function recordsOf(stripe: Stripe, items: readonly { id: string }[], account: string | undefined): Promise<PlatformRecord[]> {
  const records: PlatformRecord[] = [];
  for (const item of items) {
    const details = account === undefined ? {} : { account, balance_transactions: await payoutTransactions(stripe, item.id) };
    records.push({ platformId: item.id, raw: { ...item, ...details } });
  }
  return records;
}

/** `since`: the lower bound on `created`; `floor`: the cursor to hand on when nothing newer is read. */
async function listPage(
  ctx: ConnectorContext,
  list: StripeList,
  request: ReadRequest,
  state: PageState | null,
  since: number | null,
  floor: number | null = since,
): Promise<ReadPage> {
  return withStripe(ctx, async (stripe) => {
    const created: { gte?: number; lte?: number } = {};
    if (request.window !== null) {
      created.gte = unix(request.window.start);
      created.lte = unix(request.window.end);
    }
    if (since !== null) created.gte = Math.max(created.gte ?? 0, since);
    const answer = await LISTS[list].list(stripe, {
      limit: STRIPE_PAGE_SIZE,
      ...(state?.after === null || state?.after === undefined ? {} : { starting_after: state.after }),
      ...(created.gte === undefined && created.lte === undefined ? {} : { created }),
    });
    const items = answer.data;
    // The cursor at the end: for a full read the newest event's time, taken before the first page (so nothing made
    // during the read is missed); for balance transactions the newest one's time, held at the oldest still pending.
    let top = state?.top ?? null;
    if (state === null) top = list === 'balance_transactions' ? floor : await newestEventTime.get(ctx);
    let pending = state?.pending;
    if (list === 'balance_transactions') {
      for (const item of items) {
        top = Math.max(top ?? 0, item.created);
        if ('status' in item && item.status === 'pending') pending = Math.min(pending ?? item.created, item.created);
      }
    }
    const account = list === 'payouts' ? (state?.account ?? (await accountId(ctx))) : undefined;
    const records = await recordsOf(stripe, items, account);
    const last = items.at(-1);
    if (answer.has_more && last !== undefined) {
      return {
        records,
        nextPageToken: encode({
          mode: 'list',
          after: last.id,
          top,
          ...(account === undefined ? {} : { account }),
          ...(pending === undefined ? {} : { pending }),
        }),
      };
    }
    const fallback = floor ?? Math.floor(Date.now() / 1000) - 60;
    return { records, nextPageToken: null, nextSince: String(pending ?? top ?? fallback) };
  });
}

async function eventsPage(ctx: ConnectorContext, list: StripeList, since: number, state: PageState | null): Promise<ReadPage> {
  const { object, events: types } = LISTS[list];
  return withStripe(ctx, async (stripe) => {
    const answer = await stripe.events.list({
      limit: STRIPE_PAGE_SIZE,
      created: { gte: since },
      types: [...types],
      ...(state?.after === null || state?.after === undefined ? {} : { starting_after: state.after }),
    });
    const seen = new Set(state?.seen ?? []);
    const events = answer.data;
    const top = Math.max(state?.top ?? since, ...events.map((event) => event.created));
    const lastEvent = events.at(-1)?.id ?? null;
    // An event's object is whatever its type carries: only one of the list's, with an id, is taken.
    const { changed: objects, deleted } = newestFirst(events, seen, (event) => {
      const inner = at(event, 'data', 'object');
      const id = isRecord(inner) && inner.object === object ? text(inner.id) : null;
      return id === null || !isRecord(inner) ? null : { id, deleted: event.type === 'customer.deleted' || inner.deleted === true, raw: inner };
    });
    const changed = objects.flatMap((inner) => {
      const id = text(inner.id);
      return id === null ? [] : [{ ...inner, id }];
    });
    let account = state?.account;
    if (list === 'payouts' && changed.length > 0 && account === undefined) account = await accountId(ctx);
    const records = await recordsOf(stripe, changed, list === 'payouts' ? account : undefined);
    const page: ReadPage = { records, ...(deleted.length > 0 ? { deletedPlatformIds: deleted } : {}), nextPageToken: null };
    if (answer.has_more && lastEvent !== null) {
      return {
        ...page,
        nextPageToken: encode({ mode: 'events', after: lastEvent, top, seen: [...seen], ...(account === undefined ? {} : { account }) }),
      };
    }
    return { ...page, nextSince: String(top) };
  });
}

/** One page of a read of `list`, full or incremental as the request says (see the file's comment). */
export async function readList(ctx: ConnectorContext, list: StripeList, request: ReadRequest): Promise<ReadPage> {
  const state = tokens.decode(request.pageToken);
  const since = request.since === null ? null : Number(request.since);
  if (since !== null && !Number.isFinite(since)) throw new Error(`Stripe cursor "${request.since}" is not a time`);
  if (since === null) return listPage(ctx, list, request, state, null);
  if (list === 'balance_transactions') return listPage(ctx, list, request, state, since);
  const expired = since < Math.floor(Date.now() / 1000) - EVENTS_KEPT_SECONDS;
  if (expired || state?.mode === 'list') return listPage(ctx, list, request, state, null);
  return eventsPage(ctx, list, since, state);
}

/** The account (GET /v1/account) as the one store record. */
export async function readAccount(ctx: ConnectorContext): Promise<ReadPage> {
  const account = await currentAccount.get(ctx);
  return { records: [{ platformId: account.id, raw: { ...account } }], nextPageToken: null };
}

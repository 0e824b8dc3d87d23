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
import type { UnifiedObjectType } from '../../model/object-types.ts';
import type { ConnectorContext, PlatformRecord, ReadPage, ReadRequest } from '../connector.ts';
import { PlatformError } from '../errors.ts';
import { newestFirst, pageTokens } from '../paging.ts';
import { perJob } from '../per-job.ts';
import { at, baseCurrency, integer, isRecord, strings, text } from '../readers.ts';
import { withStripe } from './client.ts';

export const STRIPE_PAGE_SIZE = 100;
/** Stripe keeps events 30 days (https://docs.stripe.com/api/events); a day's margin. */
export const EVENTS_KEPT_SECONDS = 29 * 86_400;

type Raw = Record<string, unknown>;

export type StripeList = 'charges' | 'balance_transactions' | 'payouts' | 'disputes' | 'customers';

interface ListParams {
  limit: number;
  starting_after?: string;
  created?: { gte?: number; lte?: number };
  payout?: string;
}

interface ListAnswer {
  data: readonly object[];
  has_more: boolean;
}

const LISTERS: Readonly<Record<StripeList, (stripe: Stripe, params: ListParams) => Promise<ListAnswer>>> = {
  charges: (stripe, params) => stripe.charges.list(params),
  balance_transactions: (stripe, params) => stripe.balanceTransactions.list(params),
  payouts: (stripe, params) => stripe.payouts.list(params),
  disputes: (stripe, params) => stripe.disputes.list(params),
  customers: (stripe, params) => stripe.customers.list(params),
};

/** Stripe's `object` value of each list's items. */
const ITEM_OBJECT: Readonly<Record<StripeList, string>> = {
  charges: 'charge',
  balance_transactions: 'balance_transaction',
  payouts: 'payout',
  disputes: 'dispute',
  customers: 'customer',
};

/** Event types that say an object of the list changed; at most 20 (Stripe's limit on types[]). */
export const EVENT_TYPES: Readonly<Partial<Record<StripeList, readonly string[]>>> = {
  charges: ['charge.captured', 'charge.expired', 'charge.failed', 'charge.pending', 'charge.refunded', 'charge.succeeded', 'charge.updated'],
  payouts: ['payout.created', 'payout.updated', 'payout.paid', 'payout.failed', 'payout.canceled', 'payout.reconciliation_completed'],
  disputes: [
    'charge.dispute.created',
    'charge.dispute.updated',
    'charge.dispute.closed',
    'charge.dispute.funds_withdrawn',
    'charge.dispute.funds_reinstated',
  ],
  customers: ['customer.created', 'customer.updated', 'customer.deleted'],
};

/** A library object as a checked raw record: a JSON object with a string id and the expected `object`. */
export function rawOf(item: unknown, expected: string): Raw & { id: string } {
  const id = isRecord(item) && item.object === expected ? text(item.id) : null;
  if (!isRecord(item) || id === null) {
    throw new PlatformError({ kind: 'server', message: `Stripe answered an item that is not a ${expected}`, requestSent: true });
  }
  return { ...item, id };
}

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
  withStripe(ctx, async (stripe) => {
    const answer = await stripe.events.list({ limit: 1 });
    const newest = answer.data.length === 0 ? null : rawOf(answer.data[0], 'event');
    return newest === null || typeof newest.created !== 'number' ? Math.floor(Date.now() / 1000) - 60 : newest.created;
  }),
);

/** The account (GET /v1/account), once per run: the store record, and the account every payout is stamped with. */
const currentAccount = perJob((ctx) => withStripe(ctx, async (stripe) => rawOf(await stripe.accounts.retrieveCurrent(), 'account')));

const accountId = async (ctx: ConnectorContext): Promise<string> => (await currentAccount.get(ctx)).id;

/** The account's default currency: what a currency the model does not know reads as (../readers.ts). */
export const STRIPE_BASE = baseCurrency(async (ctx) => (await currentAccount.get(ctx)).default_currency);

/** The balance transactions a payout paid out (every page), its own `payout` one left out. */
export async function payoutTransactions(stripe: Stripe, payoutId: string): Promise<Raw[]> {
  const all: Raw[] = [];
  let after: string | undefined;
  for (;;) {
    const answer = await LISTERS.balance_transactions(stripe, {
      limit: STRIPE_PAGE_SIZE,
      payout: payoutId,
      ...(after === undefined ? {} : { starting_after: after }),
    });
    const items = answer.data.map((item) => rawOf(item, 'balance_transaction'));
    all.push(...items.filter((bt) => !(bt.type === 'payout' && bt.source === payoutId)));
    const last = items.at(-1);
    if (!answer.has_more || last === undefined) return all;
    after = last.id;
  }
}

async function withPayoutDetails(stripe: Stripe, payouts: (Raw & { id: string })[], account: string): Promise<PlatformRecord[]> {
  const records: PlatformRecord[] = [];
  for (const payout of payouts) {
    records.push({ platformId: payout.id, raw: { ...payout, account, balance_transactions: await payoutTransactions(stripe, payout.id) } });
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
    const answer = await LISTERS[list](stripe, {
      limit: STRIPE_PAGE_SIZE,
      ...(state?.after === null || state?.after === undefined ? {} : { starting_after: state.after }),
      ...(created.gte === undefined && created.lte === undefined ? {} : { created }),
    });
    const items = answer.data.map((item) => rawOf(item, ITEM_OBJECT[list]));
    // The cursor at the end: for a full read the newest event's time, taken before the first page (so nothing made
    // during the read is missed); for balance transactions the newest one's time.
    let top = state?.top ?? null;
    if (state === null) top = list === 'balance_transactions' ? floor : await newestEventTime.get(ctx);
    if (list === 'balance_transactions') {
      for (const item of items) if (typeof item.created === 'number') top = Math.max(top ?? 0, item.created);
    }
    let pending = state?.pending;
    for (const item of items) {
      if (list === 'balance_transactions' && item.status === 'pending' && typeof item.created === 'number')
        pending = Math.min(pending ?? item.created, item.created);
    }
    const account = list === 'payouts' ? (state?.account ?? (await accountId(ctx))) : undefined;
    const records = account === undefined ? items.map((raw) => ({ platformId: raw.id, raw })) : await withPayoutDetails(stripe, items, account);
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
  const types = EVENT_TYPES[list] ?? [];
  return withStripe(ctx, async (stripe) => {
    const answer = await stripe.events.list({
      limit: STRIPE_PAGE_SIZE,
      created: { gte: since },
      types: [...types],
      ...(state?.after === null || state?.after === undefined ? {} : { starting_after: state.after }),
    });
    const seen = new Set(state?.seen ?? []);
    const events = answer.data.map((item) => rawOf(item, 'event'));
    const top = Math.max(state?.top ?? since, ...events.map((event) => integer(event.created) ?? since));
    const lastEvent = events.at(-1)?.id ?? null;
    const { changed: objects, deleted } = newestFirst(events, seen, (event) => {
      const inner = at(event, 'data', 'object');
      const id = isRecord(inner) && inner.object === ITEM_OBJECT[list] ? text(inner.id) : null;
      return id === null || !isRecord(inner) ? null : { id, deleted: event.type === 'customer.deleted' || inner.deleted === true, raw: inner };
    });
    const changed = objects.map((inner) => rawOf(inner, ITEM_OBJECT[list]));
    let account = state?.account;
    if (list === 'payouts' && changed.length > 0 && account === undefined) account = await accountId(ctx);
    const records =
      list === 'payouts' && account !== undefined
        ? await withPayoutDetails(stripe, changed, account)
        : changed.map((raw) => ({ platformId: raw.id, raw }));
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
  return { records: [{ platformId: account.id, raw: account }], nextPageToken: null };
}

export const LIST_OF: Readonly<Partial<Record<UnifiedObjectType, StripeList>>> = {
  order: 'charges',
  transaction: 'balance_transactions',
  payout: 'payouts',
  dispute: 'disputes',
  commerce_customer: 'customers',
  customer: 'customers',
};

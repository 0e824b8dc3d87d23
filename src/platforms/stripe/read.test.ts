/**
 * STRIPE reads against the stand-in without the service: full reads page 100 at a time and hand on the newest event's
 * time; incremental reads replay events (newest state wins, deletions reported); a cursor older than Stripe's 30 days
 * of events falls back to a full read; the balance transaction cursor stops at the oldest pending one; windows limit
 * `created`. Every request and answer stays within Stripe's published contract.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../../test/standins/stripe/server.ts';
import { setEnv } from '../../../test/support/env.ts';
import type { ConnectorContext, ReadPage, ReadRequest } from '../connector.ts';
import { createPlatformHttp } from '../http.ts';
import { EVENTS_KEPT_SECONDS, readList, type StripeList } from './read.ts';

let standin: StripeStandIn;
let restore: () => void;
beforeAll(async () => {
  standin = await startStripeStandIn();
  restore = setEnv({ STRIPE_API_URL: standin.url });
}, 60_000);
afterAll(async () => {
  restore();
  await standin.close();
});
afterEach(() => {
  expect(standin.violations).toEqual([]);
});

function context(key: string): ConnectorContext {
  return {
    http: createPlatformHttp({ maxAttempts: 3, baseDelayMs: 10 }),
    signal: new AbortController().signal,
    environment: 'sandbox',
    connectionId: 'read-test',
    credentials: { api_key: key },
    tokens: null,
    oauth: null,
    ref: (type, id) => (id === null || id === undefined || id === '' ? null : `${type}:${String(id)}`),
    platformIdOf: () => Promise.resolve(null),
  };
}

/** Every page of a read; the last page's cursor. */
async function readAll(ctx: ConnectorContext, list: StripeList, request: Omit<ReadRequest, 'pageToken'>) {
  const pages: ReadPage[] = [];
  let pageToken: string | null = null;
  do {
    const page: ReadPage = await readList(ctx, list, { ...request, pageToken });
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken !== null);
  return {
    ids: pages.flatMap((p) => p.records.map((r) => r.platformId)),
    deleted: pages.flatMap((p) => p.deletedPlatformIds ?? []),
    pages: pages.length,
    since: pages.at(-1)?.nextSince ?? null,
  };
}

describe('STRIPE reads', () => {
  it('reads in full by pages of 100, then incrementally through events with the newest state and deletions', async () => {
    const account = standin.addAccount({ id: 'acct_1ReadsFull0001', name: 'Reads Co', charges: 230, customers: 5 });
    const ctx = context(standin.issueKey(account.id));
    const full = await readAll(ctx, 'charges', { since: null, window: null });
    expect(full.pages).toBe(3);
    expect(new Set(full.ids).size).toBe(230);
    expect(Number(full.since)).toBe(account.events.at(-1)?.created);

    const added = account.addCharge(999, null, 'After the full read');
    account.refund(added.id, 999);
    const gone = account.customers[0]?.id ?? '';
    account.deleteCustomer(gone);
    const charges = await readAll(ctx, 'charges', { since: full.since, window: null });
    expect(charges.ids).toContain(added.id);
    expect(new Set(charges.ids).size).toBe(charges.ids.length);
    const customers = await readAll(ctx, 'customers', { since: full.since, window: null });
    expect(customers.deleted).toEqual([gone]);
    expect(customers.ids).not.toContain(gone);
  });

  it('keeps the newest state of an object changed by several events', async () => {
    const account = standin.addAccount({ id: 'acct_1ReadsNewest01', name: 'Newest Co', charges: 1 });
    const ctx = context(standin.issueKey(account.id));
    const since = String(account.events.at(-1)?.created ?? 0);
    const charge = account.addCharge(2_000, null);
    account.refund(charge.id, 2_000);
    const page = await readList(ctx, 'charges', { since, window: null, pageToken: null });
    const read = page.records.find((r) => r.platformId === charge.id);
    expect(read?.raw.refunded).toBe(true);
    expect(page.records.filter((r) => r.platformId === charge.id)).toHaveLength(1);
  });

  it('falls back to a full read when the cursor is older than the 30 days Stripe keeps events', async () => {
    const account = standin.addAccount({ id: 'acct_1ReadsExpired1', name: 'Old Co', charges: 120 });
    const ctx = context(standin.issueKey(account.id));
    const before = standin.calls.byPath.get('/v1/events') ?? 0;
    const old = String(Math.floor(Date.now() / 1000) - EVENTS_KEPT_SECONDS - 3_600);
    const read = await readAll(ctx, 'charges', { since: old, window: null });
    expect(new Set(read.ids).size).toBe(120);
    // Only the one call for the next cursor went to the events list.
    expect((standin.calls.byPath.get('/v1/events') ?? 0) - before).toBe(1);
  });

  it('stops the balance transaction cursor at the oldest pending one, and windows limit created', async () => {
    const account = standin.addAccount({ id: 'acct_1ReadsPending1', name: 'Pending Co', charges: 6 });
    const ctx = context(standin.issueKey(account.id));
    const [first, second] = account.balanceTransactions;
    if (first === undefined || second === undefined) throw new Error('no balance transactions');
    second.status = 'pending';
    const read = await readAll(ctx, 'balance_transactions', { since: null, window: null });
    expect(read.since).toBe(String(second.created));
    second.status = 'available';
    const again = await readAll(ctx, 'balance_transactions', { since: read.since, window: null });
    expect(again.ids).toContain(second.id);
    expect(again.ids).not.toContain(first.id);
    const start = new Date(second.created * 1000).toISOString();
    const windowed = await readAll(ctx, 'balance_transactions', { since: null, window: { start, end: start } });
    expect(windowed.ids).toEqual(
      account.balanceTransactions
        .filter((bt) => bt.created === second.created)
        .map((bt) => bt.id)
        .reverse(),
    );
  });
});

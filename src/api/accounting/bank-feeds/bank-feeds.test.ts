/**
 * Bank feeds through the real server against SANDBOX: a feed account created
 * without a ledger account is not ready; the mapping link's page links it;
 * after the next sync it takes transactions, and lines sent again are skipped.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, errorBody, json, type TestApp } from '../../../../test/support/app.ts';
import {
  eventsOf,
  incrementalSync,
  storedWhere,
  syncedSandboxConnection,
  type SyncedConnection,
} from '../../../../test/support/sandbox-connection.ts';
import { jobIdOf, sender, startWriteTestApp, today, type Json, type Send } from '../../../../test/support/writes.ts';

let t: TestApp;
let c: SyncedConnection;
let send: Send;

beforeAll(async () => {
  t = await startWriteTestApp();
  c = await syncedSandboxConnection(t, 'user_feeds_size_400');
  send = sender(t, c.token);
}, 120_000);
afterAll(async () => {
  await t.close();
});

const lines = (ids: string[]): Json[] =>
  ids.map((id, n) => ({
    internal_transaction_id: id,
    transaction_date: today(),
    amount: n % 2 === 0 ? -12.5 : 100,
    description: `Line ${id}`,
    running_balance: 500 + n,
  }));
const sendLines = (feed: unknown, transactions: Json[]) =>
  send('POST', '/accounting/bank_feeds/transactions', { bank_feed_transactions: { bank_feed_account_id: feed, transactions } });

describe('bank feeds', () => {
  it('link a new feed through the mapping link page, then send transactions, skipping lines sent before', async () => {
    const created = await send('POST', '/accounting/bank_feeds/accounts', {
      bank_feed_account: { name: 'Operating feed', bank_account_type: 'checking', currency_code: 'USD' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const feed = json(created).bank_feed_account as Json;
    expect(feed).toMatchObject({ transaction_ready: false, feed_status: 'inactive' });

    const early = await sendLines(feed.id, lines(['a1']));
    expect(early.statusCode).toBe(409);
    expect(errorBody(early).error_code).toBe('ENTITY_NOT_READY');

    // A ledger account for the feed to go to (every generated bank account has a feed already).
    const account = await send('POST', '/accounting/accounts', {
      account: { name: `Feed target ${randomUUID().slice(0, 6)}`, account_type: 'bank' },
    });
    expect(account.statusCode, account.body).toBe(200);
    const ledger = json(account).account as Json;

    const link = await send('POST', '/accounting/bank_feeds/accounts/mapping_link', { mapping_link: { bank_feed_account_id: feed.id } });
    expect(link.statusCode, link.body).toBe(200);
    const mapping = json(link).mapping_link as { url: string; expires_at: string; bank_feed_account_id: string };
    expect(mapping.bank_feed_account_id).toBe(feed.id);
    expect(Date.parse(mapping.expires_at)).toBeGreaterThan(Date.now());
    // The reference's key for the same page, beside ours.
    expect(json(link).bank_feed_account_mapping_link).toEqual({ url: mapping.url, expires_at: mapping.expires_at });
    const page = new URL(mapping.url);
    expect(page.origin).toBe(new URL(t.services.config.publicUrl).origin);
    const shown = await t.app.inject({ method: 'GET', url: page.pathname });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(String(ledger.platform_id));
    const linked = await t.app.inject({
      method: 'POST',
      url: page.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `account_id=${encodeURIComponent(String(ledger.platform_id))}`,
    });
    expect(linked.statusCode, linked.body).toBe(200);

    await incrementalSync(t, c.connection.id);
    const ready = await storedWhere(t, c.connection.id, 'bank_feed_account', (d) => d.id === feed.id);
    expect(ready).toMatchObject({ transaction_ready: true, feed_status: 'active', account_id: ledger.id });

    const first = await sendLines(feed.id, lines(['a1', 'a2', 'a3']));
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first).bank_feed_transactions).toMatchObject({ bank_feed_account_id: feed.id, accepted_count: 3, duplicate_count: 0 });
    const job = jobIdOf(first);
    const again = await sendLines(feed.id, lines(['a1', 'a2', 'a3', 'a4']));
    expect(json(again).bank_feed_transactions).toMatchObject({ accepted_count: 1, duplicate_count: 3 });
    // Each batch moves the feed's balance to its last line's running_balance: stored at once, announced with the job id.
    const updated = (await eventsOf(t, c.connection.id)).filter((e) => e.code === 'BANK_FEED_ACCOUNT_UPDATED' && e.payload.job_id === job);
    expect(updated).toHaveLength(1);
    expect((await storedWhere(t, c.connection.id, 'bank_feed_account', (d) => d.id === feed.id)).current_balance).toBe(503);
  });

  it('list and fetch the lines the platform accepted, each kept once, newest first, in the reference fields', async () => {
    const feed = await storedWhere(t, c.connection.id, 'bank_feed_account', (d) => d.transaction_ready === true);
    const batch: Json[] = [
      {
        transaction_id: 'r1',
        posted_at: '2026-11-02',
        transaction_date: '2026-11-01',
        amount: 250,
        description: 'Deposit',
        payee: 'Acme',
        transaction_type: 'deposit',
      },
      { internal_transaction_id: 'r2', transaction_date: '2026-11-03', amount: -40.25, description: 'Card fee', reference: 'CHK 1001' },
      { internal_transaction_id: 'r3', transaction_date: '2026-11-04', amount: -5, description: 'Charge', debit_credit_memo: 'DEBIT' },
    ];
    expect((await sendLines(feed.id, batch)).statusCode).toBe(200);
    // Sent again with one more: the kept lines are not doubled.
    expect(
      (await sendLines(feed.id, [...batch, { internal_transaction_id: 'r4', transaction_date: '2026-11-05', amount: 1, description: 'Refund' }]))
        .statusCode,
    ).toBe(200);

    const all: Json[] = [];
    let cursor: string | null = null;
    do {
      const page = await send(
        'GET',
        `/accounting/bank_feeds/transactions?bank_feed_account_id=${feed.id}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(page.statusCode, page.body).toBe(200);
      const body = json(page);
      expect((body.bank_feed_transactions as Json[]).length).toBeLessThanOrEqual(2);
      all.push(...(body.bank_feed_transactions as Json[]));
      cursor = body.next_cursor as string | null;
    } while (cursor !== null);
    const ours = all.filter((l) => typeof l.transaction_id === 'string' && /^r\d$/.test(l.transaction_id));
    expect(ours.map((l) => l.transaction_id)).toEqual(['r4', 'r3', 'r2', 'r1']);
    expect(new Set(all.map((l) => l.id)).size).toBe(all.length);
    expect(ours.find((l) => l.transaction_id === 'r1')).toMatchObject({
      bank_feed_account_id: feed.id,
      posted_at: '2026-11-02',
      transaction_date: '2026-11-01',
      amount: 250,
      debit_credit_memo: 'CREDIT',
      payee: 'Acme',
      transaction_type: 'deposit',
      platform_ingested: true,
      interest_amount: null,
      principal_amount: null,
    });
    const r2: Json = ours.find((l) => l.transaction_id === 'r2') ?? {};
    expect(r2).toMatchObject({
      posted_at: '2026-11-03',
      transaction_date: '2026-11-03',
      amount: -40.25,
      debit_credit_memo: 'DEBIT',
      memo: 'CHK 1001',
      transaction_type: null,
    });

    const one = await send('GET', `/accounting/bank_feeds/transactions/${String(r2.id)}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(json(one).bank_feed_transaction).toEqual(r2);
    expect(json(one).connection).toMatchObject({ id: c.connection.id, platform: 'SANDBOX' });
    // Lines of the earlier test's feed are there too, unfiltered.
    const unfiltered = await send('GET', '/accounting/bank_feeds/transactions?limit=500');
    expect((json(unfiltered).bank_feed_transactions as Json[]).some((l) => l.transaction_id === 'a4')).toBe(true);

    // Another connection of the same organisation, and another organisation, see none of them.
    const second = await syncedSandboxConnection(t, 'user_feeds_other_size_60');
    const elsewhere = sender(t, second.token);
    expect((await elsewhere('GET', `/accounting/bank_feeds/transactions/${String(r2.id)}`)).statusCode).toBe(410);
    expect(json(await elsewhere('GET', '/accounting/bank_feeds/transactions')).bank_feed_transactions).toEqual([]);
    const other = await t.newOrg('Feed lines other');
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/versioned/accounting/bank_feeds/transactions/${String(r2.id)}?access_token=${c.token}`,
      headers: clientHeaders(other),
    });
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
  });

  it('answer the line reads 400 for malformed input and 401 without credentials', async () => {
    const cases: [string, string][] = [
      ['/accounting/bank_feeds/transactions?cursor=not-a-cursor', 'INVALID_CURSOR'],
      ['/accounting/bank_feeds/transactions?limit=0', 'VALIDATION_ERROR'],
      ['/accounting/bank_feeds/transactions?limit=501', 'VALIDATION_ERROR'],
      ['/accounting/bank_feeds/transactions?bank_feed_account_id=feed-1', 'VALIDATION_ERROR'],
    ];
    for (const [url, code] of cases) {
      const response = await send('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(errorBody(response).error_code, url).toBe(code);
    }
    expect((await send('GET', '/accounting/bank_feeds/transactions/not-a-line')).statusCode).toBe(410);
    for (const url of ['/accounting/bank_feeds/transactions', `/accounting/bank_feeds/transactions/${randomUUID()}`]) {
      const noAuth = await t.app.inject({
        method: 'GET',
        url: `/versioned${url}?access_token=${c.token}`,
        headers: { 'x-service-version': '2024-08-31' },
      });
      expect(noAuth.statusCode, url).toBe(401);
    }
  });

  it('refuse malformed batches, unknown feeds and foreign callers before calling the platform', async () => {
    const feed = await storedWhere(t, c.connection.id, 'bank_feed_account', (d) => d.transaction_ready === true);
    const cases: [Json[], unknown, string][] = [
      [lines(['x', 'x']), feed.id, 'bank_feed_transactions.transactions[1].internal_transaction_id'],
      [lines(Array.from({ length: 1001 }, (_, n) => `n${n}`)), feed.id, 'bank_feed_transactions.transactions'],
      [[], feed.id, 'bank_feed_transactions.transactions'],
      [
        [{ internal_transaction_id: 'd', transaction_date: '2026-13-01', amount: 1, description: 'x' }],
        feed.id,
        'bank_feed_transactions.transactions[0].transaction_date',
      ],
      [lines(['y']), randomUUID(), 'bank_feed_transactions.bank_feed_account_id'],
    ];
    for (const [transactions, id, field] of cases) {
      const response = await sendLines(id, transactions);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      expect(errorBody(response).error_metadata?.field).toBe(field);
    }
    const unknownFeed = await send('POST', '/accounting/bank_feeds/accounts/mapping_link', { mapping_link: { bank_feed_account_id: randomUUID() } });
    expect(errorBody(unknownFeed).error_metadata?.field).toBe('mapping_link.bank_feed_account_id');
    const other = await t.newOrg('Feeds other');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bank_feeds/transactions?access_token=${c.token}`,
      headers: clientHeaders(other),
      payload: { bank_feed_transactions: { bank_feed_account_id: feed.id, transactions: lines(['z']) } },
    });
    expect(errorBody(foreign).error_code).toBe('INVALID_CREDENTIALS');
    const noAuth = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bank_feeds/accounts/mapping_link?access_token=${c.token}`,
      headers: { 'x-service-version': '2024-08-31' },
      payload: { mapping_link: { bank_feed_account_id: feed.id } },
    });
    expect(noAuth.statusCode).toBe(401);
  });
});

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

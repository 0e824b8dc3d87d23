import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import type { PlatformRecord } from '../../../src/platforms/connector.ts';
import { auditRef } from './audit.ts';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { mapRecord } from './mapping/index.ts';
import { registerSandboxPages } from './pages.ts';
import { startSandboxServer, type SandboxServer } from './server.ts';
import { readAll, testContext, writeContext } from './testkit.ts';

const USER = 'user_pages_size_1200';
const HOUR = 60 * 60_000;
let db: TestDatabase;
let clock = Date.parse('2025-06-16T09:00:00Z');
let platform: SandboxPlatform;
let app: FastifyInstance;
let server: SandboxServer;
let keys = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { asOf: '2025-06-15', tickIntervalMs: 0, now: () => clock, publicUrl: 'https://ledgerport.example.com' });
  app = Fastify();
  registerSandboxPages(app, { platform: () => platform });
  await app.ready();
  server = await startSandboxServer(platform);
});
afterAll(async () => {
  await server.close();
  await app.close();
  await db.close();
});

const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const ctx = testContext({ basic_username: USER, basic_password: 'pass_good' });
const wctx = () => writeContext(ctx, `p-${++keys}`);
const unified = (type: UnifiedObjectType, record: PlatformRecord) => mapRecord(type, record.raw, auditRef);

async function create(type: UnifiedObjectType, input: Record<string, unknown>): Promise<PlatformRecord> {
  const handler = connector.objects[type]?.handler;
  if (handler?.create === undefined) throw new Error(`${type} is not writable`);
  return handler.create(wctx(), input);
}

async function mappingLink(feedId: string): Promise<string> {
  const action = connector.actions?.bankFeedMappingLink;
  if (action === undefined) throw new Error('no mapping link action');
  const { url } = await action(wctx(), feedId);
  const parsed = new URL(url);
  expect(parsed.origin).toBe('https://ledgerport.example.com');
  return parsed.pathname;
}

async function feed(feedId: string): Promise<Record<string, unknown>> {
  const record = (await readAll(connector, ctx, {}, ['bank_feed_account'])).records.find((r) => r.raw.Id === feedId);
  if (record === undefined) throw new Error(`no feed ${feedId}`);
  return unified('bank_feed_account', { platformId: feedId, raw: record.raw });
}

const submit = (path: string, accountId: string | null) =>
  app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: accountId === null ? 'other=1' : new URLSearchParams({ account_id: accountId }).toString(),
  });

describe('sandbox bank feed linking page', () => {
  let feedId = '';
  let freeAccount = '';
  let oddAccount = '';

  beforeAll(async () => {
    feedId = (await create('bank_feed_account', { name: 'Stripe payouts', bank_account_type: 'checking' })).platformId;
    freeAccount = (await create('account', { name: 'Stripe Clearing', nominal_code: '1095', account_type: 'bank' })).platformId;
    oddAccount = (await create('account', { name: 'Till <b>&</b> "Float"', nominal_code: '1096', account_type: 'credit_card' })).platformId;
    expect(await feed(feedId)).toMatchObject({ transaction_ready: false, feed_status: 'inactive', account_id: null });
  });

  it('renders an accessible form listing the Bank and CreditCard accounts no feed uses, everything escaped', async () => {
    const page = await app.inject({ method: 'GET', url: await mappingLink(feedId) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
    const html = page.body;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<h1>Link a bank feed</h1>');
    expect(html).toContain('<strong>Stripe payouts</strong> at Sandbox Bank sends its statement lines to');
    expect(html).toContain(`<input type="radio" id="account-${freeAccount}" name="account_id" value="${freeAccount}" required>`);
    expect(html).toContain(`<label for="account-${freeAccount}">1095 · Stripe Clearing`);
    expect(html).toContain('1096 · Till &lt;b&gt;&amp;&lt;/b&gt; &quot;Float&quot; <span class="muted">(credit card, ');
    expect(html).not.toContain('<b>&</b>');
    // Accounts another feed already brings lines to are not offered; nor are other kinds of account.
    expect(html).not.toContain('Business Checking');
    expect(html).not.toContain('Accounts Receivable');
    expect(html).toMatch(
      /<form method="post" action="\/sandbox\/bank-feeds\/link\/[\w.-]+">[\s\S]*<legend>Account in your books<\/legend>[\s\S]*<button type="submit">Link account<\/button>/,
    );
    expect(html).toContain('role="alert"');
  });

  it('asks again, with the reason, when no account or an account it does not offer is sent', async () => {
    const path = await mappingLink(feedId);
    const none = await submit(path, null);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('<p class="alert">Choose the account in your books the feed’s lines go to.</p>');
    expect(none.body).toContain('aria-describedby="form-error"');
    const taken = await submit(path, 'ACC-000001');
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('another feed already uses it');
    expect(await feed(feedId)).toMatchObject({ transaction_ready: false, account_id: null });
  });

  it('links the feed on submit: ready and active, recorded in the change log; lines are accepted from then on', async () => {
    const cursors = (await readAll(connector, ctx, {}, ['bank_feed_account'])).cursors;
    const done = await submit(await mappingLink(feedId), freeAccount);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('<h1>Bank feed linked</h1>');
    expect(done.body).toContain('<strong>Stripe payouts</strong> now brings its statement lines to <strong>1095 · Stripe Clearing</strong>');
    expect(await feed(feedId)).toMatchObject({ transaction_ready: true, feed_status: 'active', account_id: `account:${freeAccount}` });
    const changes = await readAll(connector, ctx, cursors, ['bank_feed_account']);
    expect(changes.records.map((r) => r.raw.Id)).toEqual([feedId]);
    const log = await db.pool.query<{ op: string; platform_id: string }>(
      `SELECT c.op, c.platform_id FROM sandbox_platform.change_log c JOIN sandbox_platform.accounts_state a ON a.id = c.account_id
       WHERE a.account_key = $1 ORDER BY c.seq DESC LIMIT 1`,
      [USER],
    );
    expect(log.rows).toEqual([{ op: 'updated', platform_id: feedId }]);

    const send = connector.actions?.sendBankFeedTransactions;
    if (send === undefined) throw new Error('no send action');
    const batch = await send(wctx(), feedId, [
      { internal_transaction_id: 'po_1', transaction_date: '2025-06-16', amount: 250, description: 'Payout' },
    ]);
    expect(batch.accepted).toBe(1);
    // The account now has its feed: the page of another unlinked feed no longer offers it.
    const other = (await create('bank_feed_account', { name: 'Other', bank_account_type: 'bank' })).platformId;
    const page = await app.inject({ method: 'GET', url: await mappingLink(other) });
    expect(page.body).not.toContain('Stripe Clearing');
    expect(page.body).toContain('Till &lt;b&gt;');
  });

  it('refuses a tampered link (403) and an expired one (410), each with a readable page', async () => {
    const path = await mappingLink(feedId);
    const token = path.split('/').pop() ?? '';
    // Fastify refuses path parameters over 100 characters by default (414).
    expect(token.length).toBeLessThan(100);
    const [account = '', feedPart = '', expires = '', signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const tampered = [
      `${account}.${feedPart}.${expires}.${flipped}`,
      `${account}.FEED-000001.${expires}.${signature}`,
      `${account}.${feedPart}.${Number(expires) + 86_400}.${signature}`,
      `${Number(account) + 1}.${feedPart}.${expires}.${signature}`,
      `99999999999.${feedPart}.${expires}.${signature}`,
      'garbage',
    ];
    for (const bad of tampered) {
      const page = await app.inject({ method: 'GET', url: `/sandbox/bank-feeds/link/${bad}` });
      expect([page.statusCode, page.headers['content-type']], bad).toEqual([403, 'text/html; charset=utf-8']);
      expect(page.body).toContain('<h1>This link is not valid</h1>');
      expect((await submit(`/sandbox/bank-feeds/link/${bad}`, 'ACC-000001')).statusCode).toBe(403);
    }
    clock += HOUR + 1_000;
    const expired = await app.inject({ method: 'GET', url: path });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('<h1>This link has expired</h1>');
    expect((await submit(path, freeAccount)).statusCode).toBe(410);
  });

  it('serves the same page from the standalone sandbox server', async () => {
    const unlinked = (await create('bank_feed_account', { name: 'Served elsewhere', bank_account_type: 'bank' })).platformId;
    const path = await mappingLink(unlinked);
    const page = await fetch(`${server.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('Till &lt;b&gt;&amp;&lt;/b&gt;');
    const done = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account_id: oddAccount }).toString(),
    });
    expect(done.status).toBe(200);
    expect(await feed(unlinked)).toMatchObject({ transaction_ready: true, feed_status: 'active', account_id: `account:${oddAccount}` });
    expect((await fetch(`${server.url}/sandbox/bank-feeds/link/nope`)).status).toBe(403);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { decodeDataUrl } from '../../../src/files/signed-url.ts';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import type { BankFeedTransactionInput, ConnectorActions, PlatformRecord } from '../../../src/platforms/connector.ts';
import { createPlatformHttp } from '../../../src/platforms/http.ts';
import { handleNative, type NativeResponse } from './api.ts';
import { auditBooks, auditRef } from './audit.ts';
import { createSandboxConnector, httpTransport, inProcessTransport, SandboxPlatform } from './index.ts';
import { mapRecord } from './mapping/index.ts';
import { startSandboxServer, type SandboxServer } from './server.ts';
import { readAll, rejection, testContext, writeContext } from './testkit.ts';

const USER = 'user_actions_size_1500';
let db: TestDatabase;
let platform: SandboxPlatform;
let server: SandboxServer;
let keys = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, {
    asOf: '2025-06-15',
    tickIntervalMs: 0,
    now: () => Date.parse('2025-06-16T09:00:00Z'),
    publicUrl: 'http://books.sandbox.test/',
  });
  server = await startSandboxServer(platform);
});
afterAll(async () => {
  await server.close();
  await db.close();
});

const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const ctx = testContext({ basic_username: USER, basic_password: 'pass_good' });
const wctx = (key = `a-${++keys}`) => writeContext(ctx, key);

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
const actions = (): Required<Omit<ConnectorActions, 'downloadAttachment' | 'customFields' | 'readBalance'>> => {
  const a = connector.actions;
  return {
    uploadAttachment: required(a?.uploadAttachment, 'uploadAttachment'),
    bankFeedMappingLink: required(a?.bankFeedMappingLink, 'bankFeedMappingLink'),
    sendBankFeedTransactions: required(a?.sendBankFeedTransactions, 'sendBankFeedTransactions'),
    fulfillOrder: required(a?.fulfillOrder, 'fulfillOrder'),
    invoicePdf: required(a?.invoicePdf, 'invoicePdf'),
  };
};
async function create(type: UnifiedObjectType, input: Record<string, unknown>): Promise<PlatformRecord> {
  const handler = connector.objects[type]?.handler;
  if (handler?.create === undefined) throw new Error(`${type} is not writable`);
  return handler.create(wctx(), input);
}
const unified = (type: UnifiedObjectType, record: PlatformRecord) => mapRecord(type, record.raw, auditRef);

const auth = { authorization: `Basic ${Buffer.from(`${USER}:pass_good`).toString('base64')}` };
function native(method: 'GET' | 'POST', path: string, body?: unknown, key?: string): Promise<NativeResponse> {
  return handleNative(platform, { method, path, query: {}, headers: { ...auth, ...(key === undefined ? {} : { 'idempotency-key': key }) }, body });
}
function fault(response: NativeResponse): { code: unknown; Element: unknown; Message: unknown } {
  const body = response.body as { Fault?: { Error?: { code: unknown; Element: unknown; Message: unknown }[] } };
  return required(body.Fault?.Error?.[0], 'fault');
}

async function feedLineCount(feedId: string): Promise<number> {
  const result = await db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM sandbox_platform.feed_lines l JOIN sandbox_platform.accounts_state a ON a.id = l.account_id
     WHERE a.account_key = $1 AND l.feed_id = $2`,
    [USER, feedId],
  );
  return Number(result.rows[0]?.n);
}

const upload = { fileName: 'receipt June.pdf', contentType: 'application/pdf', content: Buffer.from('') };

describe('sandbox attachment upload', () => {
  it('uploads a file to a journal entry; read back through the connector, the data URL gives the same bytes', async () => {
    const before = await readAll(connector, ctx, {}, ['attachment']);
    // Every byte value, and a size that is not a multiple of 3 (base64 padding).
    const content = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, n) => n)), randomBytes(200_001)]);
    const created = await actions().uploadAttachment(
      wctx('upload-1'),
      { type: 'journal_entry', platformId: 'JE-000002' },
      { fileName: 'receipt June.pdf', contentType: 'Application/PDF; name="receipt.pdf"', content },
    );
    expect(created.platformId).toMatch(/^ATT-\d{6}$/);
    expect(created.raw).toMatchObject({
      FileName: 'receipt June.pdf',
      ContentType: 'application/pdf',
      Size: content.length,
      ParentType: 'JournalEntry',
      ParentId: 'JE-000002',
    });

    const changes = await readAll(connector, ctx, before.cursors, ['attachment']);
    const read = required(
      changes.records.find((r) => r.raw.Id === created.platformId),
      'the uploaded attachment in the incremental read',
    );
    const mapped = unified('attachment', { platformId: created.platformId, raw: read.raw });
    expect(mapped).toMatchObject({ attached_to_id: 'journal_entry:JE-000002', attached_to_type: 'journal_entry', file_name: 'receipt June.pdf' });
    const file = required(decodeDataUrl(String(mapped.file_url)) ?? undefined, 'a data URL');
    expect(file.contentType).toBe('application/pdf');
    expect(file.body.equals(content)).toBe(true);
    // What the caller maps from the upload's answer is what later syncs map.
    expect(unified('attachment', created)).toEqual(mapped);
    expect((await readAll(connector, ctx, {}, ['attachment'])).records.filter((r) => r.raw.Id === created.platformId)).toHaveLength(1);
  });

  it('uploads files to bills, invoices and expenses, each mapped with its own attached_to_type', async () => {
    for (const [type, parentType, platformId] of [
      ['bill', 'Bill', 'BILL-000001'],
      ['invoice', 'Invoice', 'INV-000001'],
      ['expense', 'Expense', 'EXP-000001'],
    ] as const) {
      const created = await actions().uploadAttachment(wctx(), { type, platformId }, { ...upload, content: Buffer.from(`file of ${platformId}`) });
      expect(created.raw).toMatchObject({ ParentType: parentType, ParentId: platformId });
      expect(unified('attachment', created)).toMatchObject({ attached_to_id: `${type}:${platformId}`, attached_to_type: type });
    }
  });

  it('gives some generated bills, invoices and expenses a file, and deleting a bill takes its files with it', async () => {
    const all = (await readAll(connector, ctx, {}, ['attachment'])).records.map((r) => mapRecord('attachment', r.raw, auditRef));
    const kinds = new Set(all.map((a) => a.attached_to_type));
    expect([...kinds].sort()).toEqual(['bank_deposit', 'bank_transfer', 'bill', 'expense', 'invoice', 'journal_entry']);
    const bill = await create('bill', {
      vendor_id: 'vendor:VEN-000001',
      issue_date: '2025-06-16T00:00:00Z',
      currency_code: 'USD',
      document_number: 'VI-FILES-1',
      line_items: [{ account_id: 'account:ACC-000030', description: 'Rent June', total_amount: 1200 }],
    });
    const file = await actions().uploadAttachment(
      wctx(),
      { type: 'bill', platformId: bill.platformId },
      { ...upload, content: Buffer.from('goes with the bill') },
    );
    expect((await native('GET', `/v1/Attachments/${file.platformId}`)).status).toBe(200);
    const handler = required(connector.objects.bill?.handler, 'bill handler');
    await handler.delete?.(wctx(), bill.platformId);
    expect((await native('GET', `/v1/Attachments/${file.platformId}`)).status).toBe(404);
  });

  it('refuses a missing journal entry, a bad file name, type or content, naming the field', async () => {
    const body = (over: Record<string, unknown>) => ({
      ParentType: 'JournalEntry',
      ParentId: 'JE-000001',
      FileName: 'a.txt',
      ContentType: 'text/plain',
      Content: Buffer.from('hi').toString('base64'),
      ...over,
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ParentId: 'JE-999999' }, 'ParentId', 'InvalidReference'],
      [{ ParentId: undefined }, 'ParentId', 'RequiredField'],
      [{ ParentType: 'Customer' }, 'ParentType', 'InvalidField'],
      [{ ParentType: 'Bill' }, 'ParentId', 'InvalidReference'],
      [{ FileName: '' }, 'FileName', 'RequiredField'],
      [{ FileName: `${'x'.repeat(252)}.txt` }, 'FileName', 'InvalidField'],
      [{ FileName: '../etc/passwd' }, 'FileName', 'InvalidField'],
      [{ ContentType: 'text/plain; charset=utf-8' }, 'ContentType', 'InvalidField'],
      [{ ContentType: 42 }, 'ContentType', 'InvalidField'],
      [{ Content: 'not base64!' }, 'Content', 'InvalidField'],
      [{ Content: '' }, 'Content', 'RequiredField'],
    ];
    for (const [over, element, code] of cases) {
      const response = await native('POST', '/v1/Attachments', body(over));
      expect([response.status, fault(response).Element, fault(response).code], JSON.stringify(over)).toEqual([400, element, code]);
    }
    expect((await native('POST', '/v1/Attachments', body({ FileName: `${'x'.repeat(251)}.txt` }))).status).toBe(201);

    const tooBig = await native('POST', '/v1/Attachments', body({ Content: Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64') }));
    expect([tooBig.status, fault(tooBig).Element, fault(tooBig).code]).toEqual([400, 'Content', 'FileTooLarge']);
    const atLimit = await native('POST', '/v1/Attachments', body({ Content: Buffer.alloc(10 * 1024 * 1024, 7).toString('base64') }));
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);

    const missing = await rejection(
      actions().uploadAttachment(wctx(), { type: 'journal_entry', platformId: 'JE-999999' }, { ...upload, content: Buffer.from('x') }),
    );
    expect([missing.kind, missing.httpStatus]).toEqual(['bad_request', 400]);
    expect(missing.platformMessage).toMatch(/ParentId JE-999999 does not exist/);
    const elsewhere = await rejection(
      actions().uploadAttachment(wctx(), { type: 'customer', platformId: 'CUS-000001' }, { ...upload, content: Buffer.from('x') }),
    );
    expect([elsewhere.kind, elsewhere.requestSent]).toEqual(['bad_request', false]);
  });

  it('uploads once per idempotency key: a repeat answers the first record, and GET /v1/Requests/<key> finds it', async () => {
    const count = async () => (await readAll(connector, ctx, {}, ['attachment'])).records.length;
    const before = await count();
    const file = { fileName: 'payroll.csv', contentType: 'text/csv', content: Buffer.from('line,amount\n1,10.00\n') };
    const first = await actions().uploadAttachment(wctx('upload-same'), { type: 'journal_entry', platformId: 'JE-000003' }, file);
    const second = await actions().uploadAttachment(wctx('upload-same'), { type: 'journal_entry', platformId: 'JE-000003' }, file);
    expect(second).toEqual(first);
    expect(await count()).toBe(before + 1);
    const found = await native('GET', '/v1/Requests/upload-same');
    expect(found.body).toMatchObject({
      Request: { Key: 'upload-same', Status: 201, Collection: 'attachment', Response: { Item: { Id: first.platformId } } },
    });
    const conflict = await rejection(
      actions().uploadAttachment(wctx('upload-same'), { type: 'journal_entry', platformId: 'JE-000003' }, { ...file, fileName: 'other.csv' }),
    );
    expect(conflict.kind).toBe('conflict');
  });

  it('takes a file bigger than the old 1 MB body limit over HTTP', async () => {
    const http = createPlatformHttp({ maxAttempts: 1, baseDelayMs: 1 });
    const overHttp = createSandboxConnector({ transport: httpTransport(server.url) });
    const content = randomBytes(3 * 1024 * 1024);
    const created = await required(overHttp.actions?.uploadAttachment, 'upload')(
      writeContext(testContext({ basic_username: USER, basic_password: 'pass_good' }, http), 'upload-http'),
      { type: 'journal_entry', platformId: 'JE-000004' },
      { fileName: 'scan.png', contentType: 'image/png', content },
    );
    expect(decodeDataUrl(String(unified('attachment', created).file_url))?.body.equals(content)).toBe(true);
  });
});

const line = (id: string, date: string, amount: number, extra: Partial<BankFeedTransactionInput> = {}): BankFeedTransactionInput => ({
  internal_transaction_id: id,
  transaction_date: date,
  amount,
  description: `Card payment ${id}`,
  ...extra,
});

describe('sandbox bank feed transactions', () => {
  let bankAccount = '';
  let readyFeed = '';
  let unlinkedFeed = '';

  beforeAll(async () => {
    bankAccount = (await create('account', { name: 'Clearing Account', nominal_code: '1090', account_type: 'bank', currency_code: 'USD' }))
      .platformId;
    // Linked at creation, but switched off: ready, not active.
    const ready = await create('bank_feed_account', {
      name: 'Clearing feed',
      account_id: `account:${bankAccount}`,
      feed_status: 'inactive',
      current_balance: 0,
    });
    expect(unified('bank_feed_account', ready)).toMatchObject({ transaction_ready: true, feed_status: 'inactive' });
    readyFeed = ready.platformId;
    const unlinked = await create('bank_feed_account', { name: 'Not linked yet', bank_account_type: 'savings' });
    expect(unified('bank_feed_account', unlinked)).toMatchObject({ account_id: null, transaction_ready: false, feed_status: 'inactive' });
    unlinkedFeed = unlinked.platformId;
  });

  it('generates linked feeds ready and the one unlinked feed not ready', async () => {
    const feeds = (await readAll(connector, ctx, {}, ['bank_feed_account'])).records.map((r) =>
      unified('bank_feed_account', { platformId: String(r.raw.Id), raw: r.raw }),
    );
    expect(feeds.filter((f) => f.transaction_ready === false).map((f) => f.name)).toEqual(
      expect.arrayContaining(['Merchant Account (not linked)', 'Not linked yet']),
    );
    expect(feeds.every((f) => f.transaction_ready === (f.account_id !== null))).toBe(true);
  });

  it('refuses lines for a feed that is not linked yet, pointing at the mapping link', async () => {
    const error = await rejection(actions().sendBankFeedTransactions(wctx(), unlinkedFeed, [line('T-1', '2025-06-10', -12.5)]));
    expect([error.kind, error.httpStatus]).toEqual(['bad_request', 400]);
    expect(error.platformMessage).toMatch(/not linked to a ledger account yet.*MappingLink/);
    expect(await feedLineCount(unlinkedFeed)).toBe(0);
    const missing = await rejection(actions().sendBankFeedTransactions(wctx(), 'FEED-999999', [line('T-1', '2025-06-10', 1)]));
    expect(missing.kind).toBe('not_found');
  });

  it('activates a feed with its first batch, takes the closing balance, and the change shows in incremental reads', async () => {
    const cursors = (await readAll(connector, ctx, {}, ['bank_feed_account'])).cursors;
    const result = await actions().sendBankFeedTransactions(wctx('batch-1'), readyFeed, [
      line('T-1', '2025-06-10T14:30:00-05:00', 1500, { payee_name: 'Acme Corp', reference: 'INV-1001', running_balance: 1500 }),
      line('T-2', '2025-06-11', -12.34, { running_balance: 1487.66 }),
      line('T-3', '2025-06-12T00:00:00Z', -0.01, { running_balance: 1487.65 }),
    ]);
    expect(result).toMatchObject({ batchPlatformId: expect.stringMatching(/^FTB-\d{6}$/) as unknown, accepted: 3, duplicates: 0 });
    expect(unified('bank_feed_account', result.feedAccount)).toMatchObject({
      transaction_ready: true,
      feed_status: 'active',
      current_balance: 1487.65,
      last_statement_balance: 1487.65,
      last_statement_date: '2025-06-12T00:00:00.000Z',
    });
    const changes = await readAll(connector, ctx, cursors, ['bank_feed_account']);
    expect(changes.records.map((r) => [r.raw.Id, r.raw.FeedStatus])).toEqual([[readyFeed, 'Active']]);
    const stored = await db.pool.query<{
      institution_txn_id: string;
      txn_date: string;
      amount_cents: number;
      payee: string | null;
      reference: string | null;
    }>(
      `SELECT institution_txn_id, txn_date::text AS txn_date, amount_cents, payee, reference FROM sandbox_platform.feed_lines WHERE feed_id = $1 ORDER BY institution_txn_id`,
      [readyFeed],
    );
    expect(stored.rows).toEqual([
      { institution_txn_id: 'T-1', txn_date: '2025-06-10', amount_cents: 150000, payee: 'Acme Corp', reference: 'INV-1001' },
      { institution_txn_id: 'T-2', txn_date: '2025-06-11', amount_cents: -1234, payee: null, reference: null },
      { institution_txn_id: 'T-3', txn_date: '2025-06-12', amount_cents: -1, payee: null, reference: null },
    ]);
    expect(auditBooks((await readAll(connector, ctx)).records)).toEqual([]);
  });

  it('counts lines it already has as duplicates, within a batch too; a repeated key answers the first result', async () => {
    const batch = [line('T-2', '2025-06-11', -12.34), line('T-4', '2025-06-13', 20), line('T-4', '2025-06-13', 20), line('T-5', '2025-06-14', -5)];
    const first = await actions().sendBankFeedTransactions(wctx('batch-2'), readyFeed, batch);
    expect([first.accepted, first.duplicates]).toEqual([2, 2]);
    expect(await feedLineCount(readyFeed)).toBe(5);
    const repeat = await actions().sendBankFeedTransactions(wctx('batch-2'), readyFeed, batch);
    expect(repeat).toEqual(first);
    const again = await actions().sendBankFeedTransactions(wctx('batch-3'), readyFeed, batch);
    expect([again.accepted, again.duplicates]).toEqual([0, 4]);
    expect(again.batchPlatformId).not.toBe(first.batchPlatformId);
    expect(await feedLineCount(readyFeed)).toBe(5);
    const found = await native('GET', '/v1/Requests/batch-2');
    expect(found.body).toMatchObject({
      Request: { Collection: 'bank_feed_account', Response: { Batch: { Id: first.batchPlatformId, Accepted: 2, Duplicates: 2 } } },
    });
  });

  it('refuses empty and oversized batches and bad lines, naming the line and field', async () => {
    const many = Array.from({ length: 1001 }, (_, n) => line(`M-${n}`, '2025-06-10', 1));
    const tooMany = await rejection(actions().sendBankFeedTransactions(wctx(), readyFeed, many));
    expect([tooMany.kind, tooMany.platformMessage]).toEqual([
      'bad_request',
      expect.stringMatching(/from 1 to 1000 lines; this batch has 1001/) as unknown,
    ]);
    expect((await actions().sendBankFeedTransactions(wctx(), readyFeed, many.slice(0, 1000))).accepted).toBe(1000);
    expect((await rejection(actions().sendBankFeedTransactions(wctx(), readyFeed, []))).kind).toBe('bad_request');

    const lines = (bad: Record<string, unknown>) => ({
      Transactions: [
        { InstitutionTxnId: 'B-1', Date: '2025-06-10', Amount: '1.00', Description: 'ok' },
        { InstitutionTxnId: 'B-2', Date: '2025-06-10', Amount: '1.00', Description: 'ok', ...bad },
      ],
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ Date: '2025-02-30' }, 'Transactions[1].Date'],
      [{ Date: 'yesterday' }, 'Transactions[1].Date'],
      [{ Amount: '1.005' }, 'Transactions[1].Amount'],
      [{ Amount: 'ten' }, 'Transactions[1].Amount'],
      [{ Description: '' }, 'Transactions[1].Description'],
      [{ InstitutionTxnId: undefined }, 'Transactions[1].InstitutionTxnId'],
      [{ RunningBalance: '12.345' }, 'Transactions[1].RunningBalance'],
    ];
    for (const [bad, element] of cases) {
      const response = await native('POST', `/v1/BankFeedAccounts/${readyFeed}/Transactions`, lines(bad));
      expect([response.status, fault(response).Element], JSON.stringify(bad)).toEqual([400, element]);
      expect(String(fault(response).Message)).toMatch(new RegExp(`^${element.replace(/[[\].]/g, '\\$&')} `));
    }
    const fractional = await rejection(actions().sendBankFeedTransactions(wctx(), readyFeed, [line('F-1', '2025-06-10', 1.005)]));
    expect(fractional.platformMessage).toMatch(/Transactions\[0\]\.Amount must be an amount with at most 2 decimals/);
  });

  it('answers a mapping link: the platform page address with a signed token, valid for an hour', async () => {
    const link = await actions().bankFeedMappingLink(wctx(), unlinkedFeed);
    expect(link.url).toMatch(/^http:\/\/books\.sandbox\.test\/sandbox\/bank-feeds\/link\/\d+\.FEED-\d{6}\.\d+\.[\w-]{22}$/);
    expect(link.expiresAt).toBe('2025-06-16T10:00:00.000Z');
    expect((await rejection(actions().bankFeedMappingLink(wctx(), 'FEED-999999'))).kind).toBe('not_found');
    // The collection's own name answers too.
    expect((await native('POST', `/v1/FeedAccounts/${unlinkedFeed}/MappingLink`, {})).status).toBe(200);
  });
});

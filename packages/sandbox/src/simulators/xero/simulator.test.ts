/**
 * The XERO simulator through the real Xero connector: every call it makes is answered in shapes that fit Xero's
 * published OpenAPI contract, every object type reads to its last page and maps into the unified schema, and the
 * unified objects tie out to SANDBOX's books; an incremental read after a SANDBOX change returns the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnifiedObjectType } from '../../../../../src/model/object-types.ts';
import type { ConnectorContext, PlatformRecord } from '../../../../../src/platforms/connector.ts';
import { fixedTokenSession } from '../../../../../src/platforms/context.ts';
import { createPlatformHttp, type FetchLike } from '../../../../../src/platforms/http.ts';
import { xeroConnector } from '../../../../../src/platforms/xero/index.ts';
import { checkMappedObject } from '../../../../../src/sync/mapped-check.ts';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { xeroContract } from '../../../../../test/standins/xero/contract.ts';
import { sandboxInvoicePdf } from '../../invoice-pdf.ts';
import { parseCents } from '../../money.ts';
import { SandboxPlatform } from '../../platform.ts';
import { testContext } from '../../testkit.ts';
import { simulatorBooks } from '../books.ts';
import type { SimulatorBooks } from '../kit.ts';
import { booksFetch } from '../testing.ts';
import { requestOf } from '../wire.ts';
import { uuidOfId as xeroIdOf } from '../uuid-ids.ts';
import { xeroSimulator } from './index.ts';

const KEY = 'xero:user_good_size_2000';
const TODAY = new Date().toISOString().slice(0, 10);
let clock = Date.parse(`${TODAY}T12:00:00Z`);
let db: TestDatabase;
let platform: SandboxPlatform;
let books: SimulatorBooks;

interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  answer: unknown;
}
const exchanges: Exchange[] = [];

/** The simulator's fetch, recording each request and its answer for the contract checks. */
function recordingFetch(inner: FetchLike): FetchLike {
  return async (url, init) => {
    const request = await requestOf(url, init);
    const response = await inner(url, init);
    const text = await response.clone().text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '' ? (JSON.parse(text) as unknown) : text;
    exchanges.push({ ...request, status: response.status, answer: json });
    return response;
  };
}

function xeroContext(): ConnectorContext {
  const tokens = { accessToken: 'x', refreshToken: 'y', expiresAt: '2999-01-01T00:00:00.000Z', tenantId: xeroSimulator.tenantId(KEY), scope: null };
  const http = createPlatformHttp({ fetch: recordingFetch(booksFetch(xeroSimulator, books)), maxAttempts: 1 });
  return { ...testContext({}, http), tokens, oauth: fixedTokenSession(tokens) };
}

interface Read {
  live: { record: PlatformRecord; mapped: Record<string, unknown> }[];
  deleted: PlatformRecord[];
  nextSince: string | null;
  pages: number;
}

/**
 * Reads one object type to its last page, mapping the live records. Keyset pages overlap by the records at a page's
 * newest UpdatedDateUTC (the connector asks from 1 ms before it), so a record read twice counts once, as a sync stores it.
 */
async function readType(ctx: ConnectorContext, type: UnifiedObjectType, since: string | null = null): Promise<Read> {
  const handler = xeroConnector.objects[type]?.handler;
  if (handler === undefined) throw new Error(`no ${type}`);
  const read: Read = { live: [], deleted: [], nextSince: null, pages: 0 };
  let pageToken: string | null = null;
  do {
    const page = await handler.read(ctx, { since, window: null, pageToken });
    read.pages++;
    for (const record of page.records) {
      if (record.deleted === true) read.deleted.push(record);
      else read.live.push({ record, mapped: handler.map(record, ctx) });
    }
    pageToken = page.nextPageToken;
    if (pageToken === null) read.nextSince = page.nextSince ?? null;
  } while (pageToken !== null);
  const last = new Map(read.live.map((l) => [l.record.platformId, l]));
  read.live = [...last.values()];
  return read;
}

const READABLE = (Object.keys(xeroConnector.objects) as UnifiedObjectType[]).filter((t) => xeroConnector.objects[t]?.capabilities.read === true);
const reads = new Map<UnifiedObjectType, Read>();
const cents = (value: unknown): number => Math.round(Number(value) * 100);
const total = (values: readonly unknown[]): number => values.reduce<number>((s, v) => s + cents(v), 0);
const allocated = (list: unknown): number => total(Array.isArray(list) ? list.map((a: { allocated_amount?: unknown }) => a.allocated_amount) : []);

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { asOf: TODAY, tickIntervalMs: 0, now: () => clock });
  books = await simulatorBooks(platform, KEY);
  const ctx = xeroContext();
  for (const type of READABLE) reads.set(type, await readType(ctx, type));
}, 120_000);
afterAll(async () => {
  await db.close();
});

const readOf = (type: UnifiedObjectType): Read => {
  const read = reads.get(type);
  if (read === undefined) throw new Error(`${type} was not read`);
  return read;
};

describe('XERO simulator through the Xero connector', () => {
  it("answers every call the connector made within Xero's published contract", () => {
    const contract = xeroContract();
    expect(exchanges.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const call of exchanges) {
      const api = call.path.startsWith('/api.xro/2.0') ? 'accounting' : 'identity';
      const path = api === 'accounting' ? call.path.slice('/api.xro/2.0'.length) : '/Connections';
      const found = contract.find(api, call.method, path, call.headers.accept);
      if (found === null) {
        problems.push(`${call.method} ${call.path} is not in the contract`);
        continue;
      }
      expect(call.status, `${call.method} ${call.path}`).toBe(200);
      const request = {
        pathParams: found.pathParams,
        query: call.query,
        headers: call.headers,
        contentType: call.headers['content-type'] ?? null,
        body: call.body,
      };
      const seen = [
        ...xeroContract().validateRequest(found.operation, request),
        ...contract.validateResponse(found.operation, call.status, call.answer),
      ];
      problems.push(...seen.map((p) => `${call.method} ${call.path}: ${p}`));
    }
    expect([...new Set(problems)]).toEqual([]);
    const paths = new Set(exchanges.map((e) => e.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')));
    expect([...paths].sort()).toEqual(
      expect.arrayContaining([
        '/api.xro/2.0/Accounts',
        '/api.xro/2.0/BankTransfers',
        '/api.xro/2.0/Contacts',
        '/api.xro/2.0/CreditNotes',
        '/api.xro/2.0/Currencies',
        '/api.xro/2.0/Employees',
        '/api.xro/2.0/Invoices',
        '/api.xro/2.0/Invoices/{id}/Attachments',
        '/api.xro/2.0/ManualJournals',
        '/api.xro/2.0/ManualJournals/{id}/Attachments',
        '/api.xro/2.0/Organisation',
        '/api.xro/2.0/Payments',
        '/api.xro/2.0/Reports/BalanceSheet',
        '/api.xro/2.0/Reports/ProfitAndLoss',
        '/api.xro/2.0/TaxRates',
        '/api.xro/2.0/TrackingCategories',
      ]),
    );
  });

  it('maps every object of every type into the unified schema', () => {
    const violations: string[] = [];
    for (const [type, read] of reads) {
      for (const { record, mapped } of read.live) {
        for (const v of checkMappedObject(type, { id: `${type}:${record.platformId}`, ...mapped }).violations)
          violations.push(`${type} ${record.platformId}: ${v.path} ${v.message}`);
      }
    }
    expect(violations.slice(0, 20)).toEqual([]);
    expect(readOf('bill').pages).toBeGreaterThan(1);
  });

  it("ties invoices and bills out to SANDBOX's: counts, totals, and amount due as total less payments and credits", async () => {
    for (const [type, native] of [
      ['invoice', await books.all('invoice')],
      ['bill', await books.all('bill')],
    ] as const) {
      const mapped = readOf(type).live.map((l) => l.mapped);
      expect(mapped.length, type).toBe(native.length);
      expect(total(mapped.map((m) => m.total_amount)), type).toBe(native.reduce((s, d) => s + parseCents(d.Total), 0));
      for (const m of mapped) {
        // A voided document owes nothing, in Xero as in SANDBOX.
        const owed = m.status === 'void' ? 0 : cents(m.total_amount) - allocated(m.linked_payments) - allocated(m.linked_credit_memos);
        expect(cents(m.amount_due), `${type} ${String(m.platform_id)}`).toBe(owed);
      }
      expect(total(mapped.map((m) => m.amount_due))).toBe(native.reduce((s, d) => s + parseCents(d.AmountDue), 0));
    }
  });

  it("ties payments, credit notes, contacts, journals and the reference lists out to SANDBOX's", async () => {
    const allocations = (payments: readonly { LinkedTxns: { TxnType: string; Amount: string }[] }[], type: string) =>
      payments.flatMap((p) => p.LinkedTxns.filter((l) => l.TxnType === type));
    const billPayments = allocations(await books.all('bill_payment'), 'Bill');
    const invoicePayments = allocations(await books.all('invoice_payment'), 'Invoice');
    expect(readOf('bill_payment').live.length).toBe(billPayments.length);
    expect(total(readOf('bill_payment').live.map((l) => l.mapped.total_amount))).toBe(billPayments.reduce((s, l) => s + parseCents(l.Amount), 0));
    expect(readOf('invoice_payment').live.length).toBe(invoicePayments.length);
    expect(total(readOf('invoice_payment').live.map((l) => l.mapped.total_amount))).toBe(
      invoicePayments.reduce((s, l) => s + parseCents(l.Amount), 0),
    );
    const vendorCredits = await books.all('bill_credit_memo');
    expect(total(readOf('bill_credit_memo').live.map((l) => l.mapped.total_amount))).toBe(vendorCredits.reduce((s, c) => s + parseCents(c.Total), 0));
    expect(readOf('invoice_credit_memo').live.length).toBe((await books.all('invoice_credit_memo')).length);
    expect(readOf('customer').live.length).toBe((await books.all('customer')).length);
    expect(readOf('vendor').live.length).toBe((await books.all('vendor')).length);
    expect(readOf('journal_entry').live.length).toBe((await books.all('journal_entry')).filter((j) => j.Status === 'Posted').length);
    for (const { mapped } of readOf('journal_entry').live) {
      expect(total((mapped.line_items as { total_amount: number }[]).map((l) => l.total_amount))).toBe(0);
    }
    expect(readOf('account').live.length).toBe((await books.all('account')).length);
    expect(readOf('tax_rate').live.length).toBe((await books.all('tax_rate')).length);
    expect(readOf('currency').live.length).toBe((await books.all('currency')).length);
    expect(readOf('employee').live.length).toBe((await books.all('employee')).length);
    expect(readOf('bank_transfer').live.length).toBe((await books.all('bank_transfer')).length);
    const classes = await books.all('class');
    expect(readOf('class').live.length).toBe(classes.length === 0 ? 0 : classes.length + 1);
    const attachable = new Set(
      [
        ...(await books.all('bill')),
        ...(await books.all('invoice')),
        ...(await books.all('journal_entry')),
        ...(await books.all('bank_transfer')),
      ].map((r) => r.Id),
    );
    expect(readOf('attachment').live.length).toBe((await books.all('attachment')).filter((a) => attachable.has(a.ParentId)).length);
    expect(readOf('company_info').live[0]?.mapped).toMatchObject({ name: books.company.name, currency_code: books.company.currency });
  });

  it('serves balance sheets where assets are liabilities plus equity, and income statements with SANDBOX net income, month by month', async () => {
    const sheets = new Map((await books.all('balance_sheet')).map((s) => [s.PeriodEnd, s]));
    const statements = new Map((await books.all('income_statement')).map((s) => [s.PeriodEnd, s]));
    const balance = readOf('balance_sheet').live.map((l) => l.mapped);
    expect(balance.length).toBe(12);
    let compared = 0;
    for (const sheet of balance) {
      expect(cents(sheet.total_assets)).toBe(cents(sheet.total_liabilities) + cents(sheet.total_equity));
      const native = sheets.get(String(sheet.end_date).slice(0, 10));
      if (native === undefined) continue;
      compared++;
      expect(cents(sheet.total_assets)).toBe(parseCents(native.TotalAssets));
      expect(cents(sheet.total_equity)).toBe(parseCents(native.TotalEquity));
    }
    expect(compared).toBeGreaterThan(6);
    for (const income of readOf('income_statement').live.map((l) => l.mapped)) {
      const native = statements.get(String(income.end_date).slice(0, 10));
      if (native !== undefined) expect(cents(income.net_income)).toBe(parseCents(native.NetIncome));
    }
  });

  it('reads what changed since the last read after SANDBOX moves on', async () => {
    const ctx = xeroContext();
    const before = new Map<'bill' | 'invoice' | 'invoice_payment' | 'bill_payment', string | null>();
    for (const type of ['bill', 'invoice', 'invoice_payment', 'bill_payment'] as const) before.set(type, readOf(type).nextSince);
    clock += 86_400_000;
    await platform.advance(KEY, 3);
    let changed = 0;
    for (const [type, since] of before) {
      expect(since, type).not.toBeNull();
      const read = await readType(ctx, type, since);
      const native = new Map<string, string>((await books.all(type)).map((r) => [r.Id, r.UpdatedAt]));
      const newer = [...native].filter(([, updated]) => Date.parse(updated) > Date.parse(since ?? ''));
      const seen = new Set(read.live.map((l) => l.record.platformId));
      for (const [id] of newer) if (type === 'bill' || type === 'invoice') expect(seen.has(xeroIdOf(id)), `${type} ${id}`).toBe(true);
      changed += newer.length;
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('downloads an attachment through the connector as SANDBOX keeps the file', async () => {
    const record = readOf('attachment').live[0]?.record;
    const download = xeroConnector.actions?.downloadAttachment;
    if (record === undefined || download === undefined) throw new Error('no attachment to download');
    const file = await download(xeroContext(), record);
    const native = (await books.all('attachment')).find((a) => xeroIdOf(a.Id) === record.platformId);
    expect(file.content.toString('base64')).toBe(native?.Content);
    expect(file.contentType).toBe(native?.ContentType);
  });

  it("serves an invoice's PDF through the connector as SANDBOX renders it; a bill or an unknown id is Xero's 404", async () => {
    const render = xeroConnector.actions?.invoicePdf;
    const record = readOf('invoice').live[0]?.record;
    if (record === undefined || render === undefined) throw new Error('no invoice to render');
    const pdf = await render(xeroContext(), record);
    const native = (await books.all('invoice')).find((i) => xeroIdOf(i.Id) === record.platformId);
    expect(pdf).toEqual({ contentType: 'application/pdf', content: sandboxInvoicePdf(native ?? {}) });
    const bill = readOf('bill').live[0]?.record;
    for (const platformId of [bill?.platformId ?? '', xeroIdOf('INV-NONE')]) {
      await expect(render(xeroContext(), { platformId, raw: {} })).rejects.toMatchObject({ kind: 'not_found', httpStatus: 404 });
    }
    expect(exchanges.at(-1)).toMatchObject({ headers: expect.objectContaining({ accept: 'application/pdf' }) as unknown, status: 404 });
  });

  it("refuses another organisation's tenant id with Xero's 403, and an unknown path with 404", async () => {
    const fetch = booksFetch(xeroSimulator, books);
    const other = await fetch('https://api.xero.com/api.xro/2.0/Invoices', {
      headers: { 'xero-tenant-id': xeroSimulator.tenantId('xero:someone_else') },
    });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ Title: 'Forbidden', Status: 403 });
    const nowhere = await fetch('https://api.xero.com/api.xro/2.0/Nowhere', { headers: { 'xero-tenant-id': xeroSimulator.tenantId(KEY) } });
    expect(nowhere.status).toBe(404);
    const connections = await fetch('https://api.xero.com/connections', {});
    expect(await connections.json()).toEqual([
      expect.objectContaining({ tenantId: xeroSimulator.tenantId(KEY), tenantType: 'ORGANISATION', tenantName: books.company.name }),
    ]);
  });
});

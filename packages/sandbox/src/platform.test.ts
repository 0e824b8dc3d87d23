import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { auditBooks, type AuditInput } from './audit.ts';
import { createSandboxConnector, inProcessTransport, SandboxPlatform } from './index.ts';
import { readAll, testContext } from './testkit.ts';

const AS_OF = '2025-06-15';
let db: TestDatabase;
let clock = Date.parse('2025-06-15T12:00:00Z');
let platform: SandboxPlatform;

beforeAll(async () => {
  db = await createTestDatabase();
  platform = new SandboxPlatform(db.pool, { asOf: AS_OF, tickIntervalMs: 0, now: () => clock });
});
afterAll(async () => {
  await db.close();
});

const connector = createSandboxConnector({ transport: inProcessTransport(() => platform) });
const login = (username: string) => testContext({ basic_username: username, basic_password: 'pass_good' });
const key = (r: AuditInput): string => `${r.type}:${String(r.raw.Id)}`;

async function changeLog(username: string): Promise<{ op: string; object_type: string; platform_id: string; tick: number }[]> {
  const result = await db.pool.query<{ op: string; object_type: string; platform_id: string; tick: number }>(
    `SELECT c.op, c.object_type, c.platform_id, c.tick FROM sandbox_platform.change_log c
     JOIN sandbox_platform.accounts_state a ON a.id = c.account_id WHERE a.account_key = $1 ORDER BY c.seq`,
    [username],
  );
  return result.rows;
}

describe('sandbox platform (PostgreSQL)', () => {
  it('materializes books lazily, on the first read rather than on identify', async () => {
    const ctx = login('user_lazy_size_800');
    const identity = await connector.identify(ctx);
    expect(identity.storeUniqueId).toBe('sandbox:user_lazy_size_800');
    const count = async () =>
      Number(
        (
          await db.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM sandbox_platform.records r JOIN sandbox_platform.accounts_state a ON a.id = r.account_id
       WHERE a.account_key = 'user_lazy_size_800'`,
          )
        ).rows[0]?.n,
      );
    expect(await count()).toBe(0);
    const all = await readAll(connector, ctx);
    expect(await count()).toBe(all.records.length);
    expect(all.records.length).toBeGreaterThan(700);
    expect(identity.storeName).toBe(String(all.records.find((r) => r.type === 'company_info')?.raw.TradingName));
  });

  it('pages a full read by keyset, each record once, with nextSince only on the last page', async () => {
    const ctx = login('user_good');
    const handler = connector.objects.bill?.handler;
    if (handler === undefined) throw new Error('no bill handler');
    const ids: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const page = await handler.read(ctx, { since: null, window: null, pageToken: token });
      pages++;
      ids.push(...page.records.map((r) => r.platformId));
      token = page.nextPageToken;
      if (token !== null) expect(page.nextSince ?? null).toBeNull();
      else expect(page.nextSince).toMatch(/^seq:\d+$/);
    } while (token !== null);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
  });

  it('filters a read by a window on the business date', async () => {
    const handler = connector.objects.invoice?.handler;
    if (handler === undefined) throw new Error('no invoice handler');
    const page = await handler.read(login('user_good'), {
      since: null,
      window: { start: '2025-03-01T00:00:00Z', end: '2025-03-31T23:59:59Z' },
      pageToken: null,
    });
    expect(page.records.length).toBeGreaterThan(0);
    for (const record of page.records) expect(handler.businessDate?.(record)?.slice(0, 7)).toBe('2025-03');
  });

  it('gives the same books for the same seed and different books for another', async () => {
    const first = await readAll(connector, login('user_twin_size_600'));
    await platform.reset('user_twin_size_600');
    const again = await readAll(connector, login('user_twin_size_600'));
    expect(JSON.stringify(again.records)).toBe(JSON.stringify(first.records));
    const other = await readAll(connector, login('user_other_size_600'));
    expect(JSON.stringify(other.records)).not.toBe(JSON.stringify(first.records));
  });

  it('moves time: ticks create, update and delete records, incremental reads see exactly that, and the books still add up', async () => {
    const username = 'user_ticks_size_3000';
    const ctx = login(username);
    const before = await readAll(connector, ctx);
    expect(auditBooks(before.records)).toEqual([]);
    clock += 86_400_000;
    await platform.advance(username, 8);
    const log = await changeLog(username);
    expect(new Set(log.map((c) => c.op))).toEqual(new Set(['created', 'updated', 'deleted']));
    expect(new Set(log.map((c) => c.tick))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
    // Some days bring cash sales, which the audit below finds posted to the ledger.
    expect(log.some((c) => c.object_type === 'sales_receipt' && c.op === 'created')).toBe(true);

    const changes = await readAll(connector, ctx, before.cursors);
    expect(changes.records.length).toBeGreaterThan(0);
    expect(changes.deleted.length).toBe(new Set(log.filter((c) => c.op === 'deleted').map((c) => `${c.object_type}:${c.platform_id}`)).size);
    const updatedAt = changes.records.map((r) => String(r.raw.UpdatedAt));
    expect(updatedAt.every((at) => at === new Date(clock).toISOString())).toBe(true);

    // Applying the changes to the first copy gives exactly what a fresh full read returns.
    const synced = new Map(before.records.map((r) => [key(r), r]));
    for (const r of changes.records) synced.set(key(r), r);
    for (const d of changes.deleted) synced.delete(`${d.type}:${d.id}`);
    const after = await readAll(connector, ctx);
    expect(new Map(after.records.map((r) => [key(r), r]))).toEqual(synced);
    expect(auditBooks(after.records)).toEqual([]);

    // Nothing new since the last cursor.
    const quiet = await readAll(connector, ctx, changes.cursors);
    expect(quiet.records.length + quiet.deleted.length).toBe(0);
  });

  it('lets a payout in transit arrive when its day comes: paid, posted by a journal entry of its own, the books adding up', async () => {
    // Books as of the day after a monthly payout was made: it arrives two days after it was made.
    const asOf = '2025-06-02';
    let now = Date.parse('2025-06-02T12:00:00Z');
    const early = new SandboxPlatform(db.pool, { asOf, tickIntervalMs: 0, now: () => now });
    const sandbox = createSandboxConnector({ transport: inProcessTransport(() => early) });
    const username = 'user_payouts_size_1500';
    const before = await readAll(sandbox, login(username));
    expect(auditBooks(before.records)).toEqual([]);
    const payouts = before.records.filter((r) => r.type === 'payout').map((r) => r.raw);
    const moving = payouts.filter((p) => p.Status === 'InTransit');
    expect(moving.map((p) => p.ArrivalDate)).toEqual(['2025-06-03']);
    expect(moving[0]?.JournalEntryId).toBeUndefined();
    expect(payouts.filter((p) => p.Status === 'Paid').every((p) => typeof p.JournalEntryId === 'string')).toBe(true);
    // The day before it arrives nothing moves; on its day it is paid and posted.
    await early.advance(username, 1);
    expect((await readAll(sandbox, login(username))).records.find((r) => r.raw.Id === moving[0]?.Id)?.raw.Status).toBe('InTransit');
    now = Date.parse('2025-06-03T12:00:00Z');
    await early.advance(username, 1);
    const after = await readAll(sandbox, login(username));
    const arrived = after.records.find((r) => r.raw.Id === moving[0]?.Id)?.raw;
    expect(arrived).toMatchObject({ Status: 'Paid', UpdatedAt: new Date(now).toISOString() });
    const journal = after.records.find((r) => r.type === 'journal_entry' && r.raw.Id === arrived?.JournalEntryId)?.raw;
    expect(journal).toMatchObject({ TxnDate: '2025-06-03', Memo: `Web shop payout ${String(arrived?.Id)}` });
    expect(auditBooks(after.records)).toEqual([]);
  });

  it("revises exchange rates now and then: today's rate of a currency, created or revised, and the currency list follows it", async () => {
    const username = 'user_fx_size_800';
    const before = await readAll(connector, login(username));
    const home = String(before.records.find((r) => r.type === 'company_info')?.raw.BaseCurrency);
    clock += 86_400_000;
    const today = new Date(clock).toISOString().slice(0, 10);
    await platform.advance(username, 40);
    const revised = (await changeLog(username)).filter((c) => c.object_type === 'exchange_rate');
    expect(revised.length).toBeGreaterThan(0);
    const after = await readAll(connector, login(username));
    expect(auditBooks(after.records)).toEqual([]);
    const rates = after.records.filter((r) => r.type === 'exchange_rate').map((r) => r.raw);
    const todays = rates.filter((r) => r.AsOfDate === today);
    expect(todays.length).toBeGreaterThan(0);
    expect(todays.every((r) => r.TargetCurrencyCode === home && r.SourceCurrencyCode !== home)).toBe(true);
    // Each currency revised today lists today's rate, inverted.
    for (const rate of todays) {
      const currency = after.records.find((r) => r.type === 'currency' && r.raw.Id === rate.SourceCurrencyCode)?.raw;
      expect(Number(currency?.ExchangeRate) * Number(rate.Rate)).toBeCloseTo(1, 5);
      expect(currency?.UpdatedAt).toBe(new Date(clock).toISOString());
    }
  });

  it('ticks deterministically: same seed and tick number give the same changes', async () => {
    const run = async () => {
      await platform.reset('user_det_size_1000');
      await readAll(connector, login('user_det_size_1000'), {}, ['company_info']);
      await platform.advance('user_det_size_1000', 3);
      return { log: await changeLog('user_det_size_1000'), books: (await readAll(connector, login('user_det_size_1000'))).records };
    };
    const a = await run();
    const b = await run();
    expect(b.log).toEqual(a.log);
    expect(JSON.stringify(b.books)).toBe(JSON.stringify(a.books));
  });

  it('ticks on reads when the simulated interval has passed, once across concurrent readers', async () => {
    let now = Date.parse('2025-06-15T12:00:00Z');
    const timed = [1, 2].map(() => new SandboxPlatform(db.pool, { asOf: AS_OF, tickIntervalMs: 60_000, maxCatchUpTicks: 5, now: () => now }));
    const [a, b] = timed.map((p) => createSandboxConnector({ transport: inProcessTransport(() => p) }));
    if (a === undefined || b === undefined) throw new Error('two connectors expected');
    const ctx = login('user_clock_size_700');
    await readAll(a, ctx, {}, ['company_info']);
    now += 3 * 60_000 + 5_000;
    // Two "processes" read at once; the ticks due are applied once.
    await Promise.all([readAll(a, ctx, {}, ['vendor']), readAll(b, ctx, {}, ['vendor'])]);
    const ticks = new Set((await changeLog('user_clock_size_700')).map((c) => c.tick));
    expect(ticks).toEqual(new Set([1, 2, 3]));
    now += 60 * 60_000;
    await readAll(b, ctx, {}, ['vendor']);
    expect(Math.max(...(await changeLog('user_clock_size_700')).map((c) => c.tick))).toBe(8);
  });
});

describe('sandbox platform: nothing dated after the moment it is read', () => {
  it('books made early in their last day, read then and after ticks, carry no timestamp later than the clock', async () => {
    // Once: bills stamped 17:08 served at 04:47 of the same day.
    let now = Date.parse('2026-03-10T04:47:00.000Z');
    const early = new SandboxPlatform(db.pool, { asOf: null, tickIntervalMs: 3_600_000, now: () => now });
    const reader = createSandboxConnector({ transport: inProcessTransport(() => early) });
    const ctx = testContext({ basic_username: 'user_early_size_1200', basic_password: 'pass_good' });
    const stamps = (value: unknown): string[] =>
      typeof value === 'string'
        ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)
          ? [value]
          : []
        : Array.isArray(value)
          ? value.flatMap(stamps)
          : value !== null && typeof value === 'object'
            ? Object.values(value).flatMap(stamps)
            : [];
    const future = (records: readonly AuditInput[]) =>
      records.flatMap((r) =>
        stamps(r.raw)
          .filter((s) => Date.parse(s) > now)
          .map((s) => `${key(r)} ${s}`),
      );
    const first = await readAll(reader, ctx);
    expect(first.records.filter((r) => typeof r.raw.CreatedAt === 'string' && r.raw.CreatedAt.startsWith('2026-03-10')).length).toBeGreaterThan(0);
    expect(future(first.records)).toEqual([]);
    now += 5 * 3_600_000;
    const later = await readAll(reader, ctx);
    expect(future(later.records)).toEqual([]);
    expect(auditBooks(later.records)).toEqual([]);
  });
});

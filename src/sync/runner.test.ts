import { describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { deliveredBody, type SealedSlots } from '../events/access-token-slot.ts';
import { books, MEMORY_PLATFORM, memoryPlatformApp, platformFailure } from '../../test/support/memory-platform.ts';
import { ensureInitialSync, requestSync } from './requests.ts';
import { runSync } from './runner.ts';
import { enqueueDueSyncs } from './worker.ts';
import { DISABLED_AFTER } from '../connections/health.ts';
import { setOrganizationDataBatching } from '../sql/data-batching.ts';
import type { SyncConfig } from '../connections/sync-config.ts';
import { metrics } from '../metrics/registry.ts';

const app = memoryPlatformApp();

const signal = new AbortController().signal;
let counter = 0;

async function connect(syncConfig: SyncConfig | null = null): Promise<ConnectionRecord> {
  counter += 1;
  const tenant = { organizationId: app().org.organization.id, environment: 'sandbox' as const };
  const { connection } = await createConnection(app().db.pool, app().services.cipher, tenant, {
    platform: MEMORY_PLATFORM,
    name: null,
    credentials: { api_key: `k${counter}` },
    identity: { storeUniqueId: `mem-${counter}`, storeName: 'Memory' },
    syncConfig,
    scope: null,
    marketplace: null,
    redirectUrl: null,
  });
  return connection;
}

async function sync(
  c: ConnectionRecord,
  kind: 'initial' | 'incremental' | 'backfill' = 'incremental',
  details: Record<string, unknown> = {},
  trigger: 'api' | 'manual' = 'api',
) {
  const run = await requestSync(app().db.pool, app().services.jobs, c.id, { kind, trigger, details });
  return { run, outcome: await runSync(app().services, run.id, signal) };
}

/** Stored events as delivered: sealed values back in their slots (src/events/access-token-slot.ts). */
async function events(c: ConnectionRecord): Promise<{ code: string; payload: Record<string, unknown> }[]> {
  const result = await app().db.pool.query<{ code: string; payload: Record<string, unknown> } & SealedSlots>(
    `SELECT code, payload, access_token_ciphertext, update_url_ciphertext FROM events WHERE connection_id = $1 ORDER BY created_at, id`,
    [c.id],
  );
  return result.rows.map((row) => ({
    code: row.code,
    payload: deliveredBody(app().services.cipher, row.payload, row).body as Record<string, unknown>,
  }));
}

/** Starts an initial sync that the platform interrupts when `type` is read at `atPageToken`: a crashed worker, to resume. */
async function interruptedInitial(c: ConnectionRecord, type: 'accounts' | 'bills', atPageToken: string) {
  books.failNext = { error: new Error('worker crashed'), type, atPageToken };
  const { run, outcome } = await sync(c, 'initial');
  expect(outcome).toBe('retry');
  return run;
}

async function seenRows(runId: string, objectType: string): Promise<number> {
  const result = await app().db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sync_seen WHERE run_id = $1 AND object_type = $2', [
    runId,
    objectType,
  ]);
  return result.rows[0]?.n ?? -1;
}

async function records(c: ConnectionRecord) {
  const result = await app().db.pool.query<{
    object_type: string;
    platform_id: string;
    data: Record<string, unknown>;
    deleted: boolean;
    xmin: string;
  }>(
    `SELECT object_type, platform_id, data, deleted_at IS NOT NULL AS deleted, xmin::text FROM records WHERE connection_id = $1 ORDER BY object_type, platform_id`,
    [c.id],
  );
  return result.rows;
}

function seed() {
  for (let i = 1; i <= 7; i++) books.addAccount(`A${i}`, `Account ${i}`);
  for (let i = 1; i <= 8; i++) books.addBill(`B${i}`, 100 * i, `2026-0${1 + (i % 9)}-15T00:00:00.000Z`);
}

describe('sync runner', () => {
  it('initial download stores every record and announces it with INITIAL_UPDATE once, not with an event per record', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    const { outcome } = await sync(c, 'initial');
    expect(outcome).toBe('completed');
    const stored = await records(c);
    expect(stored.filter((r) => r.object_type === 'account')).toHaveLength(7);
    expect(stored.filter((r) => r.object_type === 'bill')).toHaveLength(8);
    const bill = stored.find((r) => r.platform_id === 'B2')?.data;
    expect(bill).toMatchObject({ platform_id: 'B2', total_amount: 200 });
    expect(typeof bill?.vendor_id).toBe('string');
    expect((await events(c)).map((e) => e.code)).toEqual(['INITIAL_UPDATE']);
    const state = await app().db.pool.query(`SELECT status, ready_at IS NOT NULL AS ready FROM connections WHERE id = $1`, [c.id]);
    expect(state.rows[0]).toEqual({ status: 'active', ready: true });
  });

  it('stores a mapped object that does not fit its schema with what is valid, and counts it (this app runs lenient)', async () => {
    const violations = async () =>
      (await metrics.getSingleMetric('ledgerport_mapping_violations_total')?.get())?.values.find(
        (v) => v.labels.platform === MEMORY_PLATFORM && v.labels.object_type === 'account',
      )?.value ?? 0;
    const before = await violations();
    books.addAccount('A1', 'Account 1');
    const c = await connect({ historical_months: 0 });
    expect((await sync(c, 'initial')).outcome).toBe('completed');
    const account = (await records(c)).find((r) => r.platform_id === 'A1')?.data;
    // The memory platform maps three fields: the missing nullable ones are stored as null, the missing required
    // category (not nullable) stays missing, and the record is stored all the same.
    expect(account).toMatchObject({ platform_id: 'A1', name: 'Account 1', account_type: 'bank', parent_id: null, balance: null, nominal_code: null });
    expect(account).not.toHaveProperty('category');
    expect(await violations()).toBe(before + 1);
  });

  it('a full resync of a ready connection fires CREATED for what is new, with the object', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    books.addBill('B9', 900, '2026-05-01T00:00:00.000Z');
    expect((await sync(c, 'initial')).outcome).toBe('completed');
    const fresh = (await events(c)).filter((e) => e.code !== 'INITIAL_UPDATE');
    expect(fresh.map((e) => e.code)).toEqual(['BILL_CREATED']);
    expect(fresh[0]?.payload).toMatchObject({ type: 'BILL', code: 'BILL_CREATED', connection_id: c.id });
    expect(fresh[0]?.payload.bill).toMatchObject({ platform_id: 'B9', last_synced_at: expect.any(String) as string });
  });

  it('an unchanged resync writes no record and fires no event', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    const before = await records(c);
    const eventCount = (await events(c)).length;
    expect((await sync(c)).outcome).toBe('completed');
    expect(await records(c)).toEqual(before);
    expect(await events(c)).toHaveLength(eventCount);
  });

  it('an incremental sync stores exactly the changes and fires exactly matching events', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    const seen = (await events(c)).length;
    books.update('bills', 'B3', { Amount: 333 });
    books.addBill('B9', 900, '2026-05-01T00:00:00.000Z');
    books.remove('bills', 'B5');
    books.remove('accounts', 'A2');
    books.update('accounts', 'A4', { Name: 'Renamed' });
    books.update('bills', 'B6', { Note: 'only the raw record changes' });
    await sync(c);
    const platformIdOf = (e: { payload: Record<string, unknown> }) =>
      ((e.payload.bill ?? e.payload.account) as { platform_id: string } | undefined)?.platform_id ?? '';
    const fresh = (await events(c))
      .slice(seen)
      .map((e) => `${e.code}:${platformIdOf(e)}`)
      .sort();
    expect(fresh).toEqual(['ACCOUNT_DELETED:A2', 'ACCOUNT_UPDATED:A4', 'BILL_CREATED:B9', 'BILL_DELETED:B5', 'BILL_UPDATED:B3'].sort());
    const stored = await records(c);
    expect(stored.find((r) => r.platform_id === 'B3')?.data.total_amount).toBe(333);
    expect(stored.find((r) => r.platform_id === 'B5')?.deleted).toBe(true);
    expect(stored.find((r) => r.platform_id === 'A2')?.deleted).toBe(true);
    const raw = await app().db.pool.query(`SELECT raw->>'Note' AS note FROM records WHERE connection_id = $1 AND platform_id = 'B6'`, [c.id]);
    expect(raw.rows[0]).toEqual({ note: 'only the raw record changes' });
    // The bill read used the cursor of the previous sync, the account read listed everything.
    const lastReads = books.reads.slice(-4);
    expect(lastReads.some((r) => r.type === 'bills' && r.request.since !== null)).toBe(true);
    expect(lastReads.filter((r) => r.type === 'accounts').every((r) => r.request.since === null)).toBe(true);
  });

  it('a run interrupted mid-read resumes at the saved page without duplicating events', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    // Every bill changes, so a full resync announces each one once.
    for (let i = 1; i <= 8; i++) books.update('bills', `B${i}`, { Amount: 1000 + i });
    const run = await interruptedInitial(c, 'bills', '6');
    const partial = (await events(c)).filter((e) => e.code === 'BILL_UPDATED');
    expect(partial).toHaveLength(6);
    const readsBefore = books.reads.length;
    expect(await runSync(app().services, run.id, signal)).toBe('completed');
    const resumed = books.reads.slice(readsBefore);
    expect(resumed.map((r) => `${r.type}:${String(r.request.pageToken)}`)).toEqual(['bills:6']);
    const codes = (await events(c)).map((e) => e.code);
    expect(codes.filter((x) => x === 'BILL_UPDATED')).toHaveLength(8);
    expect(codes.filter((x) => x.endsWith('_CREATED') || x.endsWith('_DELETED') || x.startsWith('ACCOUNT_'))).toEqual([]);
    expect((await records(c)).filter((r) => r.object_type === 'bill' && !r.deleted)).toHaveLength(8);
    expect(codes.filter((x) => x === 'INITIAL_UPDATE')).toHaveLength(1);
    expect(await runSync(app().services, run.id, signal)).toBe('skipped');
  });

  it('an initial download interrupted mid-read resumes at the saved page and stores everything once', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    const run = await interruptedInitial(c, 'bills', '6');
    expect((await records(c)).filter((r) => r.object_type === 'bill')).toHaveLength(6);
    expect(await runSync(app().services, run.id, signal)).toBe('completed');
    expect((await records(c)).filter((r) => r.object_type === 'bill')).toHaveLength(8);
    expect((await events(c)).map((e) => e.code)).toEqual(['INITIAL_UPDATE']);
  });

  it('a full listing remembers what it saw only when stored records older than the run could be swept, across a crash too', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    const first = await interruptedInitial(c, 'accounts', '3');
    // A download into an empty store: the sweep has nothing to take, so nothing is remembered.
    expect(await seenRows(first.id, 'account')).toBe(0);
    expect(await runSync(app().services, first.id, signal)).toBe('completed');

    // A full resync of stored accounts, one of them gone from the platform, interrupted after its first page.
    books.remove('accounts', 'A2');
    const second = await interruptedInitial(c, 'accounts', '3');
    expect(await seenRows(second.id, 'account')).toBe(3);
    expect(await runSync(app().services, second.id, signal)).toBe('completed');
    const accounts = (await records(c)).filter((r) => r.object_type === 'account');
    expect(accounts.filter((r) => r.deleted).map((r) => r.platform_id)).toEqual(['A2']);
    expect(accounts.filter((r) => !r.deleted)).toHaveLength(6);
    expect((await events(c)).filter((e) => e.code === 'ACCOUNT_DELETED')).toHaveLength(1);
    expect(await seenRows(second.id, 'account')).toBe(0);
  });

  it('keeps its decision not to sweep across a resume, even when its own records look older than the run (a clock behind the database)', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    const run = await interruptedInitial(c, 'accounts', '3');
    // Timestamps come from the application's clock, the run's start from the database's: as if the first was behind.
    await app().db.pool.query(`UPDATE records SET last_synced_at = last_synced_at - interval '1 hour' WHERE connection_id = $1`, [c.id]);
    expect(await runSync(app().services, run.id, signal)).toBe('completed');
    const accounts = (await records(c)).filter((r) => r.object_type === 'account');
    expect(accounts).toHaveLength(7);
    expect(accounts.filter((r) => r.deleted)).toEqual([]);
  });

  it('a run whose database connection is lost mid-read resumes in place from its saved page, without spending an attempt', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    // What a statement cut by pg_terminate_backend rejects with (src/db/pool.ts isConnectionLoss).
    books.failNext = {
      error: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      type: 'bills',
      atPageToken: '6',
    };
    const { run, outcome } = await sync(c, 'initial');
    expect(outcome).toBe('completed');
    const state = await app().db.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM sync_runs WHERE id = $1', [run.id]);
    expect(state.rows[0]).toEqual({ status: 'completed', attempts: 1 });
    expect(books.reads.filter((r) => r.type === 'bills').map((r) => String(r.request.pageToken))).toEqual(['null', '3', '6', '6']);
    expect((await records(c)).filter((r) => r.object_type === 'bill')).toHaveLength(8);
    expect((await events(c)).map((e) => e.code)).toEqual(['INITIAL_UPDATE']);
  });

  it('a platform 401 moves the connection to needs_reauth with CONNECTION_NEEDS_UPDATE', async () => {
    seed();
    const c = await connect();
    books.failNext = { error: platformFailure('unauthorized'), type: 'accounts', atPageToken: null };
    expect((await sync(c, 'initial')).outcome).toBe('failed');
    const state = await app().db.pool.query(`SELECT status FROM connections WHERE id = $1`, [c.id]);
    expect(state.rows[0]).toEqual({ status: 'needs_reauth' });
    const needs = (await events(c)).filter((e) => e.code === 'CONNECTION_NEEDS_UPDATE');
    expect(needs).toHaveLength(1);
    expect(needs[0]?.payload.update_url).toMatch(/\/link\/lk_/);
  });

  it('repeated platform failures make an active connection unhealthy, and a success heals it', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    for (let i = 0; i < 3; i++) {
      books.failNext = { error: platformFailure('server'), type: 'accounts', atPageToken: null };
      expect((await sync(c)).outcome).toBe('retry');
    }
    expect((await app().db.pool.query(`SELECT status FROM connections WHERE id = $1`, [c.id])).rows[0]).toEqual({ status: 'unhealthy' });
    // CONNECTION_ERROR once, at the third failure in a row, with what failed.
    const errors = (await events(c)).filter((e) => e.code === 'CONNECTION_ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.payload).toMatchObject({
      type: 'CONNECTION',
      code: 'CONNECTION_ERROR',
      connection_id: c.id,
      error_code: 'PLATFORM_ERROR',
      consecutive_failures: 3,
    });
    expect(typeof errors[0]?.payload.error_message).toBe('string');
    await app().db.pool.query(`UPDATE sync_runs SET status = 'failed' WHERE connection_id = $1 AND status = 'queued'`, [c.id]);
    expect((await sync(c)).outcome).toBe('completed');
    expect((await app().db.pool.query(`SELECT status FROM connections WHERE id = $1`, [c.id])).rows[0]).toEqual({ status: 'active' });
    // A new episode after a success sends it again.
    for (let i = 0; i < 3; i++) {
      books.failNext = { error: platformFailure('server'), type: 'accounts', atPageToken: null };
      await sync(c);
    }
    expect((await events(c)).filter((e) => e.code === 'CONNECTION_ERROR')).toHaveLength(2);
  });

  it('a platform that refuses the account for billing disables the connection at once, with CONNECTION_DISABLED', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    books.failNext = { error: platformFailure('billing'), type: 'accounts', atPageToken: null };
    expect((await sync(c)).outcome).toBe('failed');
    const state = await app().db.pool.query(`SELECT status, disable_error FROM connections WHERE id = $1`, [c.id]);
    expect(state.rows[0]).toEqual({ status: 'disabled', disable_error: 'PLATFORM_BILLING_ISSUE' });
    const disabled = (await events(c)).filter((e) => e.code === 'CONNECTION_DISABLED');
    expect(disabled).toHaveLength(1);
    expect(disabled[0]?.payload).toMatchObject({ disable_error: 'PLATFORM_BILLING_ISSUE' });
  });

  it('never runs two syncs of one connection at once', async () => {
    seed();
    const c = await connect();
    const a = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'initial', trigger: 'api', details: {} });
    const b = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'incremental', trigger: 'api', details: {} });
    const outcomes = await Promise.all([runSync(app().services, a.id, signal), runSync(app().services, b.id, signal)]);
    expect(outcomes.sort()).toEqual(['busy', 'completed']);
  });

  it('data batching reads newest first and announces each historical batch', async () => {
    const now = new Date();
    const monthsAgo = (m: number) => {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - m);
      return d.toISOString();
    };
    books.addAccount('A1', 'Cash');
    books.addBill('NEW', 1, new Date(now.getTime() - 5 * 86_400_000).toISOString());
    books.addBill('MID', 2, monthsAgo(3));
    books.addBill('OLD', 3, monthsAgo(9));
    books.addBill('ANCIENT', 4, monthsAgo(30));
    const c = await connect({ historical_months: 12, data_batching: { months: [1, 6] } });
    await sync(c, 'initial');
    const all = await events(c);
    const historical = all.filter((e) => e.code === 'HISTORICAL_UPDATE');
    expect(historical.map((e) => e.payload.entities_included_to_time_range)).toEqual([
      [{ platformEntity: 'BILL', xMonthsAgo: 1 }],
      [{ platformEntity: 'BILL', xMonthsAgo: 6 }],
    ]);
    // Stored batch by batch, newest first (each page is its own transaction: xmin orders them).
    const billOrder = (await records(c))
      .filter((r) => r.object_type === 'bill')
      .sort((a, b) => Number(a.xmin) - Number(b.xmin))
      .map((r) => r.platform_id);
    expect(billOrder).toEqual(['NEW', 'MID', 'OLD']);
    expect(all.at(-1)?.code).toBe('INITIAL_UPDATE');
  });

  it("the organisation's data batching applies to connections without their own; a connection's months: [] turns it off", async () => {
    const now = new Date();
    books.addAccount('A1', 'Cash');
    books.addBill('NEW', 1, new Date(now.getTime() - 5 * 86_400_000).toISOString());
    books.addBill('OLD', 3, new Date(now.getTime() - 200 * 86_400_000).toISOString());
    await setOrganizationDataBatching(app().db.pool, app().org.organization.id, { months: [1, 6] });
    try {
      const inherits = await connect({ historical_months: 12 });
      const { run } = await sync(inherits, 'initial');
      expect((await events(inherits)).filter((e) => e.code === 'HISTORICAL_UPDATE').map((e) => e.payload.entities_included_to_time_range)).toEqual([
        [{ platformEntity: 'BILL', xMonthsAgo: 1 }],
        [{ platformEntity: 'BILL', xMonthsAgo: 6 }],
      ]);
      // Fixed in the run on its first start: a resume plans the same batches whatever the setting is by then.
      const fixed = await app().db.pool.query<{ b: unknown }>(`SELECT request->'data_batching' AS b FROM sync_runs WHERE id = $1`, [run.id]);
      expect(fixed.rows[0]?.b).toEqual({ months: [1, 6] });
      const optsOut = await connect({ historical_months: 12, data_batching: { months: [] } });
      await sync(optsOut, 'initial');
      expect((await events(optsOut)).filter((e) => e.code === 'HISTORICAL_UPDATE')).toEqual([]);
    } finally {
      await setOrganizationDataBatching(app().db.pool, app().org.organization.id, null);
    }
    const off = await connect({ historical_months: 12 });
    await sync(off, 'initial');
    expect((await events(off)).filter((e) => e.code === 'HISTORICAL_UPDATE')).toEqual([]);
  });

  it('a manual incremental sync fires INCREMENTAL_SYNC_COMPLETED with the requested entities', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    await sync(c, 'incremental', { object_types: ['BILL'] }, 'manual');
    await sync(c, 'incremental', { object_types: null }, 'manual');
    await sync(c, 'incremental', { object_types: [] }, 'manual');
    await sync(c, 'incremental', {}, 'api');
    const completed = (await events(c)).filter((e) => e.code === 'INCREMENTAL_SYNC_COMPLETED').map((e) => e.payload);
    expect(completed.map((p) => p.entities)).toEqual([['BILL'], null, []]);
    expect(completed.every((p) => p.incremental_sync_type === 'manual' && p.type === 'CONNECTION')).toBe(true);
  });

  it('persistent platform failures disable the connection with CONNECTION_DISABLED', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    for (let i = 0; i < DISABLED_AFTER; i++) {
      books.failNext = { error: platformFailure('server', 'Service Unavailable'), type: 'accounts', atPageToken: null };
      await sync(c);
      await app().db.pool.query(`UPDATE sync_runs SET status = 'failed' WHERE connection_id = $1 AND status = 'queued'`, [c.id]);
    }
    const state = await app().db.pool.query(`SELECT status, disable_error FROM connections WHERE id = $1`, [c.id]);
    expect(state.rows[0]).toEqual({ status: 'disabled', disable_error: 'PERSISTENT_PLATFORM_ERROR' });
    const disabled = (await events(c)).filter((e) => e.code === 'CONNECTION_DISABLED');
    expect(disabled).toHaveLength(1);
    expect(disabled[0]?.payload).toMatchObject({
      disable_error: 'PERSISTENT_PLATFORM_ERROR',
      disable_message: expect.stringContaining('Service Unavailable') as string,
    });
  });

  it('a run of a connection disabled since it was queued is cancelled without calling the platform', async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    const queued = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'incremental', trigger: 'api', details: {} });
    await app().db.pool.query(`UPDATE connections SET status = 'disabled', disable_message = 'failed 12 syncs' WHERE id = $1`, [c.id]);
    const failure = { error: platformFailure('server', 'Service Unavailable'), type: 'accounts', atPageToken: null };
    books.failNext = failure;
    expect(await runSync(app().services, queued.id, signal)).toBe('skipped');
    // The platform was not called: the failure it had ready is still there, and no failure was counted.
    expect(books.failNext).toBe(failure);
    books.failNext = null;
    const run = await app().db.pool.query(`SELECT status, error FROM sync_runs WHERE id = $1`, [queued.id]);
    expect(run.rows[0]).toEqual({ status: 'cancelled', error: 'The connection was disabled: failed 12 syncs' });
  });

  it("schedules incremental syncs at each connection's frequency", async () => {
    seed();
    const hourly = await connect({ historical_months: 0 });
    const daily = await connect({ historical_months: 0, incremental_sync_frequency_minutes: 1440 });
    await sync(hourly, 'initial');
    await sync(daily, 'initial');
    const inTwoHours = new Date(Date.now() + 2 * 3600_000);
    await enqueueDueSyncs(app().services, inTwoHours);
    const queued = async (c: ConnectionRecord) =>
      (
        await app().db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1 AND status = 'queued' AND trigger = 'schedule'`,
          [c.id],
        )
      ).rows[0]?.n;
    expect(await queued(hourly)).toBe(1);
    expect(await queued(daily)).toBe(0);
    // Nothing is queued twice while one waits.
    await enqueueDueSyncs(app().services, inTwoHours);
    expect(await queued(hourly)).toBe(1);
    await enqueueDueSyncs(app().services, new Date(Date.now() + 25 * 3600_000));
    expect(await queued(daily)).toBe(1);
  });

  it("holds scheduled syncs back while a connection's calls are ahead of its daily budget's pace", async () => {
    seed();
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    const inTwoHours = new Date(Date.now() + 2 * 3600_000);
    const budgets = { [String(c.platform)]: 1000 };
    // Twelve hours into the budget's window: scheduled syncs may have spent 80% of half of 1,000 by now, 400 calls.
    const used = async (calls: number, windowHoursAgo = 12): Promise<void> => {
      await app().db.pool.query(
        `INSERT INTO platform_call_meters (connection_id, scope, day_started_at, day_calls, taken_at, last_take_granted)
         VALUES ($1, '', $2, $3, $2, true)
         ON CONFLICT (connection_id, scope) DO UPDATE SET day_started_at = EXCLUDED.day_started_at, day_calls = EXCLUDED.day_calls`,
        [c.id, new Date(inTwoHours.getTime() - windowHoursAgo * 3600_000), calls],
      );
    };
    const queued = async (): Promise<number | undefined> =>
      (
        await app().db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sync_runs WHERE connection_id = $1 AND status = 'queued' AND trigger = 'schedule'`,
          [c.id],
        )
      ).rows[0]?.n;
    await used(450);
    await enqueueDueSyncs(app().services, inTwoHours, budgets);
    expect(await queued()).toBe(0);
    // A platform without a stated budget is not paced.
    await enqueueDueSyncs(app().services, inTwoHours, {});
    expect(await queued()).toBe(1);
    await app().db.pool.query(`DELETE FROM sync_runs WHERE connection_id = $1 AND status = 'queued'`, [c.id]);
    // Back on pace, or the window over: due again.
    await used(350);
    await enqueueDueSyncs(app().services, inTwoHours, budgets);
    expect(await queued()).toBe(1);
    await app().db.pool.query(`DELETE FROM sync_runs WHERE connection_id = $1 AND status = 'queued'`, [c.id]);
    await used(4000, 25);
    await enqueueDueSyncs(app().services, inTwoHours, budgets);
    expect(await queued()).toBe(1);
  });

  it('a backfill re-reads its window and never moves the incremental cursor past unread changes', async () => {
    seed();
    books.addBill('OLD', 5, '2015-06-01T00:00:00.000Z');
    const c = await connect({ historical_months: 0 });
    await sync(c, 'initial');
    books.update('bills', 'B2', { Amount: 999 });
    await sync(c, 'backfill', { entity: 'BILL', start_date: '2015-01-01', end_date: '2015-12-31' });
    const backfillRead = books.reads.filter((r) => r.type === 'bills').at(-1);
    expect(backfillRead?.request.window).toEqual({ start: '2015-01-01T00:00:00.000Z', end: '2016-01-01T00:00:00.000Z' });
    await sync(c);
    const stored = await records(c);
    expect(stored.find((r) => r.platform_id === 'B2')?.data.total_amount).toBe(999);
  });

  it('re-linking after a failed initial sync queues it again', async () => {
    seed();
    const c = await connect();
    books.failNext = { error: platformFailure('unauthorized'), type: 'accounts', atPageToken: null };
    expect((await sync(c, 'initial')).outcome).toBe('failed');
    const queued = await ensureInitialSync(app().db.pool, app().services.jobs, c.id, 'link');
    expect(queued?.kind).toBe('initial');
    expect(await ensureInitialSync(app().db.pool, app().services.jobs, c.id, 'link')).toBeNull();
    expect(await runSync(app().services, queued?.id ?? '', signal)).toBe('completed');
    expect((await app().db.pool.query(`SELECT ready_at IS NOT NULL AS ready FROM connections WHERE id = $1`, [c.id])).rows[0]).toEqual({
      ready: true,
    });
    expect(await ensureInitialSync(app().db.pool, app().services.jobs, c.id, 'link')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { books, MEMORY_PLATFORM, memoryPlatformApp } from '../../test/support/memory-platform.ts';
import { followUpTypes } from './follow-up-scope.ts';
import { requestFollowUpSync, requestSync } from './requests.ts';
import { runSync } from './runner.ts';

const app = memoryPlatformApp();

const signal = new AbortController().signal;
let counter = 0;

/** A connection of the memory platform (accounts and bills) whose initial sync is done. */
async function readyConnection(): Promise<ConnectionRecord> {
  counter += 1;
  for (let i = 1; i <= 3; i++) books.addAccount(`A${i}`, `Account ${i}`);
  books.addBill('B1', 100, '2026-01-15T00:00:00.000Z');
  const { connection } = await createConnection(
    app().db.pool,
    app().services.cipher,
    { organizationId: app().org.organization.id, environment: 'sandbox' },
    {
      platform: MEMORY_PLATFORM,
      name: null,
      credentials: { api_key: `f${counter}` },
      identity: { storeUniqueId: `follow-${counter}`, storeName: 'Memory' },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  const initial = await requestSync(app().db.pool, app().services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  expect(await runSync(app().services, initial.id, signal)).toBe('completed');
  return connection;
}

async function queued(connectionId: string): Promise<{ id: string; trigger: string; request: { object_types?: string[] } }[]> {
  const result = await app().db.pool.query<{ id: string; trigger: string; request: { object_types?: string[] } }>(
    `SELECT id, trigger, request FROM sync_runs WHERE connection_id = $1 AND status = 'queued' ORDER BY created_at`,
    [connectionId],
  );
  return result.rows;
}

const follow = (c: ConnectionRecord, types: Parameters<typeof requestFollowUpSync>[3]) =>
  requestFollowUpSync(app().db.pool, app().services.jobs, c.id, types);

describe("a write's follow-up sync", () => {
  it('reads the written type and the types whose fields a document changes, not every object type', () => {
    expect(followUpTypes('bill_payment')).toEqual(['account', 'bill', 'bill_credit_memo', 'bill_payment', 'vendor']);
    expect(followUpTypes('invoice_payment')).toEqual(['account', 'customer', 'invoice', 'invoice_credit_memo', 'invoice_payment']);
    expect(followUpTypes('journal_entry')).toEqual(['account', 'journal_entry']);
    expect(followUpTypes('vendor')).toEqual(['vendor']);
    expect(followUpTypes('attachment')).toEqual(['attachment']);
  });

  it('runs as an incremental sync of those types only', async () => {
    const c = await readyConnection();
    const runId = await follow(c, ['bill']);
    expect(await queued(c.id)).toEqual([{ id: runId, trigger: 'write', request: { object_types: ['BILL'] } }]);
    books.reads = [];
    expect(await runSync(app().services, runId ?? '', signal)).toBe('completed');
    expect(new Set(books.reads.map((r) => r.type))).toEqual(new Set(['bills']));
  });

  it('widens a queued follow-up for the next write instead of queuing a second run, and the run reads the widened set', async () => {
    const c = await readyConnection();
    const first = await follow(c, ['bill']);
    const second = await follow(c, ['account', 'bill']);
    expect(second).toBe(first);
    // The run's own types first, the widened ones after: the order the run reads them in.
    expect(await queued(c.id)).toEqual([{ id: first, trigger: 'write', request: { object_types: ['BILL', 'ACCOUNT'] } }]);
    books.reads = [];
    expect(await runSync(app().services, first ?? '', signal)).toBe('completed');
    expect(new Set(books.reads.map((r) => r.type))).toEqual(new Set(['accounts', 'bills']));
  });

  it('leaves it to a queued run that reads everything, but not to a backfill', async () => {
    const c = await readyConnection();
    const full = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'incremental', trigger: 'schedule', details: {} });
    expect(await follow(c, ['bill'])).toBe(full.id);
    expect(await queued(c.id)).toHaveLength(1);

    const other = await readyConnection();
    await requestSync(app().db.pool, app().services.jobs, other.id, {
      kind: 'backfill',
      trigger: 'api',
      details: { entity: 'BILL', start_date: '2026-01-01', end_date: '2026-01-31' },
    });
    const followUp = await follow(other, ['bill']);
    expect((await queued(other.id)).map((r) => r.id)).toContain(followUp);
    expect(await queued(other.id)).toHaveLength(2);
  });

  it('queues a new run when the follow-up was taken by a worker in the meantime, so no type is missed', async () => {
    const c = await readyConnection();
    const first = await follow(c, ['bill']);
    // A worker marked it running (src/sync/runner.ts takes the request as it is at that moment).
    await app().db.pool.query(`UPDATE sync_runs SET status = 'running' WHERE id = $1`, [first]);
    const second = await follow(c, ['account']);
    expect(second).not.toBe(first);
    expect(await queued(c.id)).toEqual([{ id: second, trigger: 'write', request: { object_types: ['ACCOUNT'] } }]);
    await app().db.pool.query(`UPDATE sync_runs SET status = 'cancelled' WHERE id = $1`, [first]);
  });

  it('queues nothing for a connection whose data is not ready', async () => {
    const { connection } = await createConnection(
      app().db.pool,
      app().services.cipher,
      { organizationId: app().org.organization.id, environment: 'sandbox' },
      {
        platform: MEMORY_PLATFORM,
        name: null,
        credentials: { api_key: 'never-synced' },
        identity: { storeUniqueId: 'follow-unready', storeName: 'Memory' },
        syncConfig: null,
        scope: null,
        marketplace: null,
        redirectUrl: null,
      },
    );
    expect(await follow(connection, ['bill'])).toBeNull();
    expect(await queued(connection.id)).toEqual([]);
  });
});

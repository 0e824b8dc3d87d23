import { describe, expect, it } from 'vitest';
import { createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { books, MEMORY_PLATFORM, memoryPlatformApp, platformFailure } from '../../test/support/memory-platform.ts';
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

  describe('while the initial sync is under way', () => {
    /** A linked connection whose initial sync read accounts, then failed on bills with `failure` (it is queued again, or failed). */
    async function initialStopped(failure: 'server' | 'unauthorized'): Promise<{ connection: ConnectionRecord; initialId: string }> {
      counter += 1;
      books.addAccount('A1', 'Account 1');
      books.addBill('B1', 100, '2026-01-15T00:00:00.000Z');
      const { connection } = await createConnection(
        app().db.pool,
        app().services.cipher,
        { organizationId: app().org.organization.id, environment: 'sandbox' },
        {
          platform: MEMORY_PLATFORM,
          name: null,
          credentials: { api_key: `w${counter}` },
          identity: { storeUniqueId: `waiting-${counter}`, storeName: 'Memory' },
          syncConfig: { historical_months: 0 },
          scope: null,
          marketplace: null,
          redirectUrl: null,
        },
      );
      const initial = await requestSync(app().db.pool, app().services.jobs, connection.id, { kind: 'initial', trigger: 'link', details: {} });
      books.failNext = { error: platformFailure(failure), type: 'bills', atPageToken: null };
      expect(await runSync(app().services, initial.id, signal)).toBe(failure === 'server' ? 'retry' : 'failed');
      return { connection, initialId: initial.id };
    }
    const jobsOf = async (runId: string) =>
      Number(
        (
          await app().db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'sync' AND data->>'syncRunId' = $1`, [
            runId,
          ])
        ).rows[0]?.n,
      );

    it('waits for it to complete (an initial run put back resumes past what it read), then runs with its job sent', async () => {
      const { connection, initialId } = await initialStopped('server');
      // The initial run read accounts already: a change to one must be read after it, not left to it.
      const followUp = await follow(connection, ['account']);
      const again = await follow(connection, ['bill']);
      expect(followUp).not.toBe(initialId);
      expect(again).toBe(followUp);
      expect((await queued(connection.id)).find((r) => r.id === followUp)?.request).toEqual({
        object_types: ['ACCOUNT', 'BILL'],
        after_initial: true,
      });
      expect(await jobsOf(followUp ?? '')).toBe(0);
      // Even with a job, it does not run before the initial sync completes.
      expect(await runSync(app().services, followUp ?? '', signal)).toBe('skipped');
      expect((await queued(connection.id)).map((r) => r.id)).toContain(followUp);

      expect(await runSync(app().services, initialId, signal)).toBe('completed');
      expect((await queued(connection.id)).find((r) => r.id === followUp)?.request).toEqual({ object_types: ['ACCOUNT', 'BILL'] });
      expect(await jobsOf(followUp ?? '')).toBe(1);
      expect(await runSync(app().services, followUp ?? '', signal)).toBe('completed');
    });

    it('is cancelled with an initial sync that fails, so none waits forever and the retry can be scheduled', async () => {
      const { connection, initialId } = await initialStopped('server');
      const followUp = await follow(connection, ['account']);
      books.failNext = { error: platformFailure('unauthorized'), type: 'bills', atPageToken: null };
      expect(await runSync(app().services, initialId, signal)).toBe('failed');
      const run = await app().db.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE id = $1', [followUp]);
      expect(run.rows[0]?.status).toBe('cancelled');
      expect(await queued(connection.id)).toEqual([]);
      // With the initial sync failed, nothing is under way to wait for: nothing is queued.
      expect(await follow(connection, ['bill'])).toBeNull();
    });
  });
});

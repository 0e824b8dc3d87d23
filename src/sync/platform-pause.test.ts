/**
 * A long Retry-After (Xero's daily limit: about 11 hours) pauses the
 * connection's platform calls: the sync run is queued again for the end of the
 * pause instead of being retried on the job queue's schedule, no run calls the
 * platform before then, the status endpoint says until when, and the run
 * resumes from its saved page afterwards.
 */
import { describe, expect, it } from 'vitest';
import { accessTokenOf, createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import { PlatformError } from '../platforms/errors.ts';
import { clientHeaders } from '../../test/support/app.ts';
import { books, MEMORY_PLATFORM, memoryPlatformApp } from '../../test/support/memory-platform.ts';
import { pauseFor } from '../connections/platform-pause.ts';
import { DailyBudgetSpent } from '../platforms/daily-budget.ts';
import { requestSync } from './requests.ts';
import { runSync } from './runner.ts';
import { enqueueDueSyncs } from './worker.ts';

const app = memoryPlatformApp();

const signal = new AbortController().signal;
const ELEVEN_HOURS_MS = 11 * 3600_000;
let counter = 0;

async function connect(): Promise<ConnectionRecord> {
  counter += 1;
  const { connection } = await createConnection(
    app().db.pool,
    app().services.cipher,
    { organizationId: app().org.organization.id, environment: 'sandbox' },
    {
      platform: MEMORY_PLATFORM,
      name: null,
      credentials: { api_key: `p${counter}` },
      identity: { storeUniqueId: `pause-${counter}`, storeName: 'Memory' },
      syncConfig: { historical_months: 0 },
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  return connection;
}

const dailyLimit = () => new PlatformError({ kind: 'rate_limited', httpStatus: 429, message: 'Daily limit exceeded', retryAfterMs: ELEVEN_HOURS_MS });

async function statusOf(c: ConnectionRecord): Promise<{ platform_pause: { paused_until: string; reason: string } | null }> {
  const response = await app().app.inject({
    method: 'GET',
    url: `/versioned/connections/status?access_token=${accessTokenOf(app().services.cipher, c)}`,
    headers: clientHeaders(app().org),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ status: { platform_pause: { paused_until: string; reason: string } | null } }>().status;
}

describe('platform pauses', () => {
  it('only a Retry-After longer than the HTTP client waits out itself asks for one', () => {
    expect(pauseFor(dailyLimit(), 0)?.until.getTime()).toBe(ELEVEN_HOURS_MS);
    expect(pauseFor(new PlatformError({ kind: 'rate_limited', httpStatus: 429, message: 'slow down', retryAfterMs: 30_000 }))).toBeNull();
    expect(pauseFor(new PlatformError({ kind: 'rate_limited', httpStatus: 429, message: 'slow down' }))).toBeNull();
    expect(pauseFor(new PlatformError({ kind: 'server', httpStatus: 503, message: 'down', retryAfterMs: ELEVEN_HOURS_MS }))).toBeNull();
  });

  it('a spent daily budget asks for one until its window ends, however soon', () => {
    const resetsAt = new Date(Date.now() + 30_000);
    const pause = pauseFor(new DailyBudgetSpent('XERO', 5000, resetsAt));
    expect(pause).toMatchObject({ until: resetsAt, cause: 'daily_budget' });
    expect(pause?.reason).toContain('daily budget of 5000 XERO calls is spent');
  });

  it('a daily limit met mid-sync queues the run for the end of the pause, calls nothing before it, and resumes where it stopped', async () => {
    for (let i = 1; i <= 3; i++) books.addAccount(`A${i}`, `Account ${i}`);
    for (let i = 1; i <= 4; i++) books.addBill(`B${i}`, 10 * i, '2026-03-01T00:00:00.000Z');
    const c = await connect();
    expect((await statusOf(c)).platform_pause).toBeNull();
    books.failNext = { error: dailyLimit(), type: 'bills', atPageToken: null };
    const run = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'initial', trigger: 'api', details: {} });
    expect(await runSync(app().services, run.id, signal)).toBe('paused');

    const row = await app().db.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM sync_runs WHERE id = $1', [run.id]);
    expect(row.rows[0]).toEqual({ status: 'queued', attempts: 0 });
    const jobs = await app().db.pool.query<{ hours: number }>(
      `SELECT (extract(epoch FROM start_after - now()) / 3600)::float8 AS hours FROM pgboss.job WHERE data->>'syncRunId' = $1 AND state = 'created' AND start_after > now()`,
      [run.id],
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]?.hours).toBeGreaterThan(10.9);
    const { platform_pause: pause } = await statusOf(c);
    expect(Date.parse(pause?.paused_until ?? '') - Date.now()).toBeGreaterThan(ELEVEN_HOURS_MS - 60_000);
    expect(pause?.reason).toContain('Retry-After');
    expect(pause?.reason).toContain('Daily limit exceeded');

    // Run early (another worker, a manual request): it is put off again without a platform call.
    books.reads = [];
    expect(await runSync(app().services, run.id, signal)).toBe('paused');
    expect(books.reads).toEqual([]);

    await app().db.pool.query(`UPDATE platform_pauses SET paused_until = now() - interval '1 second' WHERE connection_id = $1`, [c.id]);
    expect((await statusOf(c)).platform_pause).toBeNull();
    expect(await runSync(app().services, run.id, signal)).toBe('completed');
    // Accounts were read before the limit: only bills are read after it.
    expect(new Set(books.reads.map((r) => r.type))).toEqual(new Set(['bills']));
    const stored = await app().db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND deleted_at IS NULL`,
      [c.id],
    );
    expect(stored.rows[0]?.n).toBe(7);
  });

  it('the scheduler queues no sync for a paused connection', async () => {
    books.addAccount('A1', 'Account 1');
    const paused = await connect();
    const running = await connect();
    for (const c of [paused, running]) {
      const run = await requestSync(app().db.pool, app().services.jobs, c.id, { kind: 'initial', trigger: 'api', details: {} });
      expect(await runSync(app().services, run.id, signal)).toBe('completed');
    }
    await app().db.pool.query(`INSERT INTO platform_pauses (connection_id, paused_until, reason) VALUES ($1, now() + interval '11 hours', 'test')`, [
      paused.id,
    ]);
    await enqueueDueSyncs(app().services, new Date(Date.now() + 3 * 3600_000));
    const queued = await app().db.pool.query<{ connection_id: string }>(
      `SELECT connection_id FROM sync_runs WHERE status = 'queued' AND connection_id = ANY($1::uuid[])`,
      [[paused.id, running.id]],
    );
    expect(queued.rows.map((r) => r.connection_id)).toEqual([running.id]);
  });
});

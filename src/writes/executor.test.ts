/**
 * The executor's promises, against an in-memory platform whose failures the
 * test chooses: an indeterminate create (applied, then 500) is looked up
 * before anything is sent again and never made twice; a create that cannot be
 * looked up fails rather than risk a second copy; 429s are retried; final
 * platform errors fail the job with the platform's message; a 401 marks the
 * connection needs_reauth; a worker that died mid-call leaves a job the next
 * attempt treats as indeterminate.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessTokenOf, createConnection } from '../connections/connections.ts';
import type { ConnectionRecord } from '../connections/types.ts';
import type { Connector, PlatformRecord, WriteContext } from '../platforms/connector.ts';
import { PlatformError } from '../platforms/errors.ts';
import { getConnector, registerConnector } from '../platforms/registry.ts';
import { lockFollowUpRequests } from '../sql/sync-locks.ts';
import { claimWriteJob, loadWriteJob, type WriteJob } from '../sql/write-jobs.ts';
import { clientHeaders, errorBody, startTestApp, type TestApp } from '../../test/support/app.ts';
import { requestSync } from '../sync/requests.ts';
import { runSync } from '../sync/runner.ts';
import { acceptWrite } from './accept.ts';
import { executeWriteJob, MAX_WRITE_ATTEMPTS } from './executor.ts';

type Failure =
  'none' | 'applied_then_500' | 'rate_limited_once' | 'rate_limited_always' | 'long_retry_after_once' | 'bad_request' | 'unauthorized' | 'always_503';

/** The platform: records by id, the key each was created with, and how the next creates behave. */
const platform = {
  records: new Map<string, { key: string; memo: unknown }>(),
  creates: 0,
  lookups: 0,
  failure: 'none' as Failure,
  failed: 0,
  /** Retry-After of long_retry_after_once: a spent daily limit by default (Xero answers about 11 hours). */
  longRetryAfterMs: 11 * 3600_000,
};

function fail(kind: PlatformError['kind'], status: number, message: string): PlatformError {
  return new PlatformError({ kind, httpStatus: status, message, requestSent: true });
}

function memoryConnector(id: string, options: { findCreated: boolean }): Connector {
  const toRecord = (platformId: string): PlatformRecord => ({ platformId, raw: { Id: platformId, Memo: platform.records.get(platformId)?.memo } });
  return {
    id,
    name: id,
    kind: 'accounting',
    auth: { type: 'credentials', fields: [{ field: 'api_key', label: 'Key', required: true, secret: true }] },
    identify: () => Promise.resolve({ storeUniqueId: `${id}-${randomUUID()}`, storeName: null }),
    limits: { requestsPerMinute: null, concurrentRequests: null },
    objects: {
      bill: {
        capabilities: {
          read: true,
          incremental: 'none',
          deletions: 'full_listing',
          filter: false,
          fetchByPlatformId: false,
          create: true,
          update: false,
          delete: false,
        },
        handler: {
          read: () => Promise.resolve({ records: [...platform.records.keys()].map(toRecord), nextPageToken: null }),
          map: (record) => ({ memo: record.raw.Memo ?? null }),
          create(ctx: WriteContext, input) {
            platform.creates += 1;
            const { failure } = platform;
            if ((failure === 'rate_limited_once' && platform.failed === 0) || failure === 'rate_limited_always') {
              platform.failed += 1;
              return Promise.reject(new PlatformError({ kind: 'rate_limited', httpStatus: 429, message: 'slow down', retryAfterMs: 10 }));
            }
            if (failure === 'long_retry_after_once' && platform.failed === 0) {
              platform.failed += 1;
              return Promise.reject(
                new PlatformError({
                  kind: 'rate_limited',
                  httpStatus: 429,
                  message: 'Daily limit exceeded',
                  retryAfterMs: platform.longRetryAfterMs,
                }),
              );
            }
            if (failure === 'bad_request') return Promise.reject(fail('bad_request', 400, 'Memo is too long for this ledger'));
            if (failure === 'unauthorized') return Promise.reject(fail('unauthorized', 401, 'token revoked'));
            if (failure === 'always_503') return Promise.reject(fail('server', 503, 'down'));
            const platformId = `B-${randomUUID()}`;
            platform.records.set(platformId, { key: ctx.idempotencyKey, memo: input.memo });
            if (failure === 'applied_then_500' && platform.failed === 0) {
              platform.failed += 1;
              return Promise.reject(fail('server', 500, 'saved, but the answer was lost'));
            }
            return Promise.resolve(toRecord(platformId));
          },
          ...(options.findCreated
            ? {
                findCreated(ctx: WriteContext) {
                  platform.lookups += 1;
                  const found = [...platform.records].find(([, r]) => r.key === ctx.idempotencyKey);
                  return Promise.resolve(found === undefined ? null : toRecord(found[0]));
                },
              }
            : {}),
        },
      },
    },
  };
}

let t: TestApp;
const connections: Record<'checked' | 'unchecked', ConnectionRecord | null> = { checked: null, unchecked: null };

async function connectionFor(platformId: string): Promise<ConnectionRecord> {
  const { connection } = await createConnection(
    t.db.pool,
    t.services.cipher,
    { organizationId: t.org.organization.id, environment: 'sandbox' },
    {
      platform: platformId,
      name: null,
      credentials: { api_key: 'k' },
      identity: { storeUniqueId: randomUUID(), storeName: null },
      syncConfig: null,
      scope: null,
      marketplace: null,
      redirectUrl: null,
    },
  );
  await t.db.pool.query('UPDATE connections SET ready_at = now(), status = $2 WHERE id = $1', [connection.id, 'active']);
  return connection;
}

beforeAll(async () => {
  // The memory connector maps a memo only, enough to drive the executor: not a real mapping to hold to the unified schema.
  t = await startTestApp({ config: { strictMapping: false } });
  for (const [id, findCreated] of [
    ['MEMBOOKS', true],
    ['MEMBOOKS_NOLOOKUP', false],
  ] as const) {
    if (getConnector(id) === undefined) registerConnector(memoryConnector(id, { findCreated }));
  }
  connections.checked = await connectionFor('MEMBOOKS');
  connections.unchecked = await connectionFor('MEMBOOKS_NOLOOKUP');
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  platform.records.clear();
  platform.creates = 0;
  platform.lookups = 0;
  platform.failed = 0;
  platform.failure = 'none';
  platform.longRetryAfterMs = 11 * 3600_000;
});

async function acceptCreate(connection: ConnectionRecord | null, memo: string): Promise<string> {
  if (connection === null) throw new Error('no connection');
  const { job } = await acceptWrite(t.db.pool, t.services.jobs, {
    tenant: { organizationId: t.org.organization.id, environment: 'sandbox' },
    connectionId: connection.id,
    objectType: 'bill',
    operation: 'create',
    targetId: null,
    idempotencyKey: null,
    request: { method: 'POST', path: '/versioned/accounting/bills', body: { bill: { memo } } },
  });
  return job.id;
}

const run = (jobId: string, rateLimitedSince: Date | null = null) =>
  executeWriteJob(t.services, jobId, new AbortController().signal, rateLimitedSince);

/** The error_message a finished job answered with. */
function messageOf(job: WriteJob | null): string {
  const body = job?.response?.body;
  return typeof body === 'object' && body !== null && 'error_message' in body ? String(body.error_message) : '';
}

/** The write queue's entries for a job that wait to start, with their data. */
async function queuedEntries(jobId: string): Promise<{ singleton_key: string | null; seconds: number; data: { rateLimitedSince?: string } }[]> {
  const result = await t.db.pool.query<{ singleton_key: string | null; seconds: number; data: { rateLimitedSince?: string } }>(
    `SELECT singleton_key, extract(epoch FROM start_after - now())::float8 AS seconds, data FROM pgboss.job
      WHERE name = 'write' AND data->>'jobId' = $1 AND state = 'created' AND start_after > now() ORDER BY created_on`,
    [jobId],
  );
  return result.rows;
}

async function eventCodes(jobId: string): Promise<string[]> {
  const result = await t.db.pool.query<{ code: string }>(
    `SELECT code FROM events WHERE payload->>'job_id' = $1 OR payload->'job'->>'id' = $1 ORDER BY created_at, id`,
    [jobId],
  );
  return result.rows.map((r) => r.code);
}

const WAITING_FOR_ADVISORY_LOCK = `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;

describe('write executor', () => {
  it('requests the follow-up sync in the transaction that completes the job: nobody sees the job done before its follow-up is queued', async () => {
    const connection = await connectionFor('MEMBOOKS');
    const jobId = await acceptCreate(connection, 'follow-up in the same transaction');
    // Hold the connection's follow-up lock, as a concurrent request would: the executor waits for it before the job is
    // seen completed. (Requested after the completing transaction, the job was completed while the request waited, and
    // a polled platform's session asking then was told nothing was left.)
    const holder = await t.db.pool.connect();
    await holder.query('BEGIN');
    await lockFollowUpRequests(holder, connection.id);
    const finishing = run(jobId);
    let statusWhileHeld: string | undefined;
    try {
      for (let waited = 0; (await t.db.pool.query(WAITING_FOR_ADVISORY_LOCK)).rowCount === 0; waited += 20) {
        if (waited > 30_000) throw new Error('the executor never waited for the follow-up lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      statusWhileHeld = (await loadWriteJob(t.db.pool, jobId))?.status;
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    expect(await finishing).toBe('done');
    expect(statusWhileHeld).toBe('in_progress');
    expect((await loadWriteJob(t.db.pool, jobId))?.status).toBe('completed');
    const runs = await t.db.pool.query(`SELECT 1 FROM sync_runs WHERE connection_id = $1 AND trigger = 'write'`, [connection.id]);
    expect(runs.rowCount).toBe(1);
  });

  it("a Retry-After too long to wait in place but within the write's rate-limit budget pauses the connection: the write waits for the pause's end in the queue, without spending an attempt", async () => {
    platform.failure = 'long_retry_after_once';
    platform.longRetryAfterMs = 90_000;
    const connection = await connectionFor('MEMBOOKS');
    const jobId = await acceptCreate(connection, 'after the pause');
    expect(await run(jobId)).toBe('paused');
    expect(await loadWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'pending', attempts: 0 });
    const pause = await t.db.pool.query<{ seconds: number }>(
      `SELECT extract(epoch FROM paused_until - now())::float8 AS seconds FROM platform_pauses WHERE connection_id = $1`,
      [connection.id],
    );
    expect(pause.rows[0]?.seconds).toBeGreaterThan(80);
    const queued = await queuedEntries(jobId);
    expect(queued.map((q) => q.singleton_key)).toEqual([`paused:${jobId}`]);
    expect(queued[0]?.seconds).toBeGreaterThan(80);
    // The entry carries when the job was first rate-limited: the budget counts from there.
    expect(queued[0]?.data.rateLimitedSince).toEqual(expect.any(String));
    // A queue entry that runs before the end (another one, a sweep) puts it off again without calling the platform.
    expect(await run(jobId)).toBe('paused');
    expect(platform.creates).toBe(1);
    // The pause ends: the write goes through.
    await t.db.pool.query(`UPDATE platform_pauses SET paused_until = now() - interval '1 second' WHERE connection_id = $1`, [connection.id]);
    expect(await run(jobId)).toBe('done');
    expect(platform.creates).toBe(2);
    expect(await loadWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('looks an indeterminate create up on the platform instead of sending it again', async () => {
    platform.failure = 'applied_then_500';
    const jobId = await acceptCreate(connections.checked, 'once');
    expect(await run(jobId)).toBe('retry');
    expect(await loadWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'pending', indeterminate: true, attempts: 1 });
    expect(await run(jobId)).toBe('done');
    expect(platform.creates).toBe(1);
    expect(platform.lookups).toBe(1);
    expect(platform.records.size).toBe(1);
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job).toMatchObject({ status: 'completed', attempts: 2 });
    const stored = await t.db.pool.query<{ id: string; data: { memo: string } }>(
      `SELECT id, data FROM records WHERE connection_id = $1 AND object_type = 'bill'`,
      [connections.checked?.id],
    );
    expect(stored.rows.map((r) => r.data.memo)).toEqual(['once']);
    expect(job?.resultId).toBe(stored.rows[0]?.id);
    expect(await eventCodes(jobId)).toEqual(['BILL_CREATED', 'JOB_COMPLETED']);
    // A finished job is never run again.
    expect(await run(jobId)).toBe('skipped');
  });

  it('fails an indeterminate create it cannot check, rather than risk a second copy', async () => {
    platform.failure = 'applied_then_500';
    const jobId = await acceptCreate(connections.unchecked, 'maybe');
    expect(await run(jobId)).toBe('retry');
    expect(await run(jobId)).toBe('done');
    expect(platform.creates).toBe(1);
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job?.status).toBe('failed');
    expect(job?.response?.status_code).toBe(550);
    expect(job?.response?.body).toMatchObject({ error_code: 'PLATFORM_ERROR', error_metadata: { indeterminate: true } });
    expect(await eventCodes(jobId)).toEqual(['JOB_COMPLETED']);
  });

  it('treats a job left in_progress by a dead worker as indeterminate, and creates once when the platform has nothing', async () => {
    const jobId = await acceptCreate(connections.checked, 'after crash');
    // The dead worker's claim: it may or may not have reached the platform.
    expect(await claimWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'in_progress', indeterminate: false });
    expect(await run(jobId)).toBe('done');
    expect(platform.lookups).toBe(1);
    expect(platform.creates).toBe(1);
    expect(await loadWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'completed', indeterminate: true, attempts: 2 });
  });

  it('makes a sync wait while a write whose worker died may be on the platform, so the write announces its own record', async () => {
    const connection = connections.checked;
    if (connection === null) throw new Error('no connection');
    platform.failure = 'applied_then_500';
    const jobId = await acceptCreate(connection, 'applied before the crash');
    // The worker sent it (the platform applied it) and died before its write-through.
    expect(await run(jobId)).toBe('retry');
    const sync = await requestSync(t.db.pool, t.services.jobs, connection.id, { kind: 'incremental', trigger: 'api', details: {} });
    expect(await runSync(t.services, sync.id, new AbortController().signal)).toBe('busy');
    const stored = () =>
      t.db.pool.query(`SELECT 1 FROM records WHERE connection_id = $1 AND object_type = 'bill' AND data->>'memo' = 'applied before the crash'`, [
        connection.id,
      ]);
    expect((await stored()).rowCount).toBe(0);
    // A job in_progress whose worker is alive (it holds the job lock) does not hold the sync up.
    expect(await run(jobId)).toBe('done');
    expect(await eventCodes(jobId)).toEqual(['BILL_CREATED', 'JOB_COMPLETED']);
    expect(await runSync(t.services, sync.id, new AbortController().signal)).toBe('completed');
    expect((await stored()).rowCount).toBe(1);
    const created = await t.db.pool.query<{ job_id: string | null }>(
      `SELECT payload->>'job_id' AS job_id FROM events WHERE connection_id = $1 AND code = 'BILL_CREATED' AND payload->'bill'->>'memo' = 'applied before the crash'`,
      [connection.id],
    );
    expect(created.rows).toEqual([{ job_id: jobId }]);
  });

  it('answers 452 at once when the Retry-After ends beyond the rate-limit budget (a spent daily limit), pausing the connection, and so does a write that meets the pause', async () => {
    platform.failure = 'long_retry_after_once';
    platform.longRetryAfterMs = 3600_000;
    const connection = await connectionFor('MEMBOOKS');
    const jobId = await acceptCreate(connection, 'over the daily limit');
    expect(await run(jobId)).toBe('done');
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job).toMatchObject({ status: 'failed', attempts: 1, indeterminate: false });
    expect(job?.response).toMatchObject({
      status_code: 452,
      body: {
        error_code: 'PLATFORM_RATE_LIMITED',
        error_metadata: { source: 'platform', human_readable: 'Daily limit exceeded' },
      },
    });
    expect(messageOf(job)).toMatch(/asks to wait 3600 s \(until \d{4}-\d\d-\d\dT[\d:.]+Z\); retry the write then/);
    expect(await eventCodes(jobId)).toContain('JOB_COMPLETED');
    expect(await queuedEntries(jobId)).toEqual([]);
    expect(platform.records.size).toBe(0);
    // Syncs and other writes still respect the platform's hour: the next write answers 452 without calling it.
    const next = await acceptCreate(connection, 'in the same hour');
    expect(await run(next)).toBe('done');
    expect(platform.creates).toBe(1);
    const refused = await loadWriteJob(t.db.pool, next);
    expect(refused?.response?.body).toMatchObject({ error_code: 'PLATFORM_RATE_LIMITED' });
    expect(messageOf(refused)).toMatch(/asks to wait 3\d{3} s/);
  });

  it('retries a 429 within the rate-limit budget on the queue backoff, and answers 452 once the next attempt would end beyond it', async () => {
    platform.failure = 'rate_limited_always';
    const jobId = await acceptCreate(connections.checked, 'throttled for good');
    expect(await run(jobId)).toBe('rate_limited');
    const [entry] = await queuedEntries(jobId);
    expect(entry?.singleton_key).toBe(`rate-limited:${jobId}:1`);
    const since = new Date(entry?.data.rateLimitedSince ?? 'missing');
    expect(Number.isNaN(since.getTime())).toBe(false);
    // First refused 119 s ago: the next attempt (2 s of backoff at least) would start beyond the 120 s budget.
    expect(await run(jobId, new Date(Date.now() - 119_000))).toBe('done');
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job).toMatchObject({ status: 'failed', attempts: 2 });
    expect(job?.response).toMatchObject({ status_code: 452, body: { error_code: 'PLATFORM_RATE_LIMITED' } });
    expect(platform.creates).toBe(2);
  });

  it('retries a 429 without marking the write indeterminate', async () => {
    platform.failure = 'rate_limited_once';
    const jobId = await acceptCreate(connections.checked, 'throttled');
    expect(await run(jobId)).toBe('rate_limited');
    expect(await loadWriteJob(t.db.pool, jobId)).toMatchObject({ status: 'pending', indeterminate: false });
    expect(await run(jobId)).toBe('done');
    expect(platform.lookups).toBe(0);
    expect(platform.records.size).toBe(1);
  });

  it('fails on a final platform error with the platform message kept, and announces the failure', async () => {
    platform.failure = 'bad_request';
    const jobId = await acceptCreate(connections.checked, 'x'.repeat(10));
    expect(await run(jobId)).toBe('done');
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job?.status).toBe('failed');
    expect(job?.response).toMatchObject({
      status_code: 450,
      body: { error_code: 'PLATFORM_BAD_REQUEST', error_metadata: { source: 'platform', human_readable: 'Memo is too long for this ledger' } },
    });
    const completed = await t.db.pool.query<{ payload: { job: { status: string } } }>(
      `SELECT payload FROM events WHERE code = 'JOB_COMPLETED' AND payload->'job'->>'id' = $1`,
      [jobId],
    );
    expect(completed.rows.map((r) => r.payload.job.status)).toEqual(['failure']);
  });

  it('gives up after the attempt limit on a platform that keeps failing', async () => {
    platform.failure = 'always_503';
    const jobId = await acceptCreate(connections.checked, 'never');
    const outcomes: string[] = [];
    for (let i = 0; i < MAX_WRITE_ATTEMPTS + 1; i++) outcomes.push(await run(jobId));
    expect(outcomes.slice(0, MAX_WRITE_ATTEMPTS - 1).every((o) => o === 'retry')).toBe(true);
    expect(outcomes.at(-1)).toBe('skipped');
    const job = await loadWriteJob(t.db.pool, jobId);
    expect(job?.status).toBe('failed');
    expect(job?.response?.body).toMatchObject({ error_code: 'PLATFORM_ERROR', error_metadata: { indeterminate: true } });
  });

  it('answers 404 over HTTP for writes the capability table of the platform does not offer', async () => {
    const token = accessTokenOf(t.services.cipher, connections.checked ?? (await connectionFor('MEMBOOKS')));
    const response = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/vendors?access_token=${token}`,
      headers: clientHeaders(t.org),
      payload: { vendor: { vendor_name: 'Nope' } },
    });
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
    const upload = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/bank_feeds/accounts/mapping_link?access_token=${token}`,
      headers: clientHeaders(t.org),
      payload: { mapping_link: { bank_feed_account_id: randomUUID() } },
    });
    expect(errorBody(upload).error_code).toBe('ENDPOINT_NOT_SUPPORTED_FOR_PLATFORM');
  });

  it('marks the connection needs_reauth on a 401 and fails the job with 451', async () => {
    const connection = await connectionFor('MEMBOOKS');
    platform.failure = 'unauthorized';
    const jobId = await acceptCreate(connection, 'denied');
    expect(await run(jobId)).toBe('done');
    expect((await loadWriteJob(t.db.pool, jobId))?.response?.status_code).toBe(451);
    const state = await t.db.pool.query<{ status: string }>('SELECT status FROM connections WHERE id = $1', [connection.id]);
    expect(state.rows[0]?.status).toBe('needs_reauth');
    const needsUpdate = await t.db.pool.query(`SELECT 1 FROM events WHERE connection_id = $1 AND code = 'CONNECTION_NEEDS_UPDATE'`, [connection.id]);
    expect(needsUpdate.rowCount).toBe(1);
    // Jobs still queued for it fail without calling the platform.
    platform.failure = 'none';
    const queued = await acceptCreate(connection, 'queued');
    expect(await run(queued)).toBe('done');
    expect((await loadWriteJob(t.db.pool, queued))?.response?.body).toMatchObject({ error_code: 'NEEDS_UPDATE' });
    expect(platform.creates).toBe(1);
  });
});

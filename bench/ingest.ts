/**
 * Ingest: records per second through the sync engine (read from the SANDBOX
 * platform, map, hash, compare with the stored copy, upsert what changed,
 * write its events), run by a real worker process, beside plain COPY of the
 * same rows into a bare table (no indexes, no constraints): the limit.
 *
 * Three syncs of one connection: the initial sync, an incremental one after 1%
 * of the platform's records changed, and an unchanged full resync, which must
 * write no row of the stored copy and fire no event.
 */
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConnection } from '../src/connections/connections.ts';
import type { ConnectionRecord } from '../src/connections/types.ts';
import type { Pool } from '../src/db/pool.ts';
import { connectorContext } from '../src/platforms/context.ts';
import { requestSync, type SyncKind } from '../src/sync/requests.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import type { Tenant } from '../src/tenants/types.ts';
import type { BenchContext } from './lib/context.ts';
import { ratio, round, timed } from './lib/stats.ts';

export interface SyncMeasure {
  seconds: number;
  recordsRead: number;
  recordsPerSecond: number;
  rowsWritten: number;
  events: number;
}

export interface IngestResult {
  platformRecords: number;
  materializeSeconds: number;
  initial: SyncMeasure;
  incremental: SyncMeasure & { changedOnPlatform: number };
  unchangedResync: SyncMeasure;
  copy: { seconds: number; rows: number; rowsPerSecond: number };
  initialVsCopy: number;
}

const PASSWORD = 'pass_good';

/** The transaction counter as xmin shows it (32 bits): rows a statement wrote later carry a larger xmin. */
async function xidNow(pool: Pool): Promise<number> {
  const result = await pool.query<{ xid: string }>(`SELECT (pg_current_xact_id()::text::bigint % 4294967296)::text AS xid`);
  return Number(result.rows[0]?.xid ?? 0);
}

async function count(pool: Pool, sql: string, params: unknown[]): Promise<number> {
  const result = await pool.query<{ n: number }>(sql, params);
  return result.rows[0]?.n ?? 0;
}

async function runSyncToEnd(bench: BenchContext, connectionId: string, kind: SyncKind): Promise<{ seconds: number }> {
  const { pool, jobs } = bench.runtime.services;
  const run = await requestSync(pool, jobs, connectionId, { kind, trigger: 'api', details: {} });
  const deadline = Date.now() + 900_000;
  for (;;) {
    const row = (
      await pool.query<{ status: string; error: string | null; seconds: number | null }>(
        `SELECT status, error, extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM sync_runs WHERE id = $1`,
        [run.id],
      )
    ).rows[0];
    if (row?.status === 'completed') return { seconds: row.seconds ?? 0 };
    if (row?.status === 'failed' || row?.status === 'cancelled') throw new Error(`${kind} sync ${row.status}: ${row.error ?? ''}`);
    if (Date.now() > deadline) throw new Error(`${kind} sync did not finish in 15 minutes`);
    await sleep(200);
  }
}

/** Measures one sync: its time, what it read, the stored-copy rows it wrote and the events it fired. */
async function measureSync(
  bench: BenchContext,
  connection: ConnectionRecord,
  kind: SyncKind,
  recordsRead: () => Promise<number>,
): Promise<SyncMeasure> {
  const { pool } = bench.runtime.services;
  const xid = await xidNow(pool);
  const marker = (await pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now;
  const { seconds } = await runSyncToEnd(bench, connection.id, kind);
  const read = await recordsRead();
  return {
    seconds: round(seconds, 1),
    recordsRead: read,
    recordsPerSecond: seconds === 0 ? 0 : Math.round(read / seconds),
    // Stored-copy rows inserted or updated by the run (each carries the writing transaction in xmin).
    rowsWritten: await count(pool, `SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND xmin::text::bigint >= $2`, [
      connection.id,
      xid,
    ]),
    events: await count(pool, `SELECT count(*)::int AS n FROM events WHERE connection_id = $1 AND created_at > $2 AND type <> 'CONNECTION'`, [
      connection.id,
      marker,
    ]),
  };
}

/**
 * Changes 1% of the platform's records the way the platform itself records a change: a new
 * UpdatedAt (which the unified updated_at maps from), the next change sequence number and a
 * change-log row, so the incremental read sees exactly these.
 */
async function changeOnePercent(pool: Pool, accountKey: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const state = (
      await client.query<{ id: number; seq: string }>(`SELECT id, seq::text FROM sandbox_platform.accounts_state WHERE account_key = $1 FOR UPDATE`, [
        accountKey,
      ])
    ).rows[0];
    if (state === undefined) throw new Error(`no sandbox account ${accountKey}`);
    const changed = await client.query<{ seq: string }>(
      `WITH picked AS (
         SELECT object_type, platform_id, row_number() OVER () AS n
           FROM sandbox_platform.records
          WHERE account_id = $1 AND deleted_at IS NULL AND (data::jsonb) ? 'UpdatedAt' AND random() < 0.01
       ), touched AS (
         UPDATE sandbox_platform.records r
            SET data = (r.data::jsonb || jsonb_build_object('UpdatedAt', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))::json,
                seq = $2::bigint + p.n, version = r.version + 1, updated_at = clock_timestamp()
           FROM picked p
          WHERE r.account_id = $1 AND r.object_type = p.object_type AND r.platform_id = p.platform_id
         RETURNING r.object_type, r.platform_id, r.seq
       )
       INSERT INTO sandbox_platform.change_log (account_id, seq, tick, object_type, platform_id, op, at)
       SELECT $1, t.seq, 0, t.object_type, t.platform_id, 'updated', clock_timestamp() FROM touched t
       RETURNING seq::text`,
      [state.id, state.seq],
    );
    const last = changed.rows.reduce((max, row) => Math.max(max, Number(row.seq)), Number(state.seq));
    await client.query('UPDATE sandbox_platform.accounts_state SET seq = $2 WHERE id = $1', [state.id, last]);
    await client.query('COMMIT');
    return changed.rows.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Server-side COPY of the connection's stored rows out to a file and back into a bare table of the same columns. */
async function copyLimit(pool: Pool, connectionId: string): Promise<IngestResult['copy']> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-bench-'));
  // The PostgreSQL server process (the postgres user, when run as root) writes and reads the file.
  await chmod(dir, 0o777);
  const file = path.join(dir, 'records.copy');
  try {
    await pool.query('DROP TABLE IF EXISTS bench_copy');
    await pool.query('CREATE TABLE bench_copy (LIKE records)');
    await pool.query(`COPY (SELECT * FROM records WHERE connection_id = '${connectionId}') TO '${file}'`);
    const { result, ms } = await timed(() => pool.query(`COPY bench_copy FROM '${file}'`));
    const rows = result.rowCount ?? 0;
    return { seconds: round(ms / 1000, 1), rows, rowsPerSecond: Math.round(rows / (ms / 1000)) };
  } finally {
    await pool.query('DROP TABLE IF EXISTS bench_copy');
    await rm(dir, { recursive: true, force: true });
  }
}

export async function ingestBench(
  bench: BenchContext,
  records: number,
  log: (m: string) => void,
): Promise<{ connectionId: string; result: IngestResult }> {
  const { pool, cipher } = bench.runtime.services;
  const org = await createOrganization(pool, cipher, 'Bench: ingest');
  const tenant: Tenant = { organizationId: org.organization.id, environment: 'sandbox' };
  const accountKey = `user_bench_ingest_size_${records}`;
  const credentials = { basic_username: accountKey, basic_password: PASSWORD };
  const { sandbox } = bench.runtime;
  if (sandbox === null) throw new Error('the ingest benchmark needs SANDBOX (SANDBOX_ENABLED)');
  const { connector, platform } = sandbox;
  const probe = connectorContext({ connector, connectionId: 'probe', credentials, tokens: null, environment: 'sandbox', db: pool });
  const identity = await connector.identify(probe);
  const { connection } = await createConnection(pool, cipher, tenant, {
    platform: 'SANDBOX',
    name: null,
    credentials,
    identity,
    syncConfig: { historical_months: 0 },
    scope: null,
    marketplace: null,
    redirectUrl: null,
  });

  log(`ingest: materializing the ${records}-record sandbox`);
  const made = await timed(() => platform.materialize(accountKey));
  const platformRecords = made.result?.records ?? 0;
  const stored = (): Promise<number> =>
    count(pool, 'SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND deleted_at IS NULL', [connection.id]);

  log('ingest: initial sync');
  const initial = await measureSync(bench, connection, 'initial', stored);
  log(`ingest: initial ${initial.recordsRead} records in ${initial.seconds} s`);
  const changed = await changeOnePercent(pool, accountKey);
  log(`ingest: incremental sync after ${changed} platform changes`);
  const incremental = await measureSync(bench, connection, 'incremental', () => Promise.resolve(changed));
  log('ingest: unchanged full resync');
  const unchangedResync = await measureSync(bench, connection, 'initial', stored);
  log('ingest: COPY of the same rows');
  const copy = await copyLimit(pool, connection.id);
  return {
    connectionId: connection.id,
    result: {
      platformRecords,
      materializeSeconds: round(made.ms / 1000, 1),
      initial,
      incremental: { ...incremental, changedOnPlatform: changed },
      unchangedResync,
      copy,
      initialVsCopy: ratio(initial.recordsPerSecond, copy.rowsPerSecond),
    },
  };
}

/**
 * `node bench/platform-limits.ts`: what the shared platform limits (src/platforms/shared-limits.ts) cost, on the
 * benchmark's embedded PostgreSQL (fsync and synchronous_commit on, as `npm start` runs it):
 *  1. one session taking from one connection's meter, one take after another: latency of the statement each
 *     platform call now pays, with every limit declared (rate, daily budget, cost bucket) and with the budget alone,
 *     against a bare `SELECT 1` round trip and against the in-process limiter it replaces for the rate;
 *  2. the same with the table LOGGED, as it is not (migration 0026 makes it UNLOGGED: no WAL flush per take), to
 *     weigh that against keeping the counts through a crash of PostgreSQL;
 *  3. BENCH_LIMITS_SESSIONS sessions taking from ONE meter at once (every process calling one connection): the
 *     row lock serialises them, so this is the most calls a second one connection can take across all processes;
 *  4. the same sessions on one meter each (many connections): what the table takes in total.
 * Figures are printed and saved to bench/results/platform-limits.json, never asserted: the machine may be shared.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPool, type Pool } from '../src/db/pool.ts';
import { createLimiter } from '../src/platforms/limiter.ts';
import { takePlatformCall, type MeterKey, type MeterLimits } from '../src/sql/take-platform-call.ts';
import { openBenchContext } from './lib/context.ts';
import { numberFromEnv } from './lib/env.ts';
import { ROOT } from './lib/processes.ts';
import { percentile, round } from './lib/stats.ts';

const settings = {
  takes: numberFromEnv('BENCH_LIMITS_TAKES', 3_000),
  sessions: numberFromEnv('BENCH_LIMITS_SESSIONS', 8),
};

const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

/** Xero's limits as declared, with a cost bucket on top: every part of the statement does its work. */
const EVERY_LIMIT: MeterLimits = { rate: { intervalMs: 1, burst: 1 }, dailyCalls: 100_000_000, bucket: { size: 1e9, refillPerSecond: 1e6, cost: 1 } };
const BUDGET_ONLY: MeterLimits = { rate: null, dailyCalls: 100_000_000, bucket: null };

interface Latency {
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
}

function summarise(samples: number[], elapsedMs: number): Latency {
  return {
    p50Ms: round(percentile(samples, 50), 3),
    p99Ms: round(percentile(samples, 99), 3),
    perSecond: Math.round((samples.length / elapsedMs) * 1000),
  };
}

/** `count` runs of `work` per session, sessions side by side; the latency of each run. */
async function measure(sessions: number, count: number, work: (session: number) => Promise<unknown>): Promise<Latency> {
  const samples: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async (_, session) => {
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await work(session);
        samples.push(performance.now() - t0);
      }
    }),
  );
  return summarise(samples, performance.now() - started);
}

async function connections(pool: Pool, count: number): Promise<MeterKey[]> {
  const org = await pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Platform limits bench') RETURNING id`);
  const keys: MeterKey[] = [];
  for (let i = 0; i < count; i++) {
    const n = `${Date.now()}-${i}`;
    const row = await pool.query<{ id: string }>(
      `INSERT INTO connections (organization_id, environment, access_token_sha256, access_token_ciphertext, link_token_sha256, link_token_ciphertext)
       VALUES ($1, 'sandbox', sha256(convert_to('at' || $2, 'UTF8')), '\\x00'::bytea, sha256(convert_to('lk' || $2, 'UTF8')), '\\x00'::bytea) RETURNING id`,
      [org.rows[0]?.id, n],
    );
    keys.push({ connectionId: row.rows[0]?.id ?? '', scope: '' });
  }
  return keys;
}

/** The in-process token bucket's acquire and release, as it paced the rate before. */
async function inProcessLimiter(count: number): Promise<Latency> {
  const limiter = createLimiter({ requestsPerMinute: 1e9, concurrentRequests: 5 }, { now: Date.now, sleep: () => Promise.resolve() });
  return measure(1, count, async () => {
    (await limiter.acquire())();
  });
}

const bench = await openBenchContext(log);
const pool = createPool(bench.runtime.databaseUrl, { max: settings.sessions, applicationName: 'bench-platform-limits' });
try {
  const keys = await connections(pool, settings.sessions);
  const one = keys[0];
  if (one === undefined) throw new Error('no connection');
  const postgres = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
  // Warm the pool's sessions and the statement's plan.
  await measure(settings.sessions, 50, (s) => takePlatformCall(pool, keys[s] ?? one, EVERY_LIMIT));

  log('one session, one meter');
  const roundTrip = await measure(1, settings.takes, () => pool.query('SELECT 1'));
  const everyLimit = await measure(1, settings.takes, () => takePlatformCall(pool, one, EVERY_LIMIT));
  const budgetOnly = await measure(1, settings.takes, () => takePlatformCall(pool, one, BUDGET_ONLY));
  const inProcess = await inProcessLimiter(settings.takes);

  log(`${settings.sessions} sessions, one meter / one meter each`);
  const oneMeter = await measure(settings.sessions, Math.ceil(settings.takes / settings.sessions), () => takePlatformCall(pool, one, EVERY_LIMIT));
  const manyMeters = await measure(settings.sessions, Math.ceil(settings.takes / settings.sessions), (s) =>
    takePlatformCall(pool, keys[s] ?? one, EVERY_LIMIT),
  );

  log('the same, LOGGED');
  await pool.query('ALTER TABLE platform_call_meters SET LOGGED');
  const logged = await measure(1, settings.takes, () => takePlatformCall(pool, one, EVERY_LIMIT));
  const loggedOneMeter = await measure(settings.sessions, Math.ceil(settings.takes / settings.sessions), () =>
    takePlatformCall(pool, one, EVERY_LIMIT),
  );
  await pool.query('ALTER TABLE platform_call_meters SET UNLOGGED');

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '?', postgres },
    settings,
    selectOneRoundTrip: roundTrip,
    takeEveryLimit: everyLimit,
    takeBudgetOnly: budgetOnly,
    inProcessLimiter: inProcess,
    oneMeterConcurrent: oneMeter,
    meterPerSessionConcurrent: manyMeters,
    loggedTake: logged,
    loggedOneMeterConcurrent: loggedOneMeter,
  };
  const lines = [
    ['SELECT 1 round trip', roundTrip],
    ['take, every limit', everyLimit],
    ['take, budget only', budgetOnly],
    ['in-process limiter (before)', inProcess],
    [`take, ${settings.sessions} sessions on one meter`, oneMeter],
    [`take, ${settings.sessions} sessions, a meter each`, manyMeters],
    ['take, LOGGED table', logged],
    [`take, LOGGED table, ${settings.sessions} sessions on one meter`, loggedOneMeter],
  ] as const;
  for (const [name, l] of lines)
    process.stdout.write(
      `${name.padEnd(44)} p50 ${String(l.p50Ms).padStart(7)} ms  p99 ${String(l.p99Ms).padStart(7)} ms  ${String(l.perSecond).padStart(7)}/s\n`,
    );
  const dir = path.join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'platform-limits.json'), `${JSON.stringify(result, null, 2)}\n`);
  log('saved bench/results/platform-limits.json');
} finally {
  await pool.end();
  await bench.close();
}

/**
 * The benchmark's own Ledgerport installation: the zero-config default that
 * `npm start` gives (embedded PostgreSQL, data in one directory), started
 * fresh in bench/data. The benchmark process opens it through the service's own
 * runtime (migrations, first-start secrets, job queues); the processes it
 * measures are children that attach to the same embedded PostgreSQL.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startRuntime, type Runtime } from '../../src/runtime.ts';
import { ROOT } from './processes.ts';

export const BENCH_DATA_DIR = path.join(ROOT, 'bench', 'data');
// BENCH_POSTGRES_PORT: another port, when another checkout runs a benchmark on the same machine.
const POSTGRES_PORT = process.env.BENCH_POSTGRES_PORT ?? '54410';

export interface BenchContext {
  runtime: Runtime;
  /** Environment for child processes of the service: same data directory, same database, same key. */
  childEnv(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** Settings shared by every process of the run. */
function baseEnv(): Record<string, string> {
  return {
    DATA_DIR: BENCH_DATA_DIR,
    EMBEDDED_POSTGRES_PORT: POSTGRES_PORT,
    DATABASE_URL: '',
    REDIS_URL: '',
    ADMIN_TOKEN: 'bench-admin-token',
    // Request logs off for both servers being compared; warnings and errors still print.
    LOG_LEVEL: 'warn',
    // The benchmark moves the sandbox's time itself; no background ticks during a measurement.
    SANDBOX_TICK_INTERVAL_SECONDS: '0',
    // Raised for the run: the read benchmark measures serving, not the limit's 429s (the limit is still counted per request).
    RATE_LIMIT_PER_WINDOW: '1000000000',
  };
}

export async function openBenchContext(log: (message: string) => void): Promise<BenchContext> {
  // As root the cluster may live outside DATA_DIR (src/db/embedded.ts); a fresh run removes it too.
  const pointer = path.join(BENCH_DATA_DIR, 'postgres-location');
  if (existsSync(pointer)) await rm((await readFile(pointer, 'utf8')).trim(), { recursive: true, force: true });
  await rm(BENCH_DATA_DIR, { recursive: true, force: true });
  const env = baseEnv();
  const config = loadConfig({ ...process.env, ...env });
  const runtime = await startRuntime({ log, config: { ...config, databasePools: { ...config.databasePools, api: 8, worker: 8 } }, schedule: false });
  return {
    runtime,
    childEnv: (extra = {}) => ({ ...env, ...extra }),
    close: () => runtime.close(),
  };
}

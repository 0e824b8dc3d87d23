/**
 * What the API request log costs on the read path (issue 33, item 4): two API processes on one PostgreSQL, one with
 * the log (REQUEST_LOG_ENABLED=true, the default) and one without, each serving first pages of 50 customers to the
 * same clients, measured in turns (off, on, off, on, …) so the shared machine's drift hits both alike. Reports
 * requests per second, p50/p99, and the API process's CPU time per 1,000 requests, and checks that the log got
 * every request of the logging process.
 *
 * `node bench/request-log.ts` (about 2 minutes; BENCH_REQUEST_LOG_SECONDS, BENCH_REQUEST_LOG_ROUNDS). Only 127.0.0.1.
 * Writes bench/results/request-log.json. Figures, not assertions: the machine is shared.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime.ts';
import { organizationWithCustomers } from './lib/customers.ts';
import { combine, load, type LoadResult } from './lib/load.ts';
import { ROOT, spawnNode, waitForOk, type Child } from './lib/processes.ts';

const SECONDS = Number(process.env.BENCH_REQUEST_LOG_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_REQUEST_LOG_ROUNDS ?? 4);
const CLIENTS = 8;
const VERSION = '2024-08-31';
const PORTS = { off: 18431, on: 18432 } as const;

async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

interface Side {
  runs: LoadResult[];
  cpuSeconds: number;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-request-log-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: process.env.BENCH_POSTGRES_PORT ?? '54431',
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN: 'bench-admin-token',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SANDBOX_TICK_INTERVAL_SECONDS: '0',
    RATE_LIMIT_PER_WINDOW: '1000000000',
  };
  const log = (message: string): void => {
    process.stdout.write(`${message}\n`);
  };
  const runtime = await startRuntime({ log, config: loadConfig({ ...process.env, ...env }) });
  const children: Child[] = [];
  try {
    const owner = await organizationWithCustomers(runtime, 'request-log', 1000);
    const { client_id, client_secret } = owner.org.credentials.sandbox;
    const headers = { authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`, 'x-service-version': VERSION };
    const paths = [`/versioned/accounting/customers?access_token=${owner.token}&limit=50`];
    const start = (side: keyof typeof PORTS): Child => {
      const child = spawnNode('src/main.ts', ['--role=api'], {
        ...env,
        PORT: String(PORTS[side]),
        HOST: '127.0.0.1',
        REQUEST_LOG_ENABLED: side === 'on' ? 'true' : 'false',
      });
      children.push(child);
      return child;
    };
    const apis = { off: start('off'), on: start('on') };
    for (const side of ['off', 'on'] as const) await waitForOk(`http://127.0.0.1:${PORTS[side]}/healthz`, apis[side], performance.now());
    const sides: Record<'off' | 'on', Side> = { off: { runs: [], cpuSeconds: 0 }, on: { runs: [], cpuSeconds: 0 } };
    for (const side of ['off', 'on'] as const) await load(`http://127.0.0.1:${PORTS[side]}`, { paths, headers, connections: CLIENTS, seconds: 3 });
    const loggedBefore = Number((await runtime.services.pool.query<{ n: string }>('SELECT count(*) AS n FROM request_logs')).rows[0]?.n ?? 0);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const before = await cpuSeconds(apis[side].child.pid);
        const result = await load(`http://127.0.0.1:${PORTS[side]}`, { paths, headers, connections: CLIENTS, seconds: SECONDS });
        sides[side].cpuSeconds += (await cpuSeconds(apis[side].child.pid)) - before;
        sides[side].runs.push(result);
        log(`round ${round + 1} log ${side}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
      }
    }
    // The last batch is written within a flush interval.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const logged =
      Number((await runtime.services.pool.query<{ n: string }>('SELECT count(*) AS n FROM request_logs')).rows[0]?.n ?? 0) - loggedBefore;
    const summary = (side: 'off' | 'on') => {
      const all = combine(sides[side].runs, SECONDS * ROUNDS);
      return { ...all, cpuMsPer1000Requests: Math.round((sides[side].cpuSeconds * 1000 * 1000) / Math.max(all.requests, 1)) };
    };
    const result = {
      date: new Date().toISOString(),
      clients: CLIENTS,
      seconds: SECONDS,
      rounds: ROUNDS,
      path: '/versioned/accounting/customers?limit=50 (1,000 customers)',
      off: summary('off'),
      on: summary('on'),
      rowsLogged: logged,
    };
    log(JSON.stringify(result, null, 2));
    await writeFile(path.join(ROOT, 'bench', 'results', 'request-log.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const child of children) await child.stop();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

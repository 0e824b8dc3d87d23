/**
 * `npm run bench`: every benchmark of issue 10 in one run on this machine,
 * printed as a table of results against their targets and saved to
 * bench/results/<date>.json. Sizes can be reduced for a quick try:
 *   BENCH_RECORDS=100000 BENCH_SECONDS=5 npm run bench
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { emptyStarts, measureStart } from './footprint.ts';
import { ingestBench } from './ingest.ts';
import { openBenchContext, BENCH_DATA_DIR } from './lib/context.ts';
import { ROOT, spawnNode } from './lib/processes.ts';
import { readBench } from './read.ts';
import { formatReport, type BenchReport } from './report.ts';
import { webhookBench } from './webhooks.ts';

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const settings = {
  records: numberFromEnv('BENCH_RECORDS', 1_000_000),
  seconds: numberFromEnv('BENCH_SECONDS', 15),
  clients: numberFromEnv('BENCH_CLIENTS', 50),
  webhookBurst: numberFromEnv('BENCH_WEBHOOKS', 10_000),
};
const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

const emptyStart = await emptyStarts(3, log);
const bench = await openBenchContext(log);
let closed = false;
try {
  const postgres = (await bench.runtime.services.pool.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
  const worker = spawnNode('src/main.ts', ['--role=worker'], bench.childEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' }));
  let ingest;
  let webhooks;
  try {
    ingest = await ingestBench(bench, settings.records, log);
    webhooks = await webhookBench(bench, { burst: settings.webhookBurst, steadyRate: 200, steadySeconds: 10 }, log);
  } finally {
    await worker.stop();
  }
  const reads = await readBench(bench, ingest.connectionId, { clients: settings.clients, seconds: settings.seconds }, log);
  const storedRecords = (await bench.runtime.services.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records')).rows[0]?.n ?? 0;
  await bench.close();
  closed = true;
  log(`footprint: start on the loaded data dir (${storedRecords} stored records)`);
  const loadedStart = await measureStart(bench.childEnv({ ENCRYPTION_KEY: '' }), 5);

  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '?',
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      postgres: `${postgres} (embedded)`,
    },
    settings,
    ingest: ingest.result,
    reads,
    webhooks,
    footprint: { emptyStart, loadedStart: { ...loadedStart, storedRecords } },
    totalSeconds: Math.round((performance.now() - began) / 1000),
  };
  const file = path.join(ROOT, 'bench', 'results', `${report.date.slice(0, 10)}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `\n${formatReport(report)}\n\nSaved ${path.relative(ROOT, file)}; the run took ${report.totalSeconds} s. Data: ${path.relative(ROOT, BENCH_DATA_DIR)} (deleted by the next run).\n`,
  );
} finally {
  if (!closed) await bench.close();
}

/**
 * `node bench/tracing-cost.ts`: what OpenTelemetry traces cost on the read path (issue 33). Two API processes
 * (`src/main.ts --role=api`) on the benchmark's installation serve the same read, GET /versioned/accounting/bills
 * ?limit=50 of a synced SANDBOX connection: one with traces off (no OTEL_EXPORTER_OTLP_ENDPOINT, as by default), one
 * with them on, exporting every span over OTLP/HTTP to a collector stand-in in this process that answers 200 at once.
 * Loads alternate off, on, on, off, off, on, on, off (each BENCH_SECONDS) so drift of the shared machine falls on both alike; idle
 * resident memory is read after start and a warm-up.
 *   BENCH_SECONDS=10 BENCH_CLIENTS=20 node bench/tracing-cost.ts
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConnection, accessTokenOf } from '../src/connections/connections.ts';
import { connectorContext } from '../src/platforms/context.ts';
import { requestSync } from '../src/sync/requests.ts';
import { runSync } from '../src/sync/runner.ts';
import { createOrganization } from '../src/tenants/organizations.ts';
import { openBenchContext } from './lib/context.ts';
import { combine, load, type LoadResult } from './lib/load.ts';
import { rssMb, spawnNode, waitForOk, type Child } from './lib/processes.ts';
import { ratio } from './lib/stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 5000);
const VERSION = '2024-08-31';
const began = performance.now();
const log = (message: string): void => {
  process.stdout.write(`[${Math.round((performance.now() - began) / 1000)}s] ${message}\n`);
};

/** The OTLP/HTTP collector stand-in: takes every export, answers 200 with an empty (JSON) answer. */
async function startCollector(): Promise<{ port: number; exports: () => number; bytes: () => number; close: () => void }> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    exports: () => exports,
    bytes: () => bytes,
    close: () => {
      server.close();
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (clock ticks of 10 ms). */
async function cpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

const bench = await openBenchContext(log);
const collector = await startCollector();
const children: Child[] = [];
try {
  const { pool, cipher } = bench.runtime.services;
  const { sandbox } = bench.runtime;
  if (sandbox === null) throw new Error('needs SANDBOX (SANDBOX_ENABLED)');
  const org = await createOrganization(pool, cipher, 'Bench: tracing cost');
  const tenant = { organizationId: org.organization.id, environment: 'sandbox' as const };
  const accountKey = `user_bench_tracing_size_${RECORDS}`;
  const credentials = { basic_username: accountKey, basic_password: 'pass_good' };
  const probe = connectorContext({
    connector: sandbox.connector,
    connectionId: 'probe',
    credentials,
    tokens: null,
    environment: 'sandbox',
    db: pool,
  });
  const identity = await sandbox.connector.identify(probe);
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
  log(`materializing and syncing a ${RECORDS}-record sandbox`);
  await sandbox.platform.materialize(accountKey);
  const run = await requestSync(pool, bench.runtime.services.jobs, connection.id, { kind: 'initial', trigger: 'api', details: {} });
  let outcome = await runSync(bench.runtime.workerServices, run.id, new AbortController().signal);
  for (let i = 0; outcome === 'retry' && i < 5; i++) outcome = await runSync(bench.runtime.workerServices, run.id, new AbortController().signal);
  if (outcome !== 'completed') throw new Error(`initial sync ended ${outcome}`);
  const bills = (
    await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM records WHERE connection_id = $1 AND object_type = 'bill'`, [connection.id])
  ).rows[0]?.n;
  log(`synced: ${bills ?? 0} bills`);

  const token = accessTokenOf(cipher, connection);
  const { client_id: clientId, client_secret: clientSecret } = org.credentials.sandbox;
  const headers = { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'x-service-version': VERSION };
  const path = `/versioned/accounting/bills?${new URLSearchParams({ access_token: token, limit: '50' }).toString()}`;

  const ports = { off: 27521, on: 27522 };
  const off = spawnNode('src/main.ts', ['--role=api'], bench.childEnv({ PORT: String(ports.off), HOST: '127.0.0.1' }));
  const on = spawnNode(
    'src/main.ts',
    ['--role=api'],
    bench.childEnv({ PORT: String(ports.on), HOST: '127.0.0.1', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` }),
  );
  children.push(off, on);
  await waitForOk(`http://127.0.0.1:${ports.off}/healthz`, off, performance.now());
  await waitForOk(`http://127.0.0.1:${ports.on}/healthz`, on, performance.now());
  for (const port of [ports.off, ports.on]) {
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    if (!answer.ok) throw new Error(`${port} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  }
  await sleep(3000);
  const idle = { off: await rssMb(off.child.pid), on: await rssMb(on.child.pid) };
  log(`idle RSS: off ${idle.off} MB, on ${idle.on} MB`);

  const measure = (port: number, seconds: number): Promise<LoadResult> =>
    load(`http://127.0.0.1:${port}`, { paths: [path], headers, connections: CLIENTS, seconds });
  log('warm-up');
  await measure(ports.off, 3);
  await measure(ports.on, 3);
  const runs: { off: LoadResult[]; on: LoadResult[] } = { off: [], on: [] };
  // The API process's own CPU per request: less swayed than throughput by what else the shared machine runs.
  const cpu = { off: 0, on: 0 };
  const pids = { off: off.child.pid, on: on.child.pid };
  for (const mode of ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off'] as const) {
    log(`load: traces ${mode}`);
    const before = await cpuMs(pids[mode]);
    runs[mode].push(await measure(ports[mode], SECONDS));
    cpu[mode] += (await cpuMs(pids[mode])) - before;
  }
  const result = {
    bills,
    clients: CLIENTS,
    secondsPerMode: SECONDS * 4,
    off: combine(runs.off, SECONDS * 4),
    on: combine(runs.on, SECONDS * 4),
    cpuMsPerRequest: {
      off: Math.round((cpu.off / combine(runs.off, 1).requests) * 100) / 100,
      on: Math.round((cpu.on / combine(runs.on, 1).requests) * 100) / 100,
    },
    idleRssMb: idle,
    loadedRssMb: { off: await rssMb(off.child.pid), on: await rssMb(on.child.pid) },
    collector: { exports: collector.exports(), kilobytes: Math.round(collector.bytes() / 1024) },
  };
  process.stdout.write(
    `${JSON.stringify({ ...result, throughputOnVsOff: ratio(result.on.requestsPerSecond, result.off.requestsPerSecond) }, null, 2)}\n`,
  );
} finally {
  for (const child of children) await child.stop();
  collector.close();
  await bench.close();
}

/**
 * `node bench/log-destination.ts`: what a log line costs through the service's stdout destination (src/log/destination.ts,
 * one write(2) per line) against pino's default one (sonic-boom, asynchronous writes on libuv's thread pool), which it
 * replaced (issue 32, item 5). A child process logs LINES request-like lines at info, its stdout a pipe the parent
 * reads (as a log shipper would) or /dev/null; it reports per line the wall time, the CPU time of every thread of the
 * process, and that of the main thread (the event loop's, which requests wait for).
 *   BENCH_LOG_LINES=200000 node bench/log-destination.ts
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { pino } from 'pino';
import { stdoutDestination } from '../src/log/destination.ts';
import { createLogger } from '../src/log/logger.ts';
import { requestLogOptions } from '../src/log/redaction.ts';

const LINES = Number(process.env.BENCH_LOG_LINES ?? 200_000);
type Destination = 'ledgerport' | 'pino-default';
type Sink = 'pipe' | 'devnull';

interface Result {
  destination: Destination;
  sink: Sink;
  wallNsPerLine: number;
  cpuNsPerLine: number;
  mainThreadCpuNsPerLine: number;
  dropped: number;
}

/** In the child: log the lines, wait until they are written, print the result on stderr. */
async function logLines(destination: Destination, sink: Sink): Promise<void> {
  const log =
    destination === 'ledgerport'
      ? createLogger({ level: 'info', role: 'api' })
      : pino({ ...requestLogOptions('info'), base: { pid: process.pid, role: 'api' } });
  const request = log.child({ reqId: 'req-00000000', organization_id: 'org_0123456789abcdef', request_id: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0' });
  const cpu = process.cpuUsage();
  const mainThreadCpu = process.threadCpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < LINES; i++) {
    request.info({ res: { statusCode: 200 }, responseTime: 1.234 + i / LINES }, 'request completed');
    // Let the event loop turn now and then, as a serving process does between requests.
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  // Until every line has left the process (pino's default writes on the thread pool).
  await new Promise((resolve) => setTimeout(resolve, 0));
  while (destination === 'ledgerport' && stdoutDestination().queuedBytes > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  if (destination === 'pino-default')
    await new Promise<void>((resolve) => {
      log.flush(() => {
        resolve();
      });
    });
  const wall = Number(process.hrtime.bigint() - started);
  const used = process.cpuUsage(cpu);
  const usedByMainThread = process.threadCpuUsage(mainThreadCpu);
  const result: Result = {
    destination,
    sink,
    wallNsPerLine: Math.round(wall / LINES),
    cpuNsPerLine: Math.round(((used.user + used.system) * 1000) / LINES),
    mainThreadCpuNsPerLine: Math.round(((usedByMainThread.user + usedByMainThread.system) * 1000) / LINES),
    dropped: destination === 'ledgerport' ? stdoutDestination().dropped : 0,
  };
  process.stderr.write(`${JSON.stringify(result)}\n`);
}

function run(destination: Destination, sink: Sink): Promise<Result> {
  const stdout = sink === 'devnull' ? openSync('/dev/null', 'w') : 'pipe';
  const child = spawn(process.execPath, [import.meta.filename, destination, sink], { stdio: ['ignore', stdout, 'pipe'] });
  child.stdout?.on('data', () => undefined);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(stderr.trim().split('\n').at(-1) ?? '') as Result);
      else reject(new Error(`child exited with ${code}: ${stderr}`));
    });
  });
}

const [role, sink] = process.argv.slice(2);
if (role === 'ledgerport' || role === 'pino-default') {
  await logLines(role, sink === 'devnull' ? 'devnull' : 'pipe');
} else {
  const results: Result[] = [];
  // Alternated, three rounds each, so a busy moment of the machine does not favour one.
  for (let round = 0; round < 3; round++) {
    for (const where of ['pipe', 'devnull'] as const) {
      for (const destination of ['pino-default', 'ledgerport'] as const) results.push(await run(destination, where));
    }
  }
  process.stdout.write(`${LINES} lines per run; ns per line, median of 3 runs\n`);
  for (const where of ['pipe', 'devnull'] as const) {
    for (const destination of ['pino-default', 'ledgerport'] as const) {
      const runs = results.filter((r) => r.destination === destination && r.sink === where);
      const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      process.stdout.write(
        `${where.padEnd(8)} ${destination.padEnd(13)} wall ${median(runs.map((r) => r.wallNsPerLine))}  cpu ${median(runs.map((r) => r.cpuNsPerLine))}  main-thread cpu ${median(runs.map((r) => r.mainThreadCpuNsPerLine))}  dropped ${runs.map((r) => r.dropped).join('/')}\n`,
      );
    }
  }
}

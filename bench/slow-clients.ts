/**
 * Slow clients against a real service process (issue 19, item 5). BENCH_SOCKETS sockets send their headers and then
 * trickle the body at 1 byte/s, spread over BENCH_ADDRESSES loopback source addresses, while the service runs with
 * `ulimit -n 1024` as in the review (1,100 such sockets made it fail /healthz and lose pg-boss's connections to
 * EMFILE). Every 5 s a fresh address asks /healthz and /readyz. Prints what closed how and when, and any EMFILE.
 *
 *   ADMIN_URL=postgres://postgres@127.0.0.1:5432/test BENCH_SOCKETS=1100 BENCH_ADDRESSES=20 BENCH_SECONDS=45 node bench/slow-clients.ts
 *
 * Extra service settings pass through (say HTTP_MAX_CONNECTIONS_PER_CLIENT=0).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const sockets = Number(process.env.BENCH_SOCKETS ?? 1100);
const addresses = Number(process.env.BENCH_ADDRESSES ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 45);
const adminUrl = process.env.ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const port = 26000 + Math.floor(Math.random() * 6000);
const database = 'bench_slow_clients';

async function onAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function probe(pathName: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathName, localAddress: '127.0.0.250', agent: false, timeout: 10_000 }, (response) => {
      response.resume();
      response.once('end', () => {
        resolve({ status: response.statusCode ?? 0, ms: Date.now() - started });
      });
    });
    request.once('timeout', () => {
      request.destroy();
    });
    request.once('error', () => {
      resolve({ status: 0, ms: Date.now() - started });
    });
  });
}

interface Slow {
  socket: net.Socket;
  opened: number;
  sent: boolean;
  closedAfter: number | null;
  answer: string;
}

function openSlow(localAddress: string): Slow {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  const slow: Slow = { socket, opened: Date.now(), sent: false, closedAfter: null, answer: '' };
  socket.on('connect', () => {
    socket.write(`POST /versioned/connections HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
    slow.sent = true;
  });
  socket.on('data', (chunk: Buffer) => {
    slow.answer += chunk.toString();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    slow.closedAfter = Date.now() - slow.opened;
  });
  return slow;
}

await onAdmin(`DROP DATABASE IF EXISTS ${database}`);
await onAdmin(`CREATE DATABASE ${database}`);
const url = new URL(adminUrl);
url.pathname = `/${database}`;
const service = spawn('sh', ['-c', 'ulimit -n 1024 && exec "$0" src/main.ts', process.execPath], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
service.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString();
});
service.stderr.on('data', (chunk: Buffer) => {
  output += chunk.toString();
});
for (let i = 0; i < 300 && (await probe('/readyz')).status !== 200; i++) await sleep(100);

const slow: Slow[] = [];
const start = Date.now();
for (let i = 0; i < sockets; i++) {
  slow.push(openSlow(`127.0.0.${10 + (i % addresses)}`));
  if (i % 50 === 49) await sleep(10);
}
const trickle = setInterval(() => {
  for (const s of slow) if (s.sent && s.closedAfter === null && s.socket.writable) s.socket.write(' ');
}, 1000);

const samples: { at: number; open: number; healthz: number; healthzMs: number; readyz: number; readyzMs: number }[] = [];
while (Date.now() - start < seconds * 1000) {
  await sleep(5000);
  const [healthz, readyz] = await Promise.all([probe('/healthz'), probe('/readyz')]);
  samples.push({
    at: Math.round((Date.now() - start) / 1000),
    open: slow.filter((s) => s.closedAfter === null).length,
    healthz: healthz.status,
    healthzMs: healthz.ms,
    readyz: readyz.status,
    readyzMs: readyz.ms,
  });
}
clearInterval(trickle);

const closed = slow.filter((s) => s.closedAfter !== null);
const answered408 = closed.filter((s) => s.answer.startsWith('HTTP/1.1 408'));
const closedAt = (list: Slow[]): number[] => list.map((s) => s.closedAfter ?? 0).sort((a, b) => a - b);
const quantile = (values: number[], q: number): number => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
const unanswered = closed.filter((s) => s.answer === '');
const summary = {
  sockets,
  addresses,
  seconds,
  closed: closed.length,
  // Refused over a cap, or evicted at the total cap, before any answer.
  closedWithoutAnswer: unanswered.length,
  closedWithoutAnswerAfterMs: { p50: quantile(closedAt(unanswered), 0.5), max: quantile(closedAt(unanswered), 1) },
  answered408: answered408.length,
  answered408AfterMs: { min: quantile(closedAt(answered408), 0), p50: quantile(closedAt(answered408), 0.5), max: quantile(closedAt(answered408), 1) },
  answers: Object.fromEntries(
    [...new Set(closed.map((s) => s.answer.split('\r\n')[0] ?? ''))].map((line) => [
      line,
      closed.filter((s) => (s.answer.split('\r\n')[0] ?? '') === line).length,
    ]),
  ),
  stillOpen: slow.length - closed.length,
  samples,
  emfileInLog: (output.match(/EMFILE/g) ?? []).length,
};
for (const s of slow) s.socket.destroy();
service.kill('SIGTERM');
await new Promise((resolve) => {
  service.once('exit', resolve);
});
await onAdmin(`DROP DATABASE IF EXISTS ${database}`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
if (process.env.BENCH_SHOW_LOG === '1') process.stdout.write(output);

import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPort, startService, waitForOk, type ServiceProcess } from '../support/process.ts';

// Issue 19, item 7: a stop stops the embedded PostgreSQL the service started or adopted, unless another Ledgerport
// process still uses it. Real processes on their own DATA_DIR (no DATABASE_URL).
let dataDir: string;
const pgPort = randomPort();
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-embedded-stop-'));
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** An API process on the test's DATA_DIR, answering /readyz. Logs at info, so its PostgreSQL decisions are visible. */
async function startedApi(): Promise<ServiceProcess> {
  const port = randomPort();
  const service = startService(['--role=api'], { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(pgPort), LOG_LEVEL: 'info' });
  // A ceiling for a loaded machine (the first start runs initdb), not a start-up target: test/startup/start.test.ts has that.
  await waitForOk(`http://127.0.0.1:${port}/readyz`, 60_000, service);
  return service;
}

async function waitForOutput(service: ServiceProcess, text: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!service.output().includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(service.output()).toContain(text);
}

/** The embedded PostgreSQL's postmaster, from its pid file (as root the cluster may live outside DATA_DIR). */
async function postmasterPid(): Promise<number> {
  const pointer = path.join(dataDir, 'postgres-location');
  const cluster = existsSync(pointer) ? (await readFile(pointer, 'utf8')).trim() : path.join(dataDir, 'postgres');
  return Number((await readFile(path.join(cluster, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

/** Exited: no such process, or a zombie nobody reaped (the service that started it was killed). */
function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Leaves no PostgreSQL behind when an assertion failed before the stop under test. */
function stopLeftover(pid: number): void {
  if (!processGone(pid)) process.kill(pid, 'SIGINT');
}

describe('stopping the embedded PostgreSQL', () => {
  it('after a kill -9 the restarted service adopts the running PostgreSQL, and its SIGTERM stops it', async () => {
    const first = await startedApi();
    const pid = await postmasterPid();
    try {
      first.child.kill('SIGKILL');
      await first.exited;
      expect(processGone(pid)).toBe(false);

      const second = await startedApi();
      expect(second.output()).toContain('attaching');
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(processGone(pid)).toBe(true);
      expect(second.output()).toContain('embedded PostgreSQL stopped');
    } finally {
      stopLeftover(pid);
    }
  });

  it('two processes on one embedded PostgreSQL: the first to stop leaves it to the other, the last stops it', async () => {
    const api = await startedApi();
    const pid = await postmasterPid();
    const worker = startService(['--role=worker'], { DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(pgPort) });
    try {
      await waitForOutput(worker, 'worker started');
      expect(worker.output()).toContain('attaching');

      // The API started PostgreSQL; it stops first, and the worker keeps its database.
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      expect(processGone(pid)).toBe(false);
      expect(worker.child.exitCode).toBeNull();
      expect(api.output()).toContain('embedded PostgreSQL left running');

      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(processGone(pid)).toBe(true);
    } finally {
      worker.child.kill('SIGKILL');
      stopLeftover(pid);
    }
  });
});

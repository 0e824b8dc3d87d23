import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { randomPort, startService, waitForOk, type ServiceProcess } from '../support/process.ts';

// Issue 32, item 5: the service whose stdout reader goes away (a log shipper or `| tee` killed) or stops reading keeps
// serving, counts the log lines it drops, and a SIGTERM still ends it. The real process, logging at info (two lines
// per request).
let db: TestDatabase;
const adminToken = 'stdout-reader-admin-token';
const key = randomBytes(32).toString('hex');
beforeAll(async () => {
  db = await createTestDatabase('embedded');
}, 60_000);
afterAll(async () => {
  await db.close();
});

async function startedApi(): Promise<{ service: ServiceProcess; url: string }> {
  const port = randomPort();
  const service = startService(['--role=api'], {
    DATABASE_URL: db.url,
    PORT: String(port),
    ENCRYPTION_KEY: key,
    ADMIN_TOKEN: adminToken,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/readyz`, 30_000, service);
  return { service, url };
}

/** Requests the service logs, one after another. */
async function logged(url: string, requests: number): Promise<void> {
  for (let i = 0; i < requests; i++) await (await fetch(`${url}/readyz`)).arrayBuffer();
}

async function droppedLines(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })).text();
  return Number(/^ledgerport_log_lines_dropped_total (\d+)/m.exec(text)?.[1]);
}

/** SIGTERM, and the exit code, or 'alive' when the process had not exited 45 s later (past its 30 s force exit). */
async function stopped(service: ServiceProcess): Promise<number | null | 'alive'> {
  service.child.kill('SIGTERM');
  let hung: NodeJS.Timeout | undefined;
  const alive = new Promise<'alive'>((resolve) => {
    hung = setTimeout(() => {
      resolve('alive');
    }, 45_000);
  });
  const result = await Promise.race([service.exited, alive]);
  clearTimeout(hung);
  if (result === 'alive') service.child.kill('SIGKILL');
  return result;
}

describe('the service and the reader of its stdout', () => {
  it('with the reader gone, it keeps answering, counts the lines it drops, and stops on SIGTERM', async () => {
    const { service, url } = await startedApi();
    service.child.stdout?.destroy();
    await logged(url, 20);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await droppedLines(url)).toBeGreaterThanOrEqual(40);
    expect(await stopped(service)).toBe(0);
    expect(service.output()).not.toContain('Error');
  }, 90_000);

  it('with a reader that stopped reading, it keeps answering and stops on SIGTERM', async () => {
    const { service, url } = await startedApi();
    // Never read again (a 'readable' listener that does not read keeps node:child_process from draining it).
    service.child.stdout?.removeAllListeners('data');
    service.child.stdout?.pause();
    service.child.stdout?.on('readable', () => undefined);
    // Two lines of about 250 bytes per request: more than the pipe holds.
    await logged(url, 400);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(await stopped(service)).toBe(0);
  }, 120_000);
});

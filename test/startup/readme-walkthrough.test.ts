/**
 * The README's walk-through, run as written (only the two ports changed, so it cannot collide with a service a
 * developer has running) with bash against a freshly started service, as a new user pastes it after `npm start`.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomPort, ROOT, startService, waitForOk, type ServiceProcess } from '../support/process.ts';

/** The first ```sh block under "## A first walk-through". */
async function walkThroughBlock(): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A first walk-through'));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error('README.md has no sh block under "## A first walk-through"');
  return match[1];
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Its own process group: the block starts a background receiver, which must not outlive it (nor keep stdout open).
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ADMIN_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      detached: true,
    });
    child.once('exit', () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already: the block stopped its receiver itself.
      }
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the README walk-through', () => {
  let folder: string;
  let service: ServiceProcess;
  const port = randomPort();
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'ledgerport-readme-'));
    // As root, the embedded PostgreSQL runs as `postgres`, which must reach its directory inside.
    await chmod(folder, 0o755);
    service = startService([], { DATA_DIR: path.join(folder, 'data'), PORT: String(port), EMBEDDED_POSTGRES_PORT: String(randomPort()) });
    await waitForOk(`http://127.0.0.1:${port}/readyz`, 30_000, service);
  }, 60_000);
  afterAll(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    await rm(folder, { recursive: true, force: true });
  });

  it('runs pasted as one block: reads after the initial sync, one bill by id, a write, a delivered webhook, a link URL', async () => {
    const block = await walkThroughBlock();
    expect(block).toContain('localhost:8080');
    expect(block).toContain('RECEIVER_PORT=9999');
    const script = block.replaceAll('localhost:8080', `localhost:${port}`).replace('RECEIVER_PORT=9999', `RECEIVER_PORT=${randomPort()}`);
    const { code, stdout, stderr } = await runBash(script, folder, 120_000);
    const shown = `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}\nservice:\n${service.output()}`;
    expect(code, shown).toBe(0);
    expect(stderr, shown).toBe('');

    expect(stdout).toContain('"error_code":"MISSING_VERSION"');
    expect(stdout).toContain('"is_ready":true');
    expect(stdout).not.toContain('PRODUCT_NOT_READY');
    // The bill fetched by id is the first of the listed ones.
    const listedIds = [...stdout.matchAll(/^([0-9a-f-]{36}) \S+ \S+ \S+ [A-Z]{3}$/gm)].map((m) => m[1]);
    expect(listedIds.length).toBeGreaterThan(0);
    expect(stdout).toContain(`{"bill":{"id":"${listedIds[0] ?? ''}"`);
    // The write went through: 200 with its job id.
    expect(stdout).toMatch(/^HTTP\/1\.1 200 /m);
    expect(stdout).toMatch(/^x-service-job-id: [0-9a-f-]{36}\r?$/im);
    expect(stdout).toContain('"description":"Office chairs"');
    // The local receiver got a signed webhook, and the delivery log says so.
    expect(stdout).toMatch(/^webhook received: signed \{/m);
    expect(stdout).toContain('"status":"delivered"');
    expect(stdout).toMatch(new RegExp(`^http://localhost:${port}/link/\\S+$`, 'm'));
  }, 150_000);
});

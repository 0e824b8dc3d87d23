/** Runs the real service as a child process, as `npm start` would. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export function startService(args: string[], env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ADMIN_TOKEN: '', ENCRYPTION_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  return { child, output: () => output, exited };
}

/** Polls until the URL answers 200 or the deadline passes; returns the elapsed ms. */
export async function waitForOk(url: string, timeoutMs: number, service?: ServiceProcess): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    if (service?.child.exitCode !== null && service?.child.exitCode !== undefined) {
      throw new Error(`service exited with ${service.child.exitCode}:\n${service.output()}`);
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms${service ? `:\n${service.output()}` : ''}`);
}

/**
 * A port below Linux's ephemeral range (32768-60999): the tests' own outgoing
 * connections take ephemeral ports, and a listener picked inside that range can
 * collide with one of them (EADDRINUSE). 20000-25999 is the embedded PostgreSQL's of the test run.
 */
export function randomPort(): number {
  return 26000 + Math.floor(Math.random() * 6000);
}

/** API processes (`--role=api`) on one database, one per port, once each answers /readyz. */
export async function startApiProcesses(ports: readonly number[], env: Record<string, string>): Promise<ServiceProcess[]> {
  const services = ports.map((port) => startService(['--role=api'], { HOST: '127.0.0.1', ...env, PORT: String(port) }));
  await Promise.all(ports.map((port, i) => waitForOk(`http://127.0.0.1:${port}/readyz`, 20_000, services[i])));
  return services;
}

/** SIGTERM to each, and their exits. */
export async function stopServices(services: readonly ServiceProcess[]): Promise<void> {
  for (const service of services) service.child.kill('SIGTERM');
  await Promise.all(services.map((s) => s.exited));
}

/**
 * The processes a benchmark measures: the real service (`node src/main.ts`, as
 * `npm start` runs it) and the bare comparison server, each a child process,
 * with their resident memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Child {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function spawnNode(script: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Kept short: a long-running child's log must not grow without bound in the benchmark's memory.
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Polls until the URL answers 200; returns the ms since `since`. */
export async function waitForOk(url: string, child: Child, since: number, timeoutMs = 120_000): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (child.child.exitCode !== null) throw new Error(`process exited with ${child.child.exitCode}:\n${child.output()}`);
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
    await sleep(10);
  }
}

/** Resident set size of a process in MB (VmRSS). */
export async function rssMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Samples a process's RSS every 250 ms until stopped; returns the peak. */
export function sampleRss(pid: number | undefined): { stop(): Promise<number> } {
  let peak = 0;
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      peak = Math.max(peak, await rssMb(pid).catch(() => 0));
      await sleep(250);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await loop;
      return peak;
    },
  };
}

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogDestination } from './destination.ts';

// Issue 32, item 5: a process logging through the service's stdout destination, with a reader that is gone, stuck, or
// back after a pause. The old destination (pino's default) never exited in the first two.
const WRITER = path.resolve(import.meta.dirname, '../../test/support/log-writer.ts');
/** More than a pipe (64 KiB) and the destination's queue (1 MiB) hold: lines of about 300 bytes. */
const FLOOD = 8000;

interface Writer {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stderr(): string;
  /** The exit code, or 'alive' when the process had not exited after 20 s (a hang, not a slow machine). */
  exited: Promise<number | null | 'alive'>;
}

function startWriter(lines: number, mode: 'exit' | 'wait'): Writer {
  const child = spawn(process.execPath, [WRITER, String(lines), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null | 'alive'>((resolve) => {
    const hung = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('alive');
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(hung);
      resolve(code);
    });
  });
  return { child, stderr: () => stderr, exited };
}

const droppedIn = (stderr: string): number => Number(/dropped (\d+)/.exec(stderr)?.[1]);

/**
 * A reader that stops reading: the pipe fills and stays full. A 'readable' listener that never reads, not pause():
 * node:child_process resumes (and so empties) a stream with no listener when its child exits.
 */
function stall(stream: Readable): void {
  stream.on('readable', () => undefined);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the stdout log destination', () => {
  it('with its reader gone (EPIPE), drops and counts every line and exits', async () => {
    const writer = startWriter(50, 'exit');
    writer.child.stdout.destroy();
    expect(await writer.exited).toBe(0);
    expect(droppedIn(writer.stderr())).toBe(50);
  });

  it('with a reader that stops reading (EAGAIN), keeps at most its queue, drops the rest and exits', async () => {
    const writer = startWriter(FLOOD, 'exit');
    stall(writer.child.stdout);
    await until(() => writer.stderr().includes('wrote'));
    const exited = await writer.exited;
    const output = await readAll(writer.child.stdout);
    expect(exited).toBe(0);
    const dropped = droppedIn(writer.stderr());
    expect(dropped).toBeGreaterThan(0);
    // What was written are whole lines, the first ones, in order.
    const numbers = output.map((line) => line.n);
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(numbers.length + dropped).toBe(FLOOD);
  });

  it('with a reader back after a pause, writes what it kept and says in the log how many lines it dropped', async () => {
    const writer = startWriter(FLOOD, 'wait');
    stall(writer.child.stdout);
    await until(() => writer.stderr().includes('wrote'));
    const reading = readAll(writer.child.stdout);
    expect(await writer.exited).toBe(0);
    const output = await reading;
    const dropped = droppedIn(writer.stderr());
    expect(dropped).toBeGreaterThan(0);
    const gap = output.filter((line) => line.dropped_lines !== undefined);
    expect(gap).toEqual([expect.objectContaining({ level: 40, dropped_lines: dropped })]);
    expect(output.filter((line) => line.msg === 'line').length + dropped).toBe(FLOOD);
  });

  it('with a reader that reads, drops nothing its queue can hold', async () => {
    const lines = 3000;
    const writer = startWriter(lines, 'wait');
    const output = await readAll(writer.child.stdout);
    expect(await writer.exited).toBe(0);
    expect(droppedIn(writer.stderr())).toBe(0);
    expect(output.map((line) => line.n)).toEqual(Array.from({ length: lines }, (_, i) => i));
  });
});

describe('a log destination whose writes fail', () => {
  it.skipIf(!existsSync('/dev/full'))('drops and counts each line a full disk refuses (ENOSPC), and tries the next', () => {
    const fd = openSync('/dev/full', 'w');
    const counted: number[] = [];
    const destination = new LogDestination(fd, { onDrop: (lines) => counted.push(lines) });
    try {
      for (let i = 0; i < 3; i++) destination.write('{"msg":"line"}\n');
      expect(destination.dropped).toBe(3);
      expect(counted).toEqual([1, 1, 1]);
      expect(destination.queuedBytes).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it('on a closed descriptor (EBADF) drops every line without throwing', () => {
    const fd = openSync('/dev/null', 'w');
    closeSync(fd);
    const destination = new LogDestination(fd);
    destination.write('{"msg":"one"}\n');
    destination.write('{"msg":"two"}\n');
    destination.flushSync(10);
    expect(destination.dropped).toBe(2);
  });
});

interface Line {
  n?: number;
  msg?: string;
  level?: number;
  dropped_lines?: number;
}

/** Every line the stream gives until its end, each parsed (a line that is not whole JSON fails the test). */
async function readAll(stream: Readable): Promise<Line[]> {
  let text = '';
  for await (const chunk of stream) text += (chunk as Buffer).toString();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

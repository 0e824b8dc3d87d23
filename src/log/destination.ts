/**
 * Where the service's log lines go (stdout): written so that a reader that is slow, stuck or gone never stops the
 * process. pino's default destination (sonic-boom) kept unwritten lines without limit and, at exit, retried a write to
 * a closed pipe (EPIPE) every 100 ms forever, so a SIGTERM'd service whose log reader had gone never exited (issue 32).
 *
 * - A line is written at once with one write(2). stdout's pipe is non-blocking (Node makes it so when process.stdout
 *   is first touched), so a full pipe answers EAGAIN instead of holding the event loop.
 * - EAGAIN: the line waits in a queue of at most QUEUE_LIMIT_BYTES, written when the reader has room (tried again on
 *   the next line or a timer); past the limit new lines are dropped. When the queue empties again, one warn line says how many were dropped.
 * - EPIPE or EBADF (no reader, ever again): this and every later line is dropped without a write.
 * - Any other error (ENOSPC, EIO): that line is dropped; the next one is tried.
 * - At exit the queue gets EXIT_FLUSH_MS to drain; what is left is dropped.
 *
 * Every dropped line is counted (`dropped`, and the `onDrop` callback: ledgerport_log_lines_dropped_total).
 */
import { writeSync, writevSync } from 'node:fs';

const QUEUE_LIMIT_BYTES = 1024 * 1024;
const RETRY_MS = 25;
/** Queued lines written by one writev(2). */
const WRITEV_BATCH = 256;
const EXIT_FLUSH_MS = 1000;

export interface LogDestinationOptions {
  /** Called with the number of lines each time lines are dropped. */
  onDrop?: (lines: number) => void;
}

export class LogDestination {
  readonly #fd: number;
  #onDrop: (lines: number) => void;
  /** Lines (or a line's unwritten tail) waiting for the reader, oldest first. */
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #retry: NodeJS.Timeout | null = null;
  #closed = false;
  #dropped = 0;
  #droppedUnreported = 0;
  /** When a write last found the reader full (ms). */
  #fullAt = 0;

  constructor(fd: number, options: LogDestinationOptions = {}) {
    this.#fd = fd;
    this.#onDrop = options.onDrop ?? (() => undefined);
  }

  /** Lines dropped since this destination was made. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Bytes waiting for the reader. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** Where drops are counted from now on; told at once of those before (the process's metrics load after its log). */
  countDropsWith(onDrop: (lines: number) => void): void {
    this.#onDrop = onDrop;
    if (this.#dropped > 0) onDrop(this.#dropped);
  }

  /** pino's DestinationStream: one line (or the first-start banner) at a time. Never throws, never waits. */
  write(line: string): void {
    if (this.#closed) {
      this.#drop(1);
      return;
    }
    if (this.#queue.length > 0) {
      // Behind the queue, in order. The queue moves when the reader has had a moment to make room, not only on the
      // timer; not on every line, as a write to a full pipe costs an exception.
      this.#enqueue(Buffer.from(line));
      if (Date.now() - this.#fullAt >= 1) this.#drain();
      return;
    }
    let written: number;
    try {
      written = writeSync(this.#fd, line);
    } catch (error) {
      this.#failed(error, Buffer.from(line));
      return;
    }
    // Most lines fit: a pipe takes a write of up to 4 KiB whole or not at all. A longer one may be cut.
    if (written < Buffer.byteLength(line)) this.#enqueue(Buffer.from(line).subarray(written));
  }

  /**
   * Writes what is queued, waiting for the reader at most `budgetMs` (blocking: for the process's exit, when the
   * event loop is gone); what is left then is dropped.
   */
  flushSync(budgetMs: number): void {
    const deadline = Date.now() + budgetMs;
    this.#drain();
    while (this.#queue.length > 0 && !this.#closed && Date.now() < deadline) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      this.#drain();
    }
    if (this.#queue.length > 0) this.#dropQueue();
  }

  #enqueue(bytes: Buffer): void {
    if (this.#queuedBytes + bytes.length > QUEUE_LIMIT_BYTES) {
      this.#drop(1);
      return;
    }
    this.#queue.push(bytes);
    this.#queuedBytes += bytes.length;
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    this.#retry ??= setTimeout(() => {
      this.#retry = null;
      this.#drain();
      if (this.#queue.length > 0) this.#scheduleRetry();
    }, RETRY_MS).unref();
  }

  /** Writes queued lines, many to a call, until the reader is full again or the queue is empty. */
  #drain(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      const batch = this.#queue.slice(0, WRITEV_BATCH);
      let written: number;
      try {
        written = writevSync(this.#fd, batch);
      } catch (error) {
        if (isFull(error)) {
          this.#fullAt = Date.now();
          return;
        }
        const [head] = this.#queue.splice(0, 1);
        this.#queuedBytes -= head?.length ?? 0;
        this.#failed(error, null);
        continue;
      }
      this.#release(batch, written);
    }
    if (this.#queue.length === 0 && this.#droppedUnreported > 0 && !this.#closed) this.#reportDrops();
  }

  /** Takes `written` bytes of `batch` (the head of the queue) off the queue; a line written in part keeps its tail. */
  #release(batch: Buffer[], written: number): void {
    this.#queuedBytes -= written;
    let whole = 0;
    let left = written;
    for (const buffer of batch) {
      if (left < buffer.length) break;
      left -= buffer.length;
      whole++;
    }
    this.#queue.splice(0, whole);
    const partial = this.#queue[0];
    if (left > 0 && partial !== undefined) this.#queue[0] = partial.subarray(left);
  }

  /** A write that failed: `line` (null when it was already taken off the queue) waits, or is dropped. */
  #failed(error: unknown, line: Buffer | null): void {
    if (isFull(error) && line !== null) {
      this.#fullAt = Date.now();
      this.#enqueue(line);
      return;
    }
    if (isGone(error)) {
      this.#closed = true;
      this.#dropQueue();
      if (this.#retry !== null) clearTimeout(this.#retry);
      this.#retry = null;
    }
    this.#drop(1);
  }

  #dropQueue(): void {
    const lines = this.#queue.length;
    this.#queue = [];
    this.#queuedBytes = 0;
    if (lines > 0) this.#drop(lines);
  }

  #drop(lines: number): void {
    this.#dropped += lines;
    this.#droppedUnreported += lines;
    this.#onDrop(lines);
  }

  /** The log itself says where it has a gap (once the reader reads again). */
  #reportDrops(): void {
    const lines = this.#droppedUnreported;
    this.#droppedUnreported = 0;
    this.write(
      `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg: `${lines} log lines were dropped: stdout was not being read`, dropped_lines: lines })}\n`,
    );
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

const isFull = (error: unknown): boolean => errorCode(error) === 'EAGAIN';
const isGone = (error: unknown): boolean => errorCode(error) === 'EPIPE' || errorCode(error) === 'EBADF';

let stdout: LogDestination | null = null;

/**
 * The process's stdout as a LogDestination, made once. Touching process.stdout makes a pipe non-blocking (libuv);
 * its own 'error' (EPIPE from a stray process.stdout.write) would otherwise end the process.
 */
export function stdoutDestination(): LogDestination {
  if (stdout !== null) return stdout;
  process.stdout.on('error', () => undefined);
  const destination = new LogDestination(process.stdout.fd);
  process.once('exit', () => {
    destination.flushSync(EXIT_FLUSH_MS);
  });
  stdout = destination;
  return destination;
}

/**
 * Waits for write jobs to finish, for prefer_sync answers. One LISTEN
 * connection per process hears every job completion (NOTIFY
 * ledgerport_jobs_done, sent in the completing transaction), so a waiting
 * request wakes the moment its job ends in whatever worker process ran it. The
 * job row stays the truth: each wake-up and a once-a-second poll re-read it, so
 * a lost notification or a dropped listener costs at most a second.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { listenOn, type Listener } from '../db/listener.ts';
import type { Pool } from '../db/pool.ts';
import { JOB_DONE_CHANNEL } from '../sql/job-done.ts';

const POLL_MS = 1_000;

export class JobWaiter {
  readonly #pool: Pool;
  #listener: Listener | null = null;
  #connecting: Promise<void> | null = null;
  #closed = false;
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** Resolves true once `isDone` says so, false when `timeoutMs` passed first. */
  async wait(jobId: string, timeoutMs: number, isDone: () => Promise<boolean>): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    await this.#listen().catch(() => undefined);
    for (;;) {
      let wake: () => void = () => undefined;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      this.#add(jobId, wake);
      try {
        if (await isDone()) return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const abort = new AbortController();
        await Promise.race([woken, sleep(Math.min(POLL_MS, left), undefined, { signal: abort.signal }).catch(() => undefined)]);
        abort.abort();
      } finally {
        this.#remove(jobId, wake);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting?.catch(() => undefined);
    const listener = this.#listener;
    this.#listener = null;
    await listener?.close();
  }

  #add(jobId: string, wake: () => void): void {
    const set = this.#waiters.get(jobId) ?? new Set();
    set.add(wake);
    this.#waiters.set(jobId, set);
  }

  #remove(jobId: string, wake: () => void): void {
    const set = this.#waiters.get(jobId);
    set?.delete(wake);
    if (set?.size === 0) this.#waiters.delete(jobId);
  }

  async #listen(): Promise<void> {
    if ((this.#listener?.alive ?? false) || this.#closed) return;
    this.#connecting ??= (async () => {
      // A dropped listener is replaced by the next wait; until then polling answers.
      const listener = await listenOn(this.#pool, JOB_DONE_CHANNEL, (jobId) => {
        for (const wake of this.#waiters.get(jobId) ?? []) wake();
      });
      if (this.#closed) await listener.close();
      else this.#listener = listener;
    })().finally(() => {
      this.#connecting = null;
    });
    await this.#connecting;
  }
}

/**
 * Far from the limit, a process need not ask the shared counter about every
 * request: it counts up to MAX_PENDING of them locally and adds them to the
 * shared count in one write (after FLUSH_MS at the latest). Within the last
 * stretch before the limit (10% of it, at least 100 requests) every request
 * goes to the shared counter again, so one process answers 429 exactly at the
 * limit; with several, each process can have up to MAX_PENDING requests
 * admitted but not yet added, so the total can pass the limit by that much per
 * process. A limit of 100 or less is always counted exactly.
 *
 * Exact adds of one bucket go one at a time: the requests that need one while
 * another is on its way join the next, which answers each of them as if they
 * had been added one by one (the shared count after the add, less the hits
 * added after theirs). Under many concurrent requests that is one write per
 * round trip instead of one per request, with the same decisions.
 *
 * Why: under load every request of an organisation updates one counter row;
 * the read benchmark showed that write costing about a fifth of list throughput.
 */
import type { WindowState } from '../sql/rate-limit-hit.ts';

/** Adds `n` hits to the bucket's shared window and answers its state. */
export type AddHits = (bucket: string, n: number) => Promise<WindowState>;

const FLUSH_MS = 100;
/** Requests admitted here and not yet added to the shared count, at most. */
export const MAX_PENDING = 10;

interface Local {
  /** Shared count when last read, and when its window resets (ms since epoch). */
  hits: number;
  resetAt: number;
  /** Counted here, not yet added to the shared window. */
  pending: number;
  /** Sent (or about to be sent) to the shared window, answer not back yet: counted as if already there. */
  sending: number;
  /** The part of `sending` admitted here before it was sent (what the MAX_PENDING cap bounds). */
  admittedSending: number;
  flush: Promise<void> | null;
  /** The exact add still taking members; it is sent once the one before it has been answered. */
  forming: ExactAdd | null;
  /** The last add sent (exact or flush): the next waits for it, so every answer counts what this process sent before. */
  lastAdd: Promise<unknown>;
}

interface ExactAdd {
  n: number;
  admitted: number;
  state: Promise<WindowState>;
}

export class BatchedCounter {
  private readonly buckets = new Map<string, Local>();
  private readonly margin: number;
  private readonly add: AddHits;
  private readonly limit: number;

  constructor(add: AddHits, limit: number) {
    this.add = add;
    this.limit = limit;
    this.margin = Math.max(100, Math.ceil(limit * 0.1));
  }

  async hit(bucket: string): Promise<WindowState> {
    const now = Date.now();
    const local = this.buckets.get(bucket);
    // sending: batches on their way to the shared count, and exact adds not answered yet (counted against the cap too).
    if (
      local !== undefined &&
      local.resetAt > now &&
      local.pending + local.admittedSending < MAX_PENDING &&
      local.hits + local.sending + local.pending + 1 <= this.limit - this.margin
    ) {
      local.pending += 1;
      local.flush ??= this.scheduleFlush(bucket, local);
      return { hits: local.hits + local.sending + local.pending, resetMs: local.resetAt - now };
    }
    // Exact: this request and whatever was counted locally, added now. A bucket seen for the first time is
    // entered at once (window unknown, so nothing is batched yet) so that adds in flight are counted by the others.
    const entry = local ?? this.enter(bucket);
    const admitted = entry.resetAt > now ? entry.pending : 0;
    entry.pending = 0;
    const group = entry.forming ?? this.formExact(bucket, entry);
    group.n += admitted + 1;
    group.admitted += admitted;
    entry.sending += admitted + 1;
    entry.admittedSending += admitted;
    // This request's own hit is the last of its share of the group: later members' hits are subtracted.
    const after = group.n;
    const state = await group.state;
    return { hits: state.hits - (group.n - after), resetMs: state.resetMs };
  }

  private formExact(bucket: string, entry: Local): ExactAdd {
    const group: ExactAdd = { n: 0, admitted: 0, state: Promise.resolve({ hits: 0, resetMs: 0 }) };
    const previous = entry.lastAdd;
    group.state = (async () => {
      await previous;
      // From here on, requests form the next group.
      if (entry.forming === group) entry.forming = null;
      try {
        const state = await this.add(bucket, group.n);
        this.remember(bucket, state);
        return state;
      } finally {
        entry.sending -= group.n;
        entry.admittedSending -= group.admitted;
      }
    })();
    entry.forming = group;
    entry.lastAdd = group.state.catch(() => undefined);
    return group;
  }

  private enter(bucket: string): Local {
    if (this.buckets.size >= 10_000) this.forgetIdle();
    const entry: Local = { hits: 0, resetAt: 0, pending: 0, sending: 0, admittedSending: 0, flush: null, forming: null, lastAdd: Promise.resolve() };
    this.buckets.set(bucket, entry);
    return entry;
  }

  private remember(bucket: string, state: WindowState): void {
    const local = this.buckets.get(bucket) ?? this.enter(bucket);
    const resetAt = Date.now() + state.resetMs;
    // Answers can come back out of order: within one window the shared count only grows.
    if (state.hits > local.hits || resetAt > local.resetAt + 1_000 || local.resetAt <= Date.now()) local.hits = state.hits;
    local.resetAt = resetAt;
  }

  private async scheduleFlush(bucket: string, local: Local): Promise<void> {
    await new Promise((resolve) => {
      setTimeout(resolve, FLUSH_MS).unref();
    });
    const n = local.pending;
    local.pending = 0;
    local.sending += n;
    local.admittedSending += n;
    // In the chain of adds: an exact add sent while this one is on its way would otherwise be answered
    // without these hits, and admit as many past the limit.
    const previous = local.lastAdd;
    const added = (async () => {
      await previous;
      if (n > 0) this.remember(bucket, await this.add(bucket, n));
    })();
    local.lastAdd = added.catch(() => undefined);
    try {
      await added;
    } catch {
      // The shared counter is unreachable for a moment: the next request goes the exact way and retries.
      local.resetAt = 0;
    } finally {
      local.sending -= n;
      local.admittedSending -= n;
      local.flush = null;
    }
  }

  /** Buckets whose window is over and that hold nothing: an organisation that stopped sending requests. */
  private forgetIdle(): void {
    const now = Date.now();
    for (const [bucket, local] of this.buckets)
      if (local.resetAt <= now && local.pending === 0 && local.sending === 0 && local.flush === null && local.forming === null)
        this.buckets.delete(bucket);
  }

  /** Adds what is still counted locally (shutdown). */
  async drain(): Promise<void> {
    await Promise.all(
      [...this.buckets.entries()].map(async ([bucket, local]) => {
        if (local.pending > 0) {
          const n = local.pending;
          local.pending = 0;
          await this.add(bucket, n).catch(() => undefined);
        }
      }),
    );
    this.buckets.clear();
  }
}

/**
 * Client-side request limits per key (usually a connection), in this process:
 * at most N requests in flight and at most M started per minute (token bucket).
 * The calls of a stored connection take their rate, daily budget and cost from
 * limits every process shares (shared-limits.ts, which says why concurrency stays
 * here); this bucket paces the rest (link-flow probes before a connection exists).
 */

export interface LimitSpec {
  requestsPerMinute: number | null;
  concurrentRequests: number | null;
  /**
   * Requests that may start back to back before spacing applies. 1 (the default)
   * spaces starts evenly, so no 60 s window ever sees more than the limit (+1).
   */
  burst?: number;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface LimiterClock {
  now(): number;
  sleep: Sleep;
}

export interface Limiter {
  /** Waits for a slot and a token; resolves to the function that frees the slot. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Nothing in flight, nobody waiting, bucket full: forgetting it changes nothing. */
  idle(): boolean;
}

export function createLimiter(spec: LimitSpec, clock: LimiterClock): Limiter {
  const maxConcurrent = spec.concurrentRequests ?? Number.POSITIVE_INFINITY;
  const perMs = spec.requestsPerMinute === null ? null : spec.requestsPerMinute / 60_000;
  const burst = Math.max(1, spec.burst ?? 1);
  let tokens = burst;
  let refilledAt = clock.now();
  let active = 0;
  const waiting: (() => void)[] = [];

  function refill(): void {
    if (perMs === null) return;
    const now = clock.now();
    tokens = Math.min(burst, tokens + (now - refilledAt) * perMs);
    refilledAt = now;
  }

  function takeSlot(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(abortError(signal));
    if (active < maxConcurrent && waiting.length === 0) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = waiting.indexOf(grant);
        if (index >= 0) waiting.splice(index, 1);
        reject(abortError(signal));
      };
      // The releasing request hands its slot over: `active` stays counted.
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function releaseSlot(): void {
    const next = waiting.shift();
    if (next === undefined) active--;
    else next();
  }

  /** Takes a token now, going into debt if needed; returns how long to wait for it. */
  function reserveToken(): number {
    if (perMs === null) return 0;
    refill();
    tokens -= 1;
    return tokens >= 0 ? 0 : Math.ceil(-tokens / perMs);
  }

  return {
    async acquire(signal) {
      await takeSlot(signal);
      const wait = reserveToken();
      if (wait > 0) {
        try {
          await clock.sleep(wait, signal);
        } catch (error) {
          tokens += 1;
          releaseSlot();
          throw error;
        }
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        releaseSlot();
      };
    },
    idle() {
      refill();
      return active === 0 && waiting.length === 0 && (perMs === null || tokens >= burst);
    },
  };
}

export interface LimiterPool {
  /** The limiter of a key; callers with the same key share it. */
  get(key: string, spec: LimitSpec): Limiter;
}

const PRUNE_ABOVE = 1000;

export function createLimiterPool(clock: LimiterClock): LimiterPool {
  const limiters = new Map<string, { spec: string; limiter: Limiter }>();
  return {
    get(key, spec) {
      const specKey = `${spec.requestsPerMinute}/${spec.concurrentRequests}/${spec.burst ?? 1}`;
      const existing = limiters.get(key);
      if (existing?.spec === specKey) return existing.limiter;
      if (limiters.size >= PRUNE_ABOVE) {
        for (const [name, entry] of limiters) if (entry.limiter.idle()) limiters.delete(name);
      }
      const limiter = createLimiter(spec, clock);
      limiters.set(key, { spec: specKey, limiter });
      return limiter;
    },
  };
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

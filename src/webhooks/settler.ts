/**
 * Group settling: at most one settle statement in flight per dispatcher; the
 * attempts that finish while it runs go together in the next one. Under load
 * one round trip settles many deliveries; alone, an attempt is settled at once.
 */
import type { AttemptOutcome, AttemptRecord, SettledAttempt } from '../sql/webhook-deliveries.ts';

/** Writes a batch of attempts (src/sql/webhook-deliveries.ts recordAttempts); answers the ids it settled. */
export type RecordAttempts = (attempts: readonly SettledAttempt[]) => Promise<Set<string>>;

/** A statement's size stays bounded however far behind the settles fall. */
const MAX_BATCH = 200;

interface Waiting { record: AttemptRecord; outcome: AttemptOutcome; resolve: (settled: boolean) => void; reject: (error: unknown) => void }

export interface Settler {
  /** Logs the attempt and settles its delivery; answers whether this claim settled it (false: the lease had passed to another worker). */
  settle(record: AttemptRecord, outcome: AttemptOutcome): Promise<boolean>;
}

export function createSettler(record: RecordAttempts): Settler {
  const waiting: Waiting[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, MAX_BATCH);
        try {
          const settled = await record(batch);
          for (const item of batch) item.resolve(settled.has(item.record.deliveryId));
        } catch (error) {
          // Not recorded: each delivery's lease runs out and it is sent again (at least once, never lost).
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      flushing = false;
    }
  }

  return {
    settle(record, outcome) {
      const settled = new Promise<boolean>((resolve, reject) => { waiting.push({ record, outcome, resolve, reject }); });
      if (!flushing) void flush();
      return settled;
    },
  };
}

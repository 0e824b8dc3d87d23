/**
 * Group settling: at most one settle statement in flight per dispatcher; the
 * attempts that finish while it runs go together in the next one. Under load
 * one round trip settles many deliveries; alone, an attempt is settled at once.
 */
import type { AttemptOutcome, AttemptRecord, SettledAttempt } from '../sql/webhook-deliveries.ts';

/** Writes a batch of attempts (src/sql/webhook-deliveries.ts recordAttempts); answers what it settled, as `settledKey`s. */
export type RecordAttempts = (attempts: readonly SettledAttempt[]) => Promise<Set<string>>;

/** A statement's size stays bounded however far behind the settles fall. */
const MAX_BATCH = 200;

interface Waiting {
  record: AttemptRecord;
  outcome: AttemptOutcome;
  resolve: (settled: boolean) => void;
  reject: (error: unknown) => void;
}

export interface Settler {
  /** Logs the attempt and settles its delivery; answers whether this claim settled it (false: the lease had passed to another worker). */
  settle(record: AttemptRecord, outcome: AttemptOutcome): Promise<boolean>;
}

/** How a settle answers what it settled: the delivery and the attempt (a re-claimed delivery may settle twice in one batch). */
export const settledKey = (record: Pick<AttemptRecord, 'deliveryId' | 'attempt'>): string => `${record.deliveryId}:${record.attempt}`;

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
          for (const item of batch) item.resolve(settled.has(settledKey(item.record)));
        } catch {
          // One bad row must not cost the others: each is tried alone. What still fails is not recorded, so its lease
          // runs out and it is sent again (at least once, never lost).
          for (const item of batch) {
            await record([item]).then((settled) => {
              item.resolve(settled.has(settledKey(item.record)));
            }, item.reject);
          }
        }
      }
    } finally {
      flushing = false;
    }
  }

  return {
    settle(record, outcome) {
      const settled = new Promise<boolean>((resolve, reject) => {
        waiting.push({ record, outcome, resolve, reject });
      });
      if (!flushing) void flush();
      return settled;
    },
  };
}

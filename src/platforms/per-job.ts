/**
 * What a connector reads once per job (a sync run or a write: one ConnectorContext) and shares between its calls: a
 * chart of accounts to resolve line accounts, a base currency for mappers, which are synchronous. Keyed by the
 * context, so it goes with the job and no two jobs (or connections) ever share it. A failed load is forgotten, so the
 * next caller asks the platform again.
 */
import type { ConnectorContext } from './connector.ts';

export interface PerJob<T> {
  /** The job's value, loaded on first use (concurrent callers share one load). */
  get(ctx: ConnectorContext): Promise<T>;
  /** The value if this job loaded it already, for synchronous code; undefined otherwise. */
  known(ctx: ConnectorContext): T | undefined;
  /** Sets the job's value from a read that had it anyway (no second call). */
  remember(ctx: ConnectorContext, value: T): void;
}

export function perJob<T>(load: (ctx: ConnectorContext) => Promise<T>): PerJob<T> {
  const loads = new WeakMap<ConnectorContext, Promise<T>>();
  const values = new WeakMap<ConnectorContext, { value: T }>();
  return {
    get(ctx) {
      let pending = loads.get(ctx);
      if (pending === undefined) {
        pending = load(ctx).then((value) => {
          values.set(ctx, { value });
          return value;
        });
        pending.catch(() => {
          loads.delete(ctx);
        });
        loads.set(ctx, pending);
      }
      return pending;
    },
    known: (ctx) => values.get(ctx)?.value,
    remember(ctx, value) {
      values.set(ctx, { value });
      loads.set(ctx, Promise.resolve(value));
    },
  };
}

/**
 * A connection's platform limits, shared by every process through PostgreSQL (table platform_call_meters): before
 * each attempt of a platform call, one upsert (src/sql/take-platform-call.ts) takes the call's share of the rate,
 * the daily budget and the cost bucket, or says the daily budget is spent. Two workers on one Xero tenant thus stay
 * within 60 calls a minute and 5,000 a day together, where in-process buckets would each allow that much.
 *
 * The price is that statement per platform call. Measured by bench/platform-limits.ts (bench/results/platform-limits.json:
 * 2 shared cores, the embedded PostgreSQL 18 with fsync on): 0.43 ms at p50 and 1.5 ms at p99 with every limit declared
 * (0.37 and 0.62 ms with a daily budget alone), where a bare SELECT 1 takes 0.07 ms and the in-process bucket it
 * replaces for the rate about 1 µs. A platform call takes 100 ms to seconds, so this is well under 1% of it. Takes
 * from one connection's meter are serialised by its row lock: 8 sessions at once got 3,200 a second (p99 8 ms),
 * far above any platform's rate (Xero: 1 a second; QuickBooks Online: about 8). The table is UNLOGGED (migration
 * 0026 says why); LOGGED it cost 0.57 / 5.6 ms and 1,300 a second.
 *
 * Concurrency stays per process (src/platforms/limiter.ts). Across processes it would need a lease per call in the
 * database, taken before and given back after (two statements, and a crashed process's leases held until they
 * expire), and a waiter would have to poll or LISTEN for a free slot; the platforms that state a concurrency limit
 * (Xero 5, QuickBooks Online 10) answer a call beyond it with a 429, which the HTTP client retries after its
 * Retry-After or a backoff. So P processes may have up to P × concurrentRequests calls of one connection in flight.
 */
import type { Queryable } from '../db/pool.ts';
import { platformLimitedCalls, platformLimitWait } from '../metrics/registry.ts';
import { settlePlatformCallCost } from '../sql/settle-platform-call-cost.ts';
import { takePlatformCall, type MeterKey, type MeterLimits } from '../sql/take-platform-call.ts';
import { DailyBudgetSpent } from './daily-budget.ts';
import type { CostBucket, PlatformLimits, PlatformResponse, SharedLimiter } from './limit-types.ts';

export type { SharedCall, SharedLimiter, TakenCall } from './limit-types.ts';
import type { Sleep } from './limiter.ts';

export interface SharedLimiterOptions {
  db: Queryable;
  connectionId: string;
  platform: string;
  limits: PlatformLimits;
  sleep: Sleep;
  now?: () => number;
  /** A spent budget whose window ends within this long is waited out here instead of pausing the connection. */
  maxBudgetWaitMs: number;
}

/** The meter of the connection as a whole; per-operation meters are `operation:<name>`. */
export const CONNECTION_SCOPE = '';
export const operationScope = (operation: string): string => `operation:${operation}`;

/** Polling interval while a spent budget's window ends within maxBudgetWaitMs (clocks of node and PostgreSQL differ). */
const MIN_BUDGET_WAIT_MS = 1000;

function connectionMeterLimits(limits: PlatformLimits, bucket: CostBucket | null, cost: number | null): MeterLimits {
  return {
    rate: limits.requestsPerMinute === null ? null : { intervalMs: 60_000 / limits.requestsPerMinute, burst: limits.burst ?? 1 },
    dailyCalls: limits.dailyRequests ?? null,
    bucket: bucket === null || cost === null ? null : { size: bucket.size, refillPerSecond: bucket.refillPerSecond, cost },
  };
}

/** Whether the connection as a whole has a limit to share (per-operation rates aside). */
function hasConnectionMeter(limits: PlatformLimits): boolean {
  return limits.requestsPerMinute !== null || (limits.dailyRequests ?? null) !== null || limits.costBucket !== undefined;
}

/** Null when the limits have nothing to share: no statement is spent then. */
export function createSharedLimiter(options: SharedLimiterOptions): SharedLimiter | null {
  const { db, connectionId, platform, limits, sleep } = options;
  const now = options.now ?? Date.now;
  const withConnectionMeter = hasConnectionMeter(limits);
  if (!withConnectionMeter && Object.keys(limits.operations ?? {}).length === 0) return null;
  const bucket = limits.costBucket ?? null;
  const connectionKey: MeterKey = { connectionId, scope: CONNECTION_SCOPE };

  /** The wait before the call may start, after waiting out a budget window that ends soon. */
  async function takeFromConnection(cost: number | null, signal: AbortSignal | undefined): Promise<number> {
    for (;;) {
      const result = await takePlatformCall(db, connectionKey, connectionMeterLimits(limits, bucket, cost));
      if (result.granted) return result.waitMs;
      const untilReset = result.dayResetsAt.getTime() - now();
      if (untilReset > options.maxBudgetWaitMs) {
        platformLimitedCalls.inc({ platform, outcome: 'budget_spent' });
        throw new DailyBudgetSpent(platform, limits.dailyRequests ?? result.dayCalls, result.dayResetsAt, now());
      }
      await sleep(Math.max(untilReset, MIN_BUDGET_WAIT_MS), signal);
    }
  }

  async function takeFromOperation(operation: string): Promise<number> {
    const rate = limits.operations?.[operation];
    if (rate === undefined) return 0;
    const result = await takePlatformCall(
      db,
      { connectionId, scope: operationScope(operation) },
      {
        rate: { intervalMs: 1000 / rate.requestsPerSecond, burst: rate.burst },
        dailyCalls: null,
        bucket: null,
      },
    );
    return result.granted ? result.waitMs : 0;
  }

  async function settle(cost: number | null, response: PlatformResponse): Promise<void> {
    if (bucket === null || cost === null || bucket.costOf === undefined) return;
    const actual = bucket.costOf(response);
    if (actual === null || !Number.isFinite(actual) || actual === cost) return;
    await settlePlatformCallCost(db, connectionKey, bucket.size, cost - actual);
  }

  return {
    async take(call, signal) {
      const cost = bucket === null ? null : Math.min(bucket.size, Math.max(0, call.cost ?? bucket.defaultCost));
      const connectionWait = withConnectionMeter ? await takeFromConnection(cost, signal) : 0;
      const waitMs = Math.max(connectionWait, await takeFromOperation(call.operation));
      platformLimitedCalls.inc({ platform, outcome: waitMs > 0 ? 'waited' : 'immediate' });
      if (waitMs > 0) {
        platformLimitWait.observe({ platform }, waitMs / 1000);
        await sleep(waitMs, signal);
      }
      return { waitedMs: waitMs, settle: (response) => settle(cost, response) };
    },
  };
}

/**
 * The types the platform HTTP client, the shared limiter and the connector interface all speak: a platform's answer,
 * the limits a connector declares, and the limiter's calls. Their own module, so none of those three imports another
 * for a type (the layer lint forbids the cycle).
 */

export interface PlatformResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: unknown;
  /** Attempts it took, 1 when the first one succeeded. */
  attempts?: number;
}

/**
 * A rate the platform states per operation, as a token bucket: Amazon SP-API's getOrders is 0.0167 requests per second
 * with a burst of 20. Keyed by the request's `operation` name (PlatformRequest.operation).
 */
export interface OperationRate {
  requestsPerSecond: number;
  /** Requests that may start back to back when the bucket is full. */
  burst: number;
}

/**
 * A bucket of points that refills every second, each call costing points (Shopify's GraphQL Admin API: a bucket per
 * store restoring 100 points a second on the Standard plan; a query needs its requested cost in the bucket before it
 * runs and is refunded the difference to its actual cost afterwards). A call takes its expected cost before it starts
 * and waits while the bucket is short; the answer's actual cost, when `costOf` reports it, settles the difference.
 */
export interface CostBucket {
  size: number;
  refillPerSecond: number;
  /** Points a call takes up front unless the request says (PlatformRequest.cost). */
  defaultCost: number;
  /** The points the answer says the call cost (Shopify: extensions.cost.actualQueryCost); null when it does not say. */
  costOf?: (response: PlatformResponse) => number | null;
}

/**
 * Request limits of one connection (one platform tenant), as the platform documents them; every process shares
 * them through PostgreSQL (src/platforms/shared-limits.ts), except concurrency, which is per process.
 */
export interface PlatformLimits {
  /** Requests started per minute (Xero 60, QuickBooks Online 500); null: none stated. */
  requestsPerMinute: number | null;
  /**
   * Requests that may start back to back before requestsPerMinute spaces the rest (a token bucket of this size; default
   * 1, every start spaced). A minute can then see requestsPerMinute + burst starts: a platform whose limit is N per
   * minute declares requestsPerMinute + burst = N, trading a little full-sync speed for short reads that go at once.
   */
  burst?: number;
  /** Requests in flight at once, per process (see shared-limits.ts for why not across processes); null: none stated. */
  concurrentRequests: number | null;
  /**
   * Requests per 24 hours (Xero: 5,000 per tenant). Counted over a 24-hour window opened by its first call; when it is
   * spent the connection's syncs and writes pause until the window ends. Absent or null: none.
   */
  dailyRequests?: number | null;
  costBucket?: CostBucket;
  /** Per-operation rates on top of the connection's (Amazon SP-API). */
  operations?: Readonly<Record<string, OperationRate>>;
}

export interface SharedCall {
  /** The request's operation name: per-operation rates are keyed by it. */
  operation: string;
  /** Expected points for a cost bucket; default the bucket's defaultCost. */
  cost?: number;
}

export interface TakenCall {
  waitedMs: number;
  /** After the answer: settles the cost bucket with the cost the answer reports. */
  settle(response: PlatformResponse): Promise<void>;
}

export interface SharedLimiter {
  /**
   * Takes the call's capacity and waits until it may start; throws DailyBudgetSpent when the budget is spent. A call
   * cancelled while it waits has spent its share all the same: the count errs towards fewer calls, never more.
   */
  take(call: SharedCall, signal?: AbortSignal): Promise<TakenCall>;
}

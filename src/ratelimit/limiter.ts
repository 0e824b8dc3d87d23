/**
 * Request rate limit per organisation: `limit` requests per window. State lives
 * in PostgreSQL, or in Redis when REDIS_URL is set, so any number of API
 * processes share one count.
 */
import type { Pool } from '../db/pool.ts';
import { rateLimitHit, type WindowState } from '../sql/rate-limit-hit.ts';
import { BatchedCounter } from './batched.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (rounded up, at least 1 when exhausted). */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  hit(bucket: string): Promise<RateDecision>;
  close(): Promise<void>;
}

function decide(state: WindowState, limit: number, windowSeconds: number): RateDecision {
  const allowed = state.hits <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - state.hits),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(state.resetMs / 1000)),
    windowSeconds,
  };
}

export function postgresRateLimiter(pool: Pool, limit: number, windowSeconds: number): RateLimiter {
  // One counter row per organisation: far from the limit, requests are added to it in batches (src/ratelimit/batched.ts).
  const counter = new BatchedCounter((bucket, n) => rateLimitHit(pool, bucket, windowSeconds, n), limit);
  return {
    async hit(bucket) {
      return decide(await counter.hit(bucket), limit, windowSeconds);
    },
    close: () => counter.drain(),
  };
}

// Same window semantics as the SQL: the key's expiry is the window; INCR within it.
const REDIS_HIT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {hits, ttl}`;

export function redisRateLimiter(url: string, limit: number, windowSeconds: number): RateLimiter {
  // ioredis is loaded only when REDIS_URL is set: it costs every start about 50 ms and 15 MB of memory.
  const client = import('ioredis').then(({ Redis }) => new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }));
  return {
    async hit(bucket) {
      const redis = await client;
      const reply = await redis.eval(REDIS_HIT, 1, `ledgerport:rl:${bucket}`, String(windowSeconds * 1000));
      const [hits, ttl] = Array.isArray(reply) ? reply.map(Number) : [Number.NaN, Number.NaN];
      if (hits === undefined || ttl === undefined || Number.isNaN(hits)) throw new Error('unexpected reply from Redis rate limit script');
      return decide({ hits, resetMs: ttl }, limit, windowSeconds);
    },
    async close() {
      await (await client).quit();
    },
  };
}

/** IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) plus Retry-After on 429. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"org";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"org";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}

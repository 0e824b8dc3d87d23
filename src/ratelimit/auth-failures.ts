/**
 * Throttle on failed authentication (issue 19): after `perAddress` failures in
 * a window from one source address, or `perTarget` against one target (the
 * admin token, one client_id, one connection's link), further failures of the
 * address or target are answered 429 until the window ends. Where the
 * credential is ours to check (admin token, client credentials, dashboard
 * password) it is still checked and the right one passes (issue 32: one
 * misconfigured client behind a NAT must not lock out the others there; see
 * src/http/auth-throttle.ts); the link flow, whose credentials only the
 * platform can check, is paused unread.
 *
 * Counts live in PostgreSQL (UNLOGGED auth_failures), shared by every process;
 * only failures write, one upsert for both buckets. A success costs no query:
 * each process remembers the blocks it learnt from its own failure writes, and
 * checks those in memory. So a process that has not seen a failure since the
 * block began answers one more guess (which fails, writes, and teaches it the
 * block): across P processes at most P - 1 guesses more than the limit.
 *
 * IPv6 addresses are counted per /64 (one host usually holds a whole /64), and
 * IPv4-mapped IPv6 as the IPv4 address. Targets are stored as hashes, since every byte
 * a client sends is a valid key, and no client_id or link token is kept.
 */
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { AuthFailureLimits } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import { countAuthFailures, sweepAuthFailures } from '../sql/auth-failures.ts';

/** Where the credential is presented: counted apart, so failures on one surface do not block another. */
export type AuthSurface = 'admin' | 'client' | 'link' | 'dashboard' | 'webhook';

export interface AuthAttempt {
  surface: AuthSurface;
  /** The source address (request.ip). */
  address: string;
  /** What is being guessed at (e.g. `client:<client_id>`); null when the attempt names none. */
  target: string | null;
}

export interface Blocked {
  /** Which limit was reached. */
  by: 'address' | 'target';
  limit: number;
  windowSeconds: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/** Blocks one process remembers at most (a flood of distinct addresses evicts the oldest). */
const MAX_REMEMBERED = 100_000;
/** One failure write in this many also removes ended windows. */
const SWEEP_EVERY = 1000;

/** The address as counted: IPv4, or the /64 of an IPv6 address. */
const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function addressKey(address: string): string {
  // Most addresses are plain IPv4 (socket addresses are canonical): skip the parser, which costs ~10 µs.
  if (DOTTED_QUAD.test(address)) return address;
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const hextets = parsed.toByteArray();
  const prefix: string[] = [];
  for (let i = 0; i < 8; i += 2) prefix.push((((hextets[i] ?? 0) << 8) | (hextets[i + 1] ?? 0)).toString(16));
  return `${prefix.join(':')}::/64`;
}

function targetKey(target: string): string {
  return createHash('sha256').update(target).digest('base64url').slice(0, 32);
}

interface Buckets {
  address: string;
  target: string | null;
}

export class AuthFailureThrottle {
  /** Bucket → end of its window (ms since epoch), for buckets known to be over their limit. */
  private readonly blockedUntil = new Map<string, number>();
  private writes = 0;
  private readonly db: Queryable;
  readonly limits: AuthFailureLimits;

  constructor(db: Queryable, limits: AuthFailureLimits) {
    this.db = db;
    this.limits = limits;
  }

  private buckets(attempt: AuthAttempt): Buckets {
    return {
      address: `${attempt.surface}:a:${addressKey(attempt.address)}`,
      target: attempt.target === null ? null : `${attempt.surface}:t:${targetKey(attempt.target)}`,
    };
  }

  private remaining(bucket: string | null, now: number): number {
    if (bucket === null) return 0;
    const until = this.blockedUntil.get(bucket);
    if (until === undefined) return 0;
    if (until <= now) {
      this.blockedUntil.delete(bucket);
      return 0;
    }
    return until - now;
  }

  private blockedBy(by: Blocked['by'], ms: number): Blocked {
    const limit = by === 'address' ? this.limits.perAddress : this.limits.perTarget;
    return { by, limit, windowSeconds: this.limits.windowSeconds, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
  }

  /** Whether this process knows the attempt's address or target to be blocked. No query. */
  blocked(attempt: AuthAttempt): Blocked | null {
    // The usual case, nothing blocked: no address parsing or hashing on the success path.
    if (this.blockedUntil.size === 0) return null;
    const now = Date.now();
    const buckets = this.buckets(attempt);
    const address = this.remaining(buckets.address, now);
    if (address > 0) return this.blockedBy('address', address);
    const target = this.remaining(buckets.target, now);
    return target > 0 ? this.blockedBy('target', target) : null;
  }

  /** Whether this process knows the attempt's target to be blocked (whatever its address). No query. */
  blockedTarget(attempt: AuthAttempt): Blocked | null {
    if (this.blockedUntil.size === 0 || attempt.target === null) return null;
    const target = this.remaining(this.buckets(attempt).target, Date.now());
    return target > 0 ? this.blockedBy('target', target) : null;
  }

  /**
   * Whether a failure of this attempt would teach nothing: its address is known to be blocked, and so is its target
   * (or it names none). A flood from a blocked address then costs no write.
   */
  fullyBlocked(attempt: AuthAttempt): boolean {
    if (this.blockedUntil.size === 0) return false;
    const now = Date.now();
    const buckets = this.buckets(attempt);
    return this.remaining(buckets.address, now) > 0 && (buckets.target === null || this.remaining(buckets.target, now) > 0);
  }

  /** Counts a failed attempt; returns the block it completed, if any (later attempts get it from `blocked`). */
  async recordFailure(attempt: AuthAttempt): Promise<Blocked | null> {
    const buckets = this.buckets(attempt);
    const counted = await countAuthFailures(
      this.db,
      buckets.target === null ? [buckets.address] : [buckets.address, buckets.target],
      this.limits.windowSeconds,
    );
    this.writes += 1;
    if (this.writes % SWEEP_EVERY === 0) await sweepAuthFailures(this.db, this.limits.windowSeconds);
    let result: Blocked | null = null;
    for (const count of counted) {
      const by = count.bucket === buckets.address ? 'address' : 'target';
      const limit = by === 'address' ? this.limits.perAddress : this.limits.perTarget;
      if (count.failures < limit || count.resetMs <= 0) continue;
      this.remember(count.bucket, Date.now() + count.resetMs);
      result ??= this.blockedBy(by, count.resetMs);
    }
    return result;
  }

  private remember(bucket: string, until: number): void {
    if (this.blockedUntil.size >= MAX_REMEMBERED && !this.blockedUntil.has(bucket)) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
    this.blockedUntil.set(bucket, until);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authThrottle: AuthFailureThrottle;
  }
}

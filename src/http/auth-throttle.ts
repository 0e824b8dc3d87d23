/**
 * The failed-authentication throttle at the API's and the dashboard's edge (/admin, /versioned, the dashboard's
 * sign-in): the credential is always checked, so the right one passes even from a blocked address or for a blocked
 * target; a wrong one from a blocked address or for a blocked target is answered 429 instead of 401, and a refused
 * credential is counted.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ServiceError, type ErrorCode } from '../errors/catalogue.ts';
import type { AuthAttempt, AuthFailureThrottle, AuthSurface, Blocked } from '../ratelimit/auth-failures.ts';
import { countThrottled } from '../metrics/registry.ts';

/** The 429 of a blocked address or target, counted in ledgerport_http_throttled_total (webhook_throttle for platform webhooks). */
export function tooManyFailures(blocked: Blocked, surface: AuthSurface): ServiceError {
  countThrottled(surface === 'webhook' ? 'webhook_throttle' : 'auth_throttle');
  const from = blocked.by === 'address' ? 'from this address' : 'for these credentials';
  return new ServiceError(
    'RATE_LIMIT_EXCEEDED',
    `Too many failed authentication attempts ${from} (${blocked.limit} in ${blocked.windowSeconds} s): ` +
      `wrong credentials are refused with this answer; retry after ${blocked.retryAfterSeconds} s.`,
    { source: 'service' },
    { 'Retry-After': String(blocked.retryAfterSeconds) },
  );
}

/**
 * Costly checks (the dashboard's argon2, about 30 ms of a libuv thread each) of attempts from blocked addresses, run
 * one at a time per process with at most QUEUED waiting; the next is answered 429 unchecked. A flood from blocked
 * addresses thus costs at most one thread of hashing (~33 checks a second), while a person behind the same NAT
 * still gets a turn within a few checks' time.
 */
const QUEUED = 8;

export class BlockedSourceChecks {
  #running = false;
  readonly #waiting: (() => void)[] = [];

  /** Runs `check` in its turn, or returns null at once when the queue is full. */
  async run<T>(check: () => T | Promise<T>): Promise<{ value: T } | null> {
    if (this.#running) {
      if (this.#waiting.length >= QUEUED) return null;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#running = true;
    try {
      return { value: await check() };
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#running = false;
      else next();
    }
  }
}

/** One per process: argon2's threads are the process's. */
export const blockedSourceChecks = new BlockedSourceChecks();

/**
 * Runs `check`; when it throws `refusal` and a credential was presented, counts a failure (a missing header is not a
 * guess) and, if the address or target was already blocked, answers 429 instead. Counting never hides the refusal:
 * if it fails, it is logged.
 *
 * Issue 32: a blocked address used to be answered 429 before the credential was looked at, so one misconfigured
 * client behind a shared NAT locked out every other client there. Now the right credential always passes. What a
 * flood from a blocked address costs: for the admin token a SHA-256 and a constant-time compare; for client
 * credentials the cache of verified ones (a SHA-256) or one indexed query; a failure from an address whose target is
 * blocked too (or names none) writes nothing (`fullyBlocked`). `costly` checks (argon2) from a blocked address go
 * through `blockedSourceChecks`, and one for a blocked target (a person's password, which can be guessed, unlike a
 * generated secret) is refused unchecked: otherwise a blocked address could go on guessing one user's password.
 */
export async function throttledAuthentication<T>(
  throttle: AuthFailureThrottle,
  log: FastifyBaseLogger,
  attempt: AuthAttempt & { presented: boolean; refusal: ErrorCode; costly?: boolean },
  check: () => T | Promise<T>,
): Promise<T> {
  const blocked = throttle.blocked(attempt);
  if (attempt.costly === true) {
    // A person's password can be guessed, unlike a generated secret: a blocked user is not checked at all.
    const target = throttle.blockedTarget(attempt);
    if (target !== null) throw tooManyFailures(target, attempt.surface);
  }
  try {
    if (blocked?.by !== 'address' || attempt.costly !== true) return await check();
    const checked = await blockedSourceChecks.run(check);
    if (checked === null) throw tooManyFailures(blocked, attempt.surface);
    return checked.value;
  } catch (error) {
    if (!(attempt.presented && error instanceof ServiceError && error.code === attempt.refusal)) throw error;
    if (!throttle.fullyBlocked(attempt)) {
      await throttle.recordFailure(attempt).catch((countError: unknown) => {
        log.warn({ err: countError }, 'could not count a failed authentication');
      });
    }
    // The failure that reaches the limit is still answered as refused; the ones after it, 429.
    throw blocked === null ? error : tooManyFailures(blocked, attempt.surface);
  }
}

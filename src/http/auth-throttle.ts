/**
 * The failed-authentication throttle at the API's edge (/admin and
 * /versioned): a blocked address is answered 429 before the credential is
 * looked at, a blocked target only when its credential is wrong; a refused
 * credential is counted.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ServiceError, type ErrorCode } from '../errors/catalogue.ts';
import type { AuthAttempt, AuthFailureThrottle, Blocked } from '../ratelimit/auth-failures.ts';

function tooManyFailures(blocked: Blocked): ServiceError {
  const from = blocked.by === 'address' ? 'from this address' : 'for these credentials';
  return new ServiceError(
    'RATE_LIMIT_EXCEEDED',
    `Too many failed authentication attempts ${from} (${blocked.limit} in ${blocked.windowSeconds} s): ` +
      `further attempts are refused without being checked; retry after ${blocked.retryAfterSeconds} s.`,
    { source: 'service' },
    { 'Retry-After': String(blocked.retryAfterSeconds) },
  );
}

/**
 * Runs `check` unless the attempt's address is blocked; when `check` throws `refusal` and a credential was
 * presented, counts a failure (a missing header is not a guess). Counting never hides the refusal: if it fails, it
 * is logged.
 *
 * A blocked target (the admin token, one client_id) is still checked: the right credential passes, a wrong one is
 * answered 429. Otherwise anyone could lock an organisation, or the operator, out of its own service by sending
 * wrong secrets for its client_id from a few addresses; the secrets are long random strings, so the target count
 * slows no realistic guessing, while the per-address count still stops one source's flood unread.
 */
export async function throttledAuthentication<T>(
  throttle: AuthFailureThrottle,
  log: FastifyBaseLogger,
  attempt: AuthAttempt & { presented: boolean; refusal: ErrorCode },
  check: () => T | Promise<T>,
): Promise<T> {
  const blocked = throttle.blocked(attempt);
  if (blocked?.by === 'address') throw tooManyFailures(blocked);
  try {
    return await check();
  } catch (error) {
    if (!(attempt.presented && error instanceof ServiceError && error.code === attempt.refusal)) throw error;
    await throttle.recordFailure(attempt).catch((countError: unknown) => {
      log.warn({ err: countError }, 'could not count a failed authentication');
    });
    // The failure that reaches the limit is still answered as refused; the ones after it, 429.
    throw blocked === null ? error : tooManyFailures(blocked);
  }
}

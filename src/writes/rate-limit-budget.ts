/**
 * A write the platform rate-limits is retried while waiting is worth it, and answered 452 as soon as it is not.
 * The job's clock starts at its first rate-limited attempt (a 429, or the connection's platform pause or daily budget
 * refusing the call) and travels in its queue entries' data (src/writes/accept.ts, WriteJobData). Each time the
 * platform refuses, the job waits only if the moment it may call again (the end of the Retry-After or of the pause,
 * or the write queue's backoff when that is later) is within WRITE_RATE_LIMIT_BUDGET_SECONDS of that start; otherwise
 * it ends at once with 452 PLATFORM_RATE_LIMITED saying when the platform will take writes again. A spent daily limit
 * (Retry-After: 3600, Xero's 11 hours) thus answers 452 within seconds instead of leaving the write pending for hours.
 */
import { ServiceError, type ErrorMetadata } from '../errors/catalogue.ts';
import type { PlatformError } from '../platforms/errors.ts';

/** The write queue's retry backoff (src/jobs/queues.ts): 2 s doubling per retry, at most 120 s. */
export const WRITE_RETRY_DELAY_SECONDS = 2;
export const WRITE_RETRY_DELAY_MAX_SECONDS = 120;

/** pg-boss's backoff before retry `retriesDone + 1` of the write queue: retryDelay·2^n·(1 + random), capped. */
export function writeBackoffSeconds(retriesDone: number, random: () => number = Math.random): number {
  const grown = WRITE_RETRY_DELAY_SECONDS * 2 ** Math.min(16, Math.max(0, retriesDone)) * (1 + random());
  return Math.min(WRITE_RETRY_DELAY_MAX_SECONDS, grown);
}

export interface RateLimitVerdict {
  /** Wait and retry (true), or answer 452 now (false). */
  retry: boolean;
  /** When the job was first rate-limited: kept with its next queue entry. */
  since: Date;
}

/** The budget rule: retry while `resumeAt` (when the next call may go) is within the budget from the first refusal. */
export function rateLimitVerdict(input: { since: Date | null; resumeAt: Date; now: Date; budgetSeconds: number }): RateLimitVerdict {
  const since = input.since ?? input.now;
  return { retry: input.resumeAt.getTime() - since.getTime() <= input.budgetSeconds * 1000, since };
}

/** The clock a queue entry carries, or null when it carries none (or an unreadable one). */
export function readRateLimitedSince(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** What the platform said, for a 452 the service gives up with. */
export type RateLimitCause = { platformError: PlatformError } | { pauseReason: string };

/**
 * The 452 a write ends with when waiting is not worth it. `platformResumeAt` is when the platform said it would take
 * calls again (its Retry-After, the pause's end); null when it did not say (then the job's own backoff ran out of budget).
 */
export function rateLimitedFailure(input: { cause: RateLimitCause; platformResumeAt: Date | null; since: Date; now: Date }): ServiceError {
  const base: ErrorMetadata =
    'platformError' in input.cause ? (input.cause.platformError.toServiceError().metadata ?? {}) : { human_readable: input.cause.pauseReason };
  const metadata: ErrorMetadata = { ...base, source: 'platform' };
  if (input.platformResumeAt === null) {
    const waited = Math.round((input.now.getTime() - input.since.getTime()) / 1000);
    return new ServiceError(
      'PLATFORM_RATE_LIMITED',
      `The platform kept rate-limiting this write for ${waited} s, as long as a write waits for it; retry the write later.`,
      metadata,
    );
  }
  const seconds = Math.max(1, Math.ceil((input.platformResumeAt.getTime() - input.now.getTime()) / 1000));
  return new ServiceError(
    'PLATFORM_RATE_LIMITED',
    `The platform rate-limited this write and asks to wait ${seconds} s (until ${input.platformResumeAt.toISOString()}); retry the write then.`,
    metadata,
    { 'Retry-After': String(seconds) },
  );
}

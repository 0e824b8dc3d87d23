/**
 * Long Retry-After answers pause a connection's platform calls, shared by every
 * process (src/sql/platform-pauses.ts). The platform HTTP client waits out a
 * Retry-After up to HTTP_DEFAULTS.maxRetryAfterMs itself; a longer one (Xero's
 * daily limit answers with about 11 hours) comes up as an error, and the sync
 * or write that met it is put off until the pause ends instead of spending its
 * attempts on the job queue's retry schedule.
 */
import { HTTP_DEFAULTS } from '../platforms/http.ts';
import { PlatformError } from '../platforms/errors.ts';

export interface PauseRequest { until: Date; reason: string }

/** The pause a failure asks for, or null when it is not a long Retry-After. */
export function pauseFor(error: unknown, now: number = Date.now()): PauseRequest | null {
  if (!(error instanceof PlatformError) || error.kind !== 'rate_limited') return null;
  if (error.retryAfterMs === null || error.retryAfterMs <= HTTP_DEFAULTS.maxRetryAfterMs) return null;
  const seconds = Math.ceil(error.retryAfterMs / 1000);
  return { until: new Date(now + error.retryAfterMs), reason: `The platform asked us to wait ${seconds} s before calling again (HTTP ${error.httpStatus ?? 429} Retry-After): ${error.platformMessage.slice(0, 300)}` };
}

/** Whole seconds from now until `until`, at least 1: a job's startAfter. */
export function secondsUntil(until: Date, now: number = Date.now()): number {
  return Math.max(1, Math.ceil((until.getTime() - now) / 1000));
}

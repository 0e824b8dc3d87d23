/**
 * Long Retry-After answers, and spent daily budgets, pause a connection's
 * platform calls, shared by every process (src/sql/platform-pauses.ts). The
 * platform HTTP client waits out a Retry-After up to HTTP_DEFAULTS.maxRetryAfterMs
 * itself; a longer one (Xero's daily limit answers with about 11 hours) comes up
 * as an error, as does our own limiter's refusal once the connection's daily
 * budget is spent (src/platforms/shared-limits.ts), and the sync or write that
 * met it is put off until the pause ends instead of spending its attempts on the
 * job queue's retry schedule.
 */
import { HTTP_DEFAULTS } from '../platforms/http.ts';
import { PlatformError } from '../platforms/errors.ts';
import { DailyBudgetSpent } from '../platforms/daily-budget.ts';
import { platformBudgetPauses } from '../metrics/registry.ts';

export interface PauseRequest {
  until: Date;
  reason: string;
  /** What asked for it: the platform's Retry-After, or our count of the connector's daily budget. */
  cause: 'retry_after' | 'daily_budget';
}

/** The pause a failure asks for, or null when it is neither a long Retry-After nor a spent daily budget. */
export function pauseFor(error: unknown, now: number = Date.now()): PauseRequest | null {
  // Whenever its window ends: the limiter waits out a window that ends within maxRetryAfterMs before refusing.
  if (error instanceof DailyBudgetSpent) return { until: error.resetsAt, reason: error.platformMessage, cause: 'daily_budget' };
  if (!(error instanceof PlatformError) || error.kind !== 'rate_limited') return null;
  if (error.retryAfterMs === null || error.retryAfterMs <= HTTP_DEFAULTS.maxRetryAfterMs) return null;
  const seconds = Math.ceil(error.retryAfterMs / 1000);
  return {
    until: new Date(now + error.retryAfterMs),
    reason: `The platform asked us to wait ${seconds} s before calling again (HTTP ${error.httpStatus ?? 429} Retry-After): ${error.platformMessage.slice(0, 300)}`,
    cause: 'retry_after',
  };
}

/** Whole seconds from now until `until`, at least 1: a job's startAfter. */
export function secondsUntil(until: Date, now: number = Date.now()): number {
  return Math.max(1, Math.ceil((until.getTime() - now) / 1000));
}

/** Counts a pause of the connection's platform calls (metrics) and says why, for its log line. */
export function notePause(request: PauseRequest, platform: string | null): string {
  if (request.cause === 'daily_budget') {
    platformBudgetPauses.inc({ platform: platform ?? 'none' });
    return 'platform calls of this connection paused: its daily budget of platform calls is spent';
  }
  return 'platform calls of this connection paused: a long Retry-After';
}

import { describe, expect, it } from 'vitest';
import { PlatformError } from '../platforms/errors.ts';
import { rateLimitedFailure, rateLimitVerdict, readRateLimitedSince, writeBackoffSeconds } from './rate-limit-budget.ts';

const now = new Date('2026-11-29T08:00:00.000Z');
const later = (seconds: number, from: Date = now): Date => new Date(from.getTime() + seconds * 1000);

describe('the rate-limit budget of a write', () => {
  it('retries while the wait the platform asks for ends within the budget from the first refusal', () => {
    expect(rateLimitVerdict({ since: null, resumeAt: later(30), now, budgetSeconds: 120 })).toEqual({ retry: true, since: now });
    const since = later(-100);
    expect(rateLimitVerdict({ since, resumeAt: later(20), now, budgetSeconds: 120 })).toEqual({ retry: true, since });
  });

  it('answers 452 now once the wait would end beyond the budget, counted from the first refusal', () => {
    expect(rateLimitVerdict({ since: null, resumeAt: later(3600), now, budgetSeconds: 120 })).toEqual({ retry: false, since: now });
    // A short wait is not worth it either when the job has been refused for most of its budget already.
    const since = later(-100);
    expect(rateLimitVerdict({ since, resumeAt: later(21), now, budgetSeconds: 120 })).toEqual({ retry: false, since });
  });

  it('says when the platform will take writes again, with a Retry-After of the remaining wait', () => {
    const error = new PlatformError({ kind: 'rate_limited', httpStatus: 429, message: 'Daily limit reached', retryAfterMs: 3_600_000 });
    const failure = rateLimitedFailure({ cause: { platformError: error }, platformResumeAt: later(3600), since: now, now });
    expect(failure.status).toBe(452);
    expect(failure.code).toBe('PLATFORM_RATE_LIMITED');
    expect(failure.message).toBe(
      'The platform rate-limited this write and asks to wait 3600 s (until 2026-11-29T09:00:00.000Z); retry the write then.',
    );
    expect(failure.metadata).toMatchObject({ source: 'platform', human_readable: 'Daily limit reached', platform: { status: 429 } });
    expect(failure.headers).toEqual({ 'Retry-After': '3600' });
  });

  it("grows like the write queue's own backoff: 2 s doubling, at most 120 s", () => {
    expect(writeBackoffSeconds(0, () => 0)).toBe(2);
    expect(writeBackoffSeconds(3, () => 0.5)).toBe(24);
    expect(writeBackoffSeconds(10, () => 0)).toBe(120);
  });

  it('reads the clock a queue entry carries, and ignores an unreadable one', () => {
    expect(readRateLimitedSince(now.toISOString())).toEqual(now);
    expect(readRateLimitedSince('yesterday-ish')).toBeNull();
    expect(readRateLimitedSince(undefined)).toBeNull();
  });
});

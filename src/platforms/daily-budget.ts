/**
 * A connection's daily budget of platform calls (Connector.limits.dailyRequests) is spent. Raised by our own limiter
 * before anything is sent, as a 429 the platform would have answered: retryable, not indeterminate, and a pause of
 * the connection until the budget's window ends (src/connections/platform-pause.ts).
 */
import { PlatformError } from './errors.ts';

export class DailyBudgetSpent extends PlatformError {
  readonly dailyLimit: number;
  readonly resetsAt: Date;

  constructor(platform: string, dailyLimit: number, resetsAt: Date, now: number = Date.now()) {
    super({
      kind: 'rate_limited',
      code: 'DAILY_BUDGET_SPENT',
      message: `The connection's daily budget of ${dailyLimit} ${platform} calls is spent; platform calls resume at ${resetsAt.toISOString()}.`,
      retryAfterMs: Math.max(0, resetsAt.getTime() - now),
      requestSent: false,
    });
    this.name = 'DailyBudgetSpent';
    this.dailyLimit = dailyLimit;
    this.resetsAt = resetsAt;
  }
}

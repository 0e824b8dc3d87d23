/** Knobs of the sandbox platform, with defaults and their environment variables. */

export interface SandboxOptions {
  /** Records per account unless the username sets a size (SANDBOX_SIZE). */
  defaultSize: number;
  /** Months of generated history. */
  months: number;
  /** Last business day of generated histories (YYYY-MM-DD); null = the day the books are materialized (SANDBOX_AS_OF). */
  asOf: string | null;
  /** Simulated time between ticks, ms; 0 = time only moves through advance() (SANDBOX_TICK_INTERVAL_SECONDS). */
  tickIntervalMs: number;
  /** At most this many ticks are caught up on one read. */
  maxCatchUpTicks: number;
  /** rate_limited scenario: every Nth call answers 429 (SANDBOX_RATE_LIMIT_EVERY). */
  rateLimitEvery: number;
  /** Retry-After of those 429 answers, seconds (SANDBOX_RETRY_AFTER_SECONDS). */
  retryAfterSeconds: number;
  /** flaky scenario: every Nth call answers 5xx (SANDBOX_ERROR_EVERY). */
  errorEvery: number;
  /** slow_initial_sync scenario: wait before each page of a full read, ms (SANDBOX_SLOW_PAGE_DELAY_MS). */
  slowPageDelayMs: number;
  /** Page size when the caller does not ask; and the most it may ask. */
  defaultPageSize: number;
  maxPageSize: number;
  /** Connections used in parallel to insert generated records. */
  insertConnections: number;
  /** The platform's clock (ms since epoch); injectable for tests. */
  now: () => number;
}

export const DEFAULT_OPTIONS: Readonly<SandboxOptions> = {
  defaultSize: 5_000,
  months: 24,
  asOf: null,
  tickIntervalMs: 10 * 60_000,
  maxCatchUpTicks: 6,
  rateLimitEvery: 3,
  retryAfterSeconds: 1,
  errorEvery: 4,
  slowPageDelayMs: 5_000,
  defaultPageSize: 200,
  maxPageSize: 1_000,
  insertConnections: 2,
  now: Date.now,
};

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}=${raw} must be an integer >= ${min}`);
  return value;
}

/** Options from SANDBOX_* environment variables over the defaults. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<SandboxOptions> {
  const asOf = env.SANDBOX_AS_OF;
  if (asOf !== undefined && asOf !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw new Error(`SANDBOX_AS_OF=${asOf} must be a date (YYYY-MM-DD)`);
  return {
    defaultSize: int(env, 'SANDBOX_SIZE', DEFAULT_OPTIONS.defaultSize, 1),
    asOf: asOf === undefined || asOf === '' ? null : asOf,
    tickIntervalMs: int(env, 'SANDBOX_TICK_INTERVAL_SECONDS', DEFAULT_OPTIONS.tickIntervalMs / 1000, 0) * 1000,
    rateLimitEvery: int(env, 'SANDBOX_RATE_LIMIT_EVERY', DEFAULT_OPTIONS.rateLimitEvery, 2),
    retryAfterSeconds: int(env, 'SANDBOX_RETRY_AFTER_SECONDS', DEFAULT_OPTIONS.retryAfterSeconds, 0),
    errorEvery: int(env, 'SANDBOX_ERROR_EVERY', DEFAULT_OPTIONS.errorEvery, 2),
    slowPageDelayMs: int(env, 'SANDBOX_SLOW_PAGE_DELAY_MS', DEFAULT_OPTIONS.slowPageDelayMs, 0),
  };
}

export function resolveOptions(options: Partial<SandboxOptions> = {}): SandboxOptions {
  return { ...DEFAULT_OPTIONS, ...optionsFromEnv(), ...options };
}

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
  /**
   * Base address of the platform's own web pages (the bank feed linking page), as a browser reaches
   * them: the service's PUBLIC_URL when the pages are served by the service (registerSandboxPages),
   * the standalone server's address when server.ts serves them.
   */
  publicUrl: string;
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
  publicUrl: 'http://localhost:8080',
  now: Date.now,
};

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}=${raw} must be an integer >= ${min}`);
  return value;
}

/** PUBLIC_URL without its trailing slash; by default the service's own address on its PORT, as src/config.ts does. */
function publicUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.PUBLIC_URL;
  if (raw === undefined || raw === '') return `http://localhost:${int(env, 'PORT', 8080, 1)}`;
  try {
    return new URL(raw).toString().replace(/\/+$/, '');
  } catch {
    throw new Error(`PUBLIC_URL=${raw} must be a URL, e.g. https://ledgerport.example.com`);
  }
}

/** Options from SANDBOX_* (and PUBLIC_URL) environment variables over the defaults. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<SandboxOptions> {
  const asOf = env.SANDBOX_AS_OF;
  if (asOf !== undefined && asOf !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw new Error(`SANDBOX_AS_OF=${asOf} must be a date (YYYY-MM-DD)`);
  return {
    publicUrl: publicUrl(env),
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

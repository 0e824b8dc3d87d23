/**
 * Test accounts of the sandbox platform, chosen by credentials. `user_good` /
 * `pass_good` is a healthy business; the usernames below misbehave in one
 * documented way each. Any other username starting with `user_` (password
 * `pass_good`) is a healthy business with its own seed, so tests can create as
 * many distinct accounts as they like; `_size_<N>` in it sets the record count.
 */
import { hashString } from './prng.ts';

export type ScenarioName =
  | 'healthy'
  | 'rate_limited'
  | 'flaky'
  | 'revoked_after_sync'
  | 'slow_initial_sync'
  | 'billing_issue'
  | 'write_invalid'
  | 'write_throttled'
  | 'write_daily_limit'
  | 'write_unavailable'
  | 'write_forbidden'
  | 'suspended_after_sync'
  | 'failing_after_sync'
  | 'deletes_after_sync'
  | 'link_error';

export interface ScenarioSpec {
  username: string;
  scenario: ScenarioName;
  behaviour: string;
}

export const SANDBOX_PASSWORD = 'pass_good';

export const SCENARIOS: readonly ScenarioSpec[] = [
  { username: 'user_good', scenario: 'healthy', behaviour: 'A healthy business: every call succeeds.' },
  { username: 'user_rate_limited', scenario: 'rate_limited', behaviour: 'Every Nth API call (default 3rd) answers 429 with Retry-After.' },
  {
    username: 'user_flaky',
    scenario: 'flaky',
    behaviour: 'Every Nth API call (default 4th) answers 500 or 503, alternately; on writes the 500 comes after the write was applied.',
  },
  {
    username: 'user_revoked',
    scenario: 'revoked_after_sync',
    behaviour: 'Credentials are revoked after the initial sync: the first incremental read (and every call after it) answers 401.',
  },
  {
    username: 'user_slow',
    scenario: 'slow_initial_sync',
    behaviour: 'Full reads wait before each page (default 5 s), so the initial sync takes minutes.',
  },
  { username: 'user_billing', scenario: 'billing_issue', behaviour: 'Reads work; every write answers 402 (subscription expired).' },
  {
    username: 'user_write_invalid',
    scenario: 'write_invalid',
    behaviour: 'Reads work; every write answers 400, a validation fault naming the field (our 450 PLATFORM_BAD_REQUEST, with the platform message).',
  },
  {
    username: 'user_write_throttled',
    scenario: 'write_throttled',
    behaviour:
      "Reads work; every write answers 429 with a short Retry-After (retried within the write's rate-limit budget, WRITE_RATE_LIMIT_BUDGET_SECONDS, then our 452 PLATFORM_RATE_LIMITED, 50 s to about 130 s after the write was accepted).",
  },
  {
    username: 'user_write_daily_limit',
    scenario: 'write_daily_limit',
    behaviour:
      "Reads work; every write answers 429 with Retry-After: 3600, the daily limit is spent (our 452 PLATFORM_RATE_LIMITED within seconds, saying when to write again; the connection's platform calls pause for that hour).",
  },
  {
    username: 'user_write_unavailable',
    scenario: 'write_unavailable',
    behaviour: 'Reads work; every write answers 503 before anything is applied (retried, then our 550 PLATFORM_ERROR).',
  },
  {
    username: 'user_write_forbidden',
    scenario: 'write_forbidden',
    behaviour:
      'Reads work; every write answers 403, the connected user may not make changes (our 451 PLATFORM_UNAUTHORIZED; the connection then needs re-authentication by a user who may, CONNECTION_NEEDS_UPDATE).',
  },
  {
    username: 'user_suspended',
    scenario: 'suspended_after_sync',
    behaviour:
      'The account is suspended after the initial sync: the first incremental read (and every read after it) answers 402, and the connection is disabled (CONNECTION_DISABLED, then 409 CONNECTION_DISABLED).',
  },
  {
    username: 'user_failing',
    scenario: 'failing_after_sync',
    behaviour:
      'The platform goes down after the initial sync: every incremental read answers 503 with Retry-After 300 (maintenance), so each sync fails at once; the third failed sync in a row makes the connection unhealthy (CONNECTION_ERROR), the twelfth disables it (CONNECTION_DISABLED, PERSISTENT_PLATFORM_ERROR).',
  },
  {
    username: 'user_deletes',
    scenario: 'deletes_after_sync',
    behaviour:
      'After the initial sync, the business deletes a bill on the platform before every incremental read of bills: each incremental sync stores the deletion (BILL_DELETED, and an object_deleted entry in GET /events).',
  },
  {
    username: 'user_link_error',
    scenario: 'link_error',
    behaviour:
      'The platform fails (503) when asked who the account is: connecting answers 550 and the link flow shows the error and sends CONNECTION_LINK_ERROR.',
  },
];

export interface ResolvedAccount {
  accountKey: string;
  scenario: ScenarioName;
  seed: number;
  /** Records to generate; null = the platform default. */
  size: number | null;
}

export const MAX_SIZE = 2_000_000;

/** The account behind a username and password, or null when the platform refuses them. */
export function resolveAccount(username: string | undefined, password: string | undefined): ResolvedAccount | null {
  if (username === undefined || password !== SANDBOX_PASSWORD || !/^user_[A-Za-z0-9_.-]{1,100}$/.test(username)) return null;
  const known = SCENARIOS.find((s) => s.username === username);
  const sized = /_size_(\d{1,7})(?:_|$)/.exec(username);
  const size = sized?.[1] === undefined ? null : Math.min(MAX_SIZE, Math.max(1, Number(sized[1])));
  return { accountKey: username, scenario: known?.scenario ?? 'healthy', seed: hashString(username), size };
}

import type { Queryable } from '../db/pool.ts';

/** One meter of platform_call_meters: the connection as a whole (scope '') or one operation ('operation:<name>'). */
export interface MeterKey {
  connectionId: string;
  scope: string;
}

/** What one call asks of a meter; each part is null when the platform states no such limit. */
export interface MeterLimits {
  /** Calls spaced `intervalMs` apart, `burst` of them back to back when the meter has been idle (1: none). */
  rate: { intervalMs: number; burst: number } | null;
  /** Calls per 24-hour window opened by its first call. At least 1. */
  dailyCalls: number | null;
  /** Points that refill per second up to `size`; this call takes `cost` of them. */
  bucket: { size: number; refillPerSecond: number; cost: number } | null;
}

export type TakeResult =
  /** The call may start in `waitMs` (0: now); its capacity is taken. */
  | { granted: true; waitMs: number; dayCalls: number; dayResetsAt: Date }
  /** The daily budget is spent: nothing was taken, and no call may start before `dayResetsAt`. */
  | { granted: false; dayCalls: number; dayResetsAt: Date };

// Pieces of the upsert below. In ON CONFLICT DO UPDATE every `m.` is the row as it was, EXCLUDED.taken_at is this
// statement's one reading of the clock, and the row lock serialises the takes of every process.
const NOW = 'EXCLUDED.taken_at';
const DAY_OPEN = `(m.day_started_at > ${NOW} - interval '24 hours')`;
const GRANTED = `($5::int IS NULL OR NOT ${DAY_OPEN} OR m.day_calls < $5::int)`;
const INTERVAL = `make_interval(secs => $3::float8 / 1000)`;
/** The calendar month (UTC) of a time, as the instant it began. */
const MONTH_OF = (time: string): string => `(date_trunc('month', ${time} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
const REFILLED = `LEAST($6::float8, m.bucket_points + GREATEST(0, extract(epoch FROM ${NOW} - m.bucket_at)::float8) * $7::float8)`;

/**
 * The rate is a generic cell rate (GCRA): next_call_at is when the next call may start if calls are spaced evenly;
 * a call takes the slot max(next_call_at, now) and waits for it less the burst's allowance. A call short of points
 * takes them anyway (the bucket goes below zero) and waits until they have refilled. Taking capacity before waiting
 * for it is one statement per call with no polling: later callers queue behind earlier ones in the meter itself.
 */
const TAKE = `
WITH clock AS (SELECT clock_timestamp() AS now)
INSERT INTO platform_call_meters AS m
       (connection_id, scope, next_call_at, day_started_at, day_calls, bucket_points, bucket_at, taken_at, last_take_granted,
        month_started_at, month_calls)
SELECT $1::uuid, $2::text, now + ${INTERVAL}, now, 1, $6::float8 - $8::float8, CASE WHEN $6::float8 IS NULL THEN NULL ELSE now END, now, true,
       ${MONTH_OF('now')}, 1
  FROM clock
ON CONFLICT (connection_id, scope) DO UPDATE SET
  taken_at = ${NOW},
  last_take_granted = ${GRANTED},
  day_started_at = CASE WHEN ${DAY_OPEN} THEN m.day_started_at ELSE ${NOW} END,
  day_calls = CASE WHEN NOT ${DAY_OPEN} THEN 1 WHEN ${GRANTED} THEN m.day_calls + 1 ELSE m.day_calls END,
  month_started_at = ${MONTH_OF(NOW)},
  month_calls = CASE WHEN m.month_started_at IS DISTINCT FROM ${MONTH_OF(NOW)} THEN CASE WHEN ${GRANTED} THEN 1 ELSE 0 END
                     WHEN ${GRANTED} THEN m.month_calls + 1 ELSE m.month_calls END,
  next_call_at = CASE WHEN $3::float8 IS NULL THEN NULL WHEN NOT ${GRANTED} THEN m.next_call_at
                      ELSE GREATEST(m.next_call_at, ${NOW}) + ${INTERVAL} END,
  bucket_points = CASE WHEN $6::float8 IS NULL THEN NULL WHEN NOT ${GRANTED} THEN m.bucket_points
                       ELSE COALESCE(${REFILLED}, $6::float8) - $8::float8 END,
  bucket_at = CASE WHEN $6::float8 IS NULL THEN NULL WHEN NOT ${GRANTED} THEN m.bucket_at ELSE ${NOW} END
RETURNING last_take_granted AS granted, day_calls, day_started_at + interval '24 hours' AS day_resets_at,
  GREATEST(0,
    CASE WHEN $3::float8 IS NULL THEN 0 ELSE extract(epoch FROM next_call_at - taken_at)::float8 * 1000 - $4::int * $3::float8 END,
    CASE WHEN $6::float8 IS NULL OR bucket_points >= 0 THEN 0 ELSE -bucket_points / $7::float8 * 1000 END) AS wait_ms`;

/** Takes capacity for one platform call from the meter, or says the daily budget is spent. */
export async function takePlatformCall(db: Queryable, key: MeterKey, limits: MeterLimits): Promise<TakeResult> {
  const { rate, dailyCalls, bucket } = limits;
  const result = await db.query<{ granted: boolean; day_calls: number; day_resets_at: Date; wait_ms: number }>(TAKE, [
    key.connectionId,
    key.scope,
    rate?.intervalMs ?? null,
    rate?.burst ?? 1,
    dailyCalls,
    bucket?.size ?? null,
    bucket?.refillPerSecond ?? null,
    bucket?.cost ?? null,
  ]);
  const row = result.rows[0];
  if (row === undefined) throw new Error('platform call meter upsert returned no row');
  return row.granted
    ? { granted: true, waitMs: Math.ceil(row.wait_ms), dayCalls: row.day_calls, dayResetsAt: row.day_resets_at }
    : { granted: false, dayCalls: row.day_calls, dayResetsAt: row.day_resets_at };
}

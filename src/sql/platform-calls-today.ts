import type { Queryable } from '../db/pool.ts';

export interface DailyUse {
  calls: number;
  resetsAt: Date;
}

/** The connection's platform calls in its open 24-hour window; null when no window is open (no call for 24 hours). */
export async function platformCallsToday(db: Queryable, connectionId: string): Promise<DailyUse | null> {
  const result = await db.query<{ day_calls: number; resets_at: Date }>(
    `SELECT day_calls, day_started_at + interval '24 hours' AS resets_at FROM platform_call_meters
      WHERE connection_id = $1 AND scope = '' AND day_started_at > clock_timestamp() - interval '24 hours'`,
    [connectionId],
  );
  const row = result.rows[0];
  return row === undefined ? null : { calls: row.day_calls, resetsAt: row.resets_at };
}

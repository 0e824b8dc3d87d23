import type { Queryable } from '../db/pool.ts';

export interface PlatformPause {
  until: Date;
  reason: string;
}

/** Pauses the connection's platform calls until `until`; an existing pause that ends later stays. */
export async function pausePlatformCalls(db: Queryable, connectionId: string, until: Date, reason: string): Promise<PlatformPause> {
  const result = await db.query<{ paused_until: Date; reason: string }>(
    `INSERT INTO platform_pauses AS p (connection_id, paused_until, reason) VALUES ($1, $2, $3)
     ON CONFLICT (connection_id) DO UPDATE
        SET paused_until = GREATEST(p.paused_until, EXCLUDED.paused_until),
            reason = CASE WHEN EXCLUDED.paused_until >= p.paused_until THEN EXCLUDED.reason ELSE p.reason END,
            created_at = CASE WHEN EXCLUDED.paused_until >= p.paused_until THEN clock_timestamp() ELSE p.created_at END
     RETURNING paused_until, reason`,
    [connectionId, until.toISOString(), reason],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('platform pause upsert returned no row');
  return { until: row.paused_until, reason: row.reason };
}

/** The connection's pause while it lasts; null when there is none or it has ended. */
export async function activePause(db: Queryable, connectionId: string): Promise<PlatformPause | null> {
  const result = await db.query<{ paused_until: Date; reason: string }>(
    'SELECT paused_until, reason FROM platform_pauses WHERE connection_id = $1 AND paused_until > clock_timestamp()',
    [connectionId],
  );
  const row = result.rows[0];
  return row === undefined ? null : { until: row.paused_until, reason: row.reason };
}

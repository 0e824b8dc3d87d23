import type { Queryable } from '../db/pool.ts';
import type { MeterKey } from './take-platform-call.ts';

/**
 * Gives back to the meter's cost bucket what a call took beyond its actual cost (`refund` < 0: it cost more than it
 * took). The bucket never holds more than `size`.
 */
export async function settlePlatformCallCost(db: Queryable, key: MeterKey, size: number, refund: number): Promise<void> {
  await db.query(
    `UPDATE platform_call_meters SET bucket_points = LEAST($3::float8, bucket_points + $4::float8)
      WHERE connection_id = $1 AND scope = $2 AND bucket_points IS NOT NULL`,
    [key.connectionId, key.scope, size, refund],
  );
}

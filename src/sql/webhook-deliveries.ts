/**
 * The dispatcher's queries. Claiming takes due deliveries with FOR UPDATE SKIP
 * LOCKED, so any number of workers share the work without taking one delivery
 * twice, and leases them: a claimed delivery's next_attempt_at is its lease
 * expiry, so one whose worker died is due again when the lease runs out.
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  organization_id: string;
  environment: Environment;
  /** This attempt's number (1 for the first). */
  attempts: number;
  deadline_at: Date;
  event_created_at: Date;
  /** The event's payload, the webhook body. */
  payload: unknown;
  /** The environment's webhook URL now; null when it was removed. */
  url: string | null;
}

/** Claims up to `limit` due deliveries for `leaseSeconds`; the window (seconds) bounds every delivery's deadline. */
export async function claimDueDeliveries(db: Queryable, limit: number, leaseSeconds: number, windowSeconds: number): Promise<ClaimedDelivery[]> {
  const result = await db.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
        WHERE status IN ('pending', 'delivering') AND next_attempt_at <= clock_timestamp()
          AND LEAST(deadline_at, created_at + make_interval(secs => $3)) > clock_timestamp()
        ORDER BY next_attempt_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d
        SET status = 'delivering', attempts = d.attempts + 1, updated_at = clock_timestamp(),
            locked_until = clock_timestamp() + make_interval(secs => $2), next_attempt_at = clock_timestamp() + make_interval(secs => $2)
       FROM due, events e
      WHERE d.id = due.id AND e.id = d.event_id
      RETURNING d.id, d.event_id, d.organization_id, d.environment, d.attempts,
                LEAST(d.deadline_at, d.created_at + make_interval(secs => $3)) AS deadline_at, e.created_at AS event_created_at, e.payload,
                (SELECT w.url FROM webhook_endpoints w WHERE w.organization_id = d.organization_id AND w.environment = d.environment) AS url`,
    [limit, leaseSeconds, windowSeconds]);
  return result.rows;
}

/** Deliveries whose window has passed without success: permanently failed. */
export async function expireDeliveries(db: Queryable, windowSeconds: number): Promise<number> {
  const result = await db.query(
    `UPDATE webhook_deliveries
        SET status = 'failed', finished_at = clock_timestamp(), updated_at = clock_timestamp(), locked_until = NULL,
            last_error = COALESCE(last_error, 'no attempt before the retry window ended')
      WHERE status IN ('pending', 'delivering') AND next_attempt_at <= clock_timestamp()
        AND LEAST(deadline_at, created_at + make_interval(secs => $1)) <= clock_timestamp()`,
    [windowSeconds]);
  return result.rowCount ?? 0;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
}

export interface AttemptOutcome { delivered: boolean; retryAt: Date | null }

/**
 * Logs an attempt and settles its delivery in one statement (one round trip:
 * the shorter the gap between a receiver's 2xx and its record, the fewer
 * duplicates a killed worker leaves): delivered, due again at `retryAt`, or
 * failed for good (retryAt null). Only the holder of the current claim (same
 * attempt number) settles; a late worker whose lease was taken over only logs.
 * Answers whether this call settled the delivery.
 */
export async function recordAttempt(db: Queryable, a: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
  const status = outcome.delivered ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
  const result = await db.query<{ settled: boolean }>(
    `WITH settled AS (
       UPDATE webhook_deliveries
          SET status = $9, next_attempt_at = COALESCE($10, next_attempt_at), locked_until = NULL, last_status_code = $6, last_error = $7,
              finished_at = CASE WHEN $9 IN ('delivered', 'failed') THEN clock_timestamp() END, updated_at = clock_timestamp()
        WHERE id = $1 AND attempts = $2 AND status = 'delivering'
        RETURNING id
     )
     INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, duration_ms, status_code, error, response_excerpt)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING EXISTS (SELECT 1 FROM settled) AS settled`,
    [a.deliveryId, a.attempt, a.url, a.startedAt, a.durationMs, a.statusCode, a.error, a.excerpt, status, outcome.retryAt]);
  return result.rows[0]?.settled === true;
}

/**
 * The dispatcher's queries. Claiming takes due deliveries with FOR UPDATE SKIP
 * LOCKED, so any number of workers share the work without taking one delivery
 * twice, and leases them: a claimed delivery's next_attempt_at is its lease
 * expiry, so one whose worker died is due again when the lease runs out.
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';
import type { TraceCarrier } from '../metrics/tracing.ts';

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  organization_id: string;
  environment: Environment;
  /** This attempt's number (1 for the first). */
  attempts: number;
  deadline_at: Date;
  event_created_at: Date;
  /** The event's stored payload: the webhook body with its access_token and update_url slots empty (src/events/access-token-slot.ts). */
  payload: unknown;
  /** The access token that fills the slot, sealed; null when the body has none. */
  access_token_ciphertext: Buffer | null;
  /** The update_url that fills its slot, sealed; null when the body has none. */
  update_url_ciphertext: Buffer | null;
  /** The environment's webhook URL now; null when it was removed. */
  url: string | null;
  /** The trace the event was emitted in (traceparent, tracestate); null when traces were off. */
  trace_context: TraceCarrier | null;
}

/** What one endpoint (organisation and environment) may still take in a claim. */
export interface EndpointAllowance {
  organizationId: string;
  environment: Environment;
  allowance: number;
}

export interface ClaimLimits {
  /** Deliveries this claim may take in all. */
  limit: number;
  /** Deliveries one endpoint may take in this claim, unless `held` says less. */
  perEndpoint: number;
  /** Endpoints this worker already holds deliveries of, with what each may still take. */
  held: readonly EndpointAllowance[];
  leaseSeconds: number;
  /** The retry window (seconds): it bounds every delivery's deadline. */
  windowSeconds: number;
}

/**
 * Claims due deliveries fairly and leases them. Every endpoint with open
 * deliveries is visited (a skip scan over webhook_deliveries_endpoint_due_idx,
 * one index probe per endpoint), each offers its oldest due deliveries up to
 * its allowance, and the claim takes them round-robin: every endpoint's
 * oldest first, then every endpoint's second, and so on, oldest first within
 * a round. However long one organisation's queue is, another's due delivery is
 * in the next claim.
 */
export async function claimDueDeliveries(db: Queryable, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  const result = await db.query<ClaimedDelivery>(
    `WITH RECURSIVE endpoints AS (
       (SELECT organization_id, environment FROM webhook_deliveries
         WHERE status IN ('pending', 'delivering') ORDER BY organization_id, environment, next_attempt_at LIMIT 1)
       UNION ALL
       SELECT next.organization_id, next.environment FROM endpoints e, LATERAL (
         SELECT organization_id, environment FROM webhook_deliveries
          WHERE status IN ('pending', 'delivering') AND (organization_id, environment) > (e.organization_id, e.environment)
          ORDER BY organization_id, environment, next_attempt_at LIMIT 1) next
     ), allowances AS (
       SELECT e.organization_id, e.environment, LEAST(COALESCE(h.allowance, $4::int), $1::int) AS allowance
         FROM endpoints e
         LEFT JOIN unnest($5::uuid[], $6::text[], $7::int[]) AS h(organization_id, environment, allowance)
           ON h.organization_id = e.organization_id AND h.environment = e.environment
     ), offered AS (
       SELECT o.id, o.next_attempt_at, row_number() OVER (PARTITION BY a.organization_id, a.environment ORDER BY o.next_attempt_at) AS round
         FROM allowances a, LATERAL (
           SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.organization_id = a.organization_id AND d.environment = a.environment
              AND d.status IN ('pending', 'delivering') AND d.next_attempt_at <= clock_timestamp()
              AND LEAST(d.deadline_at, d.created_at + make_interval(secs => $3)) > clock_timestamp()
            ORDER BY d.next_attempt_at
            LIMIT a.allowance
            FOR UPDATE SKIP LOCKED) o
        WHERE a.allowance > 0
     ), due AS (
       SELECT id FROM offered ORDER BY round, next_attempt_at LIMIT $1
     )
     UPDATE webhook_deliveries d
        SET status = 'delivering', attempts = d.attempts + 1, updated_at = clock_timestamp(),
            locked_until = clock_timestamp() + make_interval(secs => $2), next_attempt_at = clock_timestamp() + make_interval(secs => $2)
       FROM due, events e
      WHERE d.id = due.id AND e.id = d.event_id
      RETURNING d.id, d.event_id, d.organization_id, d.environment, d.attempts,
                LEAST(d.deadline_at, d.created_at + make_interval(secs => $3)) AS deadline_at, e.created_at AS event_created_at, e.payload, e.access_token_ciphertext, e.update_url_ciphertext, e.trace_context,
                (SELECT w.url FROM webhook_endpoints w WHERE w.organization_id = d.organization_id AND w.environment = d.environment) AS url`,
    [
      limits.limit,
      limits.leaseSeconds,
      limits.windowSeconds,
      limits.perEndpoint,
      limits.held.map((h) => h.organizationId),
      limits.held.map((h) => h.environment),
      limits.held.map((h) => h.allowance),
    ],
  );
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
    [windowSeconds],
  );
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

export interface AttemptOutcome {
  delivered: boolean;
  retryAt: Date | null;
}

export interface SettledAttempt {
  record: AttemptRecord;
  outcome: AttemptOutcome;
}

const settleStatus = (o: AttemptOutcome): 'delivered' | 'failed' | 'pending' =>
  o.delivered ? 'delivered' : o.retryAt === null ? 'failed' : 'pending';

/**
 * Logs attempts and settles their deliveries in one statement (one round trip
 * for every attempt that finished while the previous settle was running: the
 * shorter the gap between a receiver's 2xx and its record, the fewer duplicates
 * a killed worker leaves): delivered, due again at `retryAt`, or failed for
 * good (retryAt null). Only the holder of the current claim (same attempt
 * number) settles; a late worker whose lease was taken over only logs.
 * Answers `<delivery id>:<attempt>` of each attempt this call settled.
 */
export async function recordAttempts(db: Queryable, attempts: readonly SettledAttempt[]): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  // Rows locked in one order by every worker, so two settles never wait on each other in a cycle.
  const sorted = [...attempts].sort((x, y) => (x.record.deliveryId < y.record.deliveryId ? -1 : x.record.deliveryId > y.record.deliveryId ? 1 : 0));
  const column = <T>(pick: (a: SettledAttempt) => T): T[] => sorted.map(pick);
  const result = await db.query<{ id: string; attempts: number }>({
    name: 'ledgerport_record_webhook_attempts',
    text: `WITH a AS (
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::timestamptz[])
           AS a(delivery_id, attempt, url, started_at, duration_ms, status_code, error, excerpt, status, retry_at)
     ), settled AS (
       UPDATE webhook_deliveries d
          SET status = a.status, next_attempt_at = COALESCE(a.retry_at, d.next_attempt_at), locked_until = NULL,
              last_status_code = a.status_code, last_error = a.error,
              finished_at = CASE WHEN a.status IN ('delivered', 'failed') THEN clock_timestamp() END, updated_at = clock_timestamp()
         FROM a
        WHERE d.id = a.delivery_id AND d.attempts = a.attempt AND d.status = 'delivering'
        RETURNING d.id, d.attempts
     ), logged AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, duration_ms, status_code, error, response_excerpt)
       SELECT delivery_id, attempt, url, started_at, duration_ms, status_code, error, excerpt FROM a
     )
     SELECT id, attempts FROM settled`,
    values: [
      column((a) => a.record.deliveryId),
      column((a) => a.record.attempt),
      column((a) => a.record.url),
      column((a) => a.record.startedAt),
      column((a) => a.record.durationMs),
      column((a) => a.record.statusCode),
      column((a) => a.record.error),
      column((a) => a.record.excerpt),
      column((a) => settleStatus(a.outcome)),
      column((a) => a.outcome.retryAt),
    ],
  });
  // Keyed like src/webhooks/settler.ts settledKey: delivery and attempt.
  return new Set(result.rows.map((row) => `${row.id}:${row.attempts}`));
}

/**
 * Hands claimed deliveries that were never attempted back (a dispatcher
 * stopping with work queued): due at once for any worker, their claim undone.
 */
export async function releaseDeliveries(db: Queryable, claims: readonly { id: string; attempts: number }[]): Promise<number> {
  if (claims.length === 0) return 0;
  const result = await db.query(
    `UPDATE webhook_deliveries d
        SET status = 'pending', attempts = d.attempts - 1, locked_until = NULL, next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
       FROM unnest($1::uuid[], $2::int[]) AS c(id, attempts)
      WHERE d.id = c.id AND d.attempts = c.attempts AND d.status = 'delivering'`,
    [claims.map((c) => c.id), claims.map((c) => c.attempts)],
  );
  return result.rowCount ?? 0;
}

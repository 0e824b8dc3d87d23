/**
 * SQL of the operator's webhook surface (admin API and CLI): webhook URLs per
 * organisation and environment, the delivery log and its attempts, manual
 * re-sends, and the delivery gauges /metrics reads at scrape time. The
 * dispatcher's own queries live in src/sql/webhook-deliveries.ts.
 */
import type { Queryable } from '../db/pool.ts';
import type { Environment } from '../tenants/types.ts';

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookEndpointRow {
  environment: Environment;
  url: string;
  updated_at: Date;
}

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  environment: Environment;
  connection_id: string | null;
  code: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  deadline_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  replay_of: string | null;
  created_at: Date;
  finished_at: Date | null;
  /** created_at with PostgreSQL's microseconds, for keyset cursors. */
  position_ts: string;
}

export interface WebhookAttemptRow {
  attempt: number;
  url: string;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const DELIVERY_COLUMNS = `id, event_id, environment, connection_id, code, status, attempts, next_attempt_at, deadline_at,
  last_status_code, last_error, replay_of, created_at, finished_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_ts`;

/** Sets (or replaces) the URL of one environment; null when the organisation does not exist. */
export async function upsertWebhookEndpoint(
  db: Queryable,
  organizationId: string,
  environment: Environment,
  url: string,
): Promise<WebhookEndpointRow | null> {
  const result = await db.query<WebhookEndpointRow>(
    `INSERT INTO webhook_endpoints (organization_id, environment, url)
     SELECT o.id, $2, $3 FROM organizations o WHERE o.id = $1
     ON CONFLICT (organization_id, environment) DO UPDATE SET url = EXCLUDED.url, updated_at = clock_timestamp()
     RETURNING environment, url, updated_at`,
    [organizationId, environment, url],
  );
  return result.rows[0] ?? null;
}

/** Configured environments of an organisation, sandbox first. */
export async function listWebhookEndpoints(db: Queryable, organizationId: string): Promise<WebhookEndpointRow[]> {
  const result = await db.query<WebhookEndpointRow>(
    `SELECT environment, url, updated_at FROM webhook_endpoints WHERE organization_id = $1 ORDER BY environment DESC`,
    [organizationId],
  );
  return result.rows;
}

/** True when a URL was configured and is now removed. Deliveries already created keep their course. */
export async function deleteWebhookEndpoint(db: Queryable, organizationId: string, environment: Environment): Promise<boolean> {
  const result = await db.query(`DELETE FROM webhook_endpoints WHERE organization_id = $1 AND environment = $2`, [organizationId, environment]);
  return (result.rowCount ?? 0) > 0;
}

/** Where a page of the delivery log starts: a delivery's created_at (position_ts) and id. */
export interface DeliveryPosition {
  createdAt: string;
  id: string;
}

export interface DeliveryFilters {
  environment: Environment | null;
  status: DeliveryStatus | null;
  code: string | null;
  connectionId: string | null;
}

/**
 * One page of an organisation's deliveries, newest first (created_at, id
 * descending), starting at `from` inclusive (next_cursor names the next row);
 * one extra row says whether, and where, the next page starts.
 */
export async function listWebhookDeliveries(
  db: Queryable,
  organizationId: string,
  filters: DeliveryFilters,
  from: DeliveryPosition | null,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  const result = await db.query<WebhookDeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS}
       FROM webhook_deliveries
      WHERE organization_id = $1
        AND ($2::text IS NULL OR environment = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::text IS NULL OR code = $4)
        AND ($5::uuid IS NULL OR connection_id = $5)
        AND ($6::timestamptz IS NULL OR (created_at, id) <= ($6::timestamptz, $7::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $8`,
    [organizationId, filters.environment, filters.status, filters.code, filters.connectionId, from?.createdAt ?? null, from?.id ?? null, limit + 1],
  );
  return result.rows;
}

/** A delivery of this organisation, or null (another organisation's id is not found either). */
export async function findWebhookDelivery(db: Queryable, organizationId: string, deliveryId: string): Promise<WebhookDeliveryRow | null> {
  const result = await db.query<WebhookDeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND organization_id = $2`, [
    deliveryId,
    organizationId,
  ]);
  return result.rows[0] ?? null;
}

/** Every attempt of a delivery, first attempt first. */
export async function listWebhookAttempts(db: Queryable, deliveryId: string): Promise<WebhookAttemptRow[]> {
  const result = await db.query<WebhookAttemptRow>(
    `SELECT attempt, url, started_at, duration_ms, status_code, error, response_excerpt
       FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt, id`,
    [deliveryId],
  );
  return result.rows;
}

/**
 * A new delivery of the same event, due now, with its own window, pointing at
 * the original through replay_of. Null when the delivery is not this
 * organisation's, or its environment has no webhook URL.
 */
export async function insertRetryDelivery(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
  windowSeconds: number,
): Promise<WebhookDeliveryRow | null> {
  const result = await db.query<WebhookDeliveryRow>(
    `INSERT INTO webhook_deliveries (event_id, organization_id, environment, connection_id, code, replay_of, next_attempt_at, deadline_at)
     SELECT d.event_id, d.organization_id, d.environment, d.connection_id, d.code, d.id,
            clock_timestamp(), clock_timestamp() + make_interval(secs => $3)
       FROM webhook_deliveries d
       JOIN webhook_endpoints w ON w.organization_id = d.organization_id AND w.environment = d.environment
      WHERE d.id = $1 AND d.organization_id = $2
     RETURNING ${DELIVERY_COLUMNS}`,
    [deliveryId, organizationId, windowSeconds],
  );
  return result.rows[0] ?? null;
}

/**
 * Serialises replays of one organisation for the rest of the transaction, so
 * two concurrent replays cannot both re-send the same failed delivery.
 */
export async function lockOrganizationReplays(db: Queryable, organizationId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhook-replay:' || $1::text, 0))`, [organizationId]);
}

/**
 * Re-sends every failed delivery created in [from, to) that was not re-sent
 * before (no row has replay_of pointing at it), for environments that still
 * have a webhook URL: one new row each, in one statement. Returns how many.
 */
export async function insertReplayDeliveries(
  db: Queryable,
  params: {
    organizationId: string;
    from: Date;
    to: Date;
    environment: Environment | null;
    windowSeconds: number;
  },
): Promise<number> {
  const result = await db.query(
    `INSERT INTO webhook_deliveries (event_id, organization_id, environment, connection_id, code, replay_of, next_attempt_at, deadline_at)
     SELECT d.event_id, d.organization_id, d.environment, d.connection_id, d.code, d.id,
            clock_timestamp(), clock_timestamp() + make_interval(secs => $5)
       FROM webhook_deliveries d
       JOIN webhook_endpoints w ON w.organization_id = d.organization_id AND w.environment = d.environment
      WHERE d.organization_id = $1 AND d.status = 'failed'
        AND d.created_at >= $2 AND d.created_at < $3
        AND ($4::text IS NULL OR d.environment = $4)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.replay_of = d.id)
      ORDER BY d.created_at, d.id`,
    [params.organizationId, params.from, params.to, params.environment, params.windowSeconds],
  );
  return result.rowCount ?? 0;
}

export interface DeliveryGaugeRow {
  pending: number;
  delivering: number;
  failed_recent: number;
}

/** Deliveries waiting or in flight, and deliveries that failed in the last hour, across every organisation. */
export async function deliveryGauges(db: Queryable): Promise<DeliveryGaugeRow> {
  const result = await db.query<DeliveryGaugeRow>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS pending,
            (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivering')::int AS delivering,
            (SELECT count(*) FROM webhook_deliveries
              WHERE status = 'failed' AND COALESCE(finished_at, updated_at) > clock_timestamp() - interval '1 hour')::int AS failed_recent`,
  );
  return result.rows[0] ?? { pending: 0, delivering: 0, failed_recent: 0 };
}

/**
 * The operator's webhook functions, shared by the admin API and the CLI:
 * configure an organisation's webhook URL per environment, read the delivery
 * log with its attempts, and re-send one delivery (retry) or every failed one
 * of a period (replay). A re-send is a new delivery of the same event, due at
 * once, with its own retry window and replay_of naming the original; the
 * dispatcher picks it up like any other.
 */
import type { Config } from '../config.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { ServiceError, type ErrorMetadata } from '../errors/catalogue.ts';
import {
  deleteWebhookEndpoint,
  deliveryGauges,
  findWebhookDelivery,
  insertReplayDeliveries,
  insertRetryDelivery,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookEndpoints,
  lockOrganizationReplays,
  upsertWebhookEndpoint,
  type DeliveryFilters,
  type DeliveryPosition,
  type DeliveryStatus,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '../sql/webhook-admin.ts';
import { organizationNotFound, requireOrganization } from '../tenants/organizations.ts';
import type { Environment } from '../tenants/types.ts';
import { webhookUrlProblem } from './address-guard.ts';
import { windowMs } from './schedule.ts';

export const DEFAULT_DELIVERY_LIMIT = 50;
export const MAX_DELIVERY_LIMIT = 500;
/** Longest period one replay may cover. */
export const MAX_REPLAY_DAYS = 31;

export interface WebhookView {
  environment: Environment;
  url: string;
  updated_at: string;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  environment: Environment;
  connection_id: string | null;
  code: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  deadline_at: string;
  last_status_code: number | null;
  last_error: string | null;
  replay_of: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface AttemptView {
  attempt: number;
  url: string;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

/** A page of the delivery log; `next` is where the next page starts (the callers hand it out as an opaque cursor). */
export interface DeliveryPage {
  deliveries: DeliveryView[];
  next: DeliveryPosition | null;
}

function toWebhookView(row: WebhookEndpointRow): WebhookView {
  return { environment: row.environment, url: row.url, updated_at: row.updated_at.toISOString() };
}

/**
 * `deadline_at` as the dispatcher keeps it: the stored 15 minutes (set by the event's trigger, which cannot see the
 * configuration), shortened by WEBHOOK_SCHEDULE_SCALE exactly as the claim and expiry statements shorten it.
 */
function toDeliveryView(row: WebhookDeliveryRow, windowSeconds: number): DeliveryView {
  const scaledDeadline = new Date(Math.min(row.deadline_at.getTime(), row.created_at.getTime() + windowSeconds * 1000));
  return {
    id: row.id,
    event_id: row.event_id,
    environment: row.environment,
    connection_id: row.connection_id,
    code: row.code,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at.toISOString(),
    deadline_at: scaledDeadline.toISOString(),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    replay_of: row.replay_of,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at === null ? null : row.finished_at.toISOString(),
  };
}

function toAttemptView(row: WebhookAttemptRow): AttemptView {
  return {
    attempt: row.attempt,
    url: row.url,
    started_at: row.started_at.toISOString(),
    duration_ms: row.duration_ms,
    status_code: row.status_code,
    error: row.error,
    response_excerpt: row.response_excerpt,
  };
}

function deliveryNotFound(organizationId: string, deliveryId: string): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} has no webhook delivery ${deliveryId}.`, { source: 'service' });
}

function invalid(message: string, field: string, location: ErrorMetadata['location']): ServiceError {
  return new ServiceError('VALIDATION_ERROR', message, { source: 'service', field, ...(location !== undefined ? { location } : {}) });
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Seconds a re-sent delivery is attempted for: 15 minutes, times WEBHOOK_SCHEDULE_SCALE (1 outside tests and demos). */
export function webhookWindowSeconds(config: Pick<Config, 'webhookScheduleScale'>): number {
  return windowMs(config.webhookScheduleScale) / 1000;
}

/** Why the URL cannot be used, as a 400 naming `url`; null when it can. */
export function webhookUrlError(url: string, allowPrivate: boolean, location: ErrorMetadata['location']): ServiceError | null {
  const problem = webhookUrlProblem(url, { allowPrivate });
  if (problem === null) return null;
  return invalid(`\`url\`${location === 'body' ? ' in the request body' : ''} ${problem}.`, 'url', location);
}

/** Sets the webhook URL of one environment (new events of that environment are delivered there). */
export async function setWebhookUrl(
  db: Queryable,
  input: {
    organizationId: string;
    environment: Environment;
    url: string;
    allowPrivate: boolean;
    /** Where the URL came from, for the error metadata (body for the API, undefined for the CLI). */
    location?: ErrorMetadata['location'];
  },
): Promise<WebhookView> {
  const error = webhookUrlError(input.url, input.allowPrivate, input.location);
  if (error !== null) throw error;
  const row = await upsertWebhookEndpoint(db, input.organizationId, input.environment, input.url);
  if (row === null) throw organizationNotFound(input.organizationId);
  return toWebhookView(row);
}

/** The configured environments' URLs (an environment without a URL is left out). */
export async function getWebhookUrls(db: Queryable, organizationId: string): Promise<WebhookView[]> {
  await requireOrganization(db, organizationId);
  return (await listWebhookEndpoints(db, organizationId)).map(toWebhookView);
}

/** Removes the URL: no new deliveries for the environment; deliveries already created keep going. */
export async function removeWebhookUrl(db: Queryable, organizationId: string, environment: Environment): Promise<void> {
  await requireOrganization(db, organizationId);
  if (!(await deleteWebhookEndpoint(db, organizationId, environment))) {
    throw new ServiceError('RESOURCE_NOT_FOUND', `Organization ${organizationId} has no webhook URL for ${environment}.`, { source: 'service' });
  }
}

export interface DeliveryQuery extends DeliveryFilters {
  /** The first delivery of the page (the previous page's `next`); null for the first page. */
  from: DeliveryPosition | null;
  limit: number;
}

/** The delivery log, newest first, keyset-paged: the admin API and the CLI encode `next` with the shared cursor codec. */
export async function listDeliveries(db: Queryable, organizationId: string, query: DeliveryQuery, windowSeconds: number): Promise<DeliveryPage> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_DELIVERY_LIMIT) {
    throw invalid(`\`limit\` must be an integer from 1 to ${MAX_DELIVERY_LIMIT}.`, 'limit', 'query');
  }
  await requireOrganization(db, organizationId);
  const rows = await listWebhookDeliveries(db, organizationId, query, query.from, query.limit);
  const next = rows[query.limit];
  return {
    deliveries: rows.slice(0, query.limit).map((row) => toDeliveryView(row, windowSeconds)),
    next: next === undefined ? null : { createdAt: next.position_ts, id: next.id },
  };
}

/** One delivery with every attempt made so far. */
export async function getDelivery(
  db: Queryable,
  organizationId: string,
  deliveryId: string,
  windowSeconds: number,
): Promise<DeliveryView & { attempts_log: AttemptView[] }> {
  await requireOrganization(db, organizationId);
  const row = await findWebhookDelivery(db, organizationId, deliveryId);
  if (row === null) throw deliveryNotFound(organizationId, deliveryId);
  const attempts = await listWebhookAttempts(db, row.id);
  return { ...toDeliveryView(row, windowSeconds), attempts_log: attempts.map(toAttemptView) };
}

/** Re-sends one delivery, whatever its status: a new delivery of the same event, due now, with a fresh window. */
export async function retryDelivery(db: Queryable, organizationId: string, deliveryId: string, windowSeconds: number): Promise<DeliveryView> {
  await requireOrganization(db, organizationId);
  const original = await findWebhookDelivery(db, organizationId, deliveryId);
  if (original === null) throw deliveryNotFound(organizationId, deliveryId);
  const created = await insertRetryDelivery(db, organizationId, deliveryId, windowSeconds);
  if (created === null) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `Organization ${organizationId} has no webhook URL for ${original.environment}, so delivery ${deliveryId} cannot be re-sent: ` +
        `set one with PUT /admin/organizations/${organizationId}/webhook first.`,
      { source: 'service', field: 'environment' },
    );
  }
  return toDeliveryView(created, windowSeconds);
}

/** A date-time the caller gave, or a 400 naming the field. */
function parseInstant(raw: string, field: string, location: ErrorMetadata['location']): Date {
  const ms = Date.parse(raw);
  if (Number.isNaN(ms) || !INSTANT.test(raw)) {
    throw invalid(
      `\`${field}\` must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T00:00:00Z (got "${raw.slice(0, 40)}").`,
      field,
      location,
    );
  }
  return new Date(ms);
}

/**
 * Re-sends every failed delivery created in [from, to) not re-sent before,
 * for environments that have a webhook URL. At most 31 days per call.
 */
export async function replayFailedDeliveries(
  pool: Pool,
  input: {
    organizationId: string;
    from: string;
    to: string;
    environment: Environment | null;
    windowSeconds: number;
    /** Where from and to came from, for the error metadata (body for the API, undefined for the CLI). */
    location?: ErrorMetadata['location'];
  },
): Promise<{ replayed: number }> {
  const from = parseInstant(input.from, 'from', input.location);
  const to = parseInstant(input.to, 'to', input.location);
  if (from.getTime() >= to.getTime()) {
    throw invalid(`\`from\` must be before \`to\` (got from ${from.toISOString()}, to ${to.toISOString()}).`, 'from', input.location);
  }
  if (to.getTime() - from.getTime() > MAX_REPLAY_DAYS * 24 * 3600 * 1000) {
    throw invalid(
      `The period from \`from\` to \`to\` is longer than ${MAX_REPLAY_DAYS} days; replay longer periods in several calls.`,
      'to',
      input.location,
    );
  }
  await requireOrganization(pool, input.organizationId);
  const endpoints = await listWebhookEndpoints(pool, input.organizationId);
  const usable = endpoints.filter((e) => input.environment === null || e.environment === input.environment);
  if (usable.length === 0) {
    const which = input.environment ?? 'any environment';
    throw new ServiceError(
      'VALIDATION_ERROR',
      `Organization ${input.organizationId} has no webhook URL for ${which}, so nothing can be re-sent: ` +
        `set one with PUT /admin/organizations/${input.organizationId}/webhook first.`,
      { source: 'service', field: 'environment', ...(input.location !== undefined ? { location: input.location } : {}) },
    );
  }
  const replayed = await withTransaction(pool, async (db) => {
    await lockOrganizationReplays(db, input.organizationId);
    return insertReplayDeliveries(db, {
      organizationId: input.organizationId,
      from,
      to,
      environment: input.environment,
      windowSeconds: input.windowSeconds,
    });
  });
  return { replayed };
}

/** Prometheus gauges of the delivery table, read at scrape time. */
export async function webhookGaugeLines(db: Queryable): Promise<string[]> {
  const g = await deliveryGauges(db);
  return [
    '# HELP ledgerport_webhook_deliveries_open Webhook deliveries not finished yet, by status (all organisations).',
    '# TYPE ledgerport_webhook_deliveries_open gauge',
    `ledgerport_webhook_deliveries_open{status="pending"} ${g.pending}`,
    `ledgerport_webhook_deliveries_open{status="delivering"} ${g.delivering}`,
    '# HELP ledgerport_webhook_deliveries_failed_recent Webhook deliveries that failed in the last hour (all organisations).',
    '# TYPE ledgerport_webhook_deliveries_failed_recent gauge',
    `ledgerport_webhook_deliveries_failed_recent ${g.failed_recent}`,
  ];
}

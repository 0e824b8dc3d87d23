/**
 * The durable event store (src/events/emit.ts seals an event's secrets and calls these inside the transaction of
 * the change it announces), and the wake-up of the webhook dispatcher.
 */
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';

/** The channel new events are announced on; the webhook dispatcher listens (src/webhooks/dispatcher.ts). */
export const EVENTS_CHANNEL = 'ledgerport_events';

export interface EventRow {
  connectionId: string | null;
  type: string;
  code: string;
  /** The webhook body as JSON text, its secret slots emptied. */
  payload: string;
  accessTokenCiphertext: Buffer | null;
  updateUrlCiphertext: Buffer | null;
  /** The emitting span's W3C trace context as JSON text (src/metrics/tracing.ts); null when traces are off. */
  traceContext: string | null;
}

export async function insertEvent(db: Queryable, tenant: Tenant, event: EventRow): Promise<string> {
  const result = await db.query<{ id: string }>(
    `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, access_token_ciphertext, update_url_ciphertext, trace_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      tenant.organizationId,
      tenant.environment,
      event.connectionId,
      event.type,
      event.code,
      event.payload,
      event.accessTokenCiphertext,
      event.updateUrlCiphertext,
      event.traceContext,
    ],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('event insert returned no row');
  return id;
}

/**
 * Many events of one tenant in one statement. `eventsJson`: a JSON array of {connection_id, type, code, payload,
 * token, url}, where token and url are 1-based positions in `sealed` (or null): PostgreSQL parses one JSON document
 * in one pass, where a jsonb[] parameter costs an array literal escaped element by element on both sides. They share
 * `traceContext` (JSON text, or null): one span emits them all.
 */
export async function insertEventBatch(
  db: Queryable,
  tenant: Tenant,
  eventsJson: string,
  sealed: Buffer[],
  traceContext: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, access_token_ciphertext, update_url_ciphertext, trace_context)
     SELECT $1, $2, e.connection_id, e.type, e.code, e.payload, ($4::bytea[])[e.token], ($4::bytea[])[e.url], $5::jsonb
       FROM json_to_recordset($3::json) AS e(connection_id uuid, type text, code text, payload json, token integer, url integer)`,
    [tenant.organizationId, tenant.environment, eventsJson, sealed, traceContext],
  );
}

/** Wakes the dispatcher when the transaction commits (`note`: an event id, or how many were written). */
export async function notifyNewEvents(db: Queryable, note: string): Promise<void> {
  await db.query(`SELECT pg_notify('${EVENTS_CHANNEL}', $1)`, [note]);
}

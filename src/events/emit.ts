/**
 * Writes an event into the durable event store. Call it inside the same
 * transaction as the change it announces, so an event exists exactly when the
 * change does. The webhook worker delivers from this table.
 *
 * The connection's access token and update_url (it holds the link token) in a
 * body are never stored in clear: each is sealed into its column
 * (events.access_token_ciphertext, events.update_url_ciphertext) and its slot
 * in the stored body is null until the webhook is sent
 * (src/events/access-token-slot.ts).
 *
 * With traces on, the emitting span's trace context is stored with the event (events.trace_context), so each
 * webhook delivery attempt of it continues the trace of the sync, write or request that caused it.
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';
import { takeSecrets } from './access-token-slot.ts';
import { insertEvent, insertEventBatch, notifyNewEvents } from '../sql/events.ts';
import { activeTraceContext } from '../metrics/tracing.ts';

/** The active span's trace context as JSON text for events.trace_context; null (nothing stored) when traces are off. */
function traceContextJson(): string | null {
  const carrier = activeTraceContext();
  return carrier === null ? null : JSON.stringify(carrier);
}

export interface NewEvent {
  tenant: Tenant;
  connectionId: string | null;
  /** CONNECTION, JOB or the upper-case entity kind. */
  type: string;
  code: string;
  /** The webhook body, exactly as it will be delivered (access_token included). */
  payload: Record<string, unknown>;
}

export async function emitEvent(db: Queryable, cipher: Cipher, event: NewEvent): Promise<string> {
  const { payload, accessToken, updateUrl } = takeSecrets(event.payload);
  const id = await insertEvent(db, event.tenant, {
    connectionId: event.connectionId,
    type: event.type,
    code: event.code,
    payload: JSON.stringify(payload),
    accessTokenCiphertext: accessToken === null ? null : cipher.encrypt(accessToken),
    updateUrlCiphertext: updateUrl === null ? null : cipher.encrypt(updateUrl),
    traceContext: traceContextJson(),
  });
  await notifyNewEvents(db, id);
  return id;
}

/**
 * Many events of one tenant in one statement (a synced page's entity events).
 * The batch travels as one JSON document: PostgreSQL parses it in one pass,
 * where a jsonb[] parameter costs an array literal escaped element by element
 * on both sides (measured: about 2x slower for a page of synced objects).
 * Each distinct access token is sealed once and sent once (a page's events all
 * carry the same one); events name theirs by position in that array, and
 * their sealed update_url (rare in a batch) likewise.
 */
export async function emitEvents(db: Queryable, cipher: Cipher, tenant: Tenant, events: Omit<NewEvent, 'tenant'>[]): Promise<void> {
  if (events.length === 0) return;
  const sealed: Buffer[] = [];
  const position = new Map<string, number>();
  const rows = events.map((e) => {
    const { payload, accessToken, updateUrl } = takeSecrets(e.payload);
    let token: number | null = null;
    if (accessToken !== null) {
      token = position.get(accessToken) ?? sealed.push(cipher.encrypt(accessToken));
      position.set(accessToken, token);
    }
    const url = updateUrl === null ? null : sealed.push(cipher.encrypt(updateUrl));
    return { connection_id: e.connectionId, type: e.type, code: e.code, payload, token, url };
  });
  await insertEventBatch(db, tenant, JSON.stringify(rows), sealed, traceContextJson());
  await notifyNewEvents(db, String(events.length));
}

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
 */
import type { Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import type { Tenant } from '../tenants/types.ts';
import { takeSecrets } from './access-token-slot.ts';

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
  const result = await db.query<{ id: string }>(
    `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, access_token_ciphertext, update_url_ciphertext)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      event.tenant.organizationId,
      event.tenant.environment,
      event.connectionId,
      event.type,
      event.code,
      JSON.stringify(payload),
      accessToken === null ? null : cipher.encrypt(accessToken),
      updateUrl === null ? null : cipher.encrypt(updateUrl),
    ],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('event insert returned no row');
  await db.query(`SELECT pg_notify('ledgerport_events', $1)`, [id]);
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
  await db.query(
    `INSERT INTO events (organization_id, environment, connection_id, type, code, payload, access_token_ciphertext, update_url_ciphertext)
     SELECT $1, $2, e.connection_id, e.type, e.code, e.payload, ($4::bytea[])[e.token], ($4::bytea[])[e.url]
       FROM json_to_recordset($3::json) AS e(connection_id uuid, type text, code text, payload json, token integer, url integer)`,
    [tenant.organizationId, tenant.environment, JSON.stringify(rows), sealed],
  );
  await db.query(`SELECT pg_notify('ledgerport_events', $1)`, [String(events.length)]);
}

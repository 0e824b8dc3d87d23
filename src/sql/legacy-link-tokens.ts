/**
 * The start-up step's queries (src/connections/seal-link-tokens.ts): connections
 * written before migration 0018 still hold their link token in clear, and their
 * events an update_url with it, until the step seals them.
 */
import type { PoolClient, Queryable } from '../db/pool.ts';

/** The session advisory lock of the sealing step: one process seals while the others starting with it wait. */
const SEALING_LOCK = 4_711_000_018;

export async function lockLegacyLinkTokenSealing(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [SEALING_LOCK]);
}

export async function unlockLegacyLinkTokenSealing(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1)', [SEALING_LOCK]);
}

export interface LegacyLinkToken {
  id: string;
  link_token: string;
}

/** Whether any connection still holds its link token in clear (false on every start after the first). */
export async function anyLegacyLinkToken(db: Queryable): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM connections WHERE link_token IS NOT NULL LIMIT 1');
  return result.rows.length > 0;
}

/** A batch of connections whose link token is still in clear, locked (waiting for a row another statement holds). */
export async function lockLegacyLinkTokens(db: Queryable, limit: number): Promise<LegacyLinkToken[]> {
  const result = await db.query<LegacyLinkToken>(
    `SELECT id, link_token FROM connections WHERE link_token IS NOT NULL ORDER BY id LIMIT $1 FOR UPDATE`,
    [limit],
  );
  return result.rows;
}

/** Replaces each clear link token with its sealed copy (the SHA-256 was computed by the migration). */
export async function storeSealedLinkTokens(db: Queryable, ids: string[], ciphertexts: Buffer[]): Promise<void> {
  await db.query(
    `UPDATE connections c SET link_token_ciphertext = s.ciphertext, link_token = NULL
       FROM unnest($1::uuid[], $2::bytea[]) AS s(id, ciphertext)
      WHERE c.id = s.id AND c.link_token IS NOT NULL`,
    [ids, ciphertexts],
  );
}

export interface LegacyUpdateUrl {
  id: string;
  payload: Record<string, unknown>;
}

/** These connections' events whose body still has update_url in clear. */
export async function lockLegacyUpdateUrls(db: Queryable, connectionIds: string[]): Promise<LegacyUpdateUrl[]> {
  const result = await db.query<LegacyUpdateUrl>(
    `SELECT id, payload FROM events
      WHERE connection_id = ANY($1::uuid[]) AND json_typeof(payload -> 'update_url') = 'string'
      FOR UPDATE`,
    [connectionIds],
  );
  return result.rows;
}

/** Each event's body with its update_url slot emptied, and the update_url sealed beside it. */
export async function storeSealedUpdateUrls(db: Queryable, ids: string[], payloads: string[], ciphertexts: Buffer[]): Promise<void> {
  await db.query(
    `UPDATE events e SET payload = s.payload, update_url_ciphertext = s.ciphertext
       FROM unnest($1::uuid[], $2::json[], $3::bytea[]) AS s(id, payload, ciphertext)
      WHERE e.id = s.id`,
    [ids, payloads, ciphertexts],
  );
}

/**
 * SQL of a connection's OAuth tokens (src/platforms/tokens.ts): read sealed,
 * serialised per connection by a transaction-scoped advisory lock, stored sealed.
 */
import type { Queryable } from '../db/pool.ts';

/** The connection's sealed tokens; null when it has none (or no longer exists). */
export async function findSealedTokens(db: Queryable, connectionId: string): Promise<Buffer | null> {
  const result = await db.query<{ sealed: Buffer | null }>('SELECT oauth_tokens_ciphertext AS sealed FROM connections WHERE id = $1', [connectionId]);
  return result.rows[0]?.sealed ?? null;
}

/** Waits for, then holds until the transaction ends, the connection's token lock: one refresher at a time. */
export async function lockConnectionTokens(db: Queryable, connectionId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('ledgerport-token:' || $1::text, 0))`, [connectionId]);
}

export async function storeSealedTokens(db: Queryable, connectionId: string, sealed: Buffer): Promise<void> {
  await db.query('UPDATE connections SET oauth_tokens_ciphertext = $2, updated_at = clock_timestamp() WHERE id = $1', [connectionId, sealed]);
}

/** A completed link flow written to its connection (src/connections/connections.ts completeLink, refreshCredentials). */
import type { Queryable } from '../db/pool.ts';
import type { ConnectionStatus } from '../connections/types.ts';

/** A placeholder never linked points at the connection that holds its account (IS_DUPLICATE answers name it). */
export async function markDuplicateOf(db: Queryable, connectionId: string, holderId: string): Promise<void> {
  await db.query('UPDATE connections SET duplicate_of = $2, updated_at = clock_timestamp() WHERE id = $1', [connectionId, holderId]);
}

export interface LinkedAccount {
  connectionId: string;
  platform: string;
  credentialsCiphertext: Buffer | null;
  tokensCiphertext: Buffer | null;
  storeUniqueId: string;
  storeName: string | null;
  storeDomain: string | null;
  status: ConnectionStatus;
  /** Linked to the platform's simulator (migration 0029): written with the tokens, so the two never disagree. */
  simulated: boolean;
}

/**
 * The account the end user linked: platform, sealed credentials and tokens, identity and status; the failure count
 * and any disable reason or duplicate mark are cleared. Returns when it was first linked (null: no such connection).
 */
export async function storeLinkedAccount(db: Queryable, link: LinkedAccount): Promise<Date | null> {
  const result = await db.query<{ linked_at: Date }>(
    `UPDATE connections SET platform = $2, credentials_ciphertext = $3, oauth_tokens_ciphertext = $4,
            store_unique_id = $5, store_name = $6, status = $7, linked_at = COALESCE(linked_at, clock_timestamp()),
            disable_error = NULL, disable_message = NULL, consecutive_failures = 0, duplicate_of = NULL, simulated = $8, store_domain = $9,
            updated_at = clock_timestamp()
      WHERE id = $1 RETURNING linked_at`,
    [
      link.connectionId,
      link.platform,
      link.credentialsCiphertext,
      link.tokensCiphertext,
      link.storeUniqueId,
      link.storeName,
      link.status,
      link.simulated,
      link.storeDomain,
    ],
  );
  return result.rows[0]?.linked_at ?? null;
}

/** New credentials for an account already connected: they replace the stored ones and the connection recovers. */
export async function storeReplacedCredentials(
  db: Queryable,
  connectionId: string,
  credentialsCiphertext: Buffer,
  status: ConnectionStatus,
): Promise<void> {
  await db.query(
    `UPDATE connections SET credentials_ciphertext = $2, status = $3, disable_error = NULL, disable_message = NULL,
            consecutive_failures = 0, updated_at = clock_timestamp() WHERE id = $1`,
    [connectionId, credentialsCiphertext, status],
  );
}

/**
 * SQL of the link flow's OAuth consent states. A state is looked up by its
 * SHA-256 (never stored in clear) and claimed once; the connection it names
 * comes back with it.
 */
import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { CONNECTION_COLUMNS, toConnectionRecord, type ConnectionRecord, type ConnectionRow } from '../connections/types.ts';

export const OAUTH_STATE_TTL_SECONDS = 15 * 60;

export interface NewOAuthState {
  state: string;
  connectionId: string;
  platform: string;
  /** Where the end user goes after success (public_token appended). */
  destination: string;
  /** Sealed tokens and tenants while the end user picks a tenant; null at the consent step. */
  pending: Buffer | null;
  /** The sealed authorisation input the end user gave (a shop domain); null when the platform asks for none. */
  authorizationInput: Buffer | null;
  /** Whether this flow goes to the platform's simulator (written to the connection when the link completes). */
  simulated: boolean;
}

export async function insertOAuthState(db: Queryable, state: NewOAuthState): Promise<void> {
  // Abandoned consents would pile up otherwise; a day of grace keeps "expired" answers possible.
  await db.query(`DELETE FROM oauth_states WHERE expires_at < clock_timestamp() - interval '1 day'`);
  await db.query(
    `INSERT INTO oauth_states (state_sha256, connection_id, platform, redirect_url, pending_tokens_ciphertext, authorization_input_ciphertext, simulated, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, clock_timestamp() + make_interval(secs => $8))`,
    [
      sha256(state.state),
      state.connectionId,
      state.platform,
      state.destination,
      state.pending,
      state.authorizationInput,
      state.simulated,
      OAUTH_STATE_TTL_SECONDS,
    ],
  );
}

export interface ClaimedOAuthState {
  /** The connection, with `simulated` as this flow decided it (the state's), which the rest of the flow goes by. */
  connection: ConnectionRecord;
  platform: string;
  destination: string;
  pending: Buffer | null;
  authorizationInput: Buffer | null;
  expired: boolean;
}

/**
 * Takes a state out of the table (single use: a second claim finds nothing).
 * `pending` selects the step: false for the consent callback, true for the tenant pick.
 * Expired states are claimed too, so the caller can tell the end user and record the error.
 */
export async function claimOAuthState(db: Queryable, state: string, pending: boolean): Promise<ClaimedOAuthState | null> {
  const claimed = await db.query<{
    connection_id: string;
    platform: string;
    redirect_url: string | null;
    pending_tokens_ciphertext: Buffer | null;
    authorization_input_ciphertext: Buffer | null;
    simulated: boolean;
    expired: boolean;
  }>(
    `DELETE FROM oauth_states
      WHERE state_sha256 = $1 AND (pending_tokens_ciphertext IS NOT NULL) = $2
      RETURNING connection_id, platform, redirect_url, pending_tokens_ciphertext, authorization_input_ciphertext, simulated,
                expires_at <= clock_timestamp() AS expired`,
    [sha256(state), pending],
  );
  const row = claimed.rows[0];
  if (row === undefined) return null;
  const connection = await db.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE id = $1`, [row.connection_id]);
  const connectionRow = connection.rows[0];
  if (connectionRow === undefined) return null;
  return {
    connection: { ...toConnectionRecord(connectionRow), simulated: row.simulated },
    platform: row.platform,
    destination: row.redirect_url ?? '',
    pending: row.pending_tokens_ciphertext,
    authorizationInput: row.authorization_input_ciphertext,
    expired: row.expired,
  };
}

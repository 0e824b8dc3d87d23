/**
 * SQL of the link flow: the connection a link token opens, the organisation's
 * OAuth apps and OAuth consent states. Link tokens and states are looked up by
 * their SHA-256: neither is stored in clear.
 */
import { sha256, type Cipher } from '../crypto/secrets.ts';
import type { Queryable } from '../db/pool.ts';
import { CONNECTION_COLUMNS, toConnectionRecord, type ConnectionRecord, type ConnectionRow } from '../connections/types.ts';
import type { OAuthAppCredentials } from '../platforms/connector.ts';
import { findConnectionByLinkToken } from '../sql/connections.ts';
import type { LinkConnection } from './flow.ts';

export const OAUTH_STATE_TTL_SECONDS = 15 * 60;

/** The connection a presented link token opens (looked up by its SHA-256), or null. */
export async function findLinkConnection(db: Queryable, linkToken: string): Promise<LinkConnection | null> {
  const connection = await findConnectionByLinkToken(db, sha256(linkToken));
  return connection === null ? null : { ...connection, linkToken };
}

export async function findOAuthApp(db: Queryable, cipher: Cipher, connection: ConnectionRecord, platform: string): Promise<OAuthAppCredentials | null> {
  const result = await db.query<{ client_id: string; client_secret_ciphertext: Buffer; redirect_uri: string }>(
    `SELECT client_id, client_secret_ciphertext, redirect_uri FROM oauth_apps
      WHERE organization_id = $1 AND environment = $2 AND platform = $3`,
    [connection.organizationId, connection.environment, platform],
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  return { clientId: row.client_id, clientSecret: cipher.decrypt(row.client_secret_ciphertext), redirectUri: row.redirect_uri };
}

export interface NewOAuthState {
  state: string;
  connectionId: string;
  platform: string;
  /** Where the end user goes after success (public_token appended). */
  destination: string;
  /** Sealed tokens and tenants while the end user picks a tenant; null at the consent step. */
  pending: Buffer | null;
}

export async function insertOAuthState(db: Queryable, state: NewOAuthState): Promise<void> {
  // Abandoned consents would pile up otherwise; a day of grace keeps "expired" answers possible.
  await db.query(`DELETE FROM oauth_states WHERE expires_at < clock_timestamp() - interval '1 day'`);
  await db.query(
    `INSERT INTO oauth_states (state_sha256, connection_id, platform, redirect_url, pending_tokens_ciphertext, expires_at)
     VALUES ($1, $2, $3, $4, $5, clock_timestamp() + make_interval(secs => $6))`,
    [sha256(state.state), state.connectionId, state.platform, state.destination, state.pending, OAUTH_STATE_TTL_SECONDS],
  );
}

export interface ClaimedOAuthState {
  connection: ConnectionRecord;
  platform: string;
  destination: string;
  pending: Buffer | null;
  expired: boolean;
}

/**
 * Takes a state out of the table (single use: a second claim finds nothing).
 * `pending` selects the step: false for the consent callback, true for the tenant pick.
 * Expired states are claimed too, so the caller can tell the end user and record the error.
 */
export async function claimOAuthState(db: Queryable, state: string, pending: boolean): Promise<ClaimedOAuthState | null> {
  const claimed = await db.query<{ connection_id: string; platform: string; redirect_url: string | null; pending_tokens_ciphertext: Buffer | null; expired: boolean }>(
    `DELETE FROM oauth_states
      WHERE state_sha256 = $1 AND (pending_tokens_ciphertext IS NOT NULL) = $2
      RETURNING connection_id, platform, redirect_url, pending_tokens_ciphertext, expires_at <= clock_timestamp() AS expired`,
    [sha256(state), pending],
  );
  const row = claimed.rows[0];
  if (row === undefined) return null;
  const connection = await db.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE id = $1`, [row.connection_id]);
  const connectionRow = connection.rows[0];
  if (connectionRow === undefined) return null;
  return {
    connection: toConnectionRecord(connectionRow), platform: row.platform, destination: row.redirect_url ?? '',
    pending: row.pending_tokens_ciphertext, expired: row.expired,
  };
}

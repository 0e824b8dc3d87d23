/**
 * OpenID Connect sign-ins in progress (migration 0033): the SHA-256 of the `state` sent to the provider, with the
 * PKCE code verifier and the nonce the ID token must carry. Short-lived and used once.
 */
import type { Queryable } from '../db/pool.ts';

export interface OidcStateRow {
  code_verifier: string;
  nonce: string;
}

export async function insertOidcState(
  db: Queryable,
  state: { stateSha256: Buffer; codeVerifier: string; nonce: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_oidc_states (state_sha256, code_verifier, nonce, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [state.stateSha256, state.codeVerifier, state.nonce, state.ttlSeconds],
  );
}

/** Deletes the state and returns what it held; null when unknown, used or expired (a replay finds nothing). */
export async function consumeOidcState(db: Queryable, stateSha256: Buffer): Promise<OidcStateRow | null> {
  const result = await db.query<OidcStateRow & { expired: boolean }>(
    `DELETE FROM dashboard_oidc_states WHERE state_sha256 = $1 RETURNING code_verifier, nonce, expires_at <= now() AS expired`,
    [stateSha256],
  );
  const row = result.rows[0];
  return row === undefined || row.expired ? null : { code_verifier: row.code_verifier, nonce: row.nonce };
}

/** Sign-ins abandoned at the provider leave their state behind: cleared as new ones start. */
export async function deleteExpiredOidcStates(db: Queryable): Promise<void> {
  await db.query('DELETE FROM dashboard_oidc_states WHERE expires_at <= now()');
}

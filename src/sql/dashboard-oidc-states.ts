/**
 * OpenID Connect sign-ins in progress (migration 0033): the SHA-256 of the `state` sent to the provider, with the
 * PKCE code verifier and the nonce the ID token must carry. Short-lived and used once.
 */
import type { Queryable } from '../db/pool.ts';

export interface OidcStateRow {
  code_verifier: string;
  nonce: string;
  /** Started from an invitation link ("Accept with …"): the link's SHA-256 (migration 0038). */
  sign_in_link_sha256: Buffer | null;
  /** Started for one of the person's organisations (they have accounts in several). */
  organization_id: string | null;
}

export async function insertOidcState(
  db: Queryable,
  state: {
    stateSha256: Buffer;
    codeVerifier: string;
    nonce: string;
    ttlSeconds: number;
    signInLinkSha256: Buffer | null;
    organizationId: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_oidc_states (state_sha256, code_verifier, nonce, expires_at, sign_in_link_sha256, organization_id)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6)`,
    [state.stateSha256, state.codeVerifier, state.nonce, state.ttlSeconds, state.signInLinkSha256, state.organizationId],
  );
}

/** Deletes the state and returns what it held; null when unknown, used or expired (a replay finds nothing). */
export async function consumeOidcState(db: Queryable, stateSha256: Buffer): Promise<OidcStateRow | null> {
  const result = await db.query<OidcStateRow & { expired: boolean }>(
    `DELETE FROM dashboard_oidc_states WHERE state_sha256 = $1
     RETURNING code_verifier, nonce, sign_in_link_sha256, organization_id, expires_at <= now() AS expired`,
    [stateSha256],
  );
  const row = result.rows[0];
  if (row === undefined || row.expired) return null;
  return { code_verifier: row.code_verifier, nonce: row.nonce, sign_in_link_sha256: row.sign_in_link_sha256, organization_id: row.organization_id };
}

/** Sign-ins abandoned at the provider leave their state behind: cleared as new ones start. */
export async function deleteExpiredOidcStates(db: Queryable): Promise<void> {
  await db.query('DELETE FROM dashboard_oidc_states WHERE expires_at <= now()');
}
